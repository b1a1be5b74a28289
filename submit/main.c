/*
 * main.c — gridsubmit: submit MPI jobs over several sites, balance them with libgrt and
 * follow them live. Dispatches to the sub-commands of cmd_table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/suggest.h"
#include "gen/gs-config.h"
#include "submit/cmd.h"
#include "submit/json-fail.h"

extern const struct cmd_entry cmd_run_entry;
extern const struct cmd_entry cmd_submit_entry;
extern const struct cmd_entry cmd_status_entry;
extern const struct cmd_entry cmd_list_entry;
extern const struct cmd_entry cmd_cancel_entry;
extern const struct cmd_entry cmd_purge_entry;
extern const struct cmd_entry cmd_wait_entry;
extern const struct cmd_entry cmd_logs_entry;
extern const struct cmd_entry cmd_resume_entry;
extern const struct cmd_entry cmd_schedule_entry;
extern const struct cmd_entry cmd_sites_entry;
extern const struct cmd_entry cmd_rank_entry;
extern const struct cmd_entry cmd_top_entry;
extern const struct cmd_entry cmd_testbed_entry;
extern const struct cmd_entry cmd_experiment_entry;
extern const struct cmd_entry cmd_simulate_entry;

/* In the order gridsubmit --help lists them. */
const struct cmd_entry *const cmd_table[] = {
	&cmd_run_entry,
	&cmd_submit_entry,
	&cmd_status_entry,
	&cmd_list_entry,
	&cmd_cancel_entry,
	&cmd_wait_entry,
	&cmd_logs_entry,
	&cmd_resume_entry,
	&cmd_purge_entry,
	&cmd_schedule_entry,
	&cmd_sites_entry,
	&cmd_rank_entry,
	&cmd_top_entry,
	&cmd_testbed_entry,
	&cmd_experiment_entry,
	&cmd_simulate_entry,
	NULL
};

static void
main_usage(FILE *f)
{
	const struct cmd_entry *const *c;

	fprintf(f, "usage: gridsubmit [--version] [--help] COMMAND [ARGS]\n\n"
	    "Submit one MPI job across the nodes of several sites, balance its load, follow it.\n\n"
	    "commands:\n");
	for (c = cmd_table; *c != NULL; c++)
		fprintf(f, "  %-10s %s\n", (*c)->name, (*c)->summary);
	fprintf(f, "  %-10s %s\n", "help", "show the help of a command");
	/* man gridsubmit is there once installed; a clone has only the pages' sources */
	fprintf(f, "\nsee 'gridsubmit help COMMAND' or 'gridsubmit COMMAND --help' for details, and\n"
	    "man gridsubmit and man gridsubmit-sites for the files (in a clone:\n"
	    "man -l man/gridsubmit.1 and man -l man/gridsubmit-sites.5)\n");
}

static const struct cmd_entry *
main_find(const char *name)
{
	const struct cmd_entry *const *c;

	for (c = cmd_table; *c != NULL; c++)
		if (strcmp((*c)->name, name) == 0)
			return *c;
	return NULL;
}

static void
main_unknown(const char *name)
{
	const char *names[64];
	const char *guess;
	size_t n = 0;
	const struct cmd_entry *const *c;

	for (c = cmd_table; *c != NULL && n < 62; c++)
		names[n++] = (*c)->name;
	names[n++] = "help";
	names[n] = NULL;
	guess = suggest_closest(name, names);
	if (guess != NULL)
		fprintf(stderr, "gridsubmit: unknown command '%s' (did you mean '%s'?)\n", name, guess);
	else
		fprintf(stderr, "gridsubmit: unknown command '%s'\n", name);
	fprintf(stderr, "see 'gridsubmit --help'\n");
	exit(EXIT_USAGE);
}

/* An option before the command: gridsubmit's own are --version and --help. */
static int
main_unknown_option(const char *word)
{
	static const char *const names[] = { "version", "help", NULL };
	const char *guess = NULL;
	char name[64];

	snprintf(name, sizeof name, "%s", word);
	name[strcspn(name, "=")] = '\0';
	if (strncmp(name, "--", 2) == 0)
		guess = suggest_closest(name + 2, names);
	if (guess != NULL)
		fprintf(stderr, "gridsubmit: unknown option '%s' (did you mean '--%s'?)\n", name,
		    guess);
	else
		fprintf(stderr, "gridsubmit: unknown option '%s'\n", name);
	fprintf(stderr, "see 'gridsubmit --help'\n");
	return EXIT_USAGE;
}

int
main(int argc, char **argv)
{
	const struct cmd_entry *cmd;

	log_progname = "gridsubmit";
	if (argc < 2) {
		main_usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		main_usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("gridsubmit %s\n", GS_VERSION);
		return EXIT_OK;
	}
	if (argv[1][0] == '-')
		return main_unknown_option(argv[1]);
	/* hidden: what the shell completion scripts ask (completion/) */
	if (strcmp(argv[1], "__complete") == 0)
		return complete_exec(argc - 2, argv + 2);
	if (strcmp(argv[1], "help") == 0) {
		if (argc < 3 || strcmp(argv[2], "help") == 0) {
			main_usage(stdout);
			return EXIT_OK;
		}
		if ((cmd = main_find(argv[2])) == NULL)
			main_unknown(argv[2]);
		cmd_print_help(cmd, stdout);
		return EXIT_OK;
	}
	if ((cmd = main_find(argv[1])) == NULL)
		main_unknown(argv[1]);
	json_fail_arm(cmd, argc - 1, argv + 1);
	return cmd->exec(argc - 1, argv + 1);
}
