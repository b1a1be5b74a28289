/*
 * test-stats.c — the statistics of an experiment's summary against values computed
 * independently: the t quantiles and the intervals were computed with python3 and mpmath
 * at 40 digits (the t quantile as the root of the CDF written with mpmath's regularized
 * incomplete beta, not GSL), and agree with printed t tables to their digits; medians,
 * MADs and outlier cuts were worked by hand (shown next to each case).
 */
#include <math.h>
#include <string.h>

#include "experiment/stats.h"
#include "tests/tap.h"

#define EPS	1e-9

#define NELEM(a) (sizeof (a) / sizeof (a)[0])

static void
check_t_quantile(void)
{
	/* mpmath: findroot(tcdf(t, nu) - p), tcdf from betainc(nu/2, 1/2, 0, nu/(nu+t^2)) */
	is_dbl(stats_t_quantile(0.975, 1), 12.7062047361747, EPS, "t(0.975, 1)");
	is_dbl(stats_t_quantile(0.975, 2), 4.30265272974946, EPS, "t(0.975, 2)");
	is_dbl(stats_t_quantile(0.975, 4), 2.77644510519779, EPS, "t(0.975, 4)");
	is_dbl(stats_t_quantile(0.975, 10), 2.22813885198627, EPS, "t(0.975, 10)");
	is_dbl(stats_t_quantile(0.95, 30), 1.69726088659396, EPS, "t(0.95, 30)");
	/* Welch-Satterthwaite gives fractional degrees of freedom */
	is_dbl(stats_t_quantile(0.975, 7.5), 2.33303962686497, EPS, "t(0.975, 7.5)");
	/* symmetric: t(1 - p) = -t(p) */
	is_dbl(stats_t_quantile(0.025, 10), -2.22813885198627, EPS, "t(0.025, 10)");
	/* the normal quantile 1.959963984540054 is the limit */
	is_dbl(stats_t_quantile(0.975, INFINITY), 1.959963984540054, EPS, "t(0.975, inf)");

	ok(isnan(stats_t_quantile(0, 5)), "t(0, 5) is NaN");
	ok(isnan(stats_t_quantile(1, 5)), "t(1, 5) is NaN");
	ok(isnan(stats_t_quantile(1.5, 5)), "t(1.5, 5) is NaN");
	ok(isnan(stats_t_quantile(0.975, 0)), "t(0.975, 0) is NaN");
	ok(isnan(stats_t_quantile(0.975, -3)), "t(0.975, -3) is NaN");
	ok(isnan(stats_t_quantile(0.975, NAN)), "t(0.975, NaN) is NaN");
	ok(isnan(stats_t_quantile(NAN, 4)), "t(NaN, 4) is NaN");
}

