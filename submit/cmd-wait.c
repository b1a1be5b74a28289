/*
 * cmd-wait.c — gridsubmit wait: block until a job has ended, and exit with how it ended.
 *
 * Polls state.json (and the supervisor: a job whose supervisor died is failed, never
 * waited for forever). Prints "job ID STATE" (and the reason) on stdout at the end.
 * Exit status: 0 done, 1 failed, 6 cancelled, 124 when --timeout ran out first (as
 * timeout(1)), 2 no such job, 3 corrupt state.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "cmd.h"
#include "jobctl.h"
#include "jobstore.h"
#include "log.h"
#include "text.h"

#define EXIT_TIMEOUT	124
#define WAIT_POLL_NS	100000000L

extern const struct cmd_entry cmd_wait_entry;

static const struct option wait_longopts[] = {
	{ "timeout", required_argument, NULL, 't' },
	{ NULL, 0, NULL, 0 }
};

static int
cmd_wait_exec(int argc, char **argv)
{
	struct timespec ts = { 0, WAIT_POLL_NS };
	struct job_state st;
	double timeout = INFINITY, t0 = clock_mono();
	char reason[256];
	int c, code;

	while ((c = cmd_getopt(argc, argv, &cmd_wait_entry)) != -1)
		if (c == 't')
			timeout = cmd_parse_double(&cmd_wait_entry, "--timeout", optarg, 0, 1e9);
	if (optind != argc - 1)
		cmd_usage_error(&cmd_wait_entry, optind >= argc ? "missing job id" :
		    "one job id at a time");
	for (;;) {
		if ((code = jobctl_open(argv[optind], &st, 1)) != EXIT_OK)
			return code;
		if (job_phase_final(st.phase))
			break;
		if (clock_mono() - t0 >= timeout) {
			log_warnx("job %s: still %s after %g s", st.id, job_phase_name(st.phase),
			    timeout);
			job_state_free(&st);
			return EXIT_TIMEOUT;
		}
		job_state_free(&st);
		nanosleep(&ts, NULL);
	}
	if (st.reason != NULL)
		text_clean(reason, sizeof reason, st.reason, strlen(st.reason));
	printf("job %s %s%s%s%s\n", st.id, job_phase_name(st.phase),
	    st.reason != NULL ? " (" : "", st.reason != NULL ? reason : "",
	    st.reason != NULL ? ")" : "");
	code = st.phase == JOB_DONE ? EXIT_OK : st.phase == JOB_CANCELLED ? EXIT_CANCELLED :
	    EXIT_FAILED;
	job_state_free(&st);
	return code;
}

const struct cmd_entry cmd_wait_entry = {
	"wait", "ID [--timeout S]",
	"wait until a job has ended; exit 0 done, 1 failed, 6 cancelled",
	"  ID                    the job\n"
	"  -t, --timeout S       give up after S seconds (exit 124, as timeout(1))\n"
	"exit status: 0 done, 1 failed (a dead supervisor included), 6 cancelled,\n"
	"124 timed out, 2 no such job, 3 the job's state.json is unreadable or corrupt\n",
	cmd_wait_exec, "t:", wait_longopts, NULL, CMD_OPERAND_JOB
};
