/*
 * exp-metrics.h — the metrics of a run (doc/experiments.md, "Metrics"): the built-in ones
 * in the order of exp_builtin_metrics, then the experiment's own (its metrics:).
 */
#ifndef GS_EXP_METRICS_H
#define GS_EXP_METRICS_H

#include <stddef.h>

#include "experiment/exp-bound.h"
#include "experiment/exp.h"

enum {
	EXP_M_MAKESPAN,
	EXP_M_WALL,
	EXP_M_EFFICIENCY,
	EXP_M_IMBALANCE,
	EXP_M_REQUEUED,
	EXP_M_FAILED,
	EXP_M_MIGRATIONS,
	EXP_M_LOAD_BEFORE,
	EXP_M_SD_EXE_FIRST,	/* exp-metrics-rounds.c */
	EXP_M_SD_EXE_LAST,
	EXP_M_SD_EXE_FALL,
	EXP_M_DROP_ROUND,
	EXP_M_MOVE_S,		/* exp-metrics-moves.c */
	EXP_M_MOVE_MBPS,
	EXP_NBUILTIN
};

/*
 * The metrics of job job_id (its job directory in the store) into values[EXP_NBUILTIN +
 * e->nmetrics]: NaN where the run has none (no end record, no match in its stdout). The
 * load before the run is the runner's to fill (it is read when the job is placed).
 */
void exp_run_metrics(const struct exp *e, const char *job_id, double *values);

/*
 * The built-in metrics only, of any job (gridsubmit simulate's report):
 * values[EXP_NBUILTIN], and the bound behind its efficiency into *b (NULL: not wanted).
 */
void exp_job_metrics(const char *job_id, double *values, struct exp_bound *b);

/*
 * The papers' metrics of a run's events file (doc/experiments.md, "Metrics"), each into
 * its slots of values, NaN where the run has none: the spread of t_exe over the rounds
 * and the first round without a dropped node (seed 000, figs. 5 and 7), the moves' median
 * time and throughput (seed 001, fig. 4).
 */
void exp_metrics_rounds(const char *events, double *values);
void exp_metrics_moves(const char *events, double *values);

/*
 * The built-in metrics of the last launch recorded in job directory dir (events.jsonl,
 * rankmap, platform.xml or sites.yaml; no store needed: benches read their own runs)
 * into values[EXP_NBUILTIN], wall left NaN, and its bound into *b (NULL: not wanted).
 */
void exp_dir_metrics(const char *dir, double *values, struct exp_bound *b);

/*
 * The speed of the node of each rank r < n of job directory dir into speed[r] (0 where
 * unknown), from its platform.xml (a simulation: exact) or its rank map's cpu_mhz times
 * the node's cpu_scale in its sites.yaml. Returns where they came from: "platform",
 * "site file", or "none" (no rank map).
 */
const char *exp_speeds(const char *dir, double *speed, size_t n);

/* The index of metric name in exp_metric_names' order, or -1. */
int exp_metric_find(const struct exp *e, const char *name);

/* Every metric's name: the built-in ones, then e's. Allocated array of borrowed names. */
const char **exp_metric_names(const struct exp *e, size_t *n);

#endif
