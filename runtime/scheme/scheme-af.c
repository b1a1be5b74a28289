/*
 * scheme-af.c — adaptive factoring (Banicescu, Liu 2000): every chunk is sized from the
 * measured mean mu_i and standard deviation sigma_i of each worker's time per unit, so
 * that the batch the chunk belongs to is expected to end, on every worker, early enough
 * for the units left after it to absorb its spread.
 *
 * Estimates, from t_calc (the work itself, as the paper's per-iterate times): worker i's
 * chunk j of n_j units in t_j is one sample of the mean of n_j units, t_j / n_j. With the
 * units independent, of mean mu_i and variance sigma_i^2:
 *   mu_i      = sum_j t_j / sum_j n_j
 *   sigma_i^2 = sum_j n_j (t_j/n_j - mu_i)^2 / (K_i - 1)       over its K_i chunks
 * kept in Welford's running form (no cancellation, O(1) per chunk). A worker has an
 * estimate once K_i >= 2 and mu_i >= 1e-100 s; the estimates keep accumulating over the
 * rounds. A chunk slower than SCHED_UNIT_TIME_MAX a unit is a clock glitch: ignored.
 *
 * The chunk of worker w, R units left (the paper's formula; doc/schemes.md):
 *   D = sum_i sigma_i^2 / mu_i,  T = 1 / sum_i 1/mu_i     over the active workers
 *   chunk_w = ceil((D + 2TR - sqrt(D^2 + 4DTR)) / (2 mu_w))
 * evaluated as 2 T^2 R^2 / (mu_w (D + 2TR + sqrt(D^2 + 4DTR))), the same number without
 * the cancellation of two nearly equal terms when D << TR. Active workers without an
 * estimate count in D and 1/T as the mean of those with one. A worker without an estimate
 * gets factoring's chunk ceil(R/2P): sigma cannot be measured from fewer than two chunks.
 */
#include <math.h>

#include "runtime/scheme/scheme-int.h"

/* 1 when worker w has mu and sigma; *mu and *s2 get them. */
static int
sched_af_estimate(const struct grt_sched *s, int w, double *mu, double *s2)
{
	const struct sched_learn *l = &s->learn[w];

	if (l->j < 2 || !(l->mu >= 1 / SCHED_UNIT_TIME_MAX))
		return 0;
	*mu = l->mu;
	*s2 = l->m2 > 0 ? l->m2 / (l->j - 1) : 0;
	/* mu <= SCHED_UNIT_TIME_MAX by the samples; sigma^2 / mu must stay finite too */
	return isfinite(*s2 / *mu);
}

static void
sched_af_recount(struct grt_sched *s)
{
	double mu, s2;
	int i;

	s->af_d = s->af_e = 0;
	s->af_m = 0;
	for (i = 0; i < s->nw; i++)
		if (sched_is_active(s, i) && sched_af_estimate(s, i, &mu, &s2)) {
			s->af_d += s2 / mu;
			s->af_e += 1 / mu;
			s->af_m++;
		}
	s->learn_updates = 0;
}

static void
sched_af_begin(struct grt_sched *s)
{
	s->dynamic = 1;
	s->pool_next = 0;
	sched_af_recount(s);
}

/* Worker w's part of D and 1/T, added (on) or taken out; exact 0 when nobody is left. */
static void
sched_af_move(struct grt_sched *s, int w, int on)
{
	double mu, s2, sign = on ? 1.0 : -1.0;

	if (!sched_af_estimate(s, w, &mu, &s2))
		return;
	s->af_d += sign * s2 / mu;
	s->af_e += sign / mu;
	s->af_m += on ? 1 : -1;
	if (s->af_m <= 0) {
		s->af_d = s->af_e = 0;
		s->af_m = 0;
	}
}

/* A sum that overflowed (sigma^2/mu near DBL_MAX) leaves NaN behind it: count again. */
static void
sched_af_sane(struct grt_sched *s)
{
	if (!(isfinite(s->af_d) && isfinite(s->af_e)))
		sched_af_recount(s);
}

/* Worker w starts (on) or stops counting in P: O(1). */
static void
sched_af_active(struct grt_sched *s, int w, int on)
{
	if (s->round == 0)
		return;		/* the first round counts from scratch */
	sched_af_move(s, w, on);
	sched_af_sane(s);
}

static void
sched_af_feedback(struct grt_sched *s, int w, const struct grt_chunk *c, double t_calc,
    double t_exe)
{
	struct sched_learn *l = &s->learn[w];
	double n = (double)c->count, u = t_calc / n, d;
	int on = s->round > 0 && sched_is_active(s, w);

	if (!(u <= SCHED_UNIT_TIME_MAX))
		return;		/* a clock glitch, or NaN */
	if (on)
		sched_af_move(s, w, 0);
	l->j += 1;
	l->un += n;
	d = u - l->mu;
	l->mu += d * n / l->un;
	l->m2 += n * d * (u - l->mu);
	if (on)
		sched_af_move(s, w, 1);
	if (s->round > 0 && ++s->learn_updates >= s->nw)
		sched_af_recount(s);
	else if (on)
		sched_af_sane(s);
}

static int64_t
sched_af_size(struct grt_sched *s, int w)
{
	int64_t r = s->n - s->pool_next, p = s->nactive > 0 ? s->nactive : 1;
	long double d, t, tr, x;
	double mu, s2;

	if (!sched_af_estimate(s, w, &mu, &s2) || s->af_m <= 0 || !(s->af_e > 0))
		return sched_ceil_div(r, 2 * p);
	/* the workers without an estimate as the mean of those with one */
	d = (long double)s->af_d * p / s->af_m;
	t = (long double)s->af_m / ((long double)s->af_e * p);
	if (d < 0)
		d = 0;
	tr = t * r;
	x = 2 * tr * tr / (mu * (d + 2 * tr + sqrtl(d * d + 4 * d * tr)));
	return sched_chunk_ceil(x, r);
}

const struct sched_ops sched_ops_af = {
	.name = "af",
	.begin_round = sched_af_begin,
	.pool_size = sched_af_size,
	.feedback = sched_af_feedback,
	.active_changed = sched_af_active,
};
