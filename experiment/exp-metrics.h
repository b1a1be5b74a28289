/*
 * exp-metrics.h — the metrics of a run (doc/experiments.md, "Metrics"): the built-in ones
 * in the order of exp_builtin_metrics, then the experiment's own (its metrics:).
 */
#ifndef GS_EXP_METRICS_H
#define GS_EXP_METRICS_H

#include <stddef.h>

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

/* The built-in metrics only, of any job (gridsubmit simulate's report): values[EXP_NBUILTIN]. */
void exp_job_metrics(const char *job_id, double *values);

/*
 * The papers' metrics of a run's events file (doc/experiments.md, "Metrics"), each into
 * its slots of values, NaN where the run has none: the spread of t_exe over the rounds
 * and the first round without a dropped node (seed 000, figs. 5 and 7), the moves' median
 * time and throughput (seed 001, fig. 4).
 */
void exp_metrics_rounds(const char *events, double *values);
void exp_metrics_moves(const char *events, double *values);

/* A worker's time per unit to compute (w) and to move its data through the master (c). */
struct exp_worker_times {
	double w, c;
};

/*
 * The divisible-load lower bound of a star (doc/experiments.md): units / rho*, rho* the
 * best total rate with r_i <= 1/w_i and sum r_i c_i <= 1 (a one-port master), found by
 * giving the port to the workers in increasing c_i. Workers with w <= 0 are left out;
 * NaN when none is left.
 */
double exp_divisible_bound(const struct exp_worker_times *w, size_t n, double units);

/* The index of metric name in exp_metric_names' order, or -1. */
int exp_metric_find(const struct exp *e, const char *name);

/* Every metric's name: the built-in ones, then e's. Allocated array of borrowed names. */
const char **exp_metric_names(const struct exp *e, size_t *n);

#endif
