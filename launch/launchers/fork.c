/*
 * launchers/fork.c — the "fork" launcher: every rank on this host, started by hydra's own
 * fork launcher. Nothing to check, stage or clean up elsewhere.
 */
#include "launch/launch-int.h"
#include "launch/launch.h"

/* Any plan: the last launcher tried (launcher.c), for ranks that are all on this host. */
static int
fork_match(const struct launch_plan *plan)
{
	return 1;
}

static int
fork_prepare(struct launch *l, char *why, size_t whylen)
{
	if (launch_write_command(l, NULL, why, whylen) != 0)
		return LAUNCH_FAILED;
	launch_phase(l, JOB_LAUNCHING);
	return LAUNCH_OK;
}

static void
fork_wait(struct launch *l)
{
	launch_proc_wait(l);
}

/* The ranks ran here, in the job directory: their files are where they belong. */
static void
fork_nothing(struct launch *l)
{
}

const struct launcher launcher_fork = {
	.name = "fork",
	.match = fork_match,
	.prepare = fork_prepare,
	.start = launch_proc_launch,
	.wait = fork_wait,
	.cancel = launch_proc_call_off,
	.cleanup = fork_nothing,
	.release = fork_nothing,
};
