/*
 * complete.c — gridsubmit __complete WHAT: the words the shell completion scripts
 * (completion/) offer, taken from the program itself so that they cannot drift from it:
 * the commands of cmd_table, each command's options from the very tables cmd_getopt parses
 * with, what its operands are, the job ids of the store, libgrt's schemes, the
 * task-migration policies and the site NAMEs --sites finds. Hidden: neither in --help nor
 * in the command table.
 *
 *   commands           every command, and help
 *   options [CMD]      CMD's options (gridsubmit's own without CMD), one "WORD KIND" a
 *                      line; KIND is what the option's value is: flag (it takes none),
 *                      sites, scheme, migration, file, or value (anything: nothing to
 *                      offer)
 *   operand CMD        "KIND [ACTION...]": what CMD's operands are (none, yaml, job,
 *                      sites, command; yaml-program: a job file, or after "--" without
 *                      one a program, then its args) and the words its first operand
 *                      may be
 *   jobs, schemes, migrations, sites
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broker/site.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "grt/grt-keys.h"
#include "grt/scheme.h"
#include "store/jobstore.h"
#include "submit/cmd.h"

/* The options whose value can be completed; any other option's value is free text. */
static const struct {
	const char *option;
	const char *kind;
} complete_values[] = {
	{ "sites", "sites" },
	{ "scheme", "scheme" },
	{ "migration", "migration" },
	{ "replay", "file" },
	{ "stage-in", "file" },
};

static const char *const complete_operands[] = {
	[CMD_OPERAND_NONE] = "none",
	[CMD_OPERAND_YAML] = "yaml",
	[CMD_OPERAND_YAML_PROGRAM] = "yaml-program",
	[CMD_OPERAND_JOB] = "job",
	[CMD_OPERAND_SITES] = "sites",
};

static const struct cmd_entry *
complete_find(const char *name)
{
	const struct cmd_entry *const *c;

	for (c = cmd_table; *c != NULL; c++)
		if (strcmp((*c)->name, name) == 0)
			return *c;
	return NULL;
}

static const char *
complete_kind(const struct option *o)
{
	size_t i;

	if (o->has_arg == no_argument)
		return "flag";
	for (i = 0; i < sizeof complete_values / sizeof complete_values[0]; i++)
		if (strcmp(o->name, complete_values[i].option) == 0)
			return complete_values[i].kind;
	return "value";
}

/* The long option that short option c stands for (the same value), or NULL. */
static const struct option *
complete_long_of(const struct cmd_entry *cmd, int c)
{
	const struct option *o;

	for (o = cmd->longopts; o != NULL && o->name != NULL; o++)
		if (o->flag == NULL && o->val == c)
			return o;
	return NULL;
}

static void
complete_options(const struct cmd_entry *cmd)
{
	const struct option *o;
	const char *s;

	for (s = cmd->shortopts; s != NULL && *s != '\0'; s++) {
		if (*s == ':')
			continue;
		/* an option of its own when no long one has its value (schedule's -N, -P) */
		o = complete_long_of(cmd, *s);
		printf("-%c %s\n", *s, s[1] == ':' ? (o != NULL ? complete_kind(o) : "value") :
		    "flag");
	}
	for (o = cmd->longopts; o != NULL && o->name != NULL; o++)
		printf("--%s %s\n", o->name, complete_kind(o));
	/* cmd_getopt's own */
	printf("-h flag\n--help flag\n");
}

static int
complete_usage(void)
{
	fprintf(stderr, "usage: gridsubmit __complete commands | options [CMD] | operand CMD | "
	    "jobs | schemes | migrations | sites\n");
	return EXIT_USAGE;
}

int
complete_exec(int argc, char **argv)
{
	const struct cmd_entry *const *c, *cmd = NULL;
	const char *const *a;
	char **v, why[1024];
	size_t n, i;
	int s;

	if (argc < 1 || argc > 2)
		return complete_usage();
	if (argc == 2 && strcmp(argv[1], "help") != 0 &&
	    (cmd = complete_find(argv[1])) == NULL) {
		fprintf(stderr, "gridsubmit __complete: unknown command '%s'\n", argv[1]);
		return EXIT_USAGE;
	}
	if (strcmp(argv[0], "commands") == 0 && argc == 1) {
		for (c = cmd_table; *c != NULL; c++)
			printf("%s\n", (*c)->name);
		printf("help\n");
	} else if (strcmp(argv[0], "options") == 0) {
		if (cmd != NULL)
			complete_options(cmd);
		else if (argc == 1)
			/* main.c's */
			printf("-h flag\n--help flag\n-V flag\n--version flag\n");
	} else if (strcmp(argv[0], "operand") == 0 && argc == 2) {
		/* help's operand is a command */
		printf("%s", cmd != NULL ? complete_operands[cmd->operand] : "command");
		for (a = cmd != NULL ? cmd->actions : NULL; a != NULL && *a != NULL; a++)
			printf(" %s", *a);
		printf("\n");
	} else if (strcmp(argv[0], "jobs") == 0 && argc == 1) {
		if (jobstore_list(&v, &n, why, sizeof why) == -1) {
			log_warnx("%s", why);
			return EXIT_FAILED;
		}
		for (i = 0; i < n; i++)
			printf("%s\n", v[i]);
		jobstore_list_free(v, n);
	} else if (strcmp(argv[0], "schemes") == 0 && argc == 1) {
		for (s = 0; s < GRT_SCHEME_COUNT; s++)
			printf("%s\n", grt_scheme_name((enum grt_scheme)s));
	} else if (strcmp(argv[0], "migrations") == 0 && argc == 1) {
		static const char *const policies[] = { GRT_MIGRATION_NAMES, NULL };

		for (a = policies; *a != NULL; a++)
			printf("%s\n", *a);
	} else if (strcmp(argv[0], "sites") == 0 && argc == 1) {
		v = sites_names(&n);
		for (i = 0; i < n; i++)
			printf("%s\n", v[i]);
		strv_free(v, n);
	} else
		return complete_usage();
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAILED;
}
