/*
 * grt-round.c — the start of a round on the master: the scheme (made at the first round,
 * or when SWR sampling ends), the workers it drops, and its first chunks to every worker.
 */
#include <stdlib.h>

#include "runtime/core/grt-proto.h"
#include "runtime/master/grt-master.h"

/* Round start, or the end of sampling: the scheme's first chunks to every worker. */
void
master_start_scheme(struct master *m, double now)
{
	int *order, i, err;

	if (m->sched == NULL) {
		if ((m->sched = grt_sched_new(&m->conf, m->nw, m->app->units, &err)) == NULL) {
			m->rc = err;
			return;
		}
		for (i = 0; i < m->nw; i++)
			if (m->w[i].state == W_FAILED)
				grt_sched_remove_worker(m->sched, i);
	}
	m->round = m->replay.rounds_done + grt_sched_begin_round(m->sched);
	m->merged = 0;
	m->nrq = 0;
	m->nqueued = 0;
	master_resume_round(m);
	m->self.idle = 0;
	for (i = 0; i < m->nw; i++) {
		double share;

		m->w[i].r_units = 0;
		m->w[i].r_exe = 0;
		if (m->w[i].state != W_DROPPED && m->w[i].state != W_FAILED &&
		    grt_sched_dropped(m->sched, i, &share)) {
			master_drop_event(m, i, share, now);
			m->rep->dropped_ranks++;
			if (m->w[i].state == W_SELF) {
				m->self.idle = 1;
				continue;
			}
			m->w[i].state = W_DROPPED;
			if ((m->rc = master_stop(m, i, GRT_STOP_DROPPED)) != GRT_OK)
				return;
		}
	}
	if ((order = malloc((size_t)m->nw * sizeof *order)) == NULL) {
		m->rc = GRT_ENOMEM;
		return;
	}
	/* the master, when it computes, takes its first chunk in its turn, as a worker would */
	grt_sched_order(m->sched, order);
	for (i = 0; i < m->nw && m->rc == GRT_OK; i++) {
		if (m->w[order[i]].state == W_IDLE)
			m->rc = master_assign(m, order[i], now);
		else if (m->w[order[i]].state == W_SELF)
			m->rc = master_self_take(m, order[i]);
	}
	free(order);
}
