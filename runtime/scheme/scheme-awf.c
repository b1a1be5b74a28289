/*
 * scheme-awf.c — adaptive weighted factoring: wf whose weights are learned from the times
 * fed back (Banicescu, Velusamy, Devaprasad 2003), in the four variants of Carino and
 * Banicescu (2008), which differ in when the weights change and in which time they use:
 *   awf-b  a batch's weights are recomputed when the batch starts (scheme-wf.c), t_calc
 *   awf-c  the weights are recomputed for every chunk, t_calc; there are no batches:
 *          chunk = ceil(R * e_w / (2S)), R the units left now (factoring's R/2P, weighted)
 *   awf-d  awf-b with t_exe: compute, communication and scheduling overhead
 *   awf-e  awf-c with t_exe
 * The weight of worker i is w_i = P e_i / S with e_i its speed estimate (scheme-speed.c):
 * its weighted average speed sum_j j n_j / sum_j j t_j over its chunks j = 1, 2, ..., which
 * is the reciprocal of the papers' weighted average performance pi_i; their mean pi bar
 * cancels in the normalisation. Until a worker is measured it is weighted by its prior,
 * so an awf scheme with no feedback at all is wf. What was measured carries over to the
 * next round (the original AWF adapts from time step to time step): chunk j keeps counting.
 */
#include <math.h>

#include "runtime/scheme/scheme-int.h"

static void
sched_awf_feedback(struct grt_sched *s, int w, const struct grt_chunk *c, double t_calc,
    double t_exe)
{
	double t = (s->ops->flags & SCHED_T_EXE) ? t_exe : t_calc;

	sched_speed_measure(s, w, (double)c->count, t, s->learn[w].j + 1);
}

/* awf-c, awf-e: the chunk of worker w, from the weights as they are now. O(1). */
static int64_t
sched_awf_size(struct grt_sched *s, int w)
{
	int64_t r = s->n - s->pool_next;
	double e = sched_speed_est(s, w), sum = sched_speed_sum(s);
	long double x;

	if (sum > 0 && isfinite(sum) && e > 0)
		x = (long double)r * e / (2.0L * sum);
	else
		x = (long double)r / (2.0L * (s->nactive > 0 ? s->nactive : 1));
	return sched_chunk_ceil(x, r);
}

const struct sched_ops sched_ops_awf_b = {
	.name = "awf-b",
	.check = sched_wf_check,
	.begin_round = sched_wf_begin,
	.pool_size = sched_wf_size,
	.feedback = sched_awf_feedback,
	.active_changed = sched_speed_active,
};

const struct sched_ops sched_ops_awf_c = {
	.name = "awf-c",
	.check = sched_wf_check,
	.begin_round = sched_wf_begin,
	.pool_size = sched_awf_size,
	.feedback = sched_awf_feedback,
	.active_changed = sched_speed_active,
};

const struct sched_ops sched_ops_awf_d = {
	.name = "awf-d",
	.flags = SCHED_T_EXE,
	.check = sched_wf_check,
	.begin_round = sched_wf_begin,
	.pool_size = sched_wf_size,
	.feedback = sched_awf_feedback,
	.active_changed = sched_speed_active,
};

const struct sched_ops sched_ops_awf_e = {
	.name = "awf-e",
	.flags = SCHED_T_EXE,
	.check = sched_wf_check,
	.begin_round = sched_wf_begin,
	.pool_size = sched_awf_size,
	.feedback = sched_awf_feedback,
	.active_changed = sched_speed_active,
};
