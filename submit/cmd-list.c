/*
 * cmd-list.c — gridsubmit list: every job of the store, one line each, newest last, as
 * squeue and sacct list theirs.
 *
 * Default columns: id, name, state, elapsed, nodes, exit, reason (submit/jobfield.h says
 * what each is); --format/-o FIELDS picks others, as sacct --format and ps -o do, with the
 * field names in upper case as the header (--noheader leaves it out). Each column is as
 * wide as its widest cell, so a long name never pushes the others out of line: the name
 * is cut at LIST_NAME_MAX columns and the reason, last by default, to what is left of the
 * terminal (COLUMNS, else the terminal's width; never when neither is known, so that a
 * pipe gets it whole), at a word boundary; a cut cell ends with "…". --state S,... keeps
 * the jobs in those phases. A job whose supervisor died is recorded as failed, as status
 * does. A job whose state.json cannot be read is listed as "unreadable" (not with
 * --state) and the reason goes to stderr; the listing goes on. A store that does not
 * exist yet lists no job and is not made.
 * --json prints one document (gridsubmit-json(5)): {"schema_version", "jobs": [...]},
 * each job with every field, or the --format fields when given.
 */
#include <sys/ioctl.h>

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fit.h"
#include "common/jsonout.h"
#include "common/log.h"
#include "common/suggest.h"
#include "common/text.h"
#include "common/xmalloc.h"
#include "launch/jobctl.h"
#include "store/jobstore.h"
#include "submit/cmd.h"
#include "submit/jobfield.h"

#define LIST_NPHASES	(JOB_TIMEOUT + 1)	/* enum job_phase ends with JOB_TIMEOUT */
#define LIST_NAME_MAX	24	/* columns of a name before it is cut */
#define LIST_REASON_MIN	20	/* a reason keeps these columns on any terminal */
#define LIST_CELL	1024

extern const struct cmd_entry cmd_list_entry;

static const enum job_field list_default[] = {
	JF_ID, JF_NAME, JF_STATE, JF_ELAPSED, JF_NODES, JF_EXIT, JF_REASON
};

/* What to list and how: the fields in order, the phases kept (all when nstates is 0). */
struct list_opts {
	enum job_field fields[64];
	size_t nfields;
	int custom;		/* --format was given */
	int keep[LIST_NPHASES];
	int nstates;
	int json;
	int noheader;
};

/* The text rows: cells[row * nfields + field], each cleaned, allocated. */
struct list_rows {
	char **cells;
	size_t nrows;
};

/*
 * The comma list s as indices into table (n names) in out; a usage error names a bad
 * one (a noun of opt: "state") with the closest name. Names are taken in any case, as
 * sacct takes --format=JobID,State.
 */
