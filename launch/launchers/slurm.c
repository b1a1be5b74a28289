/*
 * launchers/slurm.c — the "slurm" launcher: some ranks on nodes of Slurm sites
 * (slurm-site.h). It is the ssh launcher inside allocations: at the start (in the
 * supervisor), the placed nodes of every Slurm site are allocated (pending until Slurm
 * runs the allocation), then the ssh launcher checks, stages and launches as on any grid,
 * its commands for those nodes becoming srun steps from their login hosts (remote.h,
 * routes); while mpiexec runs, the allocations are watched (slurm-watch.c); after the end,
 * or on a cancel, they are released. Its private state is the ssh launcher's (l->priv,
 * allocated by ssh's prepare, which runs at the start here, and freed by ssh's release):
 * the allocations are in the job's state.json, and the watch lives as long as the wait.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "launch/launch-int.h"
#include "launch/launch.h"
#include "launch/slurm-site.h"
#include "remote/remote.h"

/* A rank on a node of a Slurm site. */
static int
slurm_match(const struct launch_plan *plan)
{
	return slurm_placement_uses(plan->sites, plan->place);
}

/* DIR/ssh_config, which reaches the login hosts (allocated). */
static char *
slurm_config(const struct launch *l)
{
	char *config;

	xasprintf(&config, "%s/ssh_config", l->plan.st->dir);
	return config;
}

/*
 * Release the allocations; settle: seconds for Slurm to say it ended one itself (after a
 * failed launch, slurm-site.h).
 */
static void
slurm_release_all(struct launch *l, double settle)
{
	char *config = slurm_config(l);

	slurm_release(l->plan.st, config, settle);
	free(config);
}

/*
 * Before the start, only the job's ssh config: waiting in Slurm's queue belongs to the
 * supervisor (`submit` returns at once), and the nodes' checks and staging need them held.
 */
static int
slurm_prepare(struct launch *l, char *why, size_t whylen)
{
	const struct launch_plan *pl = &l->plan;
	char *config = slurm_config(l);
	int rc;

	/* a cancel while Slurm keeps the job pending must release what was asked for */
	launch_catch_signals();
	rc = sites_write_ssh_config(pl->sites, config, why, whylen) == 0 ? LAUNCH_OK :
	    LAUNCH_FAILED;
	free(config);
	return rc;
}

/* The nodes held, then checked, staged and launched as by the ssh launcher. */
static int
slurm_start(struct launch *l, char *why, size_t whylen)
{
	const struct launch_plan *pl = &l->plan;
	char *config = slurm_config(l);
	int rc;

	rc = slurm_allocate(pl->sites, pl->job, pl->place, pl->st, config, pl->quiet, why,
	    whylen);
	free(config);
	if (rc != LAUNCH_OK)
		return rc;
	if ((rc = launcher_ssh.prepare(l, why, whylen)) == LAUNCH_OK &&
	    launch_cancel_requested()) {
		launcher_ssh.cancel(l);
		snprintf(why, whylen, "cancelled before launch");
		rc = LAUNCH_CANCELLED;
	}
	if (rc == LAUNCH_OK)
		rc = launcher_ssh.start(l, why, whylen);
	if (rc != LAUNCH_OK)
		slurm_release_all(l, 0);
	return rc;
}

static void
slurm_watch_tick(struct launch *l, void *w)
{
	slurm_watch_poll(w, l->plan.st);
}

/*
 * As the ssh launcher, with the allocations watched meanwhile: one that Slurm ends is
 * recorded at once, with Slurm's reason (slurm-watch.c).
 */
static void
slurm_wait(struct launch *l)
{
	struct slurm_watch w;
	char *config = slurm_config(l);

	if (slurm_watch_start(&w, l->plan.st, config) == 0) {
		l->watch = slurm_watch_tick;
		l->watch_arg = &w;
	} else
		log_warn("job %s: cannot watch its Slurm allocations", l->plan.st->id);
	free(config);
	launcher_ssh.wait(l);
	if (l->watch != NULL) {
		slurm_watch_poll(&w, l->plan.st);
		slurm_watch_stop(&w);
	}
	l->watch = NULL;
	l->watch_arg = NULL;
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
	slurm_release_all(l, 0);
}

static void
slurm_cleanup(struct launch *l)
{
	const struct launch_result *res = &l->res;
	const struct launch_plan *pl = &l->plan;
	double settle = 0;

	launcher_ssh.cleanup(l);
	/* a job stopped here (cancel, time limit) was not ended by Slurm: no settling */
	if (!res->cancelled && !res->timed_out && res->mpiexec_status != 0)
		settle = slurm_time_reached(pl->sites, pl->job, pl->place, res->ran) ?
		    SLURM_SETTLE_LIMIT : SLURM_SETTLE;
	slurm_release_all(l, settle);
}

const struct launcher launcher_slurm = {
	.name = "slurm",
	.match = slurm_match,
	.prepare = slurm_prepare,
	.start = slurm_start,
	.wait = slurm_wait,
	.cancel = slurm_cancel,
	.cleanup = slurm_cleanup,
	.release = slurm_free,
};
