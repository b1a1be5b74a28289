/*
 * grt-task-look.c — the master's look at the loads, once a second (doc/tasks.md,
 * "Load signals", "Policies"), and a move.
 *
 * Two load signals. The steps: over a look, a worker's steps got share s of a CPU (their
 * CPU time over their compute time); against the best share a look ever found there (the
 * node's CPU, or its quota on the testbed), best / s - 1 other processes were competing,
 * at once. The node: node_load1 from its monitor, which gridsubmit hands over
 * (cfg.loads_path), a one-minute average that lags. load-diff reacts to changes and takes
 * the steps' signal where a worker has one; load-abs is the conservative policy of the
 * absolute load average and takes the node's. Each falls back on the other signal, and a
 * worker with neither counts as unloaded. A window of TM_HIST looks gives the rise
 * load-diff needs and the time over the threshold load-abs needs; the decision itself is
 * grt-task-policy.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/task/grt-task-master.h"

#define LOOK_S		1.0	/* seconds between two looks */
#define MOVE_GAP_S	5.0	/* default seconds between two moves of one task */
#define LOOK_MIN_CALC	0.05	/* compute seconds a look needs to measure a share */

double
tm_load(const struct tk_master *m, int rank)
{
	const struct tm_worker *w = &m->w[rank];
	double first = w->competition, second = w->node_load;

	if (m->cfg->migration == GRT_MIGRATE_LOAD_ABS) {
		first = w->node_load;
		second = w->competition;
	}
	if (first >= 0)
		return first;
	return second >= 0 ? second : 0;
}

/* This look's share of a CPU that worker w's steps got, into its competition figure. */
static void
tm_look_share(struct tm_worker *w)
{
	double share;

	if (w->look_calc < LOOK_MIN_CALC) {
		/* no steps (idle, or one long step): the figure stays as it was */
		return;
	}
	share = w->look_cpu / w->look_calc;
	w->look_cpu = w->look_calc = 0;
	if (share <= 0)
		return;
	if (share > w->share_best)
		w->share_best = share;
	w->competition = w->share_best / share - 1;
}

/*
 * Move task to rank to: the master's table first, then the holder. The other workers hear
 * of it when the task has arrived (grt-task-report.c): until then their messages go to
 * the holder, which may be inside a step waiting for one of them, and which forwards what
 * comes after the task left.
 */
int
tm_move(struct tk_master *m, int task, int to, const char *reason)
{
	struct tm_task *t = &m->t[task];
	struct tk_hdr h;
	int from = t->at;

	t->epoch++;
	t->move_from = from;
	t->at = to;
	t->moving = 1;
	snprintf(t->reason, sizeof t->reason, "%s", reason);
	m->w[from].tasks--;
	m->w[to].tasks++;
	memset(&h, 0, sizeof h);
	h.kind = TK_MOVE;
	h.task = task;
	h.arg = to;
	h.epoch = t->epoch;
	return tm_send(m, from, &h, NULL, 0);
}

/* Record this look's load figure of every worker. */
static void
tm_look_loads(struct tk_master *m, double th)
{
	int r;

	for (r = 1; r < m->size; r++) {
		struct tm_worker *w = &m->w[r];
		double load;

		tm_look_share(w);
		if (w->tasks == 0)
			w->competition = -1;	/* idle: its last steps say nothing now */
		load = tm_load(m, r);

		w->hist[w->nhist % TM_HIST] = load;
		w->nhist++;
		w->over = load > th ? w->over + 1 : 0;
	}
}

int
tm_look(struct tk_master *m)
{
	struct tp_worker *pw;
	struct tp_task *pt;
	struct tp_decision d;
	double th = m->cfg->threshold > 0 ? m->cfg->threshold :
	    m->cfg->migration == GRT_MIGRATE_LOAD_ABS ? TP_ABS_THRESHOLD : TP_DIFF_THRESHOLD;
	double gap = m->cfg->move_gap > 0 ? m->cfg->move_gap : MOVE_GAP_S;
	int i, r, rc = GRT_OK;

	m->next_look = m->now + LOOK_S;
	if (m->cfg->migration != GRT_MIGRATE_LOAD_DIFF && m->cfg->migration != GRT_MIGRATE_LOAD_ABS)
		return GRT_OK;
	tm_loads_read(m);
	tm_look_loads(m, th);
	pw = calloc((size_t)m->size, sizeof *pw);
	pt = calloc((size_t)m->ntasks, sizeof *pt);
	if (pw == NULL || pt == NULL) {
		free(pw);
		free(pt);
		return GRT_ENOMEM;
	}
	for (r = 1; r < m->size; r++) {
		struct tm_worker *w = &m->w[r];
		int n = w->nhist < TM_HIST ? w->nhist : TM_HIST;

		pw[r].alive = w->alive;
		pw[r].tasks = w->tasks;
		pw[r].mhz = r < m->nri ? m->ri[r].cpu_mhz : 0;
		pw[r].load = w->hist[(w->nhist - 1) % TM_HIST];
		pw[r].rise = pw[r].load - w->hist[(w->nhist - n) % TM_HIST];
		pw[r].over = w->over;
		pw[r].rate = w->rate;
		pw[r].lat = w->lat;
		pw[r].node = tm_node(m, r);
	}
	for (i = 0; i < m->ntasks; i++) {
		struct tm_task *t = &m->t[i];

		pt[i].at = t->at;
		pt[i].movable = !t->finished && !t->moving && m->now - t->t_moved >= gap &&
		    t->step_s > 0;
		pt[i].left = m->app->steps - t->done;
		pt[i].step_s = t->step_s;
		pt[i].bytes = t->bytes;
	}
	if (tp_decide((int)m->cfg->migration, th, pw, m->size, pt, m->ntasks, &d) == 1)
		rc = tm_move(m, d.task, d.to, d.reason);
	free(pw);
	free(pt);
	return rc;
}
