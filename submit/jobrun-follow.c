/*
 * jobrun-follow.c — a job followed in the foreground (run, resume): launched and
 * supervised to its end with a progress line on the terminal meanwhile (progress.h; not
 * with the console of --top, nor with -q), then its report and the command's exit status
 * (jobrun-cancel.c: 128+N when a signal N stopped it).
 */
#include "submit/jobrun.h"
#include "submit/progress.h"

/* launch_wait's ticker: the progress line while mpiexec runs, erased when it ends. */
static void
jobrun_progress_tick(void *arg, int last)
{
	if (last)
		progress_clear(arg);
	else
		progress_tick(arg);
}

int
jobrun_follow(struct jobrun *jr, int top)
{
	struct progress *pg = NULL;
	int code;

	if (!top && !jr->quiet && (pg = progress_open(jr->st.dir, jr->st.id)) != NULL)
		launch_set_ticker(jobrun_progress_tick, pg);
	code = jobrun_execute(jr, top);
	launch_set_ticker(NULL, NULL);
	progress_close(pg);
	jobrun_report(jr, code);
	/* Ctrl-C: 130, as a shell expects; a gridsubmit cancel: the job's own 6 */
	return jobrun_cancel_exit(&jr->st, code);
}
