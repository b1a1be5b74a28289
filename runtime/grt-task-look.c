/*
 * grt-task-look.c — the master's look at the loads, once a second (doc/tasks.md,
 * "Policies"), and a move. The load figure of a worker is its node's node_load1 when
 * gridsubmit hands it over (cfg.loads_path), else what its steps show: a step that got
 * share s of a CPU (CPU time over compute time) had 1/s - 1 other processes competing. A
 * window of TM_HIST looks gives the rise load-diff needs and the time over the threshold
 * load-abs needs; the decision itself is grt-task-policy.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grt-task-master.h"

#define LOOK_S		1.0	/* seconds between two looks */
#define MOVE_GAP_S	5.0	/* default seconds between two moves of one task */

double
tm_load(const struct tk_master *m, int rank)
{
	const struct tm_worker *w = &m->w[rank];

	if (w->node_load >= 0)
		return w->node_load;
	if (w->share > 0 && w->share < 1)
		return 1 / w->share - 1;
	return 0;
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
		double load = tm_load(m, r);

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
