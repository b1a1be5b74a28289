/*
 * grt-self.c — the master as worker 0 (master_computes, or a run of one rank). It takes
 * its chunks from the scheme in its turn like any worker, but computes them in slices of
 * about SLICE_S seconds and looks for results between two slices, so that a worker never
 * waits longer than a slice for its next chunk; every slice is merged at once. A worker
 * that finds nothing else to do takes the back half of the master's units not started yet
 * (master_self_share), so the master never holds a loop's tail alone.
 */
#include "runtime/master/grt-master.h"

#define SLICE_S		0.0005	/* seconds of the master's compute between two looks */

/* The schemes whose shares are the point: the master keeps its share whole. */
static int
master_may_share(const struct master *m)
{
	enum grt_scheme s = m->conf.scheme;

	return s != GRT_SCHEME_STATIC && s != GRT_SCHEME_WSTATIC && !grt_scheme_is_rounds(s);
}

/* The master's next chunk: in its turn at a round's start, or when it has none. */
int
master_self_take(struct master *m, int w)
{
	struct selfwork *sw = &m->self;
	long rq;

	if (sw->active || sw->idle)
		return GRT_OK;
	if (!master_take(m, w, &sw->c, &sw->kind, &sw->from_scheme, &rq)) {
		sw->idle = 1;
		return GRT_OK;
	}
	/* the master cannot miss a deadline: its copy of a requeued range is the one merged */
	if (rq >= 0)
		m->rq[rq].state = RQ_MERGED;
	sw->active = 1;
	sw->next = sw->c.start;
	sw->end = sw->c.start + sw->c.count;
	sw->t_calc = 0;
	sw->t_start = MPI_Wtime();
	return GRT_OK;
}

/* For a worker with nothing else to do: the back half of the master's unstarted units. */
int
master_self_share(struct master *m, struct grt_chunk *c)
{
	struct selfwork *sw = &m->self;

	if (!sw->active || sw->kind != GRT_WORK_CHUNK || sw->end - sw->next < 2 ||
	    !master_may_share(m))
		return 0;
	c->count = (sw->end - sw->next) / 2;
	c->start = sw->end - c->count;
	sw->end = c->start;
	return 1;
}

/* Units for the next slice: about SLICE_S seconds at the last slice's pace, at least 1. */
static int64_t
master_slice_units(const struct selfwork *sw)
{
	int64_t left = sw->end - sw->next;
	double k;

	if (sw->unit_s <= 0)
		return 1;
	k = SLICE_S / sw->unit_s;
	if (k < 1)
		return 1;
	return k >= (double)left ? left : (int64_t)k;
}

/* Compute units [c->start, c->start + c->count) into m->obuf; *t gets the compute time. */
static int
master_compute(struct master *m, const struct grt_chunk *c, double *t)
{
	int round = master_work_round(m);

	m->obuf.len = 0;
	m->ibuf.len = 0;
	/* the application's compute expects the packed input, as a worker gets it */
	if (m->app->pack != NULL &&
	    m->app->pack(m->app->ctx, round, c->start, c->count, &m->ibuf) != 0)
		return GRT_EAPP;
	*t = MPI_Wtime();
	if (m->app->compute(m->app->ctx, round, c->start, c->count, m->ibuf.data, m->ibuf.len,
	    &m->obuf) != 0)
		return GRT_EAPP;
	*t = MPI_Wtime() - *t;
	return GRT_OK;
}

/* One slice of the master's own chunk, merged at once; the chunk accounted at its end. */
int
master_self_slice(struct master *m, int w)
{
	struct selfwork *sw = &m->self;
	struct grt_chunk piece, done;
	double t, now;
	int rc;

	if ((rc = master_self_take(m, w)) != GRT_OK || !sw->active)
		return rc;
	piece.start = sw->next;
	piece.count = sw->kind == GRT_WORK_SAMPLE ? sw->end - sw->next : master_slice_units(sw);
	if ((rc = master_compute(m, &piece, &t)) != GRT_OK)
		return rc;
	now = MPI_Wtime();
	m->now = now;
	sw->t_calc += t;
	sw->next += piece.count;
	sw->unit_s = t / (double)piece.count;
	if (sw->kind == GRT_WORK_SAMPLE) {
		sw->active = 0;
		master_sampled(m, t, now);
		return GRT_OK;
	}
	if ((rc = master_merge(m, &piece, m->obuf.data, m->obuf.len)) != GRT_OK)
		return rc;
	if (sw->next < sw->end)
		return GRT_OK;
	sw->active = 0;
	done.start = sw->c.start;
	done.count = sw->next - sw->c.start;
	if (sw->from_scheme)
		grt_sched_feedback(m->sched, w, &done, sw->t_calc, now - sw->t_start);
	master_account(m, w, &done, sw->t_calc, now - sw->t_start, now);
	return GRT_OK;
}
