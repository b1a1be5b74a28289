/*
 * cmd-list.c — gridsubmit list: every job of the store, one line each, newest last.
 *
 * Default columns: id, name, state, ranks, scheme, submitted (local time), makespan,
 * restarts (relaunches, resumes included: doc/restarts.md); --format FIELDS picks others,
 * as ps -o does, with the field names in upper case as the header. --state S,... keeps
 * the jobs in those phases. A job whose supervisor died is recorded as failed, as status
 * does. A job whose state.json cannot be read is listed as "unreadable" (not with
 * --state) and the reason goes to stderr; the listing goes on.
 * --json prints one document (gridsubmit-json(5)): {"schema_version", "jobs": [...]},
 * each job with the --format fields when given.
 */
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/jsonout.h"
#include "common/log.h"
#include "common/suggest.h"
#include "common/text.h"
#include "common/xmalloc.h"
#include "launch/jobctl.h"
#include "store/jobstore.h"
#include "submit/cmd.h"

#define LIST_NPHASES	(JOB_TIMEOUT + 1)	/* enum job_phase ends with JOB_TIMEOUT */

extern const struct cmd_entry cmd_list_entry;

enum list_field {
	LF_ID, LF_NAME, LF_STATE, LF_REASON, LF_RANKS, LF_SCHEME, LF_SUBMITTED, LF_STARTED,
	LF_ENDED, LF_MAKESPAN, LF_RESTARTS, LF_COUNT
};

/* Every field --format takes, its column width (negative: aligned left). */
static const struct {
	const char *name;
	int width;
} list_fields[LF_COUNT] = {
	[LF_ID] = { "id", -6 }, [LF_NAME] = { "name", -20 }, [LF_STATE] = { "state", -18 },
	[LF_REASON] = { "reason", -30 }, [LF_RANKS] = { "ranks", 5 },
	[LF_SCHEME] = { "scheme", -8 }, [LF_SUBMITTED] = { "submitted", -19 },
	[LF_STARTED] = { "started", -19 }, [LF_ENDED] = { "ended", -19 },
	[LF_MAKESPAN] = { "makespan", 9 }, [LF_RESTARTS] = { "restarts", 8 },
};

static const enum list_field list_default[] = {
	LF_ID, LF_NAME, LF_STATE, LF_RANKS, LF_SCHEME, LF_SUBMITTED, LF_MAKESPAN, LF_RESTARTS
};

/* What to list and how: the fields in order, the phases kept (all when nstates is 0). */
struct list_opts {
	enum list_field fields[64];
	size_t nfields;
	int custom;		/* --format was given */
	int keep[LIST_NPHASES];
	int nstates;
	int json;
};

/*
 * The comma list s as indices into table (n names) in out; a usage error names a bad
 * one (a noun of opt: "state") with the closest name.
 */
static size_t
list_parse_names(const char *opt, const char *noun, const char *s,
    const char *const *table, size_t n, int *out, size_t max)
{
	char *copy = xstrdup(s), *word, *save = NULL;
	const char *guess;
	size_t k = 0, i;

	for (word = strtok_r(copy, ",", &save); word != NULL; word = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < n && strcmp(word, table[i]) != 0; i++)
			;
		if (i == n) {
			if ((guess = suggest_closest(word, table)) != NULL)
				cmd_usage_error(&cmd_list_entry, "%s: unknown %s '%s' (did you mean "
				    "'%s'?)", opt, noun, word, guess);
			cmd_usage_error(&cmd_list_entry, "%s: unknown %s '%s'", opt, noun, word);
		}
		if (k == max)
			cmd_usage_error(&cmd_list_entry, "%s: more than %zu names", opt, max);
		out[k++] = (int)i;
	}
	free(copy);
	if (k == 0)
		cmd_usage_error(&cmd_list_entry, "%s: no %s given", opt, noun);
	return k;
}

static void
list_parse_format(struct list_opts *o, const char *s)
{
	const char *names[LF_COUNT + 1];
	int idx[64];
	size_t i;

	for (i = 0; i < LF_COUNT; i++)
		names[i] = list_fields[i].name;
	names[LF_COUNT] = NULL;
	o->nfields = list_parse_names("--format", "field", s, names, LF_COUNT, idx, 64);
	for (i = 0; i < o->nfields; i++)
		o->fields[i] = (enum list_field)idx[i];
	o->custom = 1;
}

static void
list_parse_states(struct list_opts *o, const char *s)
{
	const char *names[LIST_NPHASES + 1];
	int idx[64];
	size_t i, n;

	for (i = 0; i < LIST_NPHASES; i++)
		names[i] = job_phase_name((enum job_phase)i);
	names[LIST_NPHASES] = NULL;
	n = list_parse_names("--state", "state", s, names, LIST_NPHASES, idx, 64);
	for (i = 0; i < n; i++)
		o->keep[idx[i]] = 1;
	o->nstates = 1;
}

