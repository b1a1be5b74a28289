/*
 * grt-worker.c — ranks 1..P-1 of libgrt: receive a chunk, compute it, time it, send the
 * result back; until the master says STOP. How it waits for the master is grt-comm.h's.
 * Under a hierarchy (doc/runtime.md, "The hierarchy") the master's first message, ROLE,
 * names the sub-master that deals this worker its chunks, or makes this rank a sub-master
 * (runtime/sub/); the master itself may still send STOP (its sub-master was lost).
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
worker_send(MPI_Comm comm, int boss, const grt_buf *out)
{
	MPI_Request req;

	int rc;

	if ((rc = grt_comm_isend(out->data, out->len, boss, GRT_TAG_RESULT, comm, &req)) !=
	    GRT_OK)
		return rc;
	return grt_comm_sent(comm, &req);
}

/*
 * A ROLE from rank from: the master's makes this rank a sub-master (its run's rc in *done,
 * returns 1); a sub-master's makes it the boss of this worker (returns 0). An error code
 * for a message that is neither.
 */
static int
worker_role(MPI_Comm comm, const struct grt_app *app, const struct grt_config *cfg,
    struct grt_report *rep, const grt_buf *in, int from, int *boss, int *done)
{
	struct grt_msg_role role;

	if (in->len < sizeof role)
		return GRT_EPROTO;
	memcpy(&role, in->data, sizeof role);
	if (role.nworkers > 0 && from == 0) {
		*done = grt_sub(comm, app, cfg, rep, in->data, in->len);
		return 1;
	}
	if (role.nworkers != 0 || role.boss != from)
		return GRT_EPROTO;
	*boss = from;
	return 0;
}

int
grt_worker(MPI_Comm comm, const struct grt_app *app, const struct grt_config *cfg,
    struct grt_report *rep)
{
	grt_buf in = { NULL, 0, 0 }, out = { NULL, 0, 0 };
	struct grt_msg_work w;
	struct grt_msg_result r;
	struct grt_msg_stop stop;
	MPI_Status st;
	int n, boss = 0, rc = GRT_OK;

	for (;;) {
		/* chunks from the boss; STOP from it or from the master */
		if ((rc = grt_comm_recv(comm, MPI_ANY_SOURCE, MPI_ANY_TAG, 1, &in, &st)) < 0)
			goto out;
		rc = GRT_OK;
		n = (int)in.len;
		if (st.MPI_TAG == GRT_TAG_ROLE) {
			if ((n = worker_role(comm, app, cfg, rep, &in, st.MPI_SOURCE, &boss,
			    &rc)) != 0) {
				if (n < 0)
					rc = n;
				goto out;
			}
			continue;
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
		if (st.MPI_TAG != GRT_TAG_WORK || st.MPI_SOURCE != boss || n < (int)sizeof w) {
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
		if ((rc = worker_send(comm, boss, &out)) != GRT_OK)
			goto out;
		if (w.kind == GRT_WORK_CHUNK)
			rep->units_done += w.count;
	}
out:
	grt_buf_free(&in);
	grt_buf_free(&out);
	return rc;
}
