/*
 * grt-self.c — the master as worker 0 (master_computes, or a run of one rank): between two
 * looks for results it computes one chunk of its own, synchronously, the way a worker
 * would, and merges it at once.
 */
#include "grt-master.h"
#include "grt-proto.h"

/* The master's own share when it computes too: one chunk, synchronously. */
int
master_compute_self(struct master *m, int w)
{
	struct grt_chunk c;
	double t, now;
	int kind, from_scheme;
	long rq;

	if (!master_take(m, w, &c, &kind, &from_scheme, &rq)) {
		m->w[w].self_idle = 1;
		return GRT_OK;
	}
	m->obuf.len = 0;
	if (m->app->pack != NULL) {
		/* the application's compute expects the packed input, as a worker gets it */
		grt_buf in = { NULL, 0, 0 };
		int rc = GRT_OK;

		if (m->app->pack(m->app->ctx, master_work_round(m), c.start, c.count, &in) != 0)
			rc = GRT_EAPP;
		t = MPI_Wtime();
		if (rc == GRT_OK && m->app->compute(m->app->ctx, master_work_round(m), c.start,
		    c.count, in.data, in.len, &m->obuf) != 0)
			rc = GRT_EAPP;
		grt_buf_free(&in);
		if (rc != GRT_OK)
			return rc;
	} else {
		t = MPI_Wtime();
		if (m->app->compute(m->app->ctx, master_work_round(m), c.start, c.count, NULL, 0,
		    &m->obuf) != 0)
			return GRT_EAPP;
	}
	now = MPI_Wtime();
	if (kind == GRT_WORK_SAMPLE) {
		master_sampled(m, now - t, now);
		return GRT_OK;
	}
	if (rq >= 0) {
		if (m->rq[rq].state == RQ_MERGED)
			return GRT_OK;
		m->rq[rq].state = RQ_MERGED;
	}
	return master_done(m, w, &c, from_scheme, now - t, now - t, m->obuf.data, m->obuf.len,
	    now);
}
