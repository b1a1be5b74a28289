/*
 * exp-report-plot.c — the report's plots (report.plots) through plot.h: per series value
 * (or one series), a point per value of x: the mean of y with its 95% interval or its sd
 * as bars, or the median with min..max or no bars; the runs of points that differ in
 * other parameters are pooled.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "experiment/exp-metrics.h"
#include "experiment/exp-report.h"
#include "experiment/plot.h"
#include "experiment/stats.h"

static void
erp_point(const struct exp_plot *pl, const double *v, size_t n, struct plot_point *pt)
{
	struct stats_summary s;

	stats_summarize(v, n, &s);
	pt->lo = pt->hi = NAN;
	if (strcmp(pl->errorbars, "ci95") == 0 || strcmp(pl->errorbars, "sd") == 0) {
		pt->y = s.mean;
		if (strcmp(pl->errorbars, "ci95") == 0) {
			pt->lo = s.ci_lo;
			pt->hi = s.ci_hi;
		} else if (!isnan(s.sd)) {
			pt->lo = s.mean - s.sd;
			pt->hi = s.mean + s.sd;
		}
		return;
	}
	pt->y = s.median;
	if (strcmp(pl->errorbars, "minmax") == 0) {
		pt->lo = s.min;
		pt->hi = s.max;
	}
}

static int
erp_one(const struct exp_report *r, const struct exp_plot *pl, char *why, size_t whylen)
{
	const struct exp *e = r->e;
	const struct exp_param *x = &e->params[exp_param_find(e, pl->x)];
	const struct exp_param *sp = pl->series != NULL ?
	    &e->params[exp_param_find(e, pl->series)] : NULL;
	size_t ns = sp != NULL ? sp->nvalues : 1, i, j, n;
	struct plot_series *series = xcalloc(ns, sizeof *series);
	struct plot_point *pts = xcalloc(ns * x->nvalues, sizeof *pts);
	const char *keys[2], *vals[2];
	struct plot_spec spec;
	char *title;
	double *v;
	int rc, m = exp_metric_find(r->e, pl->y);

	for (i = 0; i < ns; i++) {
		series[i].name = sp != NULL ? sp->texts[i] : pl->y;
		series[i].points = &pts[i * x->nvalues];
		for (j = 0; j < x->nvalues; j++) {
			struct plot_point *pt = &pts[i * x->nvalues + j];

			keys[0] = x->name;
			vals[0] = x->texts[j];
			if (sp != NULL) {
				keys[1] = sp->name;
				vals[1] = sp->texts[i];
			}
			v = exp_report_values(r, (size_t)m, keys, vals, sp != NULL ? 2 : 1, &n);
			pt->x = x->texts[j];
			erp_point(pl, v, n, pt);
			free(v);
		}
		series[i].npoints = x->nvalues;
	}
	xasprintf(&title, "%s: %s by %s", e->name, pl->y, pl->x);
	memset(&spec, 0, sizeof spec);
	spec.dir = r->dir;
	spec.base = pl->file;
	spec.title = title;
	spec.xlabel = pl->x;
	spec.ylabel = pl->y;
	spec.errorbars = strcmp(pl->errorbars, "none") != 0;
	spec.series = series;
	spec.nseries = ns;
	rc = plot_write(&spec, why, whylen);
	free(title);
	free(pts);
	free(series);
	return rc;
}

int
exp_report_plots(const struct exp_report *r, char *why, size_t whylen)
{
	size_t i;

	for (i = 0; i < r->e->nplots; i++)
		if (erp_one(r, &r->e->plots[i], why, whylen) != 0)
			return -1;
	return 0;
}
