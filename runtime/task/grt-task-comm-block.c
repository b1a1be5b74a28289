/*
 * grt-task-comm-block.c — a task run's receiving and waiting under SimGrid's SMPI
 * (grt-task.h; doc/simulate.md, "Waiting in the SMPI build"): a message travels as the
 * loop runtime's do under SMPI (grt-comm-block.c), its length first, and a rank with
 * nothing to do waits in a blocking call, which the simulator runs as one event per
 * message, instead of probing, which it charges simulated time for and runs as an event
 * per probe. The first message in or out of a rank pays its first contact there.
 *
 * A send that goes on to a second rank when it completes (a moved task's state: to its
 * new holder, then to the master) is carried on while the rank waits: the wait is an
 * MPI_Waitany over the next message's length and those sends. No rank dies in a
 * simulation, so none waits for one that did.
 */
#include <stdlib.h>

#include "runtime/comm/grt-comm.h"
#include "runtime/task/grt-task.h"

int
tk_recv_any(MPI_Comm comm, grt_buf *b, int *src, double *secs)
{
	MPI_Status st;
	double t0 = MPI_Wtime();
	int rc;

	if ((rc = grt_comm_recv(comm, MPI_ANY_SOURCE, GRT_TAG_TASK, 0, b, &st)) <= 0)
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
	int cap = 4, k, idx, got, rc = GRT_OK;

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
	if (MPI_Get_count(&st, MPI_BYTE, &got) != MPI_SUCCESS || got != (int)sizeof n ||
	    n < 0 || n > INT32_MAX) {
		rc = GRT_EPROTO;
		goto out;
	}
	grt_comm_contact();
	t0 = MPI_Wtime();
	if ((rc = grt_comm_take(comm, &st, (int)n, b)) > 0) {
		*clock = MPI_Wtime();
		*secs = *clock - t0;
		*src = st.MPI_SOURCE;
	}
out:
	free(reqs);
	free(at);
	return rc;
}
