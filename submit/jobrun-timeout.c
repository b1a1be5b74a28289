/*
 * jobrun-timeout.c — the job's time limit (doc/restarts.md, "The time limit"): how long
 * the next launch may run, and whether a launch ended at the limit, which is then
 * recorded timeout with its reason. Three things end a launch there: the supervisor's
 * own count (launch_proc_wait stops mpiexec), the master's end record under simulate
 * (GRT_TIME_LIMIT, in simulated seconds), and Slurm ending an allocation of the job at
 * its own --time before the supervisor's count ran out.
 */
#include <stdio.h>
#include <string.h>

#include "broker/site.h"
#include "common/log.h"
#include "submit/jobrun.h"

double
jobrun_time_left(const struct jobrun *jr)
{
	long long limit;

	if (jr->sim != NULL || jr->job.time_limit == NULL ||
	    slurm_time_parse(jr->job.time_limit, &limit) != 0)
		return 0;
	/* never 0 with a limit: a relaunch after it ran out is stopped at once */
	return jr->ran < (double)limit ? (double)limit - jr->ran : 1e-9;
}

/* Record the job timeout with reason; the journal stays for resume. */
static int
jobrun_timeout_record(struct jobrun *jr, const char *reason)
{
	if (jobstore_set_phase(&jr->st, JOB_TIMEOUT, reason) != 0)
		fatal("%s/state.json", jr->st.dir);
	return 1;
}

int
jobrun_timeout_stopped(struct jobrun *jr, const char *end_status, char *reason, size_t len)
{
	const char *limit = jr->job.time_limit != NULL ? jr->job.time_limit : "?";

	if (jr->launch.res.timed_out) {
		snprintf(reason, len, "time limit %s reached after %.1f s of running", limit,
		    jr->ran);
		return jobrun_timeout_record(jr, reason);
	}
	if (end_status != NULL && strcmp(end_status, "timeout") == 0) {
		snprintf(reason, len, "time limit %s reached after %.3f s of %srunning", limit,
		    jr->st.makespan, jr->sim != NULL ? "simulated " : "");
		return jobrun_timeout_record(jr, reason);
	}
	return 0;
}

int
jobrun_timeout_slurm(struct jobrun *jr, char *reason, size_t len)
{
	const struct job_state *st = &jr->st;
	size_t i;

	for (i = 0; i < st->nallocs; i++) {
		const struct job_alloc *a = &st->allocs[i];

		if (a->released != JOB_ALLOC_ENDED || a->state == NULL ||
		    strcmp(a->state, "TIMEOUT") != 0)
			continue;
		snprintf(reason, len, "time limit %s reached after %.1f s of running: Slurm "
		    "ended job %s on site %s at its own time limit", jr->job.time_limit != NULL ?
		    jr->job.time_limit : "of the site", jr->ran, a->id, a->site);
		return jobrun_timeout_record(jr, reason);
	}
	return 0;
}
