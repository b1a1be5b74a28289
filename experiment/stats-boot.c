/*
 * stats-boot.c — the percentile bootstrap of an experiment's claims (stats.h): the 95%
 * interval of a median, of a ratio of medians, of the growth of a gap, over samples of
 * runs too few and too skewed for a formula. Seeded, so that a report written twice from
 * the same runs says the same.
 */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "common/xmalloc.h"
#include "experiment/stats.h"

int
stats_bootstrap(const double *const *x, const size_t *n, size_t k, stats_boot_fn stat,
    void *arg, unsigned long seed, double *lo, double *hi)
{
	double **re, *out, s;
	gsl_rng *rng;
	size_t i, j, b, nout = 0;

	*lo = *hi = NAN;
	for (i = 0; i < k; i++)
		if (n[i] == 0)
			return -1;
	if ((rng = gsl_rng_alloc(gsl_rng_mt19937)) == NULL)
		return -1;
	gsl_rng_set(rng, seed);
	re = xcalloc(k, sizeof *re);
	for (i = 0; i < k; i++)
		re[i] = xcalloc(n[i], sizeof **re);
	out = xcalloc(STATS_BOOT_RESAMPLES, sizeof *out);
	for (b = 0; b < STATS_BOOT_RESAMPLES; b++) {
		for (i = 0; i < k; i++)
			for (j = 0; j < n[i]; j++)
				re[i][j] = x[i][gsl_rng_uniform_int(rng, n[i])];
		s = stat((const double *const *)re, n, k, arg);
		if (!isnan(s))
			out[nout++] = s;
	}
	if (nout > 0) {
		gsl_sort(out, 1, nout);
		*lo = gsl_stats_quantile_from_sorted_data(out, 1, nout, 0.025);
		*hi = gsl_stats_quantile_from_sorted_data(out, 1, nout, 0.975);
	}
	for (i = 0; i < k; i++)
		free(re[i]);
	free(re);
	free(out);
	gsl_rng_free(rng);
	return nout > 0 ? 0 : -1;
}
