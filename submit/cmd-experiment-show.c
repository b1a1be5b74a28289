/*
 * cmd-experiment-show.c — gridsubmit experiment report|list|show: what the store of an
 * experiment holds, read without running anything. NAME is the experiment's name or its
 * file (whose name: key, or file name, names it). `reproduction` reads stored experiments
 * too (cmd-experiment-repro.c).
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "broker/errlist.h"
#include "common/jsonout.h"
#include "common/log.h"
#include "common/suggest.h"
#include "common/xmalloc.h"
#include "experiment/exp-metrics.h"
#include "experiment/exp-report.h"
#include "submit/cmd-experiment.h"
#include "submit/cmd.h"

/* NAME, or an experiment file naming it: the results directory. */
static char *
ces_dir_of(const char *arg)
{
	struct gs_errlist errs;
	struct exp e;
	char *dir;

	if (strchr(arg, '/') == NULL && strstr(arg, ".yaml") == NULL &&
	    strstr(arg, ".yml") == NULL)
		return cmd_experiment_dir(arg);
	if (exp_load_stored(arg, arg, &e, &errs) != 0) {
		errlist_print(&errs, stderr);
		exit(EXIT_INPUT);
	}
	dir = cmd_experiment_dir(e.name);
	exp_free(&e);
	return dir;
}

/*
 * " (did you mean 'NAME'?)" when an experiment of the store is named near arg, a misspelt
 * NAME; else "". Into buf.
 */
static const char *
ces_guess(const char *arg, char *buf, size_t len)
{
	struct dirent **ents;
	const char **names;
	const char *g;
	char *root;
	int n, i, k = 0;

	buf[0] = '\0';
	xasprintf(&root, "%s/experiments", cmd_home());
	if ((n = scandir(root, &ents, NULL, alphasort)) > 0) {
		names = xcalloc((size_t)n + 1, sizeof *names);
		for (i = 0; i < n; i++)
			if (ents[i]->d_name[0] != '.')
				names[k++] = ents[i]->d_name;
		if ((g = suggest_closest(arg, names)) != NULL)
			snprintf(buf, len, " (did you mean '%s'?)", g);
		for (i = 0; i < n; i++)
			free(ents[i]);
		free(ents);
		free(names);
	}
	free(root);
	return buf;
}

int
cmd_experiment_open(const char *arg, struct cmd_exp_stored *c)
{
	struct gs_errlist errs;
	char *path, *copy, *file = NULL, hash[17], why[1024], guess[96];
	int rc;

	memset(c, 0, sizeof *c);
	c->dir = ces_dir_of(arg);
	xasprintf(&path, "%s/results.db", c->dir);
	if (access(path, R_OK) != 0) {
		log_warnx("experiment %s: nothing stored (no %s)%s", arg, path,
		    ces_guess(arg, guess, sizeof guess));
		free(path);
		return EXIT_USAGE;
	}
	if ((c->s = exp_store_open(path, why, sizeof why)) == NULL ||
	    (rc = exp_store_meta(c->s, hash, &c->seed, &file, why, sizeof why)) < 0) {
		log_warnx("%s", why);
		free(path);
		return EXIT_INPUT;
	}
	free(path);
	if (rc == 0) {
		log_warnx("experiment %s: its store is empty", arg);
		return EXIT_INPUT;
	}
	xasprintf(&copy, "%s/experiment.yaml", c->dir);
	rc = exp_load_stored(copy, file, &c->e, &errs);
	free(copy);
	free(file);
	if (rc != 0) {
		errlist_print(&errs, stderr);
		return EXIT_INPUT;
	}
	c->names = exp_metric_names(&c->e, &c->nnames);
	if (exp_store_runs(c->s, c->names, c->nnames, &c->runs, &c->nruns, why,
	    sizeof why) != 0) {
		log_warnx("%s", why);
		return EXIT_INPUT;
	}
	return EXIT_OK;
}

void
cmd_experiment_close(struct cmd_exp_stored *c)
{
	exp_runs_free(c->runs, c->nruns);
	free(c->names);
	if (c->e.path != NULL)
		exp_free(&c->e);
	exp_store_close(c->s);
	free(c->dir);
}

static int
ces_report(int argc, char **argv)
{
	struct cmd_exp_stored c;
	int code;

	if (argc != 2)
		cmd_usage_error(&cmd_experiment_entry, "report: name one experiment");
	if ((code = cmd_experiment_open(argv[1], &c)) == EXIT_OK) {
		if (cmd_experiment_report(&c.e, c.s, c.dir, c.seed) != 0)
			code = EXIT_FAILED;
		else
			printf("%s/summary.md\n", c.dir);
	}
	cmd_experiment_close(&c);
	return code;
}

static void
ces_count(const struct cmd_exp_stored *c, size_t count[5])
{
	size_t i;

	memset(count, 0, 5 * sizeof *count);
	for (i = 0; i < c->nruns; i++)
		count[c->runs[i].state]++;
}

