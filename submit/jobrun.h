/*
 * jobrun.h — one job from its files to its end (see jobrun.c); shared by `run` (foreground)
 * and `submit` (detached supervisor).
 */
#ifndef GS_JOBRUN_H
#define GS_JOBRUN_H

#include "broker.h"
#include "cmd.h"
#include "jobstore.h"
#include "launch.h"

struct jobrun_args {
	const char *job;	/* the job file */
	const char *sites;	/* site file, or NULL for the embedded default */
	const char *scheme;	/* --scheme, or NULL */
	int ranks;		/* --ranks, or 0 */
	int metrics;		/* 1: fetch live metrics before ranking */
	int speculate;		/* 1: multi-site preflight while mpiexec starts (jobrun.c) */
};

struct jobrun {
	struct gs_sites sites;
	struct gs_job job;
	struct gs_ranking ranking;
	struct gs_placement place;
	struct job_state st;
	struct launch launch;	/* the launcher's, from jobrun_prepare on */
	int loaded, ranked, placed;
};

/*
 * Load, rank, place, make the job directory and prepare the launch (launch.h): for a
 * multi-site job also the preflight, unless a->speculate leaves it to the launch's start.
 * Returns EXIT_OK, or the exit code with the error printed (and, once the job exists,
 * recorded as failed).
 */
int jobrun_prepare(const struct jobrun_args *a, struct jobrun *jr);

/* Launch and supervise to the end (with the console when top); returns the exit code. */
int jobrun_execute(struct jobrun *jr, int top);

/* The program's output, the final line and where the results are, on stdout. */
void jobrun_report(struct jobrun *jr, int code);

void jobrun_free(struct jobrun *jr);

/* Parse the options of run and submit (top is NULL for submit: no --top). */
void jobrun_parse(int argc, char **argv, const struct cmd_entry *cmd, struct jobrun_args *a,
    int *top);

#endif