static size_t
list_parse_names(const char *opt, const char *noun, const char *s,
    const char *const *table, size_t n, int *out, size_t max)
{
	char *copy = xstrdup(s), *word, *save = NULL, *p;
	const char *guess;
	size_t k = 0, i;

	for (word = strtok_r(copy, ",", &save); word != NULL; word = strtok_r(NULL, ",", &save)) {
		for (p = word; *p != '\0'; p++)
			*p = (char)tolower((unsigned char)*p);
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
	const char *names[JF_COUNT + 1];
	int idx[64];
	size_t i;

	for (i = 0; i < JF_COUNT; i++)
		names[i] = jobfield_name((enum job_field)i);
	names[JF_COUNT] = NULL;
	o->nfields = list_parse_names("--format", "field", s, names, JF_COUNT, idx, 64);
	for (i = 0; i < o->nfields; i++)
		o->fields[i] = (enum job_field)idx[i];
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

/* The columns the lines may take: COLUMNS, else the terminal's; 0 when neither is known. */
static int
list_columns(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	long v;
	char *end;

	if (env != NULL && *env != '\0') {
		v = strtol(env, &end, 10);
		if (*end == '\0' && v > 0 && v < 100000)
			return (int)v;
	}
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col > 0)
		return ws.ws_col;
	return 0;
}

/*
 * The cleaned cell *cell cut to at most max columns, replaced: a reason (words) after its
 * last whole word, a name after its last whole part (common/fit.h), "…" ending a cut one.
 */
static void
list_cut(char **cell, int max, int words)
{
	size_t len = 4 * (size_t)max + 4, n;
	char *dst = xmalloc(len);

	if (words) {
		fit_words(dst, len, *cell, max, 1);
	} else {
		fit_name(dst, len, *cell, max, 0, 1);
		for (n = strlen(dst); n > 0 && dst[n - 1] == ' '; n--)
			dst[n - 1] = '\0';
	}
	free(*cell);
	*cell = dst;
}

/* One line: the cells padded to their columns' widths, the last one not padded. */
static void
list_print_row(const struct list_opts *o, char *const *cells, const int *width)
{
	size_t i;
	int pad;

	for (i = 0; i < o->nfields; i++) {
		pad = width[i] - text_width(cells[i]);
		if (pad < 0)
			pad = 0;
		if (i > 0)
			putchar(' ');
		if (jobfield_numeric(o->fields[i]))
			printf("%*s%s", pad, "", cells[i]);
		else
			printf("%s%*s", cells[i], i + 1 == o->nfields ? 0 : pad, "");
	}
	putchar('\n');
}

/* The header, upper case, into cells (allocated). */
static void
list_header(const struct list_opts *o, char **cells)
{
	size_t i, k;

	for (i = 0; i < o->nfields; i++) {
		cells[i] = xstrdup(jobfield_name(o->fields[i]));
		for (k = 0; cells[i][k] != '\0'; k++)
			cells[i][k] = (char)toupper((unsigned char)cells[i][k]);
	}
}

/*
 * The widths: each column its widest cell (the header included); names capped, a reason
 * that is the last column cut to the terminal's columns, one that is not capped as names.
 */
static void
list_widths(const struct list_opts *o, struct list_rows *r, char **head, int *width)
{
	size_t i, j;
	int cols = list_columns(), used = 0, max, w;

	for (i = 0; i < o->nfields; i++) {
		width[i] = text_width(head[i]);
		for (j = 0; j < r->nrows; j++)
			if ((w = text_width(r->cells[j * o->nfields + i])) > width[i])
				width[i] = w;
		max = 0;
		if (o->fields[i] == JF_NAME && i + 1 < o->nfields)
			max = LIST_NAME_MAX;
		else if (o->fields[i] == JF_REASON && i + 1 < o->nfields)
			max = 2 * LIST_NAME_MAX;
		else if (o->fields[i] == JF_REASON && cols > 0)
			max = cols - used > LIST_REASON_MIN ? cols - used : LIST_REASON_MIN;
		if (max > 0 && width[i] > max) {
			width[i] = max;
			for (j = 0; j < r->nrows; j++)
				list_cut(&r->cells[j * o->nfields + i], max,
				    o->fields[i] == JF_REASON);
		}
		used += width[i] + 1;
	}
}

/*
 * A job whose state.json cannot be read: its id, and why (already on stderr); its cells
 * after the state column are empty.
 */
static void
list_unreadable(const struct list_opts *o, const char *id, const char *why, json_t *jobs,
    struct list_rows *r)
{
	size_t i;

	if (o->json) {
		json_array_append_new(jobs, json_pack("{s:o, s:s, s:o}", "id", jsonout_id(id),
		    "state", "unreadable", "error", jsonout_error(EXIT_INPUT, why)));
		return;
	}
	r->cells = xreallocarray(r->cells, (r->nrows + 1) * o->nfields, sizeof *r->cells);
	for (i = 0; i < o->nfields; i++)
		r->cells[r->nrows * o->nfields + i] = xstrdup(o->fields[i] == JF_ID ? id :
		    o->fields[i] == JF_STATE ? "unreadable" : "-");
	r->nrows++;
}

static void
list_job(const struct list_opts *o, const struct job_state *st, json_t *jobs,
    struct list_rows *r)
{
	struct jobfield_info ji;
	char cell[LIST_CELL];
	json_t *obj;
	size_t i;

	jobfield_info(st, &ji);
	if (o->json) {
		obj = json_object();
		for (i = 0; i < o->nfields; i++)
			json_object_set_new(obj, jobfield_name(o->fields[i]),
			    jobfield_json(st, &ji, o->fields[i]));
		json_array_append_new(jobs, obj);
		return;
	}
	r->cells = xreallocarray(r->cells, (r->nrows + 1) * o->nfields, sizeof *r->cells);
	for (i = 0; i < o->nfields; i++) {
		jobfield_text(st, &ji, o->fields[i], cell, sizeof cell);
		r->cells[r->nrows * o->nfields + i] = xstrdup(cell);
	}
	r->nrows++;
}

/* The rows under their header, in columns; the rows freed. 0, or -1 when stdout failed. */
static int
list_print(const struct list_opts *o, struct list_rows *r)
{
	char *head[64];
	int width[64];
	size_t i;

	list_header(o, head);
	list_widths(o, r, head, width);
	if (!o->noheader)
		list_print_row(o, head, width);
	for (i = 0; i < r->nrows; i++)
		list_print_row(o, r->cells + i * o->nfields, width);
	strv_free(r->cells, r->nrows * o->nfields);
	for (i = 0; i < o->nfields; i++)
		free(head[i]);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		log_warn("cannot write the job list");
		return -1;
	}
	return 0;
}

