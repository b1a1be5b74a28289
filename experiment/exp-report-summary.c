/*
 * exp-report-summary.c — summary.md: the runs' states, then per point the statistics of
 * the report's value metric (n, median, mean, sd, min, max, the 95% interval of the mean,
 * the speedup against the baseline with its interval, outliers by the median/MAD rule,
 * flagged and never dropped, and failed runs), then the report's table, then the claims'
 * verdicts (exp-claim.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "experiment/exp-claim.h"
#include "experiment/exp-metrics.h"
#include "experiment/exp-report.h"
#include "experiment/stats.h"

static void
ers_num(FILE *f, double v)
{
	if (isnan(v))
		fputs(" – |", f);
	else
		fprintf(f, " %.4g |", v);
}

/* The runs of point p: done values of metric m (and their run ids), failed count. */
static double *
ers_point_values(const struct exp_report *r, size_t p, size_t m, int64_t **ids, size_t *n,
    size_t *failed)
{
	double *v = xcalloc(r->nruns + 1, sizeof *v);
	size_t i;

	*ids = xcalloc(r->nruns + 1, sizeof **ids);
	*n = *failed = 0;
	for (i = 0; i < r->nruns; i++) {
		const struct exp_run *x = &r->runs[i];

		if (x->point != p)
			continue;
		if (x->state == EXP_FAILED)
			(*failed)++;
		if (x->state != EXP_DONE || isnan(x->values[m]))
			continue;
		(*ids)[*n] = x->id;
		v[(*n)++] = x->values[m];
	}
	return v;
}

static void
ers_speedup(FILE *f, const struct exp_report *r, size_t p, size_t m, const double *v,
    size_t n)
{
	size_t b = exp_baseline_point(r->e, p), nb, nf;
	struct stats_ratio s;
	int64_t *ids;
	double *bv;

	if (b == (size_t)-1) {
		fputs(" – |", f);
		return;
	}
	bv = ers_point_values(r, b, m, &ids, &nb, &nf);
	if (stats_speedup(bv, nb, v, n, &s) != 0 || isnan(s.value))
		fputs(" – |", f);
	else if (isnan(s.lo))
		fprintf(f, " %.3f |", s.value);
	else
		fprintf(f, " %.3f [%.3f, %.3f] |", s.value, s.lo, s.hi);
	free(bv);
	free(ids);
}

static void
ers_points(FILE *f, const struct exp_report *r, size_t m)
{
	const struct exp *e = r->e;
	struct stats_summary s;
	size_t p, k, n, failed;
	int64_t *ids;
	double *v;
	int *flag;

	fprintf(f, "\n## Points: %s\n\n| point |", r->names[m]);
	for (k = 0; k < e->nparams; k++)
		fprintf(f, " %s |", e->params[k].name);
	fprintf(f, " n | failed | median | mean | sd | min | max | 95%% CI of the mean | "
	    "speedup vs baseline [95%% CI] | outliers (run: value) |\n|---|");
	for (k = 0; k < e->nparams + 10; k++)
		fputs("---|", f);
	fputc('\n', f);
	for (p = 0; p < e->npoints; p++) {
		v = ers_point_values(r, p, m, &ids, &n, &failed);
		stats_summarize(v, n, &s);
		fprintf(f, "| %zu |", p + 1);
		for (k = 0; k < e->nparams; k++)
			fprintf(f, " %s |", exp_point_text(e, p, k));
		fprintf(f, " %zu | %zu |", n, failed);
		ers_num(f, s.median);
		ers_num(f, s.mean);
		ers_num(f, s.sd);
		ers_num(f, s.min);
		ers_num(f, s.max);
		if (isnan(s.ci_lo))
			fputs(" – |", f);
		else
			fprintf(f, " [%.4g, %.4g] |", s.ci_lo, s.ci_hi);
		ers_speedup(f, r, p, m, v, n);
		flag = xcalloc(n + 1, sizeof *flag);
		stats_outliers(v, n, flag);
		for (k = 0; k < n; k++)
			if (flag[k])
				fprintf(f, " %lld: %.4g", (long long)ids[k], v[k]);
		fputs(" |\n", f);
		free(flag);
		free(v);
		free(ids);
	}
}

