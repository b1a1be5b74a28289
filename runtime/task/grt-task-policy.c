/*
 * grt-task-policy.c — the migration policies (doc/tasks.md, "Policies").
 *
 * A worker's speed for one of its tasks is its clock over (1 + load), shared by the tasks
 * it holds (a worker runs them one after another). A move is worth it when the steps left
 * times the seconds per step saved exceed TP_BENEFIT_MARGIN times what the move costs (the
 * target's fixed cost plus the state's bytes at the target's measured rate).
 *
 * load-diff (seed 001 "sched 1"): the source is the worker whose load rose most, by at
 * least the threshold; the target an idle worker (a spare) whose load is at least the
 * threshold lower, else the worker whose load fell most and is that much lower.
 * load-abs ("sched 2"): the source is the most loaded worker whose load has stayed over the
 * threshold for TP_ABS_HOLD looks; the target an idle worker under the threshold, else the
 * least loaded worker under it. Both move the source's task with the most steps left.
 */
#include <stdio.h>

#include "runtime/task/grt-task-policy.h"

static double
tp_speed(const struct tp_worker *w, int tasks)
{
	double mhz = w->mhz > 0 ? w->mhz : 1;

	return mhz / ((1 + (w->load > 0 ? w->load : 0)) * (tasks > 0 ? tasks : 1));
}

double
tp_step_after(const struct tp_worker *a, const struct tp_worker *b, double step_s)
{
	/* the clocks of the rank map are comparable only when both are known */
	struct tp_worker aa = *a, bb = *b;

	if (a->mhz <= 0 || b->mhz <= 0)
		aa.mhz = bb.mhz = 1;
	return step_s * tp_speed(&aa, a->tasks) / tp_speed(&bb, b->tasks + 1);
}

/* Seconds a move of task t to worker b costs, by what earlier transfers measured. */
static double
tp_cost(const struct tp_worker *b, const struct tp_task *t, const struct tp_worker *w, int nw)
{
	double rate = b->rate;
	int i;

	for (i = 0; rate <= 0 && i < nw; i++)
		if (w[i].rate > rate)
			rate = w[i].rate;
	return b->lat + (rate > 0 ? t->bytes / rate : 0);
}

/* The movable task of worker src with the most steps left, or -1. */
static int
tp_task_of(int src, const struct tp_task *t, int nt)
{
	int i, best = -1;

	for (i = 0; i < nt; i++)
		if (t[i].at == src && t[i].movable && t[i].left > 1 &&
		    (best < 0 || t[i].left > t[best].left))
			best = i;
	return best;
}

/* The gain (seconds) of moving task k from its worker to b, or <= 0 when none. */
static double
tp_gain(const struct tp_worker *w, int nw, const struct tp_task *k, int b, double *cost)
{
	double after = tp_step_after(&w[k->at], &w[b], k->step_s);

	*cost = tp_cost(&w[b], k, w, nw);
	return (double)(k->left - 1) * (k->step_s - after);
}

/*
 * The target for task k from src: an idle worker that is at most `under` loaded (the least
 * loaded), else (fallback) the best busy one by `key` (lower is better) that is also at most
 * `under` loaded and gains enough. -1 when none.
 */
static int
tp_target(const struct tp_worker *w, int nw, const struct tp_task *k, int src, double under,
    int by_rise, double *gain, double *cost)
{
	int i, best = -1, idle;

	for (idle = 1; idle >= 0 && best < 0; idle--) {
		for (i = 0; i < nw; i++) {
			double g, c;

			if (i == src || !w[i].alive || (w[i].tasks == 0) != idle ||
			    w[i].load > under)
				continue;
			g = tp_gain(w, nw, k, i, &c);
			if (g <= TP_BENEFIT_MARGIN * c || g <= 0)
				continue;
			if (best < 0 || (idle || !by_rise ? w[i].load < w[best].load :
			    w[i].rise < w[best].rise)) {
				best = i;
				*gain = g;
				*cost = c;
			}
		}
	}
	return best;
}

static int
tp_load_diff(double th, const struct tp_worker *w, int nw, const struct tp_task *t, int nt,
    struct tp_decision *d)
{
	double gain = 0, cost = 0;
	int i, src = -1, k, to;

	for (i = 0; i < nw; i++)
		if (w[i].alive && w[i].rise >= th && tp_task_of(i, t, nt) >= 0 &&
		    (src < 0 || w[i].rise > w[src].rise))
			src = i;
	if (src < 0)
		return 0;
	k = tp_task_of(src, t, nt);
	if ((to = tp_target(w, nw, &t[k], src, w[src].load - th, 1, &gain, &cost)) < 0)
		return 0;
	d->task = k;
	d->to = to;
	snprintf(d->reason, sizeof d->reason,
	    "load-diff: %s load %.2f rose %.2f; %s load %.2f%s%+.2f; gain %.3g s > cost %.3g s",
	    w[src].node, w[src].load, w[src].rise, w[to].node, w[to].load,
	    w[to].tasks == 0 ? ", idle, changed " : ", changed ", w[to].rise, gain, cost);
	return 1;
}

static int
tp_load_abs(double th, const struct tp_worker *w, int nw, const struct tp_task *t, int nt,
    struct tp_decision *d)
{
	double gain = 0, cost = 0;
	int i, src = -1, k, to;

	for (i = 0; i < nw; i++)
		if (w[i].alive && w[i].load > th && w[i].over >= TP_ABS_HOLD &&
		    tp_task_of(i, t, nt) >= 0 && (src < 0 || w[i].load > w[src].load))
			src = i;
	if (src < 0)
		return 0;
	k = tp_task_of(src, t, nt);
	if ((to = tp_target(w, nw, &t[k], src, th, 0, &gain, &cost)) < 0)
		return 0;
	d->task = k;
	d->to = to;
	snprintf(d->reason, sizeof d->reason,
	    "load-abs: %s load %.2f over %.2g for %d looks; %s load %.2f%s; gain %.3g s > cost %.3g s",
	    w[src].node, w[src].load, th, w[src].over, w[to].node, w[to].load,
	    w[to].tasks == 0 ? ", idle" : "", gain, cost);
	return 1;
}

int
tp_decide(int policy, double threshold, const struct tp_worker *w, int nw,
    const struct tp_task *t, int nt, struct tp_decision *d)
{
	switch (policy) {
	case TP_LOAD_DIFF:
		return tp_load_diff(threshold > 0 ? threshold : TP_DIFF_THRESHOLD, w, nw, t, nt, d);
	case TP_LOAD_ABS:
		return tp_load_abs(threshold > 0 ? threshold : TP_ABS_THRESHOLD, w, nw, t, nt, d);
	default:
		return 0;
	}
}
