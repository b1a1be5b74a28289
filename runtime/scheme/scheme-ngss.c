/*
 * scheme-ngss.c — ngss and angss, the two-phase GSS of Yang and Chang ([13] of seed 002)
 * and its adaptive variant (Yang, Cheng, Li, [14] of seed 002).
 *
 * ngss(alpha): A = floor(alpha% of N); worker i gets floor(A * cpu_i / sum cpu) as its
 * first chunk (laid out in worker order from unit 0); the units that the floors leave, and
 * the rest of N, are scheduled by GSS, ceil(R/P).
 *
 * angss: ngss with alpha chosen at the start of every round from the heterogeneity of the
 * workers. [14] classifies a system as relatively homogeneous or heterogeneous with a
 * benchmark; we use a continuous, exact rule instead (doc/schemes.md):
 *   v_i   = measured speed 1 / t_calc_unit_i when every active worker has been measured in
 *           an earlier round (seed 000, 3.2), otherwise cpu_i (1 when no cpu[] is given);
 *   H     = 1 - min v / max v over the active workers, in [0, 1);
 *   alpha = 20 + 60 H percent,
 * and the first phase is split by v. A homogeneous system (H = 0) keeps 20%: GSS alone
 * balances it, and a small static phase only saves requests. The more the speeds differ,
 * the more of N is worth placing by weight before GSS hands a slow worker a large chunk
 * (GSS's first chunk is N/P whoever asks); 80% at most keeps a fifth of N for balancing
 * irregular iterations, which seed 002 (4.2) found NGSS needs (alpha 75 was too high).
 */
#include <math.h>

#include "runtime/scheme/scheme-int.h"

#define ANGSS_ALPHA_MIN	20.0
#define ANGSS_ALPHA_SPAN	60.0

/* The angss alpha of this round; *weights gets the weights for the first phase. */
static double
sched_angss_alpha(struct grt_sched *s, const double **weights)
{
	double vmin = 0, vmax = 0, v;
	int i, all = 1, any = 0;

	for (i = 0; i < s->nw; i++)
		if (sched_is_active(s, i) && (!s->measured[i] || !(s->calc_unit[i] > 0)))
			all = 0;
	for (i = 0; i < s->nw; i++) {
		if (!sched_is_active(s, i))
			continue;
		if (all)
			v = 1.0 / s->calc_unit[i];
		else
			v = s->conf.cpu != NULL ? s->conf.cpu[i] : 1.0;
		s->speed[i] = v;
		if (!any || v < vmin)
			vmin = v;
		if (!any || v > vmax)
			vmax = v;
		any = 1;
	}
	*weights = all ? s->speed : s->conf.cpu;
	if (!any || !(vmax > 0))
		return ANGSS_ALPHA_MIN;
	return ANGSS_ALPHA_MIN + ANGSS_ALPHA_SPAN * (1.0 - vmin / vmax);
}

static int
sched_ngss_check(const struct grt_sched_conf *conf, int nworkers)
{
	return isfinite(conf->alpha) && conf->alpha >= 0 && conf->alpha <= 100 &&
	    sched_positive(conf->cpu, nworkers);
}

static int
sched_angss_check(const struct grt_sched_conf *conf, int nworkers)
{
	return sched_positive(conf->cpu, nworkers);
}

/* The first phase, s->alpha percent of N split by w; the rest is the GSS pool. */
static void
sched_ngss_plan(struct grt_sched *s, const double *w)
{
	long double a;

	a = sched_floor((long double)s->alpha * s->n / 100);
	sched_split_floor(s, a, w, s->units);
	s->pool_next = sched_layout(s, NULL, s->units);
	s->dynamic = 1;
}

static void
sched_ngss_begin(struct grt_sched *s)
{
	s->alpha = s->conf.alpha;
	sched_ngss_plan(s, s->conf.cpu);
}

static void
sched_angss_begin(struct grt_sched *s)
{
	const double *w;

	s->alpha = sched_angss_alpha(s, &w);
	sched_ngss_plan(s, w);
}

const struct sched_ops sched_ops_ngss = {
	.name = "ngss",
	.check = sched_ngss_check,
	.begin_round = sched_ngss_begin,
	.pool_size = sched_gss_size,
};

const struct sched_ops sched_ops_angss = {
	.name = "angss",
	.check = sched_angss_check,
	.begin_round = sched_angss_begin,
	.pool_size = sched_gss_size,
};
