/*
 * cmd-list.c — gridsubmit list: every job of the store, one line each, newest last.
 *
 * Columns: id, name, state, ranks, scheme, submitted (local time), makespan, restarts
 * (relaunches, resumes included: doc/restarts.md). A job whose supervisor died is
 * recorded as failed, as status does. A job whose state.json cannot be read is listed as
 * "unreadable" and the reason goes to stderr; the listing goes on.
 * --json prints one document: {"schema_version":1,"jobs":[...]}.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "jobctl.h"
#include "jobstore.h"
#include "log.h"
#include "text.h"
#include "xmalloc.h"

extern const struct cmd_entry cmd_list_entry;

static void
list_print_line(const struct job_state *st)
{
	char name[64], scheme[32], when[32] = "-", state[64], span[32] = "-";
	struct tm tm;
	time_t secs = (time_t)st->submitted;

	text_clean(name, sizeof name, st->name != NULL ? st->name : "-",
	    st->name != NULL ? strlen(st->name) : 1);
	text_clean(scheme, sizeof scheme, st->scheme != NULL ? st->scheme : "-",
	    st->scheme != NULL ? strlen(st->scheme) : 1);
	if (st->submitted > 0 && localtime_r(&secs, &tm) != NULL)
		strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
	if (st->phase == JOB_FAILED && st->reason != NULL &&
	    strcmp(st->reason, JOBCTL_SUPERVISOR_DIED) == 0)
		snprintf(state, sizeof state, "failed(supervisor)");
	else
		snprintf(state, sizeof state, "%s", job_phase_name(st->phase));
	if (st->phase == JOB_DONE || st->makespan > 0)
		snprintf(span, sizeof span, "%.3f", st->makespan);
	printf("%-6s %-20s %-18s %5d %-8s %-19s %9s %8d\n", st->id, name, state, st->ranks,
	    scheme, when, span, st->restarts);
}

static const struct option list_longopts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ NULL, 0, NULL, 0 }
};

static int
cmd_list_exec(int argc, char **argv)
{
	struct job_state st;
	json_t *doc = NULL, *jobs = NULL;
	char why[1024], **ids;
	size_t n, i;
	int c, json = 0;

	while ((c = cmd_getopt(argc, argv, &cmd_list_entry)) != -1)
		if (c == 'j')
			json = 1;
	if (optind < argc)
		cmd_usage_error(&cmd_list_entry, "unexpected argument '%s'", argv[optind]);
	ids = jobstore_list(&n);
	if (json) {
		jobs = json_array();
		doc = json_pack("{s:i, s:o}", "schema_version", 1, "jobs", jobs);
	} else
		printf("%-6s %-20s %-18s %5s %-8s %-19s %9s %8s\n", "ID", "NAME", "STATE", "RANKS",
		    "SCHEME", "SUBMITTED", "MAKESPAN", "RESTARTS");
	for (i = 0; i < n; i++) {
		if (jobstore_read_state(ids[i], &st, why, sizeof why) != JOBSTORE_OK) {
			log_warnx("%s", why);
			if (json)
				json_array_append_new(jobs, json_pack("{s:s, s:s, s:s}", "id",
				    ids[i], "state", "unreadable", "error", why));
			else
				printf("%-6s %-20s %s\n", ids[i], "-", "unreadable");
			continue;
		}
		if (jobctl_refresh(&st, why, sizeof why) == -1)
			log_warnx("job %s: %s", st.id, why);
		if (json)
			json_array_append_new(jobs, json_pack("{s:s, s:o, s:s, s:o, s:i, s:o,"
			    " s:o, s:o, s:o, s:f, s:i}",
			    "id", st.id, "name", jobstore_json_str(st.name),
			    "state", job_phase_name(st.phase), "reason", jobstore_json_str(st.reason),
			    "ranks", st.ranks, "scheme", jobstore_json_str(st.scheme),
			    "submitted", jobstore_json_time(st.submitted),
			    "started", jobstore_json_time(st.started),
			    "ended", jobstore_json_time(st.ended), "makespan", st.makespan,
			    "restarts", st.restarts));
		else
			list_print_line(&st);
		job_state_free(&st);
	}
	if (json) {
		if (json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(9)) != 0)
			fatalx("cannot write the job list");
		printf("\n");
		json_decref(doc);
	}
	jobstore_list_free(ids, n);
	return EXIT_OK;
}

const struct cmd_entry cmd_list_entry = {
	"list", "[--json]",
	"list the jobs, one line each, newest last",
	"      --json            one JSON document (schema_version 1) instead of text\n"
	"columns: id, name, state, ranks, scheme, submitted (local time), makespan (s),\n"
	"restarts (relaunches after failures, resumes included);\n"
	"a job whose state.json cannot be read is listed as 'unreadable' (why on stderr)\n",
	cmd_list_exec, NULL, list_longopts, NULL, CMD_OPERAND_NONE
};
