/*
 * exp-run.h — running an experiment's runs as jobs (exp-run.c), for cmd-experiment.c.
 */
#ifndef GS_EXP_RUN_H
#define GS_EXP_RUN_H

#include <stddef.h>

#include "experiment/exp-store.h"
#include "experiment/exp.h"

struct exp_runner {
	const struct exp *e;
	struct exp_store *store;
	const char *dir;		/* the experiment's results directory */
	const char *sites;		/* the site file the jobs use, or NULL: the default */
	const char **names;		/* every metric (exp_metric_names) */
	size_t nnames;
	/* say that run r failed (reason), above the progress line */
	void (*failed_line)(struct exp_runner *x, const struct exp_run *r,
	    const char *reason);
	void *ctx;			/* the caller's, for failed_line */
	int lock_fd;			/* the experiment's lock, closed in every job's process */
};

/*
 * Run r as a job and record its end (done, failed or interrupted) with its metrics.
 * Returns the job's exit code (EXIT_OK done, EXIT_CANCELLED when it was interrupted).
 */
int exp_runner_one(struct exp_runner *x, const struct exp_run *r);

/* Settle a run a killed experiment left "running" (exp-run.c). */
void exp_runner_settle(struct exp_runner *x, const struct exp_run *r);

/*
 * testbed: F (exp-testbed.c): bring F's testbed up unless it is (*brought_up 1 when we
 * did) and return its derived site file (allocated), or NULL when it could not be
 * brought up (said). exp_testbed_down takes it down again.
 */
char *exp_testbed_up(const struct exp *e, const char *dir, int *brought_up);
void exp_testbed_down(const struct exp *e, const char *dir);

#endif
