/*
 * grt-worker.c — ranks 1..P-1 of libgrt: receive a chunk, compute it, time it, send the
 * result back; until the master says STOP. How it waits for the master is grt-comm.h's.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/comm/grt-comm.h"
#include "runtime/core/grt-internal.h"
#include "runtime/core/grt-proto.h"

/*
 * Send a result, and wait until it left or the master's STOP shows that it never will:
 * after a failure the master may finish (and stop receiving) while this worker computes a
 * duplicate of a requeued chunk.
 */
static int
worker_send(MPI_Comm comm, const grt_buf *out)
{
	MPI_Request req;

	int rc;

	if ((rc = grt_comm_isend(out->data, out->len, 0, GRT_TAG_RESULT, comm, &req)) != GRT_OK)
		return rc;
	return grt_comm_sent(comm, &req);
}

int
grt_worker(MPI_Comm comm, const struct grt_app *app, struct grt_report *rep)
{
	grt_buf in = { NULL, 0, 0 }, out = { NULL, 0, 0 };
	struct grt_msg_work w;
	struct grt_msg_result r;
	struct grt_msg_stop stop;
	MPI_Status st;
	int n, rc = GRT_OK;

	for (;;) {
		if ((rc = grt_comm_recv(comm, 0, MPI_ANY_TAG, 1, &in, &st)) < 0)
			goto out;
		rc = GRT_OK;
		n = (int)in.len;
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
