/*
 * cmd-experiment-repro.c — gridsubmit experiment reproduction [--out FILE] NAME...: one
 * markdown document of the claims of stored experiments (doc/experiments.md,
 * "Reproduction"): the command and date that wrote it, then per experiment a section with
 * a row per claim (the paper's figure or number, the testbed's groups and verdict, the
 * simulation's, and the claim's note as why they differ), evaluated from each store as
 * `experiment report` evaluates them. Written whole with the one atomic writer, or to
 * stdout; nothing is written when an experiment cannot be read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/file.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "experiment/exp-claim.h"
#include "submit/cmd-experiment.h"

/* The command as it was typed, for the document's first lines. */
static void
cer_command(FILE *f, int argc, char **argv)
{
	int i;

	fputs("`gridsubmit experiment", f);
	for (i = 0; i < argc; i++)
		fprintf(f, " %s", argv[i]);
	fputc('`', f);
}

/* The document's title, who wrote it and when, and how to read its tables. */
static void
cer_head(FILE *f, int argc, char **argv)
{
	char when[64];
	time_t now = time(NULL);

	strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", gmtime(&now));
	fputs("# Reproduction of the papers' claims\n\nWritten by ", f);
	cer_command(f, argc, argv);
	fprintf(f, " on %s, from the stored runs of each experiment; not by hand.\n\n", when);
	fputs("Per claim: the paper's own figure or number, then for the testbed (or real "
	    "runs) and for the simulation each group's median of the claim's metric, its "
	    "bootstrap 95% interval and its number of runs, and the verdict: holds, fails or "
	    "not separable (doc/experiments.md, \"Claims\": one-sided Mann-Whitney U tests "
	    "with Holm's correction at 0.05, or a bootstrap 95% interval; never holds on fewer "
	    "than 3 runs per group).\n", f);
}

/* --out FILE: into dir and base name for the atomic writer (allocated). */
static void
cer_split(const char *path, char **dir, char **base)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL) {
		*dir = xstrdup(".");
		*base = xstrdup(path);
	} else {
		*dir = slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
		*base = xstrdup(slash + 1);
	}
}

/* argv: reproduction [--out FILE | --out=FILE] NAME... */
static const char *
cer_args(int argc, char **argv, int *first)
{
	const char *out = NULL;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
			out = argv[++i];
		else if (strncmp(argv[i], "--out=", 6) == 0)
			out = argv[i] + 6;
		else if (strcmp(argv[i], "--out") == 0)
			cmd_usage_error(&cmd_experiment_entry, "reproduction: --out needs a FILE");
		else
			cmd_usage_error(&cmd_experiment_entry, "reproduction: unknown option '%s' "
			    "(it takes --out FILE)", argv[i]);
	}
	if (out != NULL && (out[0] == '\0' || out[strlen(out) - 1] == '/'))
		cmd_usage_error(&cmd_experiment_entry, "reproduction: --out needs a file name, "
		    "not '%s'", out);
	if (i >= argc)
		cmd_usage_error(&cmd_experiment_entry, "reproduction: name at least one stored "
		    "experiment");
	*first = i;
	return out;
}

int
cmd_experiment_repro(int argc, char **argv)
{
	struct cmd_exp_stored c;
	struct exp_report r;
	const char *out;
	char *buf = NULL, *dir, *base;
	size_t len = 0;
	FILE *f;
	int i, first, code = EXIT_OK;

	out = cer_args(argc, argv, &first);
	f = open_memstream(&buf, &len);
	cer_head(f, argc, argv);
	for (i = first; i < argc && code == EXIT_OK; i++) {
		if ((code = cmd_experiment_open(argv[i], &c)) == EXIT_OK) {
			r = (struct exp_report){ &c.e, c.runs, c.nruns, c.names, c.nnames, c.seed,
			    c.dir };
			exp_claims_repro(f, &r);
		}
		cmd_experiment_close(&c);
	}
	fclose(f);
	if (code != EXIT_OK) {
		free(buf);
		return code;
	}
	if (out == NULL) {
		fwrite(buf, 1, len, stdout);
		free(buf);
		return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAILED;
	}
	cer_split(out, &dir, &base);
	if (file_write_atomic(dir, base, buf, len, 0644) != 0) {
		log_warn("experiment reproduction: cannot write %s", out);
		code = EXIT_FAILED;
	}
	free(dir);
	free(base);
	free(buf);
	return code;
}
