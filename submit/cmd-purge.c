/*
 * cmd-purge.c — gridsubmit purge: remove ended jobs from the store, their directories
 * (outputs, logs, events, staged files) and their state together, to free the space that
 * old jobs keep (a mandelbrot job keeps its 262 KB image).
 *
 * The jobs are those named (ID...), or every job, kept when they match --older-than (ended
 * at least that long ago) and --state (in those final states); one of the three must be
 * given, so that a bare `purge` removes nothing. A job that has not ended, or whose
 * supervisor is still finishing it, is never removed: named ones are refused before
 * anything is removed (exit 7), the others are simply not chosen. Each job goes in one
 * step (store/jobstore-purge.c: renamed out of the store, then removed), so that no
 * command ever finds half of one. Prints each job removed with its bytes, then the total;
 * --dry-run prints the same and removes nothing; --json one document
 * (gridsubmit-json(5)).
 * Exit status: 0, 1 a job could not be removed, 2 usage or no such job, 3 a named job's
 * state.json is unreadable, 7 a named job has not ended.
 */
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/jsonout.h"
#include "common/log.h"
#include "common/numarg.h"
#include "common/suggest.h"
#include "common/text.h"
#include "common/xmalloc.h"
#include "launch/jobctl.h"
#include "store/jobstore.h"
#include "submit/cmd.h"
#include "submit/json-fail.h"

#define PURGE_FINISH_WAIT	10.0	/* seconds for an ended job's supervisor to exit */

extern const struct cmd_entry cmd_purge_entry;

struct purge_opts {
	double older;		/* seconds; -1 when not given */
	int keep[JOB_TIMEOUT + 1];	/* --state: the final phases kept */
	int nstates;
	int dry_run;
	int json;
};

/* A duration: a number and a unit, s, m, h, d or w (seconds without one): "7d", "90m". */
static double
purge_parse_duration(const char *s)
{
	static const char units[] = "smhdw";
	static const double secs[] = { 1, 60, 3600, 86400, 604800 };
	char num[64];
	size_t len = strlen(s);
	const char *u;
	double v;

	if (len == 0 || len >= sizeof num)
		cmd_usage_error(&cmd_purge_entry, "--older-than: a duration is needed (7d, "
		    "12h, 30m, 90s)");
	memcpy(num, s, len + 1);
	u = isalpha((unsigned char)num[len - 1]) ? strchr(units, num[len - 1]) : units;
	if (u == NULL)
		cmd_usage_error(&cmd_purge_entry, "--older-than %s: unknown unit '%c' (s, m, h, "
		    "d or w)", s, num[len - 1]);
	if (isalpha((unsigned char)num[len - 1]))
		num[len - 1] = '\0';
	if (numarg_double(num, 0, 1e12, &v) == -1)
		cmd_usage_error(&cmd_purge_entry, "--older-than %s: not a duration (7d, 12h, "
		    "30m, 90s)", s);
	return v * secs[u - units];
}

/* --state S,...: final phases only, with "did you mean" for a name that is none. */
static void
purge_parse_states(struct purge_opts *o, const char *s)
{
	const char *names[JOB_TIMEOUT + 2], *guess;
	char *copy = xstrdup(s), *word, *save = NULL;
	int p;

	for (p = 0; p <= JOB_TIMEOUT; p++)
		names[p] = job_phase_name((enum job_phase)p);
	names[JOB_TIMEOUT + 1] = NULL;
	for (word = strtok_r(copy, ",", &save); word != NULL; word = strtok_r(NULL, ",", &save)) {
		for (p = 0; p <= JOB_TIMEOUT && strcmp(word, names[p]) != 0; p++)
			;
		if (p > JOB_TIMEOUT && (guess = suggest_closest(word, names)) != NULL)
			cmd_usage_error(&cmd_purge_entry, "--state: unknown state '%s' (did you "
			    "mean '%s'?)", word, guess);
		if (p > JOB_TIMEOUT)
			cmd_usage_error(&cmd_purge_entry, "--state: unknown state '%s'", word);
		if (!job_phase_final((enum job_phase)p))
			cmd_usage_error(&cmd_purge_entry, "--state %s: only ended jobs are purged "
			    "(done, failed, cancelled, timeout)", word);
		o->keep[p] = 1;
		o->nstates++;
	}
	free(copy);
	if (o->nstates == 0)
		cmd_usage_error(&cmd_purge_entry, "--state: no state given");
}

/*
 * Whether the job has ended for good: final, and no supervisor still finishing it. A
 * supervisor records the end before it lets go of the job (slots, its log), so one that
 * is finishing gets PURGE_FINISH_WAIT seconds: `wait ID && purge ID` just works.
 */