static json_t *
ces_counts_json(const size_t count[5])
{
	json_t *o = json_object();
	int i;

	for (i = 0; i < 5; i++)
		json_object_set_new(o, exp_run_state_name((enum exp_run_state)i),
		    json_integer((json_int_t)count[i]));
	return o;
}

static int
ces_list(int argc, char **argv)
{
	json_t *doc = json_object(), *arr = json_array();
	int json = argc == 2 && strcmp(argv[1], "--json") == 0;
	struct dirent **ents;
	size_t count[5];
	char *root;
	int n, i;

	if (argc > 2 || (argc == 2 && !json))
		cmd_usage_error(&cmd_experiment_entry, "list takes only --json");
	xasprintf(&root, "%s/experiments", cmd_home_find());
	n = scandir(root, &ents, NULL, alphasort);
	if (!json)
		printf("%-24s %6s %6s %6s %8s  %s\n", "NAME", "RUNS", "DONE", "FAILED", "PENDING",
		    "FILE");
	for (i = 0; i < n; i++) {
		struct cmd_exp_stored c;

		if (ents[i]->d_name[0] != '.' &&
		    cmd_experiment_open(ents[i]->d_name, &c) == EXIT_OK) {
			ces_count(&c, count);
			if (json) {
				json_t *o = json_object();

				json_object_set_new(o, "name", json_string(c.e.name));
				json_object_set_new(o, "file", json_string(c.e.path));
				json_object_set_new(o, "runs", json_integer((json_int_t)c.nruns));
				json_object_set_new(o, "states", ces_counts_json(count));
				json_array_append_new(arr, o);
			} else
				printf("%-24s %6zu %6zu %6zu %8zu  %s\n", ents[i]->d_name, c.nruns,
				    count[EXP_DONE], count[EXP_FAILED], c.nruns - count[EXP_DONE] -
				    count[EXP_FAILED], c.e.path);
			cmd_experiment_close(&c);
		}
		free(ents[i]);
	}
	if (n > 0)
		free(ents);
	free(root);
	json_object_set_new(doc, "experiments", arr);
	if (json)
		return jsonout_print(doc) == 0 ? EXIT_OK : EXIT_FAILED;
	json_decref(doc);
	return EXIT_OK;
}

static int
ces_show(int argc, char **argv)
{
	int json = argc == 3 && strcmp(argv[2], "--json") == 0;
	struct cmd_exp_stored c;
	size_t i, count[5];
	int code, m;

	if (argc < 2 || argc > 3 || (argc == 3 && !json))
		cmd_usage_error(&cmd_experiment_entry, "show: name one experiment (and --json)");
	if ((code = cmd_experiment_open(argv[1], &c)) != EXIT_OK) {
		cmd_experiment_close(&c);
		return code;
	}
	if (json) {
		struct exp_report r = { &c.e, c.runs, c.nruns, c.names, c.nnames, c.seed, c.dir };

		code = jsonout_print(exp_report_json(&r)) == 0 ? EXIT_OK : EXIT_FAILED;
		cmd_experiment_close(&c);
		return code;
	}
	ces_count(&c, count);
	m = exp_metric_find(&c.e, c.e.table.value);
	printf("experiment %s: %s\n%zu runs: %zu done, %zu failed, %zu interrupted, %zu "
	    "pending, %zu running; results in %s\n\n", c.e.name, c.e.path, c.nruns,
	    count[EXP_DONE], count[EXP_FAILED], count[EXP_INTERRUPTED], count[EXP_PENDING],
	    count[EXP_RUNNING], c.dir);
	printf("%5s %5s  %-40s %4s %-11s %6s %10s\n", "SEQ", "RUN", "POINT", "REP", "STATE",
	    "JOB", c.e.table.value);
	for (i = 0; i < c.nruns; i++) {
		const struct exp_run *x = &c.runs[i];
		char *label = exp_point_label(&c.e, x->point);

		printf("%5d %5lld  %-40.40s %4d %-11s %6s ", x->seq, (long long)x->id, label,
		    x->rep, exp_run_state_name(x->state), x->job_id[0] ? x->job_id : "-");
		if (isnan(x->values[m]))
			printf("%10s\n", "-");
		else
			printf("%10.4g\n", x->values[m]);
		free(label);
	}
	cmd_experiment_close(&c);
	return EXIT_OK;
}

int
cmd_experiment_stored(int argc, char **argv)
{
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		cmd_print_help(&cmd_experiment_entry, stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[0], "report") == 0)
		return ces_report(argc, argv);
	if (strcmp(argv[0], "list") == 0)
		return ces_list(argc, argv);
	if (strcmp(argv[0], "reproduction") == 0)
		return cmd_experiment_repro(argc, argv);
	return ces_show(argc, argv);
}
