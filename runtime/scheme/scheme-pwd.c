/*
 * scheme-pwd.c — PWD, the performance-based workload distribution of seed 002 (3.4):
 * SWR of N is placed statically by the performance ratio PR, the rest by GSS.
 * Worker i's first chunk is floor(SWR * N * pr_i / sum pr) (the floors' leftovers go to
 * the dynamic phase); the static chunks are laid out in worker order from unit 0 and the
 * GSS pool follows them. N = 1000, SWR 0.5, PR 1:1:2:4: 62, 62, 125, 250, then GSS on 501.
 */
#include <math.h>

#include "runtime/scheme/scheme-int.h"

/* also pwd-speed's */
int
sched_pwd_check(const struct grt_sched_conf *conf, int nworkers)
{
	return isfinite(conf->swr) && conf->swr >= 0 && conf->swr <= 1 &&
	    sched_positive(conf->pr, nworkers);
}

/* also pwd-speed's static phase */
void
sched_pwd_begin(struct grt_sched *s)
{
	sched_split_floor(s, (long double)s->conf.swr * s->n, s->conf.pr, s->units);
	s->pool_next = sched_layout(s, NULL, s->units);
	s->dynamic = 1;
}

/*
 * Seed 002, eq. 3: SWR = min/max of the sampled units' times (5 in the paper). 1 when
 * there is nothing to compare (no sample, or every time 0): a regular workload. Non-finite
 * or negative samples are skipped; the result is clipped to [0, 1].
 */
double
grt_swr_from_samples(const double *t, int n)
{
	double lo = 0, hi = 0, r;
	int i, any = 0;

	for (i = 0; t != NULL && i < n; i++) {
		if (!isfinite(t[i]) || t[i] < 0)
			continue;
		if (!any || t[i] < lo)
			lo = t[i];
		if (!any || t[i] > hi)
			hi = t[i];
		any = 1;
	}
	if (!any || hi <= 0)
		return 1.0;
	r = lo / hi;
	return r < 0 ? 0 : r > 1 ? 1 : r;
}

const struct sched_ops sched_ops_pwd = {
	.name = "pwd",
	.flags = SCHED_SWR,
	.check = sched_pwd_check,
	.begin_round = sched_pwd_begin,
	.pool_size = sched_gss_size,
};
