/*
 * launcher-slurm.c — the "slurm" launcher: some ranks on nodes of Slurm sites
 * (slurm-site.h). It is the ssh launcher inside allocations: first the placed nodes of
 * every Slurm site are allocated (pending until Slurm runs the allocation), then the ssh
 * launcher checks, stages and launches as on any grid, its commands for those nodes
 * becoming srun steps from their login hosts (remote.h, routes); after the end, or on a
 * cancel, the allocations are released.
 */
#include <stdio.h>
#include <stdlib.h>

#include "launch-int.h"
#include "launch.h"
#include "remote.h"
#include "slurm-site.h"
#include "xmalloc.h"

/* DIR/ssh_config, which reaches the login hosts (allocated). */
static char *
slurm_config(const struct launch *l)
{
	char *config;

	xasprintf(&config, "%s/ssh_config", l->plan.st->dir);
	return config;
}

static void
slurm_release_all(struct launch *l)
{
	char *config = slurm_config(l);

	slurm_release(l->plan.st, config);
	free(config);
}

static int
slurm_prepare(struct launch *l, char *why, size_t whylen)
{
	const struct launch_plan *pl = &l->plan;
	char *config = slurm_config(l);
	int rc;

	/* a cancel while Slurm keeps the job pending must release what was asked for */
	launch_catch_signals();
	if (remote_write_ssh_config(pl->sites, config, why, whylen) != 0) {
		free(config);
		return LAUNCH_FAILED;
	}
	rc = slurm_allocate(pl->sites, pl->job, pl->place, pl->st, config, pl->quiet, why,
	    whylen);
	free(config);
	if (rc != LAUNCH_OK)
		return rc;
	if ((rc = launcher_ssh.prepare(l, why, whylen)) != LAUNCH_OK)
		slurm_release_all(l);
	return rc;
}

/* Started, supervised and freed as by the ssh launcher. */
static int
slurm_start(struct launch *l, char *why, size_t whylen)
{
	return launcher_ssh.start(l, why, whylen);
}

static void
slurm_wait(struct launch *l)
{
	launcher_ssh.wait(l);
}

static void
slurm_free(struct launch *l)
{
	launcher_ssh.release(l);
}

static void
slurm_cancel(struct launch *l)
{
	launcher_ssh.cancel(l);
	slurm_release_all(l);
}

static void
slurm_cleanup(struct launch *l)
{
	launcher_ssh.cleanup(l);
	slurm_release_all(l);
}

const struct launcher launcher_slurm = {
	.name = "slurm",
	.prepare = slurm_prepare,
	.start = slurm_start,
	.wait = slurm_wait,
	.cancel = slurm_cancel,
	.cleanup = slurm_cleanup,
	.release = slurm_free,
};