static void
check_summarize(void)
{
	double x[] = { 2.1, 2.5, 2.3, 2.8, 2.2 };
	double xc[NELEM(x)];
	double even[] = { 4, 1, 3, 2 };
	double one[] = { 3.5 };
	double out[] = { 10, 10.1, 9.9, 10.2, 9.8, 30 };
	struct stats_summary s;

	/*
	 * sorted 2.1 2.2 2.3 2.5 2.8: median 2.3, mean 11.9 / 5 = 2.38; sd = sqrt(0.308 / 4)
	 * = 0.277488738510232; ci 2.38 -+ t(0.975, 4) sd / sqrt(5) (mpmath)
	 */
	memcpy(xc, x, sizeof x);
	is_int(stats_summarize(x, NELEM(x), &s), 0, "summarize returns 0");
	is_int(s.n, 5, "summary n");
	is_dbl(s.median, 2.3, EPS, "summary median");
	is_dbl(s.mean, 2.38, EPS, "summary mean");
	is_dbl(s.sd, 0.277488738510232, EPS, "summary sd (n - 1)");
	is_dbl(s.min, 2.1, 0, "summary min");
	is_dbl(s.max, 2.8, 0, "summary max");
	is_dbl(s.ci_lo, 2.03545222348487, EPS, "summary ci_lo");
	is_dbl(s.ci_hi, 2.72454777651513, EPS, "summary ci_hi");
	is_int(s.outliers, 0, "summary: no outliers");
	ok(memcmp(x, xc, sizeof x) == 0, "summarize leaves its input in order");

	/* even n: the median is the mean of the middle two, (2 + 3) / 2 */
	stats_summarize(even, NELEM(even), &s);
	is_dbl(s.median, 2.5, 0, "median of an even count");
	is_dbl(s.min, 1, 0, "min of unsorted input");
	is_dbl(s.max, 4, 0, "max of unsorted input");

	memset(&s, 0, sizeof s);
	is_int(stats_summarize(NULL, 0, &s), 0, "summarize of nothing returns 0");
	is_int(s.n, 0, "n = 0: n");
	ok(isnan(s.median) && isnan(s.mean) && isnan(s.sd) && isnan(s.min) &&
	    isnan(s.max) && isnan(s.ci_lo) && isnan(s.ci_hi), "n = 0: every value NaN");
	is_int(s.outliers, 0, "n = 0: no outliers");

	stats_summarize(one, 1, &s);
	is_int(s.n, 1, "n = 1: n");
	ok(s.median == 3.5 && s.mean == 3.5 && s.min == 3.5 && s.max == 3.5,
	    "n = 1: median, mean, min, max are the value");
	ok(isnan(s.sd), "n = 1: sd is NaN");
	ok(isnan(s.ci_lo) && isnan(s.ci_hi), "n = 1: interval is NaN");
	is_int(s.outliers, 0, "n = 1: no outliers");

	stats_summarize(out, NELEM(out), &s);
	is_int(s.outliers, 1, "summary counts the outlier");
	is_dbl(s.median, 10.05, EPS, "median not moved by the outlier");
}

static void
check_outliers(void)
{
	double out[] = { 10, 10.1, 9.9, 10.2, 9.8, 30 };
	double outc[NELEM(out)];
	double same[] = { 7, 7, 7, 7, 7 };
	double mad0[] = { 5, 5, 5, 5, 9 };
	double mad0_4[] = { 5, 5, 9, 5 };
	int flag[8];
	size_t i;
	int want;

	/*
	 * median 10.05; deviations .05 .05 .15 .15 .25 19.95 (sorted .05 .15 .15 .25 .25 19.95),
	 * MAD (.15 + .25) / 2 = .2; cut 3.5 * 1.4826 * .2 = 1.0378: only 30 is beyond
	 */
	memcpy(outc, out, sizeof out);
	for (i = 0; i < NELEM(flag); i++)
		flag[i] = -1;
	is_int(stats_outliers(out, NELEM(out), flag), 1, "outliers: one flagged");
	want = 1;
	for (i = 0; i < NELEM(out); i++) {
		if (flag[i] != (i == 5))
			want = 0;
	}
	ok(want, "outliers: only 30 is flagged, the rest cleared to 0");
	is_int(flag[6], -1, "outliers: nothing written past n");
	ok(memcmp(out, outc, sizeof out) == 0, "outliers leaves its input in order");
	is_int(stats_outliers(out, NELEM(out), NULL), 1, "outliers: count without flags");

	for (i = 0; i < NELEM(flag); i++)
		flag[i] = 1;
	is_int(stats_outliers(same, NELEM(same), flag), 0, "all equal: nothing flagged");
	ok(flag[0] == 0 && flag[1] == 0 && flag[2] == 0 && flag[3] == 0 && flag[4] == 0,
	    "all equal: every flag 0");

	/*
	 * MAD 0: the fallback is the mean absolute deviation about the median (the centre the
	 * rule measures from): deviations 0 0 0 0 4, mean 0.8, cut 3.5 * 1.2533 * 0.8 = 3.509
	 * < 4, so 9 is flagged
	 */
	is_int(stats_outliers(mad0, NELEM(mad0), flag), 1, "MAD 0: one flagged by the fallback");
	ok(flag[4] == 1 && flag[0] == 0 && flag[1] == 0 && flag[2] == 0 && flag[3] == 0,
	    "MAD 0: 9 is the one flagged");
	/* four values: mean deviation 1, cut 3.5 * 1.2533 = 4.387 > 4, so none */
	is_int(stats_outliers(mad0_4, NELEM(mad0_4), flag), 0,
	    "MAD 0, n = 4: the fallback cut is above the odd value");

	is_int(stats_outliers(NULL, 0, NULL), 0, "outliers of nothing");
	is_int(stats_outliers(out, 1, flag), 0, "outliers of one value");
	is_int(flag[0], 0, "one value: not flagged");
}

