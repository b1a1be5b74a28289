/*
 * opt-job.c — the options that more than one command takes for a job (opt-job.h), parsed
 * and checked in one place so that run, submit, simulate and schedule agree on them.
 */
#include <stdio.h>
#include <string.h>

#include <strings.h>

#include "broker/site.h"
#include "common/suggest.h"
#include "grt/grt-keys.h"
#include "grt/scheme.h"
#include "submit/cmd.h"
#include "submit/jobrun.h"
#include "submit/opt-job.h"
#include "submit/opt-nofile.h"

const char *
opt_scheme(const struct cmd_entry *cmd, const char *arg)
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
opt_migration(const struct cmd_entry *cmd, const char *arg)
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

const char *
opt_time(const struct cmd_entry *cmd, const char *arg)
{
	long long secs;

	if (slurm_time_parse(arg, &secs) != 0)
		cmd_usage_error(cmd, "--time: '%s' is not a time limit in one of Slurm's formats "
		    "(MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS, more than 0)", arg);
	return arg;
}

void
opt_job_parse(int argc, char **argv, const struct cmd_entry *cmd, struct jobrun_args *a,
    int *top)
{
	int c, dd;

	memset(a, 0, sizeof *a);
	a->metrics = 1;
	a->restarts = -1;
	/* "JOB.yaml -- ARGS...": ARGS go after the job file's args, never read as options */
	for (dd = 1; dd < argc && strcmp(argv[dd], "--") != 0; dd++)
		;
	if (dd < argc) {
		a->more_args = argv + dd + 1;
		a->nmore_args = argc - dd - 1;
		argc = dd;
	}
	while ((c = cmd_getopt(argc, argv, cmd)) != -1) {
		switch (c) {
		case 's':
			a->sites = optarg;
			break;
		case 'S':
			a->scheme = opt_scheme(cmd, optarg);
			break;
		case 'G':
			a->migration = opt_migration(cmd, optarg);
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
		case OPT_NOFILE_NAME:
		case OPT_NOFILE_STAGE_IN:
			opt_nofile_option(c, optarg, a);
			break;
		case 'T':
			a->time = opt_time(cmd, optarg);
			break;
		case 'O':
			a->oversubscribe = 1;
			break;
		}
	}
	opt_nofile_operands(cmd, argc, argv, a);
}
