/*
 * launcher.c — the launcher interface (launch.h): the table of launchers, choosing one for
 * a plan, and the steps every launcher shares (the stage_in files here, the job's command
 * files, phases).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "common/log.h"
#include "common/pstat.h"
#include "common/xmalloc.h"
#include "launch/fd-budget.h"
#include "launch/jobctl.h"
#include "launch/launch-int.h"
#include "launch/launch.h"
#include "launch/stage.h"

/*
 * Every launcher (launchers/NAME.c), in the order they are tried: the first whose match
 * takes the plan launches it, so the more particular come first and fork, which takes
 * any plan, comes last. A new way of reaching nodes is a file there and a line here.
 */
extern const struct launcher launcher_smpi, launcher_slurm, launcher_fork;
static const struct launcher *const launchers[] = {
	&launcher_smpi,		/* the plan is simulated */
	&launcher_slurm,	/* a rank on a node of a Slurm site */
	&launcher_ssh,		/* a rank on another host */
	&launcher_fork,		/* every rank here */
};

void
launch_phase(struct launch *l, enum job_phase phase)
{
	struct job_state *st = l->plan.st;

	if (jobstore_set_phase(st, phase, NULL) != 0)
		log_warn("job %s: %s/state.json", st->id, st->dir);
}

/* Write a file of the job directory through a FILE*, atomically. 0, or -1 with why. */
static int
launch_write_with(const struct launch *l, const char *name,
    int (*writer)(const struct gs_sites *, const struct gs_placement *, FILE *), char *why,
    size_t whylen)
{
	const struct job_state *st = l->plan.st;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc = -1;

	if ((f = open_memstream(&buf, &len)) == NULL) {
		snprintf(why, whylen, "%s/%s: %s", st->dir, name, strerror(errno));
		return -1;
	}
	if (writer(l->plan.sites, l->plan.place, f) != 0) {
		fclose(f);
		snprintf(why, whylen, "%s: cannot write the %s (invalid host or user name)",
		    st->dir, name);
	} else if (fclose(f) != 0 || file_write_atomic(st->dir, name, buf, len, 0644) != 0)
		snprintf(why, whylen, "%s/%s: %s", st->dir, name, strerror(errno));
	else
		rc = 0;
	free(buf);
	return rc;
}

int
launch_write_placement(struct launch *l, char *why, size_t whylen)
{
	l->plan.st->ranks = l->plan.place->nranks;
	if (launch_write_with(l, "hostfile", broker_write_hostfile, why, whylen) != 0 ||
	    launch_write_with(l, "rankmap", broker_write_rankmap, why, whylen) != 0)
		return -1;
	return 0;
}

int
launch_write_command(struct launch *l, const struct launch_hold *hold, char *why,
    size_t whylen)
{
	const struct launch_plan *pl = &l->plan;

	if (launch_write_placement(l, why, whylen) != 0)
		return -1;
	launch_argv_free(l->argv);
	launch_argv_free(l->env);
	l->env = NULL;
	l->argv = launch_argv(pl->sites, pl->job, pl->place, pl->st, hold, &l->env, why,
	    whylen);
	return l->argv != NULL ? 0 : -1;
}

int
launch_prepare(struct launch *l, const struct launch_plan *plan, char *why, size_t whylen)
{
	size_t i;

	memset(l, 0, sizeof *l);
	l->plan = *plan;
	l->pid = -1;
	for (i = 0; i < sizeof launchers / sizeof launchers[0] && l->ops == NULL; i++)
		if (launchers[i]->match(plan))
			l->ops = launchers[i];
	if (l->ops == NULL) {
		snprintf(why, whylen, "no launcher takes this placement");
		return LAUNCH_FAILED;
	}
	/* descriptors for every rank before anything starts (a relaunch may place anew) */
	if (plan->sim == NULL && fd_budget_reserve(plan->sites, plan->place, why, whylen) != 0)
		return LAUNCH_FAILED;
	/* the stage_in files are needed here in any case (rank 0 runs here) */
	if (stage_in_local(plan->job, plan->st, why, whylen) != 0)
		return LAUNCH_FAILED;
	return l->ops->prepare(l, why, whylen);
}

void
launch_phase_mpiexec(struct launch *l, enum job_phase phase)
{
	struct job_state *st = l->plan.st;

	st->mpiexec_pid = (long)l->pid;
	st->mpiexec_start = pstat_start_time(l->pid);
	launch_phase(l, phase);
}

int
launch_start(struct launch *l, char *why, size_t whylen)
{
	int rc;

	if (launch_cancel_requested()) {
		launch_cancel(l);
		snprintf(why, whylen, "cancelled before launch");
		return LAUNCH_CANCELLED;
	}
	if ((rc = l->ops->start(l, why, whylen)) != LAUNCH_OK)
		return rc;
	launch_phase_mpiexec(l, JOB_RUNNING);
	return LAUNCH_OK;
}

void
launch_wait(struct launch *l)
{
	l->ops->wait(l);
	l->ops->cleanup(l);
	/* gone: its pid is anyone's from now on, and the state written next forgets it */
	l->plan.st->mpiexec_pid = 0;
	l->plan.st->mpiexec_start = 0;
}

void
launch_cancel(struct launch *l)
{
	if (l->ops != NULL)
		l->ops->cancel(l);
}

void
launch_free(struct launch *l)
{
	if (l->ops != NULL)
		l->ops->release(l);
	launch_argv_free(l->argv);
	launch_argv_free(l->env);
	free(l->res.lost);
	memset(l, 0, sizeof *l);
}