/* Local time for people; "-" for not yet. */
static void
list_time(double t, char *buf, size_t len)
{
	struct tm tm;
	time_t secs = (time_t)t;

	if (t <= 0 || localtime_r(&secs, &tm) == NULL)
		snprintf(buf, len, "-");
	else
		strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm);
}

/* A string of the state file, cleaned for the terminal ("-" when there is none). */
static void
list_clean(const char *s, char *buf, size_t len)
{
	if (s == NULL)
		snprintf(buf, len, "-");
	else
		text_clean(buf, len, s, strlen(s));
}

/*
 * Whether the makespan is known: the job is done, or a launch measured one; a program
 * without libgrt has none (libgrt's master measures it).
 */
static int
list_has_makespan(const struct job_state *st)
{
	return st->libgrt != 0 && (st->phase == JOB_DONE || st->makespan > 0);
}

/* One field of a job as the text shows it. */
static void
list_cell(const struct job_state *st, enum list_field f, char *buf, size_t len)
{
	switch (f) {
	case LF_ID:
		snprintf(buf, len, "%s", st->id);
		break;
	case LF_NAME:
		list_clean(st->name, buf, len);
		break;
	case LF_STATE:
		if (st->phase == JOB_FAILED && st->reason != NULL &&
		    strcmp(st->reason, JOBCTL_SUPERVISOR_DIED) == 0)
			snprintf(buf, len, "failed(supervisor)");
		else
			snprintf(buf, len, "%s", job_phase_name(st->phase));
		break;
	case LF_REASON:
		list_clean(st->reason, buf, len);
		break;
	case LF_RANKS:
		snprintf(buf, len, "%d", st->ranks);
		break;
	case LF_SCHEME:
		/* a program without libgrt ran as mpiexec runs it: no scheme */
		list_clean(st->libgrt == 0 ? NULL : st->scheme, buf, len);
		break;
	case LF_SUBMITTED:
		list_time(st->submitted, buf, len);
		break;
	case LF_STARTED:
		list_time(st->started, buf, len);
		break;
	case LF_ENDED:
		list_time(st->ended, buf, len);
		break;
	case LF_MAKESPAN:
		if (list_has_makespan(st))
			snprintf(buf, len, "%.3f", st->makespan);
		else
			snprintf(buf, len, "-");
		break;
	case LF_RESTARTS:
	case LF_COUNT:
		snprintf(buf, len, "%d", st->restarts);
		break;
	}
}

/* One field of a job as the JSON document holds it (gridsubmit-json(5)). */
static json_t *
list_value(const struct job_state *st, enum list_field f)
{
	switch (f) {
	case LF_ID:
		return jsonout_id(st->id);
	case LF_NAME:
		return jsonout_str(st->name);
	case LF_STATE:
		return json_string(job_phase_name(st->phase));
	case LF_REASON:
		return jsonout_str(st->reason);
	case LF_RANKS:
		return json_integer(st->ranks);
	case LF_SCHEME:
		return jsonout_str(st->libgrt == 0 ? NULL : st->scheme);
	case LF_SUBMITTED:
		return jobstore_json_time(st->submitted);
	case LF_STARTED:
		return jobstore_json_time(st->started);
	case LF_ENDED:
		return jobstore_json_time(st->ended);
	case LF_MAKESPAN:
		return list_has_makespan(st) ? jsonout_num(st->makespan) : json_null();
	case LF_RESTARTS:
	case LF_COUNT:
		break;
	}
	return json_integer(st->restarts);
}

/* One line of the first n cells, separated by a space, the last one not padded. */
static void
list_print_row(const struct list_opts *o, char cells[][256], size_t n)
{
	size_t i;
	int w;

	for (i = 0; i < n; i++) {
		w = list_fields[o->fields[i]].width;
		if (i + 1 == n && w < 0)
			w = 0;
		printf("%s%*s", i > 0 ? " " : "", w, cells[i]);
	}
	printf("\n");
}

static void
list_print_header(const struct list_opts *o)
{
	char cells[64][256];
	size_t i, k;

	for (i = 0; i < o->nfields; i++) {
		snprintf(cells[i], sizeof cells[i], "%s", list_fields[o->fields[i]].name);
		for (k = 0; cells[i][k] != '\0'; k++)
			cells[i][k] = (char)toupper((unsigned char)cells[i][k]);
	}
	list_print_row(o, cells, o->nfields);
}

/*
 * A job whose state.json cannot be read: its id, and why (already on stderr); its line
 * ends with the state column, "unreadable".
 */
