/*
 * scheme-pwds.c — pwd-speed: pwd (seed 002, 3.4; scheme-pwd.c) whose dynamic phase knows
 * how fast each worker is. The static phase is pwd's, unchanged: floor(SWR * N * pr_i /
 * sum pr) to worker i. The dynamic phase gives the requesting worker w
 *   chunk = ceil(R/P * s_w / mean(s)) = ceil(R * s_w / S)
 * instead of GSS's ceil(R/P), clipped to R and at least 1, where s_w is its speed estimate
 * (scheme-speed.c): units per second from its fed-back t_exe over all its chunks (the
 * static one included, which measures every worker before the dynamic phase starts), or
 * its PR weight before any of its times came back. t_exe rather than t_calc: when w asks
 * again depends on its link too, and seed 002's PR weighs bandwidth as well as CPU.
 * With equal speeds this is GSS, so pwd-speed without pr[] and without feedback is pwd.
 */
#include <math.h>

#include "runtime/scheme/scheme-int.h"

static void
sched_pwds_begin(struct grt_sched *s)
{
	sched_pwd_begin(s);
	sched_speed_begin(s, 0);
}

static void
sched_pwds_feedback(struct grt_sched *s, int w, const struct grt_chunk *c, double t_calc,
    double t_exe)
{
	sched_speed_measure(s, w, (double)c->count, t_exe, 1.0);
}

static int64_t
sched_pwds_size(struct grt_sched *s, int w)
{
	int64_t r = s->n - s->pool_next, p = s->nactive > 0 ? s->nactive : 1;
	double e = sched_speed_est(s, w), sum = sched_speed_sum(s);

	if (!(sum > 0 && isfinite(sum) && e > 0))
		return sched_ceil_div(r, p);	/* GSS */
	return sched_chunk_ceil((long double)r * e / sum, r);
}

const struct sched_ops sched_ops_pwd_speed = {
	.name = "pwd-speed",
	.flags = SCHED_SWR,
	.check = sched_pwd_check,
	.begin_round = sched_pwds_begin,
	.pool_size = sched_pwds_size,
	.feedback = sched_pwds_feedback,
	.active_changed = sched_speed_active,
};
