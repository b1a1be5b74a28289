/*
 * top-job.h — the job behind a live console (`top ID`, `run --top`, `resume --top`): the
 * command F9 runs to cancel it, and its end as state.json records it (tui.h, tui_job).
 */
#ifndef GS_TOP_JOB_H
#define GS_TOP_JOB_H

#include "tui/tui.h"

struct top_job {
	struct tui_job job;
	char id[32];
	char *dir;
	char *argv[5];		/* /proc/self/exe cancel --from-console ID */
};

/* Fill tj for job id in directory dir (both copied); free with top_job_free. */
void top_job_init(struct top_job *tj, const char *id, const char *dir);
void top_job_free(struct top_job *tj);

#endif
