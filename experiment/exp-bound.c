/*
 * exp-bound.c — the divisible-load bound of a run from its total work and its ranks'
 * speeds (exp-bound.h, doc/experiments.md "The bound").
 *
 * Why not the classical star LP (units / rho*, rho* = max sum r_i, r_i <= 1/w_i, sum r_i
 * c_i <= 1) over each worker's own w_i = t_calc_i / units_i, as before: on an irregular
 * loop a worker that drew cheap units looks fast and inflates rho* (static mandelbrot on
 * tiger: 0.0037), and a noisy slope inflates the port term (gss on 2,000 simulated nodes:
 * 11.1). The compute term here cannot exceed the makespan whatever the speeds: W / sum s_i
 * = sum s_i T_i / sum s_i <= max T_i, each T_i (a rank's computing time) within the
 * makespan. The LP that couples units and work is not a bound on an irregular loop either
 * (a worker behind a slow link can draw few, costly units), so the port term is the
 * weaker one that holds for any split: every unit crosses the port at least at the
 * cheapest cost.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "experiment/exp-bound.h"

/* The largest speed of r, or 0 when any is unknown (then all count as equal). */
static double
eb_fastest(const struct exp_bound_rank *r, size_t n)
{
	double top = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!(r[i].speed > 0) || !isfinite(r[i].speed))
			return 0;
		if (r[i].speed > top)
			top = r[i].speed;
	}
	return top;
}

/* U x the cheapest port cost, or 0 when the master computed or a cost is unknown. */
static double
eb_port(const struct exp_bound_rank *r, size_t n, double units)
{
	double cmin = INFINITY;
	size_t i;

	for (i = 0; i < n; i++) {
		if (r[i].master) {
			if (r[i].units > 0)
				return 0;
			continue;
		}
		if (isnan(r[i].c))
			return 0;
		if (r[i].c < cmin)
			cmin = r[i].c;
	}
	return isfinite(cmin) && cmin > 0 ? units * cmin : 0;
}

void
exp_bound_star(const struct exp_bound_rank *r, size_t n, double makespan,
    struct exp_bound *b)
{
	double top = eb_fastest(r, n), sum = 0, s;
	size_t i;

	memset(b, 0, sizeof *b);
	b->equal_speeds = top == 0;
	for (i = 0; i < n; i++) {
		s = top > 0 ? r[i].speed / top : 1;
		sum += s;
		b->work += r[i].t_calc * s;
		b->units += r[i].units;
	}
	if (b->units <= 0 || b->work <= 0 || sum <= 0) {
		b->t_lb = b->compute = NAN;
		return;
	}
	b->compute = b->work / sum;
	b->port = eb_port(r, n, b->units);
	if (makespan > 0 && b->port > makespan) {
		b->port = 0;
		b->port_dropped = 1;
	}
	b->t_lb = b->port > b->compute ? b->port : b->compute;
}

static int
eb_cmp(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

/* The median of v[0..n) (sorted in place); n > 0. */
static double
eb_median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, eb_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Points ordered by x, then y. */
static int
eb_cmp_pt(const void *a, const void *b)
{
	const double *p = a, *q = b;

	if (p[0] != q[0])
		return (p[0] > q[0]) - (p[0] < q[0]);
	return (p[1] > q[1]) - (p[1] < q[1]);
}

double
exp_bound_slope(const double *x, const double *y, size_t n)
{
	double (*pt)[2], *v, xl, xu, yl, yu;
	size_t i, h = n / 2;

	if (n < 2)
		return NAN;
	pt = xcalloc(n, sizeof *pt);
	v = xcalloc(n, sizeof *v);
	for (i = 0; i < n; i++) {
		pt[i][0] = x[i];
		pt[i][1] = y[i];
	}
	qsort(pt, n, sizeof *pt, eb_cmp_pt);
	/* the lower half is the first h points, the upper the last h (a middle one left out) */
	for (i = 0; i < h; i++)
		v[i] = pt[i][0];
	xl = eb_median(v, h);
	for (i = 0; i < h; i++)
		v[i] = pt[i][1];
	yl = eb_median(v, h);
	for (i = 0; i < h; i++)
		v[i] = pt[n - h + i][0];
	xu = eb_median(v, h);
	for (i = 0; i < h; i++)
		v[i] = pt[n - h + i][1];
	yu = eb_median(v, h);
	free(pt);
	free(v);
	return xu > xl ? (yu - yl) / (xu - xl) : NAN;
}