static void
check_speedup(void)
{
	double base[] = { 10.2, 9.8, 10.0, 10.4, 9.6 };
	double x[] = { 5.1, 4.9, 5.3, 4.7 };
	double basec[NELEM(base)], xc[NELEM(x)];
	double flatb[] = { 4, 4, 4 };
	double spread[] = { 2, 2.2, 1.8 };
	double c3[] = { 3, 3, 3 };
	double c15[] = { 1.5, 1.5 };
	double zero[] = { -1, 1 };
	double neg[] = { -2, -3 };
	double zeros[] = { 0, 0 };
	struct stats_ratio r;

	/*
	 * mpmath: means 10 and 5, speedup 2; vb = 0.1 / 5, vx = 0.066667 / 4, Welch df
	 * 6.98076923076923, t 2.36594542122576, se_r 0.0294392028877595
	 */
	memcpy(basec, base, sizeof base);
	memcpy(xc, x, sizeof x);
	is_int(stats_speedup(base, NELEM(base), x, NELEM(x), &r), 0, "speedup returns 0");
	is_dbl(r.value, 2.0, EPS, "speedup value");
	is_dbl(r.lo, 1.86069690544634, EPS, "speedup lo");
	is_dbl(r.hi, 2.13930309455366, EPS, "speedup hi");
	ok(memcmp(base, basec, sizeof base) == 0 && memcmp(x, xc, sizeof x) == 0,
	    "speedup leaves its inputs alone");

	/* mpmath: a constant baseline leaves df = nx - 1 = 2; se_r 0.0577350269189626 */
	is_int(stats_speedup(flatb, NELEM(flatb), spread, NELEM(spread), &r), 0,
	    "speedup, constant baseline");
	is_dbl(r.value, 2.0, EPS, "constant baseline: value");
	is_dbl(r.lo, 1.50317245764993, EPS, "constant baseline: lo (df 2)");
	is_dbl(r.hi, 2.49682754235007, EPS, "constant baseline: hi (df 2)");

	is_int(stats_speedup(c3, NELEM(c3), c15, NELEM(c15), &r), 0, "speedup, no variance");
	is_dbl(r.value, 2.0, 0, "no variance: value");
	ok(r.lo == r.value && r.hi == r.value, "no variance: lo == hi == value");

	/* one run each: a value, no interval */
	is_int(stats_speedup(c3, 1, c15, 1, &r), 0, "speedup of one run each");
	is_dbl(r.value, 2.0, 0, "one run each: value");
	ok(isnan(r.lo) && isnan(r.hi), "one run each: interval NaN");
	is_int(stats_speedup(base, NELEM(base), c15, 1, &r), 0, "speedup, one run of x");
	ok(isnan(r.lo) && isnan(r.hi), "one run of x: interval NaN");

	is_int(stats_speedup(zero, NELEM(zero), x, NELEM(x), &r), -1, "baseline mean 0: -1");
	ok(isnan(r.value) && isnan(r.lo) && isnan(r.hi), "baseline mean 0: all NaN");
	is_int(stats_speedup(base, NELEM(base), neg, NELEM(neg), &r), -1, "negative mean: -1");
	ok(isnan(r.value) && isnan(r.lo) && isnan(r.hi), "negative mean: all NaN");
	is_int(stats_speedup(base, NELEM(base), zeros, NELEM(zeros), &r), -1, "x mean 0: -1");
	is_int(stats_speedup(base, 0, x, NELEM(x), &r), -1, "no baseline runs: -1");
	ok(isnan(r.value), "no baseline runs: value NaN");
	is_int(stats_speedup(base, NELEM(base), x, 0, &r), -1, "no runs of x: -1");
}

int
main(void)
{
	check_t_quantile();
	check_summarize();
	check_outliers();
	check_speedup();
	return tap_done();
}
