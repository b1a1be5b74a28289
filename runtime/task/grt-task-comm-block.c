/*
 * grt-task-comm-block.c — a task run's sending, receiving and waiting under SimGrid's SMPI
 * (grt-task.h; doc/simulate.md, "Waiting in the SMPI build"): a message travels as its
 * length (8 bytes), then its bytes, and a rank with nothing to do waits in a blocking
 * call, which the simulator runs as one event per message, instead of probing, which it
 * charges simulated time for and runs as an event per probe. The first message in or out
 * of a rank pays its first contact there (grt_comm_contact).
 *
 * The bytes go with a tag of their own per sender and receiver, the count of that pair's
 * messages so far (modulo TK_BYTES_TAGS): SMPI keeps messages under its eager size
 * (smpi/async-small-thresh) apart from larger ones, and a receive looks among the small
 * ones first, so with one tag a large state's receive took the next message's 8-byte
 * length when the sender had already sent it. Lengths, all small, keep the order they
 * were sent in.
 *
 * A send that goes on to a second rank when it completes (a moved task's state: to its
 * new holder, then to the master) is carried on while the rank waits: the wait is an
 * MPI_Waitany over the next message's length and those sends. No rank dies in a
 * simulation, so none waits for one that did.
 */
#include <stdlib.h>

#include "runtime/comm/grt-comm.h"
#include "runtime/task/grt-task.h"

#define TK_BYTES_TAG	8192	/* the first tag of the bytes, after every other of libgrt */
#define TK_BYTES_TAGS	4096

/* messages sent to each rank, received from each rank: [size of the communicator] */
static unsigned *sent_to, *got_from;

/* The tag of the next bytes between this rank and peer, counted in *count; -1: no memory. */
static int
tk_bytes_tag(MPI_Comm comm, unsigned **count, int peer)
{
	int size;

	if (*count == NULL) {
		if (MPI_Comm_size(comm, &size) != MPI_SUCCESS ||
		    (*count = calloc((size_t)size, sizeof **count)) == NULL)
			return -1;
	}
	return TK_BYTES_TAG + (int)((*count)[peer]++ % TK_BYTES_TAGS);
}

int
tk_isend(const void *buf, size_t len, int dest, MPI_Comm comm, MPI_Request *req)
{
	int64_t n = (int64_t)len;
	int tag;

	if (len > INT32_MAX)
		return GRT_EINVAL;
	if ((tag = tk_bytes_tag(comm, &sent_to, dest)) < 0)
		return GRT_ENOMEM;
	grt_comm_contact();
	if (MPI_Send(&n, (int)sizeof n, MPI_BYTE, dest, GRT_TAG_TASK, comm) != MPI_SUCCESS ||
	    MPI_Isend(buf, (int)len, MPI_BYTE, dest, tag, comm, req) != MPI_SUCCESS)
		return GRT_EMPI;
	return GRT_OK;
}

/* After a length message (its status st, its value n): the bytes into b; 1 or an error. */
static int
tk_take(MPI_Comm comm, const MPI_Status *st, int64_t n, grt_buf *b)
{
	int got, tag, rc;

	if (MPI_Get_count(st, MPI_BYTE, &got) != MPI_SUCCESS || got != (int)sizeof n ||
	    n < 0 || n > INT32_MAX)
		return GRT_EPROTO;
	grt_comm_contact();
	if ((tag = tk_bytes_tag(comm, &got_from, st->MPI_SOURCE)) < 0)
		return GRT_ENOMEM;
	if ((rc = grt_buf_reserve(b, (size_t)n)) != GRT_OK)
		return rc;
	if (MPI_Recv(b->data, (int)n, MPI_BYTE, st->MPI_SOURCE, tag, comm,
	    MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return GRT_EMPI;
	b->len = (size_t)n;
	return 1;
}

int
tk_recv_any(MPI_Comm comm, grt_buf *b, int *src, double *secs)
{
	MPI_Status st;
	int64_t n;
	double t0;
	int flag, rc;

	if (MPI_Iprobe(MPI_ANY_SOURCE, GRT_TAG_TASK, comm, &flag, &st) != MPI_SUCCESS)
		return GRT_EMPI;
	if (!flag)
		return 0;
	if (MPI_Recv(&n, (int)sizeof n, MPI_BYTE, st.MPI_SOURCE, GRT_TAG_TASK, comm,
	    &st) != MPI_SUCCESS)
		return GRT_EMPI;
	t0 = MPI_Wtime();
	if ((rc = tk_take(comm, &st, n, b)) <= 0)
		return rc;
	*secs = MPI_Wtime() - t0;
	*src = st.MPI_SOURCE;
	return 1;
}

/*
 * The pending sends of s that go on to a second rank, into reqs[1..] and at[1..] (grown as
 * needed): 1 + their count, or -1 when memory ran out.
 */
static int
tk_chained(struct tk_sends *s, MPI_Request **reqs, struct tk_send ***at, int *cap)
{
	struct tk_send *t;
	int n = 1;

	for (t = s->head; t != NULL; t = t->next) {
		if (t->then < 0)
			continue;
		if (n == *cap) {
			MPI_Request *r = realloc(*reqs, (size_t)(2 * *cap) * sizeof **reqs);
			struct tk_send **a = r == NULL ? NULL :
			    realloc(*at, (size_t)(2 * *cap) * sizeof **at);

			if (r != NULL)
				*reqs = r;
			if (a == NULL)
				return -1;
			*at = a;
			*cap *= 2;
		}
		(*reqs)[n] = t->req;
		(*at)[n++] = t;
	}
	return n;
}

int
tk_wait(MPI_Comm comm, struct tk_sends *s, struct grt_backoff *bo, grt_buf *b, int *src,
    double *secs, double *clock)
{
	MPI_Request *reqs = malloc(4 * sizeof *reqs), len_req;
	struct tk_send **at = malloc(4 * sizeof *at);
	MPI_Status st;
	int64_t n;
	double t0;
	int cap = 4, k, idx, rc = GRT_OK;

	(void)bo;
	/*
	 * the arrays grown before the receive is posted: their count only falls after (a
	 * send that went on to its second rank is no longer chained)
	 */
	if (reqs == NULL || at == NULL || tk_chained(s, &reqs, &at, &cap) < 0) {
		rc = GRT_ENOMEM;
		goto out;
	}
	if (MPI_Irecv(&n, (int)sizeof n, MPI_BYTE, MPI_ANY_SOURCE, GRT_TAG_TASK, comm,
	    &len_req) != MPI_SUCCESS) {
		rc = GRT_EMPI;
		goto out;
	}
	for (;;) {
		k = tk_chained(s, &reqs, &at, &cap);
		reqs[0] = len_req;
		if (MPI_Waitany(k, reqs, &idx, &st) != MPI_SUCCESS) {
			rc = GRT_EMPI;
			goto out;
		}
		if (idx == 0)
			break;
		/* a first send done: MPI freed it; tk_sends_test posts the second */
		at[idx]->req = MPI_REQUEST_NULL;
		tk_sends_test(s);
	}
	t0 = MPI_Wtime();
	if ((rc = tk_take(comm, &st, n, b)) > 0) {
		*clock = MPI_Wtime();
		*secs = *clock - t0;
		*src = st.MPI_SOURCE;
	}
out:
	free(reqs);
	free(at);
	return rc;
}
