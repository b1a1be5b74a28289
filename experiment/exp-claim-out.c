/*
 * exp-claim-out.c — a claim's verdicts as the user reads them (exp-claim.h): the line
 * `experiment` and `experiment report` print, results.json's "claims", summary.md's
 * "Claims" section, and an experiment's section of the reproduction document.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/jsonout.h"
#include "common/xmalloc.h"
#include "experiment/exp-claim.h"

char *
exp_claim_line(const struct exp_claim_result *c)
{
	char *s, mode[80] = "", at[40] = "";

	if (c->mode != NULL)
		snprintf(mode, sizeof mode, " (%.64s)", c->mode);
	if (c->verdict != EXP_HOLDS)
		snprintf(at, sizeof at, " at n=%zu", c->n);
	xasprintf(&s, "%s%s: %s%s — %s", c->claim->id, mode, exp_verdict_names[c->verdict], at,
	    c->summary);
	return s;
}

json_t *
exp_claims_json(const struct exp_claim_result *res, size_t n)
{
	json_t *arr = json_array(), *o, *gs, *g, *ci;
	size_t i, k;

	for (i = 0; i < n; i++) {
		const struct exp_claim_result *c = &res[i];

		o = json_object();
		json_object_set_new(o, "id", json_string(c->claim->id));
		json_object_set_new(o, "says", jsonout_str(c->claim->says));
		json_object_set_new(o, "paper", jsonout_str(c->claim->paper));
		json_object_set_new(o, "note", jsonout_str(c->claim->note));
		json_object_set_new(o, "metric", json_string(c->claim->metric));
		json_object_set_new(o, "mode", jsonout_str(c->mode));
		json_object_set_new(o, "verdict", json_string(exp_verdict_names[c->verdict]));
		json_object_set_new(o, "n", json_integer((json_int_t)c->n));
		json_object_set_new(o, "test", json_string(c->test));
		json_object_set_new(o, "p", jsonout_num(c->p));
		json_object_set_new(o, "detail", json_string(c->detail));
		gs = json_array();
		for (k = 0; k < c->ngroups; k++) {
			const struct exp_claim_group *x = &c->groups[k];

			g = json_object();
			json_object_set_new(g, "label", json_string(x->label));
			json_object_set_new(g, "n", json_integer((json_int_t)x->n));
			json_object_set_new(g, "median", jsonout_num(x->median));
			if (isnan(x->lo))
				ci = json_null();
			else {
				ci = json_array();
				json_array_append_new(ci, jsonout_num(x->lo));
				json_array_append_new(ci, jsonout_num(x->hi));
			}
			json_object_set_new(g, "ci95", ci);
			json_array_append_new(gs, g);
		}
		json_object_set_new(o, "groups", gs);
		json_array_append_new(arr, o);
	}
	return arr;
}

/* "1.23 [1.2, 1.3] n=5" of a group (– for a group without runs). */
static void
eco_group(FILE *f, const struct exp_claim_group *g)
{
	if (g->n == 0)
		fprintf(f, "%s: no run", g->label);
	else
		fprintf(f, "%s: %.4g [%.4g, %.4g] n=%zu", g->label, g->median, g->lo, g->hi,
		    g->n);
}

