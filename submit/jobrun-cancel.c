/*
 * jobrun-cancel.c — who ended a job that was stopped before its end, in its reason and a
 * cancel event, and the exit status of the command that followed it in the foreground.
 *
 * A stop reaches the supervisor as a signal (launch_catch_signals); its sender tells who:
 * the process of a `gridsubmit cancel` that left its request in the job directory
 * (store/cancel-ask.h: the command, or the console's F9), the terminal (Ctrl-C: SIGINT;
 * its hangup: SIGHUP), or any other process (kill, a batch system: SIGTERM). `run` and
 * `resume` exit as a shell expects of a command a signal stopped, 128+N, unless the stop
 * was a cancel: then the job's own code, 6 (README.md, "Exit codes").
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "common/clock.h"
#include "common/log.h"
#include "launch/launch.h"
#include "store/cancel-ask.h"
#include "submit/cmd.h"
#include "submit/jobrun.h"

/*
 * "who" of the stop: the canceller's own words, or the signal's; 1 when it was a cancel.
 * Read once: the canceller removes its request when it is done, which may be before this
 * process asks again for its exit status.
 */
static int
jobrun_cancel_who(const struct job_state *st, char *who, size_t len)
{
	static char asked[CANCEL_ASK_MAX];
	static int looked;
	pid_t pid;
	int sig = launch_cancel_origin(&pid);

	if (sig != 0 && !looked)
		looked = 1 + cancel_ask_read(st, pid, asked, sizeof asked);
	if (looked == 2) {
		snprintf(who, len, "%s", asked);
		return 1;
	}
	if (sig == SIGINT && pid == 0)
		snprintf(who, len, "interrupted by Ctrl-C (SIGINT)");
	else if (sig == SIGINT)
		snprintf(who, len, "interrupted by SIGINT from pid %ld", (long)pid);
	else if (sig != 0 && pid > 0)
		snprintf(who, len, "terminated by SIG%s from pid %ld", sigabbrev_np(sig),
		    (long)pid);
	else if (sig == SIGHUP)
		snprintf(who, len, "terminated by SIGHUP (the terminal hung up)");
	else if (sig != 0)
		snprintf(who, len, "terminated by SIG%s", sigabbrev_np(sig));
	else
		snprintf(who, len, "cancelled");
	return 0;
}

/* reason: who, and from when (the launch's "cancelled during preflight", or NULL), when. */
static void
jobrun_cancel_reason(const struct job_state *st, const char *when, char *reason,
    size_t len)
{
	char who[CANCEL_ASK_MAX];

	jobrun_cancel_who(st, who, sizeof who);
	/* the launch's own words, "cancelled during preflight": when it was stopped */
	if (when != NULL && strncmp(when, "cancelled", 9) == 0)
		snprintf(reason, len, "%s%s", who, when + 9);
	else if (when != NULL && *when != '\0')
		snprintf(reason, len, "%s; %s", who, when);
	else
		snprintf(reason, len, "%s", who);
}

int
jobrun_cancel_record(struct job_state *st, const char *when, char *reason, size_t len)
{
	double t = st->t0 > 0 ? clock_wall() - st->t0 : 0;

	jobrun_cancel_reason(st, when, reason, len);
	/* the event first: a console stops reading once state.json says the job is over */
	jobrun_event_append(st, json_pack("{s:i, s:f, s:s, s:s}", "v", 1, "t", t > 0 ? t : 0.0,
	    "ev", "cancel", "reason", reason), "cancel");
	if (jobstore_set_phase(st, JOB_CANCELLED, reason) != 0)
		fatal("%s/state.json", st->dir);
	return EXIT_CANCELLED;
}

int
jobrun_cancel_exit(const struct job_state *st, int code)
{
	char who[CANCEL_ASK_MAX];
	pid_t pid;
	int sig = launch_cancel_origin(&pid);

	if (code != EXIT_CANCELLED || sig == 0 || jobrun_cancel_who(st, who, sizeof who))
		return code;
	return 128 + sig;
}
