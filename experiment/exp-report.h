/*
 * exp-report.h — an experiment's reports (doc/experiments.md, "Reports"), written from
 * its store into its results directory: results.csv and results.json (a row per run, every
 * parameter and metric), summary.md (statistics per point, speedups against the baseline,
 * outliers, failed runs, the report's table) and the report's plots. Each file is written
 * whole under a temporary name and renamed.
 */
#ifndef GS_EXP_REPORT_H
#define GS_EXP_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "experiment/exp-store.h"
#include "experiment/exp.h"

struct exp_report {
	const struct exp *e;
	const struct exp_run *runs;	/* every run, in order */
	size_t nruns;
	const char *const *names;	/* every metric (exp_metric_names) */
	size_t nnames;
	uint64_t seed;
	const char *dir;		/* where the files go */
};

/* Write every report. Returns 0, or -1 with why (the files written so far stay). */
int exp_report_write(const struct exp_report *r, char *why, size_t whylen);

/* The parts, for exp_report_write (exp-report-*.c). */
int exp_report_rows(const struct exp_report *r, char *why, size_t whylen);
int exp_report_summary(const struct exp_report *r, char *why, size_t whylen);
int exp_report_plots(const struct exp_report *r, char *why, size_t whylen);

/*
 * The values of metric m over the done runs of the points that match: every parameter
 * named in keys[] (nkeys of them) has the value vals[] (texts). An allocated array (NULL
 * when none) and its length in *n; NaN values are left out.
 */
double *exp_report_values(const struct exp_report *r, size_t m, const char *const *keys,
    const char *const *vals, size_t nkeys, size_t *n);

/* stat (median, mean, min, max, sd, n) of v[0..n-1]. */
double exp_report_stat(const char *stat, const double *v, size_t n);

/* results.json's document (schema_version, the experiment, every run). */
json_t *exp_report_json(const struct exp_report *r);


#endif
