/*
 * jobrun-top.c — the console of `run --top` and `resume --top` in a process of its own.
 *
 * The supervisor must go on while the console is up: it accepts the ranks' leases, ends
 * stragglers and, after a failure, relaunches the job, whose restart and new start the
 * console then shows live. So the console runs in a child on the terminal, and what the
 * supervisor says on stderr meanwhile is kept and shown once the console has given the
 * terminal back. The console knows the job: F9 cancels it (`gridsubmit cancel ID`, which
 * signals us), and once state.json records the end the console's clock stops there, also
 * for an end without an end event (a failure), instead of counting while it stays open.
 */
#include <sys/prctl.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "launch/launch.h"
#include "submit/jobrun.h"
#include "submit/top-job.h"
#include "tui/tui.h"

void
jobrun_top_start(struct jobrun *jr)
{
	struct tui_opts topts = { 0 };
	struct top_job tj;
	char *events;
	FILE *log;
	pid_t pid;
	int saved;

	xasprintf(&events, "%s/events.jsonl", jr->st.dir);
	fflush(NULL);
	if ((pid = fork()) == -1) {
		log_warn("no console: fork");
		free(events);
		return;
	}
	if (pid == 0) {
		/* the console holds nothing of the job's: no gate, lease or pipe of a node */
		close_range(3, ~0U, 0);
		/* and goes with its supervisor, giving the terminal back (crt.c) */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		top_job_init(&tj, jr->st.id, jr->st.dir);
		topts.job = &tj.job;
		_exit(tui_follow(events, &topts) < 0 ? 1 : 0);
	}
	free(events);
	jr->top_pid = pid;
	if ((log = tmpfile()) == NULL)
		return;
	if ((saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)) == -1 ||
	    dup2(fileno(log), STDERR_FILENO) == -1) {
		if (saved != -1)
			close(saved);
		fclose(log);
		return;
	}
	jr->top_log = log;
	jr->top_saved_err = saved;
}

void
jobrun_top_end(struct jobrun *jr)
{
	char buf[4096];
	size_t n;
	int status;

	if (jr->top_pid > 0) {
		/* a cancelled job: the console goes too (a person would press q) */
		if (launch_cancel_requested())
			kill(jr->top_pid, SIGTERM);
		while (waitpid(jr->top_pid, &status, 0) == -1 && errno == EINTR)
			;
		jr->top_pid = 0;
	}
	if (jr->top_log == NULL)
		return;
	fflush(stderr);
	dup2(jr->top_saved_err, STDERR_FILENO);
	close(jr->top_saved_err);
	jr->top_saved_err = -1;
	rewind(jr->top_log);
	while ((n = fread(buf, 1, sizeof buf, jr->top_log)) > 0)
		fwrite(buf, 1, n, stderr);
	fflush(stderr);
	fclose(jr->top_log);
	jr->top_log = NULL;
}
