/*
 * exp-run.h — running an experiment's runs as jobs (exp-run.c), for cmd-experiment.c.
 */
#ifndef GS_EXP_RUN_H
#define GS_EXP_RUN_H

#include <stddef.h>

#include "experiment/exp-store.h"
#include "experiment/exp.h"
#include "simulate/simulate.h"

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

	/* with site parameters (exp-sites.c): the group of points whose file is in use */
	size_t group;			/* its first point, or (size_t)-1: none yet */
	char *group_file;		/* the site file with the group's values laid over it */
	char *group_sites;		/* what the runs use: group_file, or its testbed's derived one */
	int group_use;			/* the lock of group_file's testbed while we use it, or -1 */
};

/*
 * Run r as a job and record its end (done, failed or interrupted) with its metrics.
 * Returns the job's exit code (EXIT_OK done, EXIT_CANCELLED when it was interrupted).
 */
int exp_runner_one(struct exp_runner *x, const struct exp_run *r);

/* Settle a run a killed experiment left "running" (exp-run.c). */
void exp_runner_settle(struct exp_runner *x, const struct exp_run *r);

/*
 * testbed: F (exp-testbed.c): bring the testbed of file (F, or F with a point's site
 * parameters laid over it) up unless it is, and return its derived site file (allocated),
 * or NULL when it could not be brought up (said). real 0: only simulated runs use it: it
 * is not brought up, and the derived file is returned when it is up, else file. *use is
 * the testbed's lock, held while the experiment uses it (-1: none). own 1: the testbed is
 * the experiment's own (a group's), taken down at the end even when a killed run of it
 * left it up. exp_testbed_down leaves it (use -1: nothing to do), taking it down when no
 * other experiment uses it and an experiment brought it up.
 */
char *exp_testbed_up(const struct exp *e, const char *file, int real, int own,
    const char *dir, int *use);
void exp_testbed_down(const struct exp *e, const char *file, const char *dir, int use);

/*
 * A testbed shared by experiments (exp-testbed-share.c), named by its site file. guard:
 * the lock under which one experiment at a time joins or leaves, held (closing the
 * descriptor releases it). join: the users' lock, held shared while the experiment uses
 * the testbed. Both -1 when they cannot be had (said; the experiment runs unshared).
 * last: 1 when the users' lock could be made exclusive, no other experiment holding it.
 * mark: a testbed brought up by an experiment (marked 1) or taken down (0); marked: 1
 * when it is so, and the mark was made for the testbed that is up now.
 */
int exp_share_guard(const char *file);
int exp_share_join(const char *file);
int exp_share_last(int fd);
void exp_share_mark(const char *file, int marked);
int exp_share_marked(const char *file);

/*
 * Site parameters (exp-sites.c): before a run of point, x->sites is the site file with
 * the point's values laid over it (written in the results directory's sites/), on a
 * testbed experiment the derived file of its testbed, brought up when the point's group
 * has a point that is not simulated (the one of the group before taken down, when we
 * brought it up). 0, or -1 when the testbed could not be brought up or the file written
 * (said). exp_sites_leave takes the last group's testbed down. Without site parameters
 * both do nothing.
 */
int exp_sites_enter(struct exp_runner *x, size_t point);
void exp_sites_leave(struct exp_runner *x);

/*
 * The simulate parameters of point (exp-simopts.c) into o (its cfg allocated); -1 with
 * err at the value, naming file (the experiment file as given).
 */
int exp_sim_opts(const struct exp *e, size_t point, const char *file, struct sim_opts *o,
    struct gs_error *err);

/* --only PARAM=VALUE (exp-only.c): the value index of each given parameter. */
struct exp_only {
	size_t *param, *value;
	size_t n;
};

/* Add arg to o: 0, or -1 with why naming the parameter or value e does not have. */
int exp_only_add(struct exp_only *o, const struct exp *e, const char *arg, char *why,
    size_t whylen);
/* 1 when point matches o (every o of none). */
int exp_only_match(const struct exp_only *o, const struct exp *e, size_t point);
void exp_only_free(struct exp_only *o);

#endif
