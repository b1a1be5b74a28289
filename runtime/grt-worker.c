/*
 * grt-worker.c — ranks 1..P-1 of libgrt: receive a chunk, compute it, time it, send the
 * result back; until the master says STOP. The master is never waited for with a blocking
 * call: a probe loop with back-off leaves the CPU to the ranks that compute when several
 * share a core.
 */
#include <stdlib.h>
#include <string.h>

#include "grt-internal.h"
#include "grt-proto.h"

/*
 * Send a result without ever blocking on a master that stopped listening: after a failure
 * the master may finish (and stop receiving) while this worker computes a duplicate of a
 * requeued chunk. A STOP waiting for us ends the wait; the result is then abandoned.
 */
static int
worker_send(MPI_Comm comm, const grt_buf *out)
{
	struct grt_backoff bo;
	MPI_Request req;
	int done = 0, stop = 0;

	if (MPI_Isend(out->data, (int)out->len, MPI_BYTE, 0, GRT_TAG_RESULT, comm, &req) !=
	    MPI_SUCCESS)
		return GRT_EMPI;
	grt_backoff_reset(&bo);
	for (;;) {
		if (MPI_Test(&req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return GRT_EMPI;
		if (done)
			return GRT_OK;
		if (MPI_Iprobe(0, GRT_TAG_STOP, comm, &stop, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return GRT_EMPI;
		if (stop) {
			/*
			 * The STOP may have come after the master took this very result (its
			 * last): the send is then complete, only not yet seen as such when
			 * this loop looked (SMPI makes that order the rule for a result too
			 * large to go eagerly). Else the request stays pending: never
			 * MPI_Finalize after this.
			 */
			if (MPI_Test(&req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
				return GRT_EMPI;
			if (!done)
				grt_failure_seen = 1;
			return GRT_OK;
		}
		grt_backoff_wait(&bo);
	}
}

int
grt_worker(MPI_Comm comm, const struct grt_app *app, struct grt_report *rep)
{
	grt_buf in = { NULL, 0, 0 }, out = { NULL, 0, 0 };
	struct grt_backoff bo;
	struct grt_msg_work w;
	struct grt_msg_result r;
	struct grt_msg_stop stop;
	MPI_Status st;
	int flag, n, rc = GRT_OK;

	for (;;) {
		grt_backoff_reset(&bo);
		for (;;) {
			if (MPI_Iprobe(0, MPI_ANY_TAG, comm, &flag, &st) != MPI_SUCCESS) {
				rc = GRT_EMPI;
				goto out;
			}
			if (flag)
				break;
			grt_backoff_wait(&bo);
		}
		if (MPI_Get_count(&st, MPI_BYTE, &n) != MPI_SUCCESS || n < 0 ||
		    (rc = grt_buf_reserve(&in, (size_t)n)) != GRT_OK) {
			rc = rc != GRT_OK ? rc : GRT_EMPI;
			goto out;
		}
		if (MPI_Recv(in.data, n, MPI_BYTE, 0, st.MPI_TAG, comm, MPI_STATUS_IGNORE) !=
		    MPI_SUCCESS) {
			rc = GRT_EMPI;
			goto out;
		}
		if (st.MPI_TAG == GRT_TAG_STOP) {
			if (n < (int)sizeof stop) {
				rc = GRT_EPROTO;
				goto out;
			}
			memcpy(&stop, in.data, sizeof stop);
			if (stop.failure_seen)
				grt_failure_seen = 1;
			if (stop.reason == GRT_STOP_ERROR) {
				grt_failure_seen = 1;
				rc = GRT_EMASTER;
			}
			goto out;
		}
		if (st.MPI_TAG != GRT_TAG_WORK || n < (int)sizeof w) {
			rc = GRT_EPROTO;
			goto out;
		}
		memcpy(&w, in.data, sizeof w);
		out.len = 0;
		if ((rc = grt_buf_reserve(&out, sizeof r)) != GRT_OK)
			goto out;
		out.len = sizeof r;
		r.seq = w.seq;
		r.start = w.start;
		r.count = w.count;
		r.round = w.round;
		r.t_calc = MPI_Wtime();
		r.status = app->compute(app->ctx, w.round, w.start, w.count, in.data + sizeof w,
		    (size_t)n - sizeof w, &out) != 0;
		r.t_calc = MPI_Wtime() - r.t_calc;
		memcpy(out.data, &r, sizeof r);
		if (out.len > INT32_MAX) {
			rc = GRT_EINVAL;
			goto out;
		}
		if ((rc = worker_send(comm, &out)) != GRT_OK)
			goto out;
		if (w.kind == GRT_WORK_CHUNK)
			rep->units_done += w.count;
	}
out:
	grt_buf_free(&in);
	grt_buf_free(&out);
	return rc;
}
