/*
 * stats.h — the statistics of an experiment's summary (doc/experiments.md, "Statistics"):
 * per point the median, mean, sample standard deviation, extremes and the 95% confidence
 * interval of the mean (Student t), outliers by the median/MAD rule, and the speedup of a
 * point against the baseline with its interval. Pure functions over arrays of doubles;
 * NaN marks a value that does not exist (sd of one run, an interval of fewer than two).
 */
#ifndef GS_STATS_H
#define GS_STATS_H

#include <stddef.h>

struct stats_summary {
	size_t n;
	double median, mean, sd;	/* sd: sample (n - 1); NaN when n < 2 */
	double min, max;
	double ci_lo, ci_hi;		/* mean -+ t(0.975, n - 1) sd / sqrt(n); NaN when n < 2 */
	size_t outliers;		/* values flagged by stats_outliers */
};

/*
 * Summarise x[0..n-1] (any order; not changed). n == 0 gives n 0 and every value NaN.
 * Returns 0.
 */
int stats_summarize(const double *x, size_t n, struct stats_summary *s);

/*
 * The p quantile of Student's t with df degrees of freedom (df > 0, 0 < p < 1; df may be
 * fractional, and infinite gives the normal quantile). NaN outside that domain, or when GSL
 * cannot invert (not seen for p = 0.975 at df >= 1).
 */
double stats_t_quantile(double p, double df);

/*
 * Flag outliers by the median/MAD rule: flag[i] = 1 when |x_i - median| > 3.5 * 1.4826 *
 * MAD (MAD: the median of |x_i - median|); when MAD is 0, the mean absolute deviation
 * times 1.2533 stands in for 1.4826 MAD (the deviations taken about the median, as for the
 * MAD), and when that is 0 too nothing is flagged. Every flag[0..n-1] is written; flag may
 * be NULL for the count alone. Returns the number flagged.
 */
size_t stats_outliers(const double *x, size_t n, int *flag);

/* A ratio and its 95% interval; NaN where it does not exist. */
struct stats_ratio {
	double value, lo, hi;
};

/*
 * The speedup of x against base for a time (smaller is better): mean(base) / mean(x),
 * with a 95% interval by the delta method (relative variances of the two means added) and
 * Student t at the Welch-Satterthwaite degrees of freedom. Needs nb, nx >= 1 for the value,
 * >= 2 each for the interval; both variances 0 give the interval [value, value]. Returns 0,
 * or -1 when a mean is not positive or either sample is empty (all NaN then).
 */
int stats_speedup(const double *base, size_t nb, const double *x, size_t nx,
    struct stats_ratio *r);

/*
 * The one-sided Mann-Whitney U test (doc/experiments.md, "Claims"): H1, x is stochastically
 * smaller than y. u is U of x, the pairs (x_i, y_j) with x_i > y_j, a tie counting one
 * half (R's W); p = P(U <= u) under H0. Exact (the distribution of U counted over every
 * split of the ranks) when nothing ties and neither sample has more than
 * STATS_MWU_EXACT_MAX values; otherwise the normal approximation with the ties correction
 * of the variance and a continuity correction of 0.5 (R's wilcox.test, correct = TRUE).
 * Every value tied (no spread) gives p = 1.
 */
#define STATS_MWU_EXACT_MAX	50

struct stats_mwu {
	double u;		/* U of x */
	double p;		/* one-sided p-value */
	int exact;		/* 1: the exact distribution, 0: the normal approximation */
};

/* Needs m, n >= 1: returns 0, or -1 (and p NaN) when a sample is empty. */
int stats_mwu_less(const double *x, size_t m, const double *y, size_t n,
    struct stats_mwu *r);

/*
 * Holm's step-down adjustment of k p-values for a family of comparisons (Holm 1979):
 * sorted increasingly, adj_(i) = max over j <= i of min(1, (k - j + 1) p_(j)); a
 * comparison is significant at level alpha when adj <= alpha. adj may be p itself.
 */
void stats_holm(const double *p, size_t k, double *adj);

/* The median of x[0..n-1] (any order, not changed); NaN when n == 0. */
double stats_median(const double *x, size_t n);

/*
 * A statistic of k samples, for the bootstrap: x[i] holds n[i] values (a resample of the
 * i-th sample). NaN when it does not exist for this resample.
 */
typedef double (*stats_boot_fn)(const double *const *x, const size_t *n, size_t k,
    void *arg);

#define STATS_BOOT_RESAMPLES	10000

/*
 * The 95% percentile bootstrap interval of stat over k independent samples (each
 * resampled with replacement to its own size, STATS_BOOT_RESAMPLES times), driven by
 * GSL's MT19937 seeded with seed: the same seed, the same interval. *lo, *hi: the 2.5%
 * and 97.5% quantiles of the resampled statistics (NaN ones left out). Returns 0, or -1
 * (both NaN) when a sample is empty or every resample's statistic is NaN.
 */
int stats_bootstrap(const double *const *x, const size_t *n, size_t k, stats_boot_fn stat,
    void *arg, unsigned long seed, double *lo, double *hi);

#endif