static const struct option list_longopts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "state", required_argument, NULL, 's' },
	{ "format", required_argument, NULL, 'o' },
	{ "noheader", no_argument, NULL, 'n' },
	{ NULL, 0, NULL, 0 }
};

/* The options into o; the fields by default when --format was not given. */
static void
list_options(int argc, char **argv, struct list_opts *o)
{
	int c;

	memset(o, 0, sizeof *o);
	while ((c = cmd_getopt(argc, argv, &cmd_list_entry)) != -1) {
		if (c == 'j')
			o->json = 1;
		else if (c == 's')
			list_parse_states(o, optarg);
		else if (c == 'o')
			list_parse_format(o, optarg);
		else if (c == 'n')
			o->noheader = 1;
	}
	if (optind < argc)
		cmd_usage_error(&cmd_list_entry, "unexpected argument '%s'", argv[optind]);
	if (o->custom)
		return;
	o->nfields = sizeof list_default / sizeof list_default[0];
	memcpy(o->fields, list_default, sizeof list_default);
	if (o->json)
		for (o->nfields = 0; o->nfields < JF_COUNT; o->nfields++)
			o->fields[o->nfields] = (enum job_field)o->nfields;
}

static int
cmd_list_exec(int argc, char **argv)
{
	struct list_opts o;
	struct list_rows rows = { NULL, 0 };
	struct job_state st;
	json_t *jobs = NULL;
	char why[1024], **ids;
	size_t n, i;

	list_options(argc, argv, &o);
	if (jobstore_list(&ids, &n, why, sizeof why) == -1) {
		log_warnx("%s", why);
		return EXIT_FAILED;
	}
	if (o.json)
		jobs = json_array();
	for (i = 0; i < n; i++) {
		if (jobstore_read_state(ids[i], &st, why, sizeof why) != JOBSTORE_OK) {
			log_warnx("%s", why);
			if (o.nstates == 0)
				list_unreadable(&o, ids[i], why, jobs, &rows);
			continue;
		}
		if (jobctl_refresh(&st, why, sizeof why) == -1)
			log_warnx("job %s: %s", st.id, why);
		if (o.nstates == 0 || o.keep[st.phase])
			list_job(&o, &st, jobs, &rows);
		job_state_free(&st);
	}
	jobstore_list_free(ids, n);
	if (o.json)
		return jsonout_print(json_pack("{s:o}", "jobs", jobs)) == 0 ? EXIT_OK :
		    EXIT_FAILED;
	return list_print(&o, &rows) == 0 ? EXIT_OK : EXIT_FAILED;
}

const struct cmd_entry cmd_list_entry = {
	"list", "[--state S[,S...]] [--format FIELDS] [--noheader] [--json]",
	"list the jobs, one line each, newest last",
	"  -s, --state S,...     only the jobs in these states: brokering, pending, staging,\n"
	"                        launching, running, done, failed, cancelled, timeout\n"
	"  -o, --format FIELDS   the columns, comma separated, in this order (any case):\n"
	"                        id, name, state, reason, ranks, nodes, scheme, submitted,\n"
	"                        started, ended, elapsed, makespan, exit, dir, restarts;\n"
	"                        with --json the keys of each job\n"
	"  -n, --noheader        no header line\n"
	"      --json            one JSON document (gridsubmit-json(5)) instead of text\n"
	"default columns: id, name, state, elapsed (since it started; a running job's\n"
	"so far), nodes, exit (the program's: the first failing rank's exit status,\n"
	"128+N for signal N), reason; times are local with their zone\n"
	"(2026-11-27T15:02:11+00:00); makespan is 'running' while it runs. A name is\n"
	"cut after 24 columns and the last reason to the terminal's width (COLUMNS),\n"
	"each ending with an ellipsis; a job whose state.json cannot be read is listed\n"
	"as 'unreadable' (why on stderr; not with --state)\n",
	cmd_list_exec, "s:o:n", list_longopts, NULL, CMD_OPERAND_NONE
};
