/*
 * launchers/smpi.c — the "smpi" launcher: the placed job simulated by SimGrid's smpirun on
 * a platform made of its placement (simulate.h, doc/simulate.md). Every rank is a thread
 * of one smpirun process on this host, in the job directory, so there is nothing to stage,
 * check or clean up elsewhere, and no gridsubmit-rank: rank 0's end is smpirun's, which
 * exits with the status of the first rank that failed (0 when every one returned 0).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "launch/launch-int.h"
#include "launch/launch.h"
#include "simulate/simulate.h"

/* A simulated plan (gridsubmit simulate, an experiment's point of mode simulate). */
static int
smpi_match(const struct launch_plan *plan)
{
	return plan->sim != NULL;
}

static int
smpi_prepare(struct launch *l, char *why, size_t whylen)
{
	const struct launch_plan *pl = &l->plan;
	char *program, *tmp;

	if ((program = sim_program(pl->job->program, why, whylen)) == NULL)
		return LAUNCH_FAILED;
	/* smpirun's temporary files: in the job directory, not in /tmp */
	xasprintf(&tmp, "%s/.smpi", pl->st->dir);
	if (mkdir(tmp, 0700) == -1 && errno != EEXIST) {
		snprintf(why, whylen, "%s: %s", tmp, strerror(errno));
		free(tmp);
		free(program);
		return LAUNCH_FAILED;
	}
	free(tmp);
	if (launch_write_placement(l, why, whylen) != 0 ||
	    sim_write_platform(pl->sites, pl->place, pl->sim, pl->st->dir, why, whylen) != 0) {
		free(program);
		return LAUNCH_FAILED;
	}
	l->argv = launch_argv_smpi(pl->job, pl->place, pl->st, pl->sim, program);
	free(program);
	launch_phase(l, JOB_LAUNCHING);
	return LAUNCH_OK;
}

/*
 * smpirun's status stands for rank 0's: the simulation is one process; a simulation that
 * stalled (smpi-stall.c) is a failure whatever the status.
 */
static void
smpi_wait(struct launch *l)
{
	struct launch_result *res = &l->res;

	launch_proc_wait(l);
	if (res->cancelled)
		return;
	res->sim_stalled = smpi_stalled(l->plan.st->dir, &res->sim_stall_at);
	if (res->mpiexec_status >= 128)
		res->master_signal = res->mpiexec_status - 128;
	else
		res->master_exit = res->mpiexec_status;
}

/* smpirun's own directory goes when it left nothing there (it keeps files of a failure). */
static void
smpi_cleanup(struct launch *l)
{
	char *path;

	xasprintf(&path, "%s/.smpi", l->plan.st->dir);
	rmdir(path);
	free(path);
}

static void
smpi_nothing(struct launch *l)
{
}

const struct launcher launcher_smpi = {
	.name = "smpi",
	.match = smpi_match,
	.prepare = smpi_prepare,
	.start = launch_proc_launch,
	.wait = smpi_wait,
	.cancel = launch_proc_call_off,
	.cleanup = smpi_cleanup,
	.release = smpi_nothing,
};