static int
purge_ended(const struct job_state *st)
{
	return job_phase_final(st->phase) && jobctl_supervisor_wait(st, PURGE_FINISH_WAIT);
}

/* Whether an ended job matches --older-than and --state. */
static int
purge_match(const struct purge_opts *o, const struct job_state *st, double now)
{
	if (o->nstates > 0 && !o->keep[st->phase])
		return 0;
	return o->older < 0 || (st->ended > 0 && now - st->ended >= o->older);
}

/*
 * The jobs named, checked before anything is removed: each id that names no job, cannot
 * be read or has not ended is said (in refused for --json) and its exit code returned; the
 * first such code, or EXIT_OK with the matching ids in *ids.
 */
static int
purge_named(const struct purge_opts *o, char **argv, int argc, char ***ids, size_t *n,
    json_t *refused)
{
	struct job_state st;
	char why[1024];
	double now = clock_wall();
	int i, code, first = EXIT_OK;

	for (i = 0; i < argc; i++) {
		if ((code = cmd_open_job(argv[i], &st, 1)) != EXIT_OK) {
			json_array_append_new(refused, json_pack("{s:o, s:o}", "id",
			    jsonout_id(argv[i]), "error",
			    jsonout_error(code, cmd_open_job_error(argv[i], code))));
			if (first == EXIT_OK)
				first = code;
			continue;
		}
		if (!purge_ended(&st)) {
			snprintf(why, sizeof why, "job %s is %s%s: only ended jobs are purged "
			    "(cancel it first)", st.id, job_phase_name(st.phase),
			    job_phase_final(st.phase) ? " and its supervisor is still finishing" :
			    "");
			log_warnx("%s", why);
			code = EXIT_REFUSED;
			json_array_append_new(refused, json_pack("{s:o, s:s, s:o}", "id",
			    jsonout_id(st.id), "state", job_phase_name(st.phase), "error",
			    jsonout_error(code, why)));
		} else if (purge_match(o, &st, now)) {
			*ids = xreallocarray(*ids, *n + 1, sizeof **ids);
			(*ids)[(*n)++] = xstrdup(st.id);
		}
		job_state_free(&st);
		if (first == EXIT_OK)
			first = code;
	}
	return first;
}

/* Every ended job of the store that matches, into *ids; 0, or -1 (said) if the store fails. */
static int
purge_all(const struct purge_opts *o, char ***ids, size_t *n)
{
	struct job_state st;
	char why[1024], **all;
	double now = clock_wall();
	size_t k, i;

	if (jobstore_list(&all, &k, why, sizeof why) == -1) {
		log_warnx("%s", why);
		return -1;
	}
	for (i = 0; i < k; i++) {
		if (jobstore_read_state(all[i], &st, why, sizeof why) != JOBSTORE_OK) {
			log_warnx("%s (not purged)", why);
			continue;
		}
		if (jobctl_refresh(&st, why, sizeof why) == -1)
			log_warnx("job %s: %s", st.id, why);
		if (purge_ended(&st) && purge_match(o, &st, now)) {
			*ids = xreallocarray(*ids, *n + 1, sizeof **ids);
			(*ids)[(*n)++] = xstrdup(st.id);
		}
		job_state_free(&st);
	}
	jobstore_list_free(all, k);
	return 0;
}

/* One job removed (or, dry, to be): said, and added to done. The job's exit code. */
static int
purge_one(const struct purge_opts *o, const char *id, json_t *done, long long *bytes)
{
	struct jobstore_purged p;
	char why[1024], name[256];
	int rc, code;

	rc = jobstore_purge(id, o->dry_run, &p, why, sizeof why);
	if (rc != JOBSTORE_OK) {
		log_warnx("%s", why);
		code = rc == JOBSTORE_LIVE ? EXIT_REFUSED : rc == JOBSTORE_NOJOB ? EXIT_USAGE :
		    rc == JOBSTORE_BAD ? EXIT_INPUT : EXIT_FAILED;
		json_array_append_new(done, json_pack("{s:o, s:o}", "id", jsonout_id(id),
		    "error", jsonout_error(code, why)));
		jobstore_purged_free(&p);
		return code;
	}
	*bytes += p.bytes;
	json_array_append_new(done, json_pack("{s:o, s:o, s:s, s:I}", "id", jsonout_id(p.id),
	    "name", jsonout_str(p.name), "state", job_phase_name(p.phase),
	    "bytes", (json_int_t)p.bytes));
	if (!o->json) {
		if (p.name != NULL)
			text_clean(name, sizeof name, p.name, strlen(p.name));
		printf("%s job %s (%s, %s): %lld bytes\n", o->dry_run ? "would purge" : "purged",
		    p.id, p.name != NULL ? name : "-", job_phase_name(p.phase), p.bytes);
	}
	jobstore_purged_free(&p);
	return EXIT_OK;
}

