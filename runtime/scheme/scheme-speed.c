/*
 * scheme-speed.c — how fast each worker is, as wf, awf-b..e and pwd-speed see it, kept in
 * running sums so that a request costs O(1) even with P = 4096 (doc/schemes.md, "The
 * speed of a worker").
 *
 * Worker i has a prior p_i > 0 (pr; wf and awf-* fall back to cpu; else 1) and, once the
 * time of one of its chunks has come back, a measured speed in units per second
 *   v_i = sum_j c_j n_j / sum_j c_j t_j
 * over the chunks j = 1, 2, ... it returned so far, in every round. awf weighs chunk j by
 * c_j = j, so that recent chunks count more (Banicescu, Velusamy, Devaprasad 2003);
 * pwd-speed by c_j = 1. Times that sum to 0 (empty work, or too fast for the clock) give
 * no speed yet: a ratio with 0 in it would hand one worker everything. Clock glitches are
 * not measurements: a chunk slower than SCHED_UNIT_TIME_MAX seconds a unit is ignored, and
 * a speed above SCHED_UNIT_TIME_MAX units a second counts as no speed yet.
 *
 * The estimate a split uses:
 *   e_i = v_i                                 when i has a measured speed,
 *   e_i = p_i * sum_m v_m / sum_m p_m         otherwise (m: the measured active workers),
 *   e_i = p_i                                 when no active worker is measured yet.
 * The middle line places a worker not measured yet against the measured ones by its prior:
 * mixing p_i (a ratio) with v_m (units per second) directly would weigh it by the unit of
 * time. S = sum e_i over the active workers.
 */
#include <math.h>

#include "runtime/scheme/scheme-int.h"

/* The sums over the active workers, from scratch: O(P). */
static void
sched_speed_recount(struct grt_sched *s)
{
	const struct sched_learn *l;
	int i;

	s->sp_v = s->sp_pm = s->sp_pu = 0;
	s->sp_nm = s->sp_nu = 0;
	for (i = 0; i < s->nw; i++) {
		if (!sched_is_active(s, i))
			continue;
		l = &s->learn[i];
		if (l->v > 0) {
			s->sp_v += l->v;
			s->sp_pm += l->prior;
			s->sp_nm++;
		} else {
			s->sp_pu += l->prior;
			s->sp_nu++;
		}
	}
	s->learn_updates = 0;
}

/* The priors of this round and the sums; use_cpu: fall back to cpu[] when pr[] is absent. */
void
sched_speed_begin(struct grt_sched *s, int use_cpu)
{
	const double *p = s->conf.pr;
	int i;

	if (p == NULL && use_cpu)
		p = s->conf.cpu;
	for (i = 0; i < s->nw; i++)
		s->learn[i].prior = p != NULL ? p[i] : 1.0;
	sched_speed_recount(s);
}

/*
 * Worker w's part of the sums, added (on) or taken out. Exact where it matters: when no
 * measured (or no unmeasured) worker is left, its sums are 0, not the rounding residue of
 * the additions and subtractions.
 */
static void
sched_speed_move(struct grt_sched *s, int w, int on)
{
	const struct sched_learn *l = &s->learn[w];
	double sign = on ? 1.0 : -1.0;

	if (l->v > 0) {
		s->sp_v += sign * l->v;
		s->sp_pm += sign * l->prior;
		s->sp_nm += on ? 1 : -1;
		if (s->sp_nm <= 0)
			s->sp_v = s->sp_pm = s->sp_nm = 0;
	} else {
		s->sp_pu += sign * l->prior;
		s->sp_nu += on ? 1 : -1;
		if (s->sp_nu <= 0)
			s->sp_pu = s->sp_nu = 0;
	}
}

/* Priors near DBL_MAX can overflow a sum: then count again (S falls back to equal). */
static void
sched_speed_sane(struct grt_sched *s)
{
	if (!(isfinite(s->sp_v) && isfinite(s->sp_pm) && isfinite(s->sp_pu)))
		sched_speed_recount(s);
}

/* Worker w starts (on) or stops counting in P: O(1). */
void
sched_speed_active(struct grt_sched *s, int w, int on)
{
	if (s->round == 0)
		return;		/* the first round counts from scratch */
	sched_speed_move(s, w, on);
	sched_speed_sane(s);
}

/*
 * A chunk of `units` units took time t on worker w; c is the weight of this chunk in w's
 * average (awf: the chunk's index j, pwd-speed: 1). O(1); every P updates the sums are
 * recounted so that rounding drift cannot build up.
 */
void
sched_speed_measure(struct grt_sched *s, int w, double units, double t, double c)
{
	struct sched_learn *l = &s->learn[w];
	int on = s->round > 0 && sched_is_active(s, w);
	double v;

	if (!(t / units <= SCHED_UNIT_TIME_MAX))
		return;
	if (on)
		sched_speed_move(s, w, 0);
	l->j += 1;
	l->t += c * t;
	l->n += c * units;
	v = l->t > 0 ? l->n / l->t : 0;
	l->v = v > 0 && v <= SCHED_UNIT_TIME_MAX ? v : 0;
	if (on)
		sched_speed_move(s, w, 1);
	if (s->round > 0 && ++s->learn_updates >= s->nw)
		sched_speed_recount(s);
	else if (on)
		sched_speed_sane(s);
}

/* e_w: worker w's estimated speed (see the top of this file). */
double
sched_speed_est(const struct grt_sched *s, int w)
{
	const struct sched_learn *l = &s->learn[w];

	if (l->v > 0)
		return l->v;
	if (s->sp_nm > 0 && s->sp_pm > 0 && s->sp_v > 0)
		return l->prior * (s->sp_v / s->sp_pm);
	return l->prior;
}

/* S: the sum of e_i over the active workers. */
double
sched_speed_sum(const struct grt_sched *s)
{
	if (s->sp_nm > 0 && s->sp_pm > 0 && s->sp_v > 0)
		return s->sp_v + s->sp_pu * (s->sp_v / s->sp_pm);
	return s->sp_pu;
}

/*
 * ceil(x) as a chunk size for a pool of r >= 1 units: at least 1, at most r. A value within
 * 1e-9 above an integer counts as that integer (as sched_floor forgives below): a share of
 * 62.5 units is 63, but 125.00000000000003 units, the rounding of 1000 * 0.1 / 0.8, is 125.
 * NaN (a weight that cannot split) is 1.
 */
int64_t
sched_chunk_ceil(long double x, int64_t r)
{
	long double c;

	if (r <= 1 || !(x > 1))
		return 1;
	c = ceill(x - 1e-9L);
	if (c >= (long double)r)
		return r;
	return c < 1 ? 1 : (int64_t)c;
}
