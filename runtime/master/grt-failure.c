/*
 * grt-failure.c — failed workers on the master (doc/runtime.md, "Failures"): every chunk
 * has a deadline, a multiple of its expected time from the chunks measured so far
 * (runtime/core/grt-deadline.h); a worker that misses it is declared failed, removed from
 * the scheme's P and its chunk requeued; a failed worker that answers after all is taken
 * back.
 */
#include <stdio.h>

#include "runtime/core/grt-deadline.h"
#include "runtime/core/grt-proto.h"
#include "runtime/master/grt-master.h"

#define SUSPECT_FACTOR		4	/* after hydra's SIGUSR1: 4x the expected time */
#define SUSPECT_MIN		2.0	/* ... but at least this many seconds */

/*
 * Expected seconds for count units on worker wk (grt-deadline.h): at the rate of its own
 * chunks or of the job's slowest chunk so far, the slower; 0 while nothing is measured.
 */
static double
master_expected(const struct master *m, const struct worker *wk, int64_t count)
{
	double mean = wk->units > 0 ? wk->t_exe / (double)wk->units : 0;

	return grt_deadline_rate(wk->unit_exe, mean, m->unit_exe_max) * (double)count;
}

/* Take back every chunk outstanding at worker w: the ranges go to the requeue list. */
static int
master_take_back(struct master *m, struct worker *wk, int64_t *units)
{
	int i, rc;

	*units = 0;
	for (i = 0; i < wk->nout; i++) {
		struct outchunk *o = &wk->out[(wk->head + i) % GRT_DEPTH_MAX];
		int merged;

		if (o->kind != GRT_WORK_CHUNK) {
			m->sample_next--;	/* hand the same sample out again */
			continue;
		}
		merged = o->rq >= 0 && m->rq[o->rq].state == RQ_MERGED;
		if ((rc = master_requeue(m, o)) != GRT_OK)
			return rc;
		if (!merged) {
			m->rep->requeued += o->c.count;
			o->taken_back = 1;
			*units += o->c.count;
		}
	}
	return GRT_OK;
}

static int
master_fail(struct master *m, int w, double now, const char *reason)
{
	struct worker *wk = &m->w[w];
	int64_t units;
	int rc;

	rc = master_take_back(m, wk, &units);
	wk->state = W_FAILED;
	m->failed_now++;
	m->rep->failed_ranks++;
	/* while pwd samples there is no scheme yet: master_start_scheme skips W_FAILED */
	if (m->sched != NULL)
		grt_sched_remove_worker(m->sched, w);
	if (m->sampling && m->sampler == w) {
		int i;

		m->sampler = -1;
		for (i = 0; i < m->nw && m->sampler < 0; i++)
			if (m->w[i].state == W_IDLE || m->w[i].state == W_SELF)
				m->sampler = i;
		m->sample_next = m->nsampled;
	}
	master_fail_event(m, w_rank(m, w), units, reason, now);
	if (rc == GRT_OK)
		rc = master_wake_idle(m, now);
	return rc;
}

/*
 * Scan the deadlines of outstanding chunks, each from what is measured now (a slow chunk
 * answered meanwhile lengthens the others'); hydra's SIGUSR1 (a rank exited) shortens them.
 */
int
master_check_deadlines(struct master *m, double now)
{
	char why[96];
	int i, rc, suspect = m->suspect;

	for (i = 0; i < m->nw; i++) {
		struct worker *wk = &m->w[i];
		double limit, expected;

		if (wk->state != W_BUSY)
			continue;
		expected = master_expected(m, wk, w_head(wk)->c.count);
		limit = grt_deadline_allow(m->cfg->deadline, m->cfg->deadline_factor,
		    wk->blind ? 0 : expected);
		/*
		 * a sub-master's chunk may take its own time and one of its workers' deadlines
		 * more, requeued in the group; a rank that exited is one of its workers as
		 * likely as itself (doc/runtime.md, "The hierarchy")
		 */
		limit = wk->t_head + (wk->group > 0 ? 2 * limit : limit);
		if (suspect && expected > 0 && wk->group == 0) {
			double s = SUSPECT_FACTOR * expected;

			if (s < SUSPECT_MIN)
				s = SUSPECT_MIN;
			if (wk->t_head + s < limit)
				limit = wk->t_head + s;
		}
		if (now < limit)
			continue;
		snprintf(why, sizeof why, "no result within %.1f s%s", now - wk->t_head,
		    suspect ? " (a rank exited)" : "");
		if ((rc = master_fail(m, i, now, why)) != GRT_OK)
			return rc;
	}
	return GRT_OK;
}

/*
 * A result from worker w, declared failed: late, after its deadline, so the worker lives
 * and is taken back, with the chunks still in its queue. Each counts when its requeued
 * copy is not merged yet and is dropped otherwise (master_settle).
 */
int
master_late(struct master *m, int w, const struct grt_msg_result *h, const void *res,
    size_t reslen, double now)
{
	struct worker *wk = &m->w[w];
	struct outchunk done;
	int rc;

	if (wk->nout == 0 || h->seq != w_head(wk)->seq)
		return GRT_EPROTO;
	wk->state = W_BUSY;
	m->failed_now--;
	m->rep->failed_ranks--;
	if (m->sched != NULL)
		grt_sched_add_worker(m->sched, w);
	if (h->status != 0)
		return GRT_EAPP;
	done = *w_head(wk);
	master_pop(m, w, now);
	if ((rc = master_assign(m, w, now)) != GRT_OK)
		return rc;
	/* a late sample was handed out again when its worker failed: this one is spare */
	if (done.kind == GRT_WORK_CHUNK)
		rc = master_settle(m, w, &done, h->t_calc, now - done.t_send, res, reslen, now);
	return rc == GRT_OK ? 1 : rc;
}
