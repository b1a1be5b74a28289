/*
 * exp-report.c — the reports of an experiment (exp-report.h): the entry point and what
 * the three kinds of report share (the values of a metric over matching runs, atomic files).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "experiment/exp-report.h"

static int
er_point_matches(const struct exp *e, size_t point, const char *const *keys,
    const char *const *vals, size_t nkeys)
{
	size_t i;
	int k;

	for (i = 0; i < nkeys; i++)
		if ((k = exp_param_find(e, keys[i])) >= 0 &&
		    strcmp(exp_point_text(e, point, (size_t)k), vals[i]) != 0)
			return 0;
	return 1;
}

double *
exp_report_values(const struct exp_report *r, size_t m, const char *const *keys,
    const char *const *vals, size_t nkeys, size_t *n)
{
	double *v = NULL;
	size_t i;

	*n = 0;
	for (i = 0; i < r->nruns; i++) {
		const struct exp_run *x = &r->runs[i];

		if (x->state != EXP_DONE || isnan(x->values[m]) ||
		    !er_point_matches(r->e, x->point, keys, vals, nkeys))
			continue;
		v = xreallocarray(v, *n + 1, sizeof *v);
		v[(*n)++] = x->values[m];
	}
	return v;
}

int
exp_report_write(const struct exp_report *r, char *why, size_t whylen)
{
	if (exp_report_rows(r, why, whylen) != 0 || exp_report_summary(r, why, whylen) != 0)
		return -1;
	return exp_report_plots(r, why, whylen);
}
