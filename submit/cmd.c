/* cmd.c — option parsing, help and usage errors shared by the sub-commands. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "common/home.h"
#include "common/log.h"
#include "common/suggest.h"
#include "launch/jobctl.h"
#include "store/jobstore.h"
#include "submit/cmd.h"

/*
 * The options, -h among them as the last, then the notes: cmd->help holds the option lines
 * (indented) first and the notes (from the first line that is not) after them, so -h goes
 * between the two, where a reader of the options looks for it.
 */
void
cmd_print_help(const struct cmd_entry *cmd, FILE *f)
{
	const char *help = cmd->help != NULL ? cmd->help : "", *notes = help;

	while (*notes == ' ')
		notes += strcspn(notes, "\n") + (notes[strcspn(notes, "\n")] == '\n');
	fprintf(f, "usage: gridsubmit %s %s\n\n%s\n\noptions:\n%.*s", cmd->name, cmd->args,
	    cmd->summary, (int)(notes - help), help);
	fprintf(f, "  -h, --help            show this help\n");
	if (*notes != '\0')
		fprintf(f, "\n%s", notes);
}

void
cmd_usage_error(const struct cmd_entry *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "gridsubmit %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nusage: gridsubmit %s %s\n", cmd->name, cmd->args);
	exit(EXIT_USAGE);
}

/* The unknown option's closest long name, for the "did you mean" of a usage error. */
static void
cmd_bad_option(const struct cmd_entry *cmd, const char *arg, const struct option *longopts)
{
	const char *names[128];
	const char *guess;
	char word[64];
	size_t n = 0;

	snprintf(word, sizeof word, "%s", arg);
	word[strcspn(word, "=")] = '\0';
	for (; longopts != NULL && longopts->name != NULL && n < 126; longopts++)
		names[n++] = longopts->name;
	names[n++] = "help";
	names[n] = NULL;
	guess = strncmp(word, "--", 2) == 0 ? suggest_closest(word + 2, names) : NULL;
	if (guess != NULL)
		cmd_usage_error(cmd, "unknown option '%s' (did you mean '--%s'?)", word, guess);
	cmd_usage_error(cmd, "unknown option '%s'", word);
}

int
cmd_getopt(int argc, char **argv, const struct cmd_entry *cmd)
{
	static const struct option none[] = { { NULL, 0, NULL, 0 } };
	const struct option *longopts = cmd->longopts;
	struct option all[128];
	char shorts[128];
	size_t n = 0;
	int c;

	for (; longopts != NULL && longopts[n].name != NULL && n < 126; n++)
		all[n] = longopts[n];
	all[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	all[n] = none[0];
	snprintf(shorts, sizeof shorts, ":%sh",
	    cmd->shortopts != NULL ? cmd->shortopts : "");

	c = getopt_long(argc, argv, shorts, all, NULL);
	switch (c) {
	case 'h':
		cmd_print_help(cmd, stdout);
		exit(EXIT_OK);
	case '?':
		if (optopt != 0)
			cmd_usage_error(cmd, "unknown option '-%c'", optopt);
		cmd_bad_option(cmd, argv[optind - 1], longopts);
		break;
	case ':':
		cmd_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
	}
	return c;
}

int
cmd_is_action(const struct cmd_entry *cmd, const char *word)
{
	const char *const *a;

	for (a = cmd->actions; a != NULL && *a != NULL; a++)
		if (strcmp(*a, word) == 0)
			return 1;
	return 0;
}

void
cmd_unknown_action(const struct cmd_entry *cmd, const char *word, const char *expected)
{
	const char *guess = suggest_closest(word, cmd->actions);

	if (guess != NULL)
		cmd_usage_error(cmd, "unknown action '%s' (did you mean '%s'?)", word, guess);
	cmd_usage_error(cmd, "unknown action '%s' (%s)", word, expected);
}

long long
cmd_parse_int(const struct cmd_entry *cmd, const char *opt, const char *s, long long min,
    long long max)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v < min || v > max)
		cmd_usage_error(cmd, "%s: '%s' is not a whole number from %lld to %lld", opt, s,
		    min, max);
	return v;
}

double
cmd_parse_double(const struct cmd_entry *cmd, const char *opt, const char *s, double min,
    double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || errno != 0 || !isfinite(v) || v < min || v > max)
		cmd_usage_error(cmd, "%s: '%s' is not a number from %g to %g", opt, s, min, max);
	return v;
}

int
cmd_open_job(const char *arg, struct job_state *st, int refresh)
{
	char id[32], why[1024];
	int rc;

	memset(st, 0, sizeof *st);
	if (arg == NULL) {
		if ((rc = jobstore_latest_id(id, sizeof id, why, sizeof why)) != JOBSTORE_OK) {
			log_warnx("%s", why);
			return rc == JOBSTORE_NOJOB ? EXIT_USAGE : EXIT_FAILED;
		}
		arg = id;
	} else if (jobstore_parse_id(arg, id, sizeof id) == -1) {
		/* an id, never a path: the store is the only place jobs are looked up */
		log_warnx("'%.40s' is not a job id (ids are numbers: see gridsubmit list)", arg);
		return EXIT_USAGE;
	}
	if ((rc = jobstore_read_state(arg, st, why, sizeof why)) != JOBSTORE_OK) {
		log_warnx("%s", why);
		return rc == JOBSTORE_NOJOB ? EXIT_USAGE : rc == JOBSTORE_BAD ? EXIT_INPUT :
		    EXIT_FAILED;
	}
	if (refresh && jobctl_refresh(st, why, sizeof why) == -1)
		log_warnx("job %s: %s", st->id, why);
	return EXIT_OK;
}

int
cmd_phase_exit(int phase)
{
	switch (phase) {
	case JOB_DONE:
		return EXIT_OK;
	case JOB_CANCELLED:
		return EXIT_CANCELLED;
	case JOB_TIMEOUT:
		return EXIT_TIMEOUT;
	default:
		return EXIT_FAILED;
	}
}

const char *
cmd_open_job_error(const char *arg, int code)
{
	char id[32];

	if (code == EXIT_INPUT)
		return "state.json is unreadable or corrupt";
	if (code == EXIT_FAILED)
		return "the job store cannot be used";
	return jobstore_parse_id(arg, id, sizeof id) == 0 ? "no such job" : "not a job id";
}

const char *
cmd_home(void)
{
	const char *root;
	char why[1024];

	if ((root = home_root(why, sizeof why)) == NULL)
		fatalx("%s", why);
	return root;
}

const char *
cmd_home_find(void)
{
	const char *root;
	char why[1024];

	if ((root = home_find(why, sizeof why)) == NULL)
		fatalx("%s", why);
	return root;
}
