/*
 * top-job.c — what the console needs of a live job beyond its events: F9 runs
 * `gridsubmit cancel --from-console ID` (this very program, so the one cancel there is
 * does it, and the job's reason says the console cancelled it), and
 * state.json tells when a job ended without an end event, so that the console stops its
 * clock at the job's end instead of counting the time it stays open.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "store/jobstore.h"
#include "submit/top-job.h"

/* tui_job.over: the job's record says it is over; t on the events' clock (GRT_T0). */
static int
top_job_over(const char *dir, double *t, char *status, size_t len)
{
	struct job_state st;
	char why[512];
	int over;

	if (jobstore_read_state(dir, &st, why, sizeof why) != JOBSTORE_OK)
		return 0;
	over = job_phase_final(st.phase);
	if (over) {
		*t = st.t0 > 0 && st.ended > st.t0 ? st.ended - st.t0 : NAN;
		snprintf(status, len, "%s", job_phase_name(st.phase));
	}
	job_state_free(&st);
	return over;
}

void
top_job_init(struct top_job *tj, const char *id, const char *dir)
{
	memset(tj, 0, sizeof *tj);
	snprintf(tj->id, sizeof tj->id, "%s", id);
	tj->dir = xstrdup(dir);
	tj->argv[0] = "/proc/self/exe";
	tj->argv[1] = "cancel";
	tj->argv[2] = "--from-console";
	tj->argv[3] = tj->id;
	tj->argv[4] = NULL;
	tj->job.id = tj->id;
	tj->job.dir = tj->dir;
	tj->job.cancel_argv = tj->argv;
	tj->job.over = top_job_over;
}

void
top_job_free(struct top_job *tj)
{
	free(tj->dir);
	tj->dir = NULL;
}
