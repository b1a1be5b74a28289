/*
 * stats.c — the statistics of an experiment's summary: median, mean, sd, the t interval of
 * the mean, median/MAD outliers and the speedup against the baseline. GSL does the sorting,
 * the moments and the t quantile; this file only chooses which rule applies when.
 */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "common/xmalloc.h"
#include "experiment/stats.h"

/* The rule's constants (stats.h): 1.4826 makes the MAD, 1.2533 the mean absolute
 * deviation, estimate the sd of normal data; 3.5 is the cut of the modified z-score. */
#define STATS_OUTLIER_CUT	3.5
#define STATS_MAD_SCALE		1.4826
#define STATS_MEANAD_SCALE	1.2533

/* A sorted copy of x[0..n-1] (n > 0): the caller's array keeps its order. */
static double *
stats_sorted(const double *x, size_t n)
{
	double *c;
	size_t i;

	c = xreallocarray(NULL, n, sizeof *c);
	for (i = 0; i < n; i++)
		c[i] = x[i];
	gsl_sort(c, 1, n);
	return c;
}

double
stats_median(const double *x, size_t n)
{
	double *c, m;

	if (n == 0)
		return NAN;
	c = stats_sorted(x, n);
	m = gsl_stats_median_from_sorted_data(c, 1, n);
	free(c);
	return m;
}

int
stats_summarize(const double *x, size_t n, struct stats_summary *s)
{
	double *c, t;

	s->n = n;
	s->outliers = 0;
	if (n == 0) {
		s->median = s->mean = s->sd = NAN;
		s->min = s->max = NAN;
		s->ci_lo = s->ci_hi = NAN;
		return 0;
	}

	c = stats_sorted(x, n);
	s->median = gsl_stats_median_from_sorted_data(c, 1, n);
	s->min = c[0];
	s->max = c[n - 1];
	s->mean = gsl_stats_mean(c, 1, n);
	free(c);

	/* gsl_stats_sd divides by n - 1: one run has no spread to speak of, not a zero one */
	if (n < 2) {
		s->sd = s->ci_lo = s->ci_hi = NAN;
	} else {
		s->sd = gsl_stats_sd_m(x, 1, n, s->mean);
		t = stats_t_quantile(0.975, (double)(n - 1));
		s->ci_lo = s->mean - t * s->sd / sqrt((double)n);
		s->ci_hi = s->mean + t * s->sd / sqrt((double)n);
	}
	s->outliers = stats_outliers(x, n, NULL);
	return 0;
}

/*
 * GSL reports a failure (here: the Newton iteration of the inverse not converging) through
 * its error handler, whose default aborts; the handler is off for the call so that a bad
 * case gives NaN instead. Not thread-safe: the handler is global to GSL.
 */
double
stats_t_quantile(double p, double df)
{
	gsl_error_handler_t *old;
	double t;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (isinf(df))
		return gsl_cdf_ugaussian_Pinv(p);
	old = gsl_set_error_handler_off();
	t = gsl_cdf_tdist_Pinv(p, df);
	gsl_set_error_handler(old);
	return t;
}

/*
 * The rule of stats.h. The fallback measures the mean absolute deviation about the median,
 * as the MAD itself does: when more than half the values are equal (MAD 0) the odd ones out
 * still count against the median the test compares them to. So {5, 5, 5, 5, 9} flags 9
 * (cut 3.5 * 1.2533 * 0.8 = 3.51 < 4).
 */
size_t
stats_outliers(const double *x, size_t n, int *flag)
{
	double *dev, med, mad, scale;
	size_t i, nflag = 0;

	if (flag != NULL) {
		for (i = 0; i < n; i++)
			flag[i] = 0;
	}
	if (n == 0)
		return 0;

	med = stats_median(x, n);
	dev = xreallocarray(NULL, n, sizeof *dev);
	for (i = 0; i < n; i++)
		dev[i] = fabs(x[i] - med);
	mad = stats_median(dev, n);
	if (mad > 0)
		scale = STATS_MAD_SCALE * mad;
	else
		scale = STATS_MEANAD_SCALE * gsl_stats_mean(dev, 1, n);
	/* all equal: nothing to measure against, nothing is an outlier */
	if (scale > 0) {
		for (i = 0; i < n; i++) {
			if (dev[i] > STATS_OUTLIER_CUT * scale) {
				if (flag != NULL)
					flag[i] = 1;
				nflag++;
			}
		}
	}
	free(dev);
	return nflag;
}

/*
 * Speedup s = mb / mx with its interval by the delta method: to first order the relative
 * variance of a ratio of independent means is the sum of theirs, so
 *	se_r = sqrt(s_b^2 / (nb mb^2) + s_x^2 / (nx mx^2)),
 *	interval s (1 - t se_r) .. s (1 + t se_r),
 * with t = t(0.975, df) and df by Welch-Satterthwaite on the variances of the two means,
 * vb = s_b^2 / nb and vx = s_x^2 / nx:
 *	df = (vb + vx)^2 / (vb^2 / (nb - 1) + vx^2 / (nx - 1)).
 * Both variances 0 (every run the same time): the interval is [s, s], not 0/0.
 */
int
stats_speedup(const double *base, size_t nb, const double *x, size_t nx,
    struct stats_ratio *r)
{
	double mb, mx, vb, vx, w, se, df, t;

	r->value = r->lo = r->hi = NAN;
	if (nb == 0 || nx == 0)
		return -1;
	mb = gsl_stats_mean(base, 1, nb);
	mx = gsl_stats_mean(x, 1, nx);
	if (!(mb > 0) || !(mx > 0))
		return -1;

	r->value = mb / mx;
	if (nb < 2 || nx < 2)
		return 0;
	vb = gsl_stats_variance_m(base, 1, nb, mb) / (double)nb;
	vx = gsl_stats_variance_m(x, 1, nx, mx) / (double)nx;
	if (vb == 0 && vx == 0) {
		r->lo = r->hi = r->value;
		return 0;
	}
	se = sqrt(vb / (mb * mb) + vx / (mx * mx));
	/* the same df through the weight w = vb / (vb + vx): no squares of tiny variances */
	w = vb / (vb + vx);
	df = 1 / (w * w / (double)(nb - 1) + (1 - w) * (1 - w) / (double)(nx - 1));
	t = stats_t_quantile(0.975, df);
	r->lo = r->value * (1 - t * se);
	r->hi = r->value * (1 + t * se);
	return 0;
}
