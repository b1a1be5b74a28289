/*
 * test-stats-rank.c — the statistics of an experiment's claims (experiment/stats-rank.c,
 * stats-boot.c) against values found elsewhere:
 * - the exact one-sided Mann-Whitney U: R's ?wilcox.test example (Hollander & Wolfe,
 *   p. 69: x the permeability at 12-26 weeks, y at 1 week; wilcox.test(x, y,
 *   alternative = "greater") gives W = 35, p-value = 0.1272), and the example of SciPy's
 *   scipy.stats.mannwhitneyu documentation (males and females, method="exact": U = 17,
 *   two-sided p-value 0.1111, that is 1/18 on one side); both also counted by brute force
 *   over every split of the pooled sample in python3 (0.127206127..., 1/18);
 * - the normal approximation with the ties correction and a continuity correction of 1/2
 *   (R's wilcox.test with correct = TRUE): written again in python3 with mpmath's ncdf at
 *   30 digits, for a sample with ties and for one of more than 50 values;
 * - Holm's adjustment worked by hand (below);
 * - the bootstrap: the same seed gives the same interval; a sample without spread its
 *   value; the interval holds the median; an empty sample refused.
 */
#include <math.h>

#include "experiment/stats.h"
#include "tests/tap.h"

#define EPS	1e-9
#define NELEM(a) (sizeof (a) / sizeof (a)[0])

static void
check_exact(void)
{
	/* R ?wilcox.test */
	double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	/* SciPy's mannwhitneyu documentation */
	double males[] = { 19, 22, 16, 29, 24 };
	double females[] = { 20, 11, 17, 12 };
	double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	struct stats_mwu r;

	/* "x greater than y" is "y less than x": U of y = 5 x 10 - 35 = 15 */
	is_int(stats_mwu_less(y, NELEM(y), x, NELEM(x), &r), 0, "R example: returns 0");
	is_dbl(r.u, 15, 0, "R example: U of y = 50 - W");
	ok(r.exact, "R example: exact (no ties, 5 and 10 values)");
	is_dbl(r.p, 0.127206127206127, EPS, "R example: p = 0.1272 (382 of 3003 splits)");
	stats_mwu_less(x, NELEM(x), y, NELEM(y), &r);
	is_dbl(r.u, 35, 0, "R example: W = 35");

	stats_mwu_less(females, NELEM(females), males, NELEM(males), &r);
	is_dbl(r.u, 3, 0, "SciPy example: U of females = 20 - 17");
	is_dbl(r.p, 1.0 / 18, EPS, "SciPy example: one side of 0.1111");
	stats_mwu_less(males, NELEM(males), females, NELEM(females), &r);
	is_dbl(r.p, 0.968253968253968, EPS, "SciPy example, the other way: 61 of 63");

	/* the smallest p of 3 against 3: one split of 20 */
	stats_mwu_less(a, 3, b, 3, &r);
	is_dbl(r.p, 0.05, EPS, "3 below 3: p = 1/20");
	stats_mwu_less(b, 3, a, 3, &r);
	is_dbl(r.p, 1, EPS, "3 above 3: p = 1");
}

