/*
 * cmd-run.c — gridsubmit run: submit a job and follow it in the foreground.
 *
 * Loads the sites (the embedded sites/localhost.yaml unless --sites) and the job, ranks the
 * nodes (live metrics where a monitor is set), places the ranks, writes the job directory
 * (job.yaml, hostfile, rankmap, state.json), launches mpiexec and supervises it; with --top
 * it shows the live console meanwhile. A job that fails because a node, a rank or the
 * master was lost is relaunched without the failed nodes, up to its restarts
 * (jobrun-restart.c). Exits 0 only when the job succeeded.
 *
 * stdout carries only the program's output (DIR/stdout), so `run job.yaml > out.txt` keeps
 * exactly that; every line of gridsubmit's own (the start, restarts, the end, where the
 * results are) goes to stderr, with a progress line meanwhile on a terminal (progress.h);
 * -q leaves only the errors.
 */
#include <stdio.h>
#include <string.h>

#include <strings.h>

#include "common/suggest.h"
#include "grt/grt-keys.h"
#include "grt/scheme.h"
#include "submit/cmd.h"
#include "submit/jobrun.h"

/* submit's are the same but --top (cmd-submit.c); the values are jobrun_parse's */
static const struct option run_longopts[] = {
	{ "sites", required_argument, NULL, 's' },
	{ "scheme", required_argument, NULL, 'S' },
	{ "migration", required_argument, NULL, 'G' },
	{ "ranks", required_argument, NULL, 'n' },
	{ "top", no_argument, NULL, 't' },
	{ "no-metrics", no_argument, NULL, 'M' },
	{ "restarts", required_argument, NULL, 'R' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "now", no_argument, NULL, 'W' },
	{ NULL, 0, NULL, 0 }
};

const char *
jobrun_scheme_arg(const struct cmd_entry *cmd, const char *arg)
{
	const char *names[GRT_SCHEME_COUNT + 1], *guess;
	char list[512];
	size_t o = 0;
	int i;

	if ((i = grt_scheme_from_name(arg)) >= 0)
		return grt_scheme_name(i);
	list[0] = '\0';
	for (i = 0; i < GRT_SCHEME_COUNT; i++) {
		names[i] = grt_scheme_name(i);
		if (o < sizeof list)
			o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", i ? ", " : "",
			    names[i]);
	}
	names[i] = NULL;
	if ((guess = suggest_closest(arg, names)) != NULL)
		cmd_usage_error(cmd, "--scheme: unknown scheme '%s' (did you mean '%s'?)", arg,
		    guess);
	cmd_usage_error(cmd, "--scheme: unknown scheme '%s' (one of: %s)", arg, list);
}

const char *
jobrun_migration_arg(const struct cmd_entry *cmd, const char *arg)
{
	static const char *const names[] = { GRT_MIGRATION_NAMES, NULL };
	const char *guess;
	int i;

	for (i = 0; names[i] != NULL; i++)
		if (strcasecmp(arg, names[i]) == 0)
			return names[i];
	if (strcasecmp(arg, "rotate") == 0)
		cmd_usage_error(cmd, "--migration: policy 'rotate' is for the tests only "
		    "(GRT_MIGRATION); one of: none, load-diff, load-abs");
	if ((guess = suggest_closest(arg, names)) != NULL)
		cmd_usage_error(cmd, "--migration: unknown policy '%s' (did you mean '%s'?)", arg,
		    guess);
	cmd_usage_error(cmd, "--migration: unknown policy '%s' (one of: none, load-diff, "
	    "load-abs)", arg);
}

/*
 * Options shared with submit: --sites, --scheme, --migration, --ranks, --no-metrics,
 * --restarts, --now (and run's --top and -q), as the command's entry lists them.
 */
void
jobrun_parse(int argc, char **argv, const struct cmd_entry *cmd, struct jobrun_args *a,
    int *top)
{
	int c;

	memset(a, 0, sizeof *a);
	a->metrics = 1;
	a->restarts = -1;
	while ((c = cmd_getopt(argc, argv, cmd)) != -1) {
		switch (c) {
		case 's':
			a->sites = optarg;
			break;
		case 'S':
			a->scheme = jobrun_scheme_arg(cmd, optarg);
			break;
		case 'G':
			a->migration = jobrun_migration_arg(cmd, optarg);
			break;
		case 'n':
			a->ranks = (int)cmd_parse_int(cmd, "--ranks", optarg, 1, 100000);
			break;
		case 't':
			*top = 1;
			break;
		case 'M':
			a->metrics = 0;
			break;
		case 'q':
			a->quiet = 1;
			break;
		case 'R':
			a->restarts = (int)cmd_parse_int(cmd, "--restarts", optarg, 0, 1000);
			break;
		case 'W':
			a->now = 1;
			break;
		}
	}
	if (optind != argc - 1)
		cmd_usage_error(cmd, optind >= argc ? "missing JOB.yaml" : "one job file at a time");
	a->job = argv[optind];
}

static int
cmd_run_exec(int argc, char **argv)
{
	struct jobrun_args a;
	struct jobrun jr;
	int top = 0, code;

	jobrun_parse(argc, argv, &cmd_run_entry, &a, &top);
	/* the supervisor is this process from the start: mpiexec may start with the preflight */
	a.speculate = 1;
	if ((code = jobrun_prepare(&a, &jr)) == EXIT_OK) {
		jr.quiet = a.quiet;
		if (!a.quiet)
			fprintf(stderr, "gridsubmit: job %s (%s): %d ranks, scheme %s\n", jr.st.id,
			    jr.st.name, jr.st.ranks, jr.st.scheme);
		code = jobrun_follow(&jr, top);
	}
	jobrun_free(&jr);
	return code;
}

const struct cmd_entry cmd_run_entry = {
	"run", "JOB.yaml [--sites F] [--scheme S] [--migration P] [--ranks N] [--restarts N] "
	"[--now] [--top] [--no-metrics] [-q]",
	"submit a job and follow it in the foreground",
	"  -s, --sites F         site file, or NAME of a user or installed one (default: the\n"
	"                        configuration file's sites, else the embedded\n"
	"                        sites/localhost.yaml)\n"
	"      --scheme S        load-balancing scheme, overriding the job file's runtime.scheme\n"
	"                        (else the configuration file's scheme, else gss)\n"
	"      --migration P     task-migration policy (none, load-diff, load-abs), overriding\n"
	"                        the job file's runtime.migration (doc/tasks.md)\n"
	"  -n, --ranks N         MPI processes, the master included, overriding the job file\n"
	"      --restarts N      relaunches after a failure (0-1000), overriding the job\n"
	"                        file's restarts (default 3; see doc/restarts.md)\n"
	"      --now             start at once, even on slots other jobs hold (no queue)\n"
	"      --top             show the live console while the job runs\n"
	"      --no-metrics      rank with the site file's values only (no live metrics)\n"
	"  -q, --quiet           none of gridsubmit's own lines (the start, the end, where the\n"
	"                        results are, the progress) but errors\n"
	"stdout is the program's output only; gridsubmit's lines go to stderr, and on a\n"
	"terminal (without --top) a progress line: units done, rate, ETA, elapsed, restarts\n",
	cmd_run_exec, "s:n:q", run_longopts, NULL, CMD_OPERAND_YAML
};
