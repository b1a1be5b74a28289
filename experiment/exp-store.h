/*
 * exp-store.h — an experiment's results in SQLite (doc/experiments.md, "The store"):
 * $GRIDSUBMIT_HOME/experiments/NAME/results.db holds the experiment (its file's hash and
 * seed), its points with their parameters, its runs (state, job id, seed, times) and each
 * run's metrics. Every change of a run's state is one transaction, made durable before
 * the call returns (WAL, synchronous=FULL), so a killed experiment leaves a consistent
 * store that the next run of the command resumes from.
 */
#ifndef GS_EXP_STORE_H
#define GS_EXP_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "experiment/exp.h"

enum exp_run_state {
	EXP_PENDING,
	EXP_RUNNING,
	EXP_DONE,
	EXP_FAILED,
	EXP_INTERRUPTED
};

struct exp_run {
	int64_t id;
	size_t point;		/* 0-based */
	int rep;		/* 1-based */
	int seq;		/* its place in the order of runs, 1-based */
	uint64_t seed;		/* {seed} of the run */
	enum exp_run_state state;
	char job_id[32];	/* "" before its job exists */
	double started, ended;	/* seconds since the epoch; 0 unset */
	int exit_code;		/* of the job, -1 unset */
	char *reason;		/* why it failed, or NULL */
	int attempts;		/* times it was started */
	double *values;		/* metrics in exp_metric_names order; NaN: none */
};

struct exp_store;

const char *exp_run_state_name(enum exp_run_state s);

/*
 * Open (create with the schema when missing) the store at path. Returns the store, or
 * NULL with why ("path: message").
 */
struct exp_store *exp_store_open(const char *path, char *why, size_t whylen);
void exp_store_close(struct exp_store *s);

/*
 * The stored experiment's hash, seed and (when file is not NULL, allocated) file: 1 when
 * the store holds one, 0 when it is new, -1 with why on error.
 */
int exp_store_meta(struct exp_store *s, char hash[17], uint64_t *seed, char **file,
    char *why, size_t whylen);

/*
 * A new store's contents in one transaction: the experiment row (file, hash, seed), its
 * points, and points x repeat runs in the order of the file (sequential) or shuffled
 * with seed (random); each run's own seed derived from seed. 0, or -1 with why.
 */
int exp_store_init(struct exp_store *s, const struct exp *e, uint64_t seed, char *why,
    size_t whylen);

/*
 * Every run in order (seq), with its metrics (values: nmetrics entries, in the order of
 * names). Free with exp_runs_free. 0, or -1 with why.
 */
int exp_store_runs(struct exp_store *s, const char *const *names, size_t nmetrics,
    struct exp_run **runs, size_t *nruns, char *why, size_t whylen);
void exp_runs_free(struct exp_run *runs, size_t n);

/* The run starts: running, started, attempts + 1, no job yet. 0, or -1 with why. */
int exp_store_start(struct exp_store *s, int64_t run, double started, char *why,
    size_t whylen);

/* The run's job exists: its id. 0, or -1 with why. */
int exp_store_job(struct exp_store *s, int64_t run, const char *job_id, char *why,
    size_t whylen);

/*
 * The run ended (done, failed or interrupted) with its metrics (names[i] = values[i];
 * NaN values are not stored), in one transaction: earlier metrics of the run are
 * replaced. 0, or -1 with why.
 */
int exp_store_end(struct exp_store *s, int64_t run, enum exp_run_state state, double ended,
    int exit_code, const char *reason, const char *const *names, const double *values,
    size_t n, char *why, size_t whylen);

#endif