/* The end: the total as text, or the document; the exit code, EXIT_FAILED when unwritten. */
static int
purge_report(const struct purge_opts *o, json_t *jobs, long long bytes, int code)
{
	size_t n = 0, i;

	for (i = 0; i < json_array_size(jobs); i++)
		n += json_object_get(json_array_get(jobs, i), "error") == NULL;
	if (o->json) {
		if (jsonout_print(json_fail_doc(json_pack("{s:b, s:o, s:I, s:I, s:i}", "dry_run",
		    o->dry_run, "jobs", jobs, "purged", (json_int_t)n, "bytes", (json_int_t)bytes,
		    "exit_code", code), code)) == -1)
			return EXIT_FAILED;
		return code;
	}
	json_decref(jobs);
	if (n == 0 && code == EXIT_OK)
		printf("no job to purge\n");
	else if (n > 0)
		printf("%s %zu job%s, %lld bytes%s\n", o->dry_run ? "would purge" : "purged", n,
		    n == 1 ? "" : "s", bytes, o->dry_run ? " would be freed" : " freed");
	return code;
}

static const struct option purge_longopts[] = {
	{ "older-than", required_argument, NULL, 'o' },
	{ "state", required_argument, NULL, 's' },
	{ "dry-run", no_argument, NULL, 'd' },
	{ "json", no_argument, NULL, 'j' },
	{ NULL, 0, NULL, 0 }
};

static void
purge_options(int argc, char **argv, struct purge_opts *o)
{
	int c;

	memset(o, 0, sizeof *o);
	o->older = -1;
	while ((c = cmd_getopt(argc, argv, &cmd_purge_entry)) != -1) {
		if (c == 'o')
			o->older = purge_parse_duration(optarg);
		else if (c == 's')
			purge_parse_states(o, optarg);
		else if (c == 'd')
			o->dry_run = 1;
		else if (c == 'j')
			o->json = 1;
	}
	if (optind == argc && o->older < 0 && o->nstates == 0)
		cmd_usage_error(&cmd_purge_entry, "say which jobs: ID..., --older-than or "
		    "--state (--state done,failed,cancelled,timeout for every ended job)");
}

static int
cmd_purge_exec(int argc, char **argv)
{
	struct purge_opts o;
	json_t *jobs = json_array();
	char why[1024], **ids = NULL;
	long long bytes = 0;
	size_t n = 0, i;
	int code = EXIT_OK, rc;

	purge_options(argc, argv, &o);
	if (optind < argc)
		code = purge_named(&o, argv + optind, argc - optind, &ids, &n, jobs);
	else if (purge_all(&o, &ids, &n) == -1)
		code = EXIT_FAILED;
	/* a refused name stops everything: nothing is half done */
	if (code == EXIT_OK) {
		if (!o.dry_run && jobstore_purge_leftovers(why, sizeof why) == -1)
			log_warnx("%s", why);
		for (i = 0; i < n; i++)
			if ((rc = purge_one(&o, ids[i], jobs, &bytes)) != EXIT_OK &&
			    code == EXIT_OK)
				code = rc;
	}
	strv_free(ids, n);
	return purge_report(&o, jobs, bytes, code);
}

const struct cmd_entry cmd_purge_entry = {
	"purge", "[ID...] [--older-than D] [--state S[,S...]] [--dry-run] [--json]",
	"remove ended jobs: their directories and state, to free space",
	"  ID...                 these jobs (each must have ended)\n"
	"      --older-than D    the jobs that ended at least D ago: a number and s, m, h,\n"
	"                        d or w (7d, 12h, 90m)\n"
	"      --state S,...     the jobs in these states: done, failed, cancelled, timeout\n"
	"      --dry-run         say what would be removed, and its bytes; remove nothing\n"
	"      --json            one JSON document (gridsubmit-json(5)) instead of text\n"
	"at least one of ID, --older-than and --state is needed; given together, a job\n"
	"must match all. A job that has not ended is never removed: one named is refused\n"
	"before anything is removed. Each job goes whole (its state and directory at\n"
	"once); what it freed is printed, then the total.\n"
	"exit status: 0 done (also when no job matched), 1 a job could not be removed,\n"
	"2 no such job, 3 a named job's state.json is unreadable, 7 a named job has not\n"
	"ended\n",
	cmd_purge_exec, NULL, purge_longopts, NULL, CMD_OPERAND_JOB
};