/* A table cell holds no '|' nor line break: they would end it. */
static void
eco_cell(FILE *f, const char *s)
{
	for (; s != NULL && *s != '\0'; s++)
		fputc(*s == '|' ? '/' : *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

void
exp_claims_markdown(FILE *f, const struct exp_claim_result *res, size_t n)
{
	size_t i, k;
	char *line;

	if (n == 0)
		return;
	fputs("\n## Claims\n\nEach claim over the done runs (doc/experiments.md, \"Claims\"): "
	    "one-sided Mann-Whitney U tests with Holm's correction at 0.05, or a seeded "
	    "bootstrap 95% interval; never holds on fewer than 3 runs per group. Groups: "
	    "median [bootstrap 95% interval of the median] n.\n\n"
	    "| claim | mode | verdict | n | test | p | detail | groups |\n"
	    "|---|---|---|---|---|---|---|---|\n", f);
	for (i = 0; i < n; i++) {
		const struct exp_claim_result *c = &res[i];

		fprintf(f, "| %s | %s | %s | %zu | %s |", c->claim->id, c->mode != NULL ?
		    c->mode : "–", exp_verdict_names[c->verdict], c->n, c->test);
		if (isnan(c->p))
			fputs(" – | ", f);
		else
			fprintf(f, " %.2g | ", c->p);
		eco_cell(f, c->detail);
		fputs(" | ", f);
		for (k = 0; k < c->ngroups; k++) {
			fputs(k > 0 ? "; " : "", f);
			eco_group(f, &c->groups[k]);
		}
		fputs(" |\n", f);
	}
	fputc('\n', f);
	for (i = 0; i < n; i++) {
		line = exp_claim_line(&res[i]);
		fprintf(f, "- %s  \n  says: ", line);
		eco_cell(f, res[i].claim->says);
		fputs("; paper: ", f);
		eco_cell(f, res[i].claim->paper);
		fputc('\n', f);
		free(line);
	}
}

/* The groups and verdict of claim c's results of one kind (simulated or not) in a cell. */
static void
eco_repro_cell(FILE *f, const struct exp_claim_result *res, size_t n,
    const struct exp_claim *c, int sim)
{
	size_t i, k, shown = 0;

	for (i = 0; i < n; i++) {
		const struct exp_claim_result *x = &res[i];
		int is_sim = x->mode != NULL && strcmp(x->mode, "simulate") == 0;

		if (x->claim != c || is_sim != sim)
			continue;
		fputs(shown++ > 0 ? "<br>" : "", f);
		if (x->mode != NULL && !sim && strcmp(x->mode, "testbed") != 0)
			fprintf(f, "(%s) ", x->mode);
		for (k = 0; k < x->ngroups; k++) {
			fputs(k > 0 ? "; " : "", f);
			eco_group(f, &x->groups[k]);
		}
	}
	if (shown == 0)
		fputs("not run", f);
	fputs(" | ", f);
	for (i = shown = 0; i < n; i++) {
		const struct exp_claim_result *x = &res[i];
		int is_sim = x->mode != NULL && strcmp(x->mode, "simulate") == 0;
		char *line;

		if (x->claim != c || is_sim != sim)
			continue;
		line = exp_claim_line(x);
		fputs(shown++ > 0 ? "<br>" : "", f);
		eco_cell(f, strchr(line, ':') + 2);
		free(line);
	}
	if (shown == 0)
		fputs("–", f);
	fputs(" |", f);
}

/*
 * path as a reader of the document finds it: relative to the working directory when it
 * is below it (`make reproduce` runs at the tree's top: examples/experiments/NAME.yaml),
 * else as it was stored.
 */
static const char *
eco_shown_path(const char *path)
{
	char cwd[4096];
	size_t n;

	if (getcwd(cwd, sizeof cwd) == NULL)
		return path;
	n = strlen(cwd);
	return strncmp(path, cwd, n) == 0 && path[n] == '/' ? path + n + 1 : path;
}

void
exp_claims_repro(FILE *f, const struct exp_report *r)
{
	const struct exp *e = r->e;
	struct exp_claim_result *res;
	size_t n, i, done = 0;

	for (i = 0; i < r->nruns; i++)
		done += r->runs[i].state == EXP_DONE;
	fprintf(f, "\n## %s\n\n`%s`: %zu of %zu runs done (seed %llu).\n", e->name,
	    eco_shown_path(e->path), done, r->nruns, (unsigned long long)r->seed);
	if (e->nclaims == 0) {
		fputs("\nNo claims in this experiment.\n", f);
		return;
	}
	res = exp_claims_eval(r, &n);
	fputs("\n| claim | the paper | testbed: median [95% interval] n | testbed verdict | "
	    "simulation: median [95% interval] n | simulation verdict |\n"
	    "|---|---|---|---|---|---|\n", f);
	for (i = 0; i < e->nclaims; i++) {
		const struct exp_claim *c = &e->claims[i];

		fprintf(f, "| %s (%s): ", c->id, c->metric);
		eco_cell(f, c->says);
		fputs(" | ", f);
		eco_cell(f, c->paper);
		fputs(" | ", f);
		eco_repro_cell(f, res, n, c, 0);
		fputc(' ', f);
		eco_repro_cell(f, res, n, c, 1);
		fputc('\n', f);
	}
	for (i = 0; i < e->nclaims; i++)
		if (e->claims[i].note != NULL) {
			fprintf(f, "\nWhy they differ, %s: ", e->claims[i].id);
			eco_cell(f, e->claims[i].note);
			fputc('\n', f);
		}
	exp_claim_results_free(res, n);
}