double
exp_report_stat(const char *stat, const double *v, size_t n)
{
	struct stats_summary s;

	stats_summarize(v, n, &s);
	if (strcmp(stat, "mean") == 0)
		return s.mean;
	if (strcmp(stat, "min") == 0)
		return s.min;
	if (strcmp(stat, "max") == 0)
		return s.max;
	if (strcmp(stat, "sd") == 0)
		return s.sd;
	if (strcmp(stat, "n") == 0)
		return (double)n;
	return s.median;
}

/* report.table: rows x cols of the stat of value over the matching runs (others pooled). */
static void
ers_table(FILE *f, const struct exp_report *r)
{
	const struct exp *e = r->e;
	const struct exp_param *rows = &e->params[exp_param_find(e, e->table.rows)];
	const struct exp_param *cols = e->table.cols != NULL ?
	    &e->params[exp_param_find(e, e->table.cols)] : NULL;
	size_t i, j, ncols = cols != NULL ? cols->nvalues : 1, n;
	int m = exp_metric_find(r->e, r->e->table.value);
	const char *keys[2], *vals[2];
	double *v;

	fprintf(f, "\n## Table: %s of %s\n\n| %s%s%s |", e->table.stat, e->table.value,
	    rows->name, cols != NULL ? " \\ " : "", cols != NULL ? cols->name : "");
	for (j = 0; j < ncols; j++)
		fprintf(f, " %s |", cols != NULL ? cols->texts[j] : e->table.value);
	fputs("\n|---|", f);
	for (j = 0; j < ncols; j++)
		fputs("---|", f);
	fputc('\n', f);
	for (i = 0; i < rows->nvalues; i++) {
		fprintf(f, "| %s |", rows->texts[i]);
		for (j = 0; j < ncols; j++) {
			keys[0] = rows->name;
			vals[0] = rows->texts[i];
			if (cols != NULL) {
				keys[1] = cols->name;
				vals[1] = cols->texts[j];
			}
			v = exp_report_values(r, (size_t)m, keys, vals, cols != NULL ? 2 : 1, &n);
			ers_num(f, n > 0 ? exp_report_stat(e->table.stat, v, n) : NAN);
			free(v);
		}
		fputc('\n', f);
	}
}

int
exp_report_summary(const struct exp_report *r, char *why, size_t whylen)
{
	const struct exp *e = r->e;
	struct exp_claim_result *claims;
	size_t count[5] = { 0 }, i, len = 0, nclaims;
	char *buf = NULL, *rep;
	FILE *f = open_memstream(&buf, &len);
	int rc, m = exp_metric_find(r->e, r->e->table.value);

	for (i = 0; i < r->nruns; i++)
		count[r->runs[i].state]++;
	fprintf(f, "# Experiment %s\n\n", e->name);
	fprintf(f, "- file: `%s` (hash %s)\n- seed: %llu, order: %s\n", e->path, e->hash,
	    (unsigned long long)r->seed, e->random_order ? "random" : "sequential");
	rep = exp_repeat_label(e);
	fprintf(f, "- %zu points x %s repetitions = %zu runs: %zu done, %zu failed, %zu "
	    "interrupted, %zu pending, %zu running\n", e->npoints, rep, r->nruns,
	    count[EXP_DONE], count[EXP_FAILED], count[EXP_INTERRUPTED], count[EXP_PENDING],
	    count[EXP_RUNNING]);
	free(rep);
	if (e->nbaseline > 0) {
		fputs("- baseline:", f);
		for (i = 0; i < e->nbaseline; i++)
			fprintf(f, " %s=%s", e->baseline_keys[i], e->baseline_vals[i]);
		fputs(" (speedup = its mean / the point's mean, for times)\n", f);
	}
	fputs("- statistics: doc/experiments.md, \"Statistics\" (95% CI: Student t; "
	    "outliers: |x - median| > 3.5 x 1.4826 MAD, flagged, never dropped)\n", f);
	ers_points(f, r, (size_t)m);
	ers_table(f, r);
	claims = exp_claims_eval(r, &nclaims);
	exp_claims_markdown(f, claims, nclaims);
	exp_claim_results_free(claims, nclaims);
	fclose(f);
	rc = exp_write_file(r->dir, "summary.md", buf, len, why, whylen);
	free(buf);
	return rc;
}