static void
list_unreadable(const struct list_opts *o, const char *id, const char *why, json_t *jobs)
{
	char cells[64][256];
	size_t i;

	if (o->json) {
		json_array_append_new(jobs, json_pack("{s:o, s:s, s:o}", "id", jsonout_id(id),
		    "state", "unreadable", "error", jsonout_error(EXIT_INPUT, why)));
		return;
	}
	for (i = 0; i < o->nfields; i++) {
		snprintf(cells[i], sizeof cells[i], "%s", o->fields[i] == LF_ID ? id :
		    o->fields[i] == LF_STATE ? "unreadable" : "-");
		if (o->fields[i] == LF_STATE)
			break;
	}
	list_print_row(o, cells, i < o->nfields ? i + 1 : o->nfields);
}

static void
list_job(const struct list_opts *o, const struct job_state *st, json_t *jobs)
{
	char cells[64][256];
	json_t *obj;
	size_t i;

	if (o->json) {
		obj = json_object();
		for (i = 0; i < o->nfields; i++)
			json_object_set_new(obj, list_fields[o->fields[i]].name,
			    list_value(st, o->fields[i]));
		json_array_append_new(jobs, obj);
		return;
	}
	for (i = 0; i < o->nfields; i++)
		list_cell(st, o->fields[i], cells[i], sizeof cells[i]);
	list_print_row(o, cells, o->nfields);
}

static const struct option list_longopts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "state", required_argument, NULL, 's' },
	{ "format", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 }
};

static int
cmd_list_exec(int argc, char **argv)
{
	struct list_opts o;
	struct job_state st;
	json_t *jobs = NULL;
	char why[1024], **ids;
	size_t n, i;
	int c;

	memset(&o, 0, sizeof o);
	while ((c = cmd_getopt(argc, argv, &cmd_list_entry)) != -1) {
		if (c == 'j')
			o.json = 1;
		else if (c == 's')
			list_parse_states(&o, optarg);
		else if (c == 'o')
			list_parse_format(&o, optarg);
	}
	if (optind < argc)
		cmd_usage_error(&cmd_list_entry, "unexpected argument '%s'", argv[optind]);
	if (!o.custom) {
		o.nfields = sizeof list_default / sizeof list_default[0];
		memcpy(o.fields, list_default, sizeof list_default);
		if (o.json)
			for (o.nfields = 0; o.nfields < LF_COUNT; o.nfields++)
				o.fields[o.nfields] = (enum list_field)o.nfields;
	}
	if (jobstore_list(&ids, &n, why, sizeof why) == -1) {
		log_warnx("%s", why);
		return EXIT_FAILED;
	}
	if (o.json)
		jobs = json_array();
	else
		list_print_header(&o);
	for (i = 0; i < n; i++) {
		if (jobstore_read_state(ids[i], &st, why, sizeof why) != JOBSTORE_OK) {
			log_warnx("%s", why);
			if (o.nstates == 0)
				list_unreadable(&o, ids[i], why, jobs);
			continue;
		}
		if (jobctl_refresh(&st, why, sizeof why) == -1)
			log_warnx("job %s: %s", st.id, why);
		if (o.nstates == 0 || o.keep[st.phase])
			list_job(&o, &st, jobs);
		job_state_free(&st);
	}
	jobstore_list_free(ids, n);
	if (o.json)
		return jsonout_print(json_pack("{s:o}", "jobs", jobs)) == 0 ? EXIT_OK :
		    EXIT_FAILED;
	if (fflush(stdout) == EOF || ferror(stdout)) {
		log_warn("cannot write the job list");
		return EXIT_FAILED;
	}
	return EXIT_OK;
}

const struct cmd_entry cmd_list_entry = {
	"list", "[--state S[,S...]] [--format FIELDS] [--json]",
	"list the jobs, one line each, newest last",
	"  -s, --state S,...     only the jobs in these states: brokering, pending, staging,\n"
	"                        launching, running, done, failed, cancelled, timeout\n"
	"  -o, --format FIELDS   the columns, comma separated, in this order: id, name,\n"
	"                        state, reason, ranks, scheme, submitted, started, ended,\n"
	"                        makespan, restarts; with --json the keys of each job\n"
	"      --json            one JSON document (gridsubmit-json(5)) instead of text\n"
	"default columns: id, name, state, ranks, scheme, submitted (local time), makespan\n"
	"(s), restarts (relaunches after failures, resumes included); the header is the\n"
	"field names in upper case; a job whose state.json cannot be read is listed as\n"
	"'unreadable' (why on stderr; not with --state)\n",
	cmd_list_exec, "s:o:", list_longopts, NULL, CMD_OPERAND_NONE
};