static void
check_normal(void)
{
	double a[] = { 1, 2, 2, 3, 3, 3 }, b[] = { 3, 4, 4, 5, 6 };
	double lo[] = { 0.1, 0.1, 0.1, 0.1, 0.1 }, hi[] = { 0.2, 0.2, 0.2, 0.2, 0.2 };
	double same[] = { 7, 7, 7 };
	double big[60], big2[55];
	struct stats_mwu r;
	size_t i;

	is_int(stats_mwu_less(a, NELEM(a), b, NELEM(b), &r), 0, "ties: returns 0");
	ok(!r.exact, "ties: the normal approximation");
	is_dbl(r.u, 1.5, 0, "ties: U = 1.5");
	is_dbl(r.p, 0.00732394078625871, EPS, "ties: p (mpmath)");
	stats_mwu_less(lo, NELEM(lo), hi, NELEM(hi), &r);
	is_dbl(r.p, 0.00198837585489432, EPS, "5 tied below 5 tied: p (mpmath)");
	stats_mwu_less(same, 3, same, 3, &r);
	is_dbl(r.p, 1, 0, "every value the same: p = 1");

	for (i = 0; i < 60; i++)
		big[i] = (double)i;
	for (i = 0; i < 55; i++)
		big2[i] = (double)i + 10.5;
	stats_mwu_less(big, 60, big2, 55, &r);
	ok(!r.exact, "60 values: the normal approximation (above %d)", STATS_MWU_EXACT_MAX);
	is_dbl(r.u, 1225, 0, "60 and 55 values: U");
	is_dbl(r.p, 0.00873310955198412, EPS, "60 and 55 values: p (mpmath)");

	is_int(stats_mwu_less(a, 0, b, NELEM(b), &r), -1, "an empty sample: -1");
	ok(isnan(r.p), "an empty sample: p NaN");
}

static void
check_holm(void)
{
	/*
	 * sorted 0.005 0.01 0.03 0.04: x4 = 0.02, x3 = 0.03, x2 = 0.06, x1 = 0.04 raised to
	 * the 0.06 before it (step-down never lowers)
	 */
	double p[] = { 0.01, 0.04, 0.03, 0.005 }, adj[4];
	double big[] = { 0.5, 0.9 };

	stats_holm(p, 4, adj);
	is_dbl(adj[0], 0.03, EPS, "Holm: 0.01 x 3");
	is_dbl(adj[1], 0.06, EPS, "Holm: 0.04 raised to 0.06");
	is_dbl(adj[2], 0.06, EPS, "Holm: 0.03 x 2");
	is_dbl(adj[3], 0.02, EPS, "Holm: 0.005 x 4");
	stats_holm(big, 2, big);
	is_dbl(big[0], 1, 0, "Holm: capped at 1, in place");
	is_dbl(big[1], 1, 0, "Holm: never below an earlier one");
}

static double
median_stat(const double *const *x, const size_t *n, size_t k, void *arg)
{
	return stats_median(x[0], n[0]);
}

static void
check_bootstrap(void)
{
	double x[] = { 1.9, 2.4, 2.0, 2.2, 2.9, 2.1, 2.3 }, same[] = { 5, 5, 5 };
	const double *v[1] = { x };
	size_t n = NELEM(x), n3 = 3;
	double lo, hi, lo2, hi2;

	is_int(stats_bootstrap(v, &n, 1, median_stat, NULL, 42, &lo, &hi), 0, "bootstrap: 0");
	stats_bootstrap(v, &n, 1, median_stat, NULL, 42, &lo2, &hi2);
	ok(lo == lo2 && hi == hi2, "bootstrap: the same seed, the same interval");
	ok(lo <= 2.2 && 2.2 <= hi && lo >= 1.9 && hi <= 2.9,
	    "bootstrap: the median 2.2 inside, within the extremes [%g, %g]", lo, hi);
	v[0] = same;
	stats_bootstrap(v, &n3, 1, median_stat, NULL, 1, &lo, &hi);
	ok(lo == 5 && hi == 5, "bootstrap: no spread, the value itself");
	n3 = 0;
	is_int(stats_bootstrap(v, &n3, 1, median_stat, NULL, 1, &lo, &hi), -1,
	    "bootstrap: an empty sample refused");
	ok(isnan(lo) && isnan(hi), "bootstrap: an empty sample's interval NaN");
	is_dbl(stats_median(x, n), 2.2, 0, "median");
	ok(isnan(stats_median(x, 0)), "median of nothing: NaN");
}

int
main(void)
{
	check_exact();
	check_normal();
	check_holm();
	check_bootstrap();
	return tap_done();
}
