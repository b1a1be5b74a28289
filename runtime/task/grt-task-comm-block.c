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
 * No rank dies in a simulation, so none waits for one that did.
 */
#include <stdlib.h>

#include "runtime/comm/grt-comm.h"
#include "runtime/task/grt-task.h"

#define TK_BYTES_TAG	8192	/* the first tag of the bytes, after every other of libgrt */
#define TK_BYTES_TAGS	4096

/*
 * Messages sent to each rank and received from each rank, by rank; kept from one task run
 * of the process to the next, as their peers keep theirs.
 */
struct tk_counts {
	unsigned *n;
	int size;
};
static struct tk_counts sent_to, got_from;

/* The tag of the next bytes between this rank and peer, counted in c; -1: no memory. */
static int
tk_bytes_tag(MPI_Comm comm, struct tk_counts *c, int peer)
{
	unsigned *grown;
	int size;

	if (peer >= c->size) {
		if (MPI_Comm_size(comm, &size) != MPI_SUCCESS || peer >= size ||
		    (grown = realloc(c->n, (size_t)size * sizeof *grown)) == NULL)
			return -1;
		while (c->size < size)
			grown[c->size++] = 0;
		c->n = grown;
	}
	return TK_BYTES_TAG + (int)(c->n[peer]++ % TK_BYTES_TAGS);
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
 * Blocked in MPI_Recv for the next length. A moved state's second send (to the master) is
 * posted by the tk_sends_test after it, not by waiting on the first send together with
 * the receive: SimGrid 3.32 never reported complete, to MPI_Test, a send that had been in an
 * MPI_Waitany which returned another request (EP, 16 KiB states moved after every step: the
 * ranks then waited out TK_BYE_WAIT_S at the end). The old holder hears soon enough: the
 * master tells every worker where the task is once it has arrived.
 */
int
tk_wait(MPI_Comm comm, struct tk_sends *s, struct grt_backoff *bo, grt_buf *b, int *src,
    double *secs, double *clock)
{
	MPI_Status st;
	int64_t n;
	double t0;
	int rc;

	(void)bo;
	if (MPI_Recv(&n, (int)sizeof n, MPI_BYTE, MPI_ANY_SOURCE, GRT_TAG_TASK, comm,
	    &st) != MPI_SUCCESS)
		return GRT_EMPI;
	t0 = MPI_Wtime();
	if ((rc = tk_take(comm, &st, n, b)) <= 0)
		return rc;
	*clock = MPI_Wtime();
	*secs = *clock - t0;
	*src = st.MPI_SOURCE;
	tk_sends_test(s);
	return 1;
}
