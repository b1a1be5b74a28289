/*
 * stats-rank.c — the rank test of an experiment's claims: the one-sided Mann-Whitney U
 * test, exact for small samples without ties and by the normal approximation otherwise,
 * and Holm's adjustment of a family of p-values (stats.h). Chosen over a t test because
 * run times are skewed (a slow node, a retry) and the runs per point are few: the test
 * asks only whether one group's runs tend to be smaller, not what shape they have.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>

#include "common/xmalloc.h"
#include "experiment/stats.h"

/* One value of the pooled sample and where it came from. */
struct sr_item {
	double v;
	int from_x;
};

/* qsort's order of pooled values: increasing. */
static int
sr_cmp(const void *a, const void *b)
{
	const struct sr_item *p = a, *q = b;

	return (p->v > q->v) - (p->v < q->v);
}

/*
 * The pooled sample's midranks: R, the sum of x's ranks, and T, the sum of t^3 - t over
 * the groups of t tied values (0 when nothing ties).
 */
static void
sr_ranks(const double *x, size_t m, const double *y, size_t n, double *rx, double *ties)
{
	struct sr_item *it = xcalloc(m + n, sizeof *it);
	size_t i, j, k, N = m + n;
	double mid, t;

	for (i = 0; i < m; i++)
		it[i] = (struct sr_item){ x[i], 1 };
	for (i = 0; i < n; i++)
		it[m + i] = (struct sr_item){ y[i], 0 };
	qsort(it, N, sizeof *it, sr_cmp);
	*rx = *ties = 0;
	for (i = 0; i < N; i = j) {
		for (j = i + 1; j < N && it[j].v == it[i].v; j++)
			;
		/* ranks i+1..j share their mean */
		mid = ((double)(i + 1) + (double)j) / 2;
		for (k = i; k < j; k++)
			if (it[k].from_x)
				*rx += mid;
		t = (double)(j - i);
		*ties += t * t * t - t;
	}
	free(it);
}

/*
 * P(U <= u) under H0 without ties: the number of arrangements of m x's among m + n ranks
 * with U = v is the coefficient of q^v in the Gaussian binomial [m+n, m]_q, built by
 * c(v; i, j) = c(v - j; i - 1, j) + c(v; i, j - 1) (Mann and Whitney 1947), one row per i,
 * updated in place as j grows. Counts reach C(100, 50) ~ 1e29 at the cap: exact enough in
 * doubles for a p-value.
 */
static double
sr_exact_cdf(size_t m, size_t n, double u)
{
	size_t max = m * n, i, j, v;
	double **c = xcalloc(m + 1, sizeof *c), below = 0, all = 0;

	for (i = 0; i <= m; i++) {
		c[i] = xcalloc(max + 1, sizeof **c);
		c[i][0] = 1;	/* j = 0: only U = 0 */
	}
	for (j = 1; j <= n; j++)
		for (i = 1; i <= m; i++)
			/* c[i] still holds j - 1's counts, c[i - 1] already j's */
			for (v = j; v <= i * j; v++)
				c[i][v] += c[i - 1][v - j];
	for (v = 0; v <= max; v++) {
		all += c[m][v];
		if ((double)v <= u + 1e-9)
			below += c[m][v];
	}
	for (i = 0; i <= m; i++)
		free(c[i]);
	free(c);
	return below / all;
}

int
stats_mwu_less(const double *x, size_t m, const double *y, size_t n, struct stats_mwu *r)
{
	double rx, ties, N, mu, var, z;

	r->u = r->p = NAN;
	r->exact = 0;
	if (m == 0 || n == 0)
		return -1;
	sr_ranks(x, m, y, n, &rx, &ties);
	r->u = rx - (double)m * ((double)m + 1) / 2;
	if (ties == 0 && m <= STATS_MWU_EXACT_MAX && n <= STATS_MWU_EXACT_MAX) {
		r->exact = 1;
		r->p = sr_exact_cdf(m, n, r->u);
		return 0;
	}
	N = (double)(m + n);
	mu = (double)m * (double)n / 2;
	var = (double)m * (double)n / 12 * ((N + 1) - ties / (N * (N - 1)));
	if (!(var > 0)) {
		r->p = 1;	/* every value the same: nothing tells the groups apart */
		return 0;
	}
	/* continuity: U moves in steps of 1/2 at least; the lower tail is read at u + 1/2 */
	z = (r->u - mu + 0.5) / sqrt(var);
	r->p = gsl_cdf_ugaussian_P(z);
	return 0;
}

void
stats_holm(const double *p, size_t k, double *adj)
{
	size_t *idx = xcalloc(k + 1, sizeof *idx), i;
	double run = 0, a;

	gsl_sort_index(idx, p, 1, k);
	for (i = 0; i < k; i++) {
		a = (double)(k - i) * p[idx[i]];
		if (a > 1)
			a = 1;
		if (a < run)
			a = run;	/* step-down: never below an earlier one */
		run = a;
		adj[idx[i]] = a;
	}
	free(idx);
}
