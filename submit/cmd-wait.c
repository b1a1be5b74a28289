/*
 * cmd-wait.c — gridsubmit wait: block until jobs have ended, and exit with how they ended.
 *
 * Polls each job's state.json (and its supervisor: a job whose supervisor died is failed,
 * never waited for forever) until every job named has ended or --timeout, counted once
 * for all of them, ran out. Prints "job ID STATE" (and the reason) on stdout as each job
 * ends, or with --json one document at the end (gridsubmit-json(5)). An id that names no
 * job is reported and the others are still waited for.
 * Exit status, over all the jobs: 2 when an id names no job, else 3 when a state.json is
 * unreadable, else 124 when --timeout ran out first (as timeout(1)), else the first
 * non-zero of the jobs in the order given (1 failed, 6 cancelled, 8 stopped at its time
 * limit), else 0.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "common/jsonout.h"
#include "common/log.h"
#include "common/text.h"
#include "common/xmalloc.h"
#include "launch/jobctl.h"
#include "store/jobstore.h"
#include "submit/cmd.h"
#include "submit/json-fail.h"
#include "submit/progress.h"

#define EXIT_TIMEOUT	124
#define WAIT_POLL_NS	100000000L

extern const struct cmd_entry cmd_wait_entry;

/* One job named on the command line. */
struct wait_job {
	const char *arg;	/* as given */
	char id[32];		/* normalised, "" when arg is not a job id */
	int done;		/* nothing more to wait for */
	int code;		/* its exit status: 0, 1, 6, 124, or 1/2/3 when it cannot be read */
	char *state;		/* its phase when done (the last seen after a timeout) */
	char *reason;
	double ended;
	int unreadable;		/* code is cmd_open_job's */
};

/* The job's state, read and refreshed: EXIT_OK, or the code when it cannot be read. */
static int
wait_poll(struct wait_job *w)
{
	struct job_state st;
	int code;

	if ((code = cmd_open_job(w->arg, &st, 1)) != EXIT_OK) {
		w->done = 1;
		w->unreadable = 1;
		w->code = code;
		return code;
	}
	snprintf(w->id, sizeof w->id, "%s", st.id);
	free(w->state);
	free(w->reason);
	w->state = xstrdup(job_phase_name(st.phase));
	w->reason = st.reason != NULL ? xstrdup(st.reason) : NULL;
	w->ended = st.ended;
	if (job_phase_final(st.phase)) {
		w->done = 1;
		w->code = cmd_phase_exit(st.phase);
	}
	job_state_free(&st);
	return EXIT_OK;
}

/* "job ID STATE (reason)" for a job that has ended, into line. */
static void
wait_line(const struct wait_job *w, char *line, size_t len)
{
	char reason[256];

	if (w->reason != NULL)
		text_clean(reason, sizeof reason, w->reason, strlen(w->reason));
	snprintf(line, len, "job %s %s%s%s%s", w->id, w->state, w->reason != NULL ? " (" : "",
	    w->reason != NULL ? reason : "", w->reason != NULL ? ")" : "");
}

/* The job's line on stdout. */
static void
wait_print_line(const struct wait_job *w)
{
	char line[512];

	wait_line(w, line, sizeof line);
	printf("%s\n", line);
	fflush(stdout);
}

/* One job of the --json document: its end, or why it could not be read. */
static json_t *
wait_job_json(const struct wait_job *w)
{
	if (w->unreadable)
		return json_pack("{s:o, s:s, s:o, s:i}", "id", jsonout_id(w->arg), "arg",
		    w->arg, "error", jsonout_error(w->code, cmd_open_job_error(w->arg, w->code)),
		    "exit_code", w->code);
	return json_pack("{s:o, s:s, s:o, s:o, s:i}", "id", jsonout_id(w->id),
	    "state", w->state, "reason", jsonout_str(w->reason),
	    "ended", jobstore_json_time(w->ended), "exit_code", w->code);
}

/* The rule of the header comment: 2, then 3, then 124, then the first non-zero. */
static int
wait_exit(const struct wait_job *w, size_t n)
{
	static const int order[] = { EXIT_USAGE, EXIT_INPUT, EXIT_TIMEOUT };
	size_t i, k;

	for (k = 0; k < sizeof order / sizeof order[0]; k++)
		for (i = 0; i < n; i++)
			if (w[i].code == order[k])
				return order[k];
	for (i = 0; i < n; i++)
		if (w[i].code != EXIT_OK)
			return w[i].code;
	return EXIT_OK;
}

