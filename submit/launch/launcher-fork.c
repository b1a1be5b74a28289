/*
 * launcher-fork.c — the "fork" launcher: every rank on this host, started by hydra's own
 * fork launcher. Nothing to check, stage or clean up elsewhere.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "launch-int.h"
#include "launch.h"

static int
fork_prepare(struct launch *l, char *why, size_t whylen)
{
	if (launch_write_command(l, NULL, why, whylen) != 0)
		return LAUNCH_FAILED;
	launch_phase(l, JOB_LAUNCHING);
	return LAUNCH_OK;
}

static int
fork_start(struct launch *l, char *why, size_t whylen)
{
	if ((l->pid = launch_proc_start(l->argv, l->plan.st)) == -1) {
		snprintf(why, whylen, "cannot start %s: %s", l->argv[0], strerror(errno));
		return LAUNCH_FAILED;
	}
	return LAUNCH_OK;
}

static void
fork_wait(struct launch *l)
{
	launch_proc_wait(l->pid, l->plan.st, &l->res);
}

static void
fork_cancel(struct launch *l)
{
	if (l->pid > 0 && launch_running(l->pid))
		launch_proc_abort(l->pid);
}

/* The ranks ran here, in the job directory: their files are where they belong. */
static void
fork_nothing(struct launch *l)
{
}

const struct launcher launcher_fork = {
	.name = "fork",
	.prepare = fork_prepare,
	.start = fork_start,
	.wait = fork_wait,
	.cancel = fork_cancel,
	.cleanup = fork_nothing,
	.release = fork_nothing,
};