static const struct option wait_longopts[] = {
	{ "timeout", required_argument, NULL, 't' },
	{ "json", no_argument, NULL, 'j' },
	{ NULL, 0, NULL, 0 }
};

static int
cmd_wait_exec(int argc, char **argv)
{
	struct timespec ts = { 0, WAIT_POLL_NS };
	struct progress *pg = NULL;
	struct wait_job *w;
	json_t *jobs;
	double timeout = INFINITY, t0 = clock_mono();
	size_t n, i, left;
	int c, json = 0, code, shown = 0;

	while ((c = cmd_getopt(argc, argv, &cmd_wait_entry)) != -1) {
		if (c == 't')
			timeout = cmd_parse_double(&cmd_wait_entry, "--timeout", optarg, 0, 1e9);
		else if (c == 'j')
			json = 1;
	}
	if (optind >= argc)
		cmd_usage_error(&cmd_wait_entry, "missing job id");
	n = (size_t)(argc - optind);
	w = xcalloc(n, sizeof *w);
	for (i = 0; i < n; i++)
		w[i].arg = argv[optind + (int)i];
	for (;;) {
		left = 0;
		for (i = 0; i < n; i++) {
			if (w[i].done)
				continue;
			if (wait_poll(&w[i]) == EXIT_OK && w[i].done && !json) {
				progress_clear(pg);
				wait_print_line(&w[i]);
			}
			left += !w[i].done;
		}
		if (left == 0)
			break;
		/* one job waited for on a terminal: its progress line (progress.h) */
		if (!shown && n == 1 && !json && w[0].id[0] != '\0') {
			char why[1024], *dir = jobstore_job_dir(w[0].id, why, sizeof why);

			/* the store was used a moment ago: without it, no progress line */
			pg = dir != NULL ? progress_open(dir, w[0].id) : NULL;
			free(dir);
			shown = 1;
		}
		progress_tick(pg);
		if (clock_mono() - t0 >= timeout) {
			progress_clear(pg);
			for (i = 0; i < n; i++)
				if (!w[i].done) {
					log_warnx("job %s: still %s after %g s", w[i].id, w[i].state,
					    timeout);
					w[i].code = EXIT_TIMEOUT;
				}
			break;
		}
		nanosleep(&ts, NULL);
	}
	progress_close(pg);
	code = wait_exit(w, n);
	if (json) {
		/* a job that did not end well said on stderr: the error document's message */
		for (i = 0; i < n; i++)
			if (!w[i].unreadable && w[i].code != EXIT_OK && w[i].code != EXIT_TIMEOUT) {
				char line[512];

				wait_line(&w[i], line, sizeof line);
				log_warnx("%s", line);
			}
		jobs = json_array();
		for (i = 0; i < n; i++)
			json_array_append_new(jobs, wait_job_json(&w[i]));
		if (jsonout_print(json_fail_doc(json_pack("{s:o, s:i}", "jobs", jobs, "exit_code",
		    code), code)) != 0)
			code = code == EXIT_OK ? EXIT_FAILED : code;
	}
	for (i = 0; i < n; i++) {
		free(w[i].state);
		free(w[i].reason);
	}
	free(w);
	return code;
}

const struct cmd_entry cmd_wait_entry = {
	"wait", "ID... [--timeout S] [--json]",
	"wait until jobs have ended; exit 0 done, 1 failed, 6 cancelled, 8 timeout",
	"  ID...                 the jobs (all of them are waited for)\n"
	"  -t, --timeout S       give up after S seconds, for all the jobs together (exit 124,\n"
	"                        as timeout(1))\n"
	"      --json            one JSON document at the end (gridsubmit-json(5)): each\n"
	"                        job's state, reason, end time and exit code\n"
	"prints 'job ID STATE (reason)' as each job ends.\n"
	"exit status: 0 done, 1 failed (a dead supervisor included), 6 cancelled,\n"
	"8 the job reached its time limit, 124 --timeout ran out, 2 no such job, 3 a job's\n"
	"state.json is unreadable or corrupt;\n"
	"with several jobs: 2 if an id names no job (the others are still waited for),\n"
	"else 3, else 124, else the first non-zero of the jobs in the order given, else 0\n",
	cmd_wait_exec, "t:", wait_longopts, NULL, CMD_OPERAND_JOB
};
