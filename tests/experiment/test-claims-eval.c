/*
 * test-claims-eval.c — claims evaluated over runs whose values are set here
 * (experiment/exp-claim-eval.c), for the forms and rules a few real runs cannot reach
 * cheaply: lowest, highest and minimum_at over several values and sizes (Holm over the
 * family: 4 comparisons of 5 runs against 5, each p = 1/252, adjusted to 4/252), a claim
 * that fails naming the comparison, gap_grows holding and failing, a ratio at_least, a
 * group of 2 runs that never holds though its p is below 0.05 (2 against 5: 1/21), a
 * group without runs (n=0), failed runs left out, and the verdict line's words.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/tap.h"

#include "broker/errlist.h"
#include "experiment/exp-claim.h"
#include "experiment/exp-metrics.h"
#include "experiment/exp-report.h"

#define EPS	1e-9

static char dir[PATH_MAX];

/* The experiment file text, loaded as a stored copy (no job file needed). */
static int
load(const char *text, struct exp *e)
{
	struct gs_errlist errs;
	char path[PATH_MAX + 64];
	struct gs_error err;
	FILE *f;

	snprintf(path, sizeof path, "%s/exp.yaml", dir);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	if (exp_load_stored(path, path, e, &errs) == 0)
		return 0;
	errlist_first(&errs, &err);
	ok(0, "the experiment loads: %s", err.msg);
	return -1;
}

/*
 * Runs of every point: reps[p] done runs of value(point, rep) for makespan, and one
 * failed run with an absurd value that no claim may count.
 */
static struct exp_run *
runs_of(const struct exp *e, const int *reps, double (*value)(const struct exp *, size_t,
    int), size_t nnames, size_t *n)
{
	struct exp_run *r = NULL;
	size_t p, k;
	int i;

	*n = 0;
	for (p = 0; p < e->npoints; p++)
		for (i = 0; i <= reps[p]; i++) {
			r = realloc(r, (*n + 1) * sizeof *r);
			memset(&r[*n], 0, sizeof *r);
			r[*n].point = p;
			r[*n].rep = i + 1;
			r[*n].state = i < reps[p] ? EXP_DONE : EXP_FAILED;
			r[*n].values = calloc(nnames, sizeof *r[*n].values);
			for (k = 0; k < nnames; k++)
				r[*n].values[k] = NAN;
			r[*n].values[EXP_M_MAKESPAN] = i < reps[p] ? value(e, p, i) : -1000;
			(*n)++;
		}
	return r;
}

/* scheme a < b < c at each size, by 1 s; the runs of a point 0.01 s apart */
static double
ordered(const struct exp *e, size_t p, int rep)
{
	const char *s = exp_point_text(e, p, 0), *size = exp_point_text(e, p, 1);

	return (s[0] - 'a') + (size[0] - '0') * 10 + rep * 0.01;
}

/* gap of a below c: 10% at size 1, 50% at size 2 */
static double
gap(const struct exp *e, size_t p, int rep)
{
	const char *s = exp_point_text(e, p, 0), *size = exp_point_text(e, p, 1);

	if (s[0] == 'c')
		return 10 + rep * 0.01;
	if (s[0] == 'a')
		return (size[0] == '1' ? 9 : 5) + rep * 0.01;
	return 7 + rep * 0.01;
}

/* The result of claim id (its first), or NULL. */
static const struct exp_claim_result *
find(const struct exp_claim_result *res, size_t n, const char *id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(res[i].claim->id, id) == 0)
			return &res[i];
	return NULL;
}

#define CLAIM(id, form) "  - {id: " id ", says: x, paper: y, " form "}\n"

static void
check_forms(void)
{
	static const char text[] = "job: job.yaml\nmatrix:\n  scheme: [a, b, c]\n"
	    "  size: [1, 2]\nargs: [\"{size}\"]\nclaims:\n"
	    CLAIM("a-lowest", "per: [size], lowest: {scheme: a}")
	    CLAIM("c-highest", "where: {size: 1}, highest: {scheme: c}")
	    CLAIM("a-min", "where: {size: 2}, minimum_at: {scheme: a}")
	    CLAIM("b-lowest", "per: [size], lowest: {scheme: b}")
	    CLAIM("c-over-a", "where: {size: 1}, ratio: [{scheme: c}, {scheme: a}], at_least: 1.05")
	    CLAIM("two-runs", "where: {size: 1}, below: [{scheme: a}, {scheme: b}]")
	    CLAIM("c-below-a", "where: {size: 2}, below: [{scheme: c}, {scheme: a}]");
	int reps[6] = { 5, 5, 5, 5, 5, 5 };
	struct exp_claim_result *res;
	const struct exp_claim_result *c;
	struct exp_report r;
	struct exp_run *runs;
	const char **names;
	size_t n, nnames, nruns;
	char *line;
	struct exp e;

	if (load(text, &e) != 0)
		return;
	names = exp_metric_names(&e, &nnames);
	runs = runs_of(&e, reps, ordered, nnames, &nruns);
	r = (struct exp_report){ &e, runs, nruns, names, nnames, 1, dir };
	res = exp_claims_eval(&r, &n);
	is_int(n, 7, "a result per claim (no mode)");

	c = find(res, n, "a-lowest");
	is_str(exp_verdict_names[c->verdict], "holds", "lowest per size: holds");
	is_dbl(c->p, 4.0 / 252, EPS, "lowest per size: the largest of 4 Holm-adjusted p");
	is_int(c->n, 5, "lowest per size: n = 5");
	is_int(c->ngroups, 6, "lowest per size: a group per scheme and size");
	is_str(c->groups[1].label, "scheme=b size=1", "a group's label: its values, then per's");
	line = exp_claim_line(c);
	is_str(line, "a-lowest: holds — Mann-Whitney U, each p <= 0.016 (Holm), n=5",
	    "the verdict line of a claim that holds");
	free(line);

	c = find(res, n, "c-highest");
	is_str(exp_verdict_names[c->verdict], "holds", "highest at size 1: holds");
	is_dbl(c->p, 2.0 / 252, EPS, "highest: 2 comparisons, Holm");
	c = find(res, n, "a-min");
	is_str(exp_verdict_names[c->verdict], "holds", "minimum_at: holds");
	is_int(c->ngroups, 3, "minimum_at: the three values of scheme");

	c = find(res, n, "b-lowest");
	is_str(exp_verdict_names[c->verdict], "fails", "b lowest: fails");
	is_str(c->detail, "scheme=b below scheme=a at size=1: the opposite, p=0.016",
	    "b lowest: the first comparison that decided");
	is_dbl(c->p, 4.0 / 252, EPS, "b lowest: the opposite's Holm-adjusted p");

	c = find(res, n, "c-over-a");
	is_str(exp_verdict_names[c->verdict], "holds", "ratio at_least: holds");
	ok(isnan(c->p), "ratio: no p");
	ok(c->groups[0].lo <= c->groups[0].median && c->groups[0].median <= c->groups[0].hi,
	    "a group's interval holds its median");

	c = find(res, n, "c-below-a");
	is_str(exp_verdict_names[c->verdict], "fails", "c below a where c is above: fails");
	exp_claim_results_free(res, n);
	exp_runs_free(runs, nruns);

	/* b at size 1 with 2 runs: p = 1/21 < 0.05, and still never holds */
	reps[2] = 2;
	runs = runs_of(&e, reps, ordered, nnames, &nruns);
	r = (struct exp_report){ &e, runs, nruns, names, nnames, 1, dir };
	res = exp_claims_eval(&r, &n);
	c = find(res, n, "two-runs");
	is_str(exp_verdict_names[c->verdict], "not separable",
	    "2 runs against 5: not separable, though p = 1/21");
	is_int(c->n, 2, "2 runs against 5: n = 2");
	is_dbl(c->p, 1.0 / 21, EPS, "2 runs against 5: its p");
	line = exp_claim_line(c);
	is_str(line, "two-runs: not separable at n=2 — scheme=a below scheme=b: 2 runs of "
	    "scheme=b, fewer than 3", "the verdict line of too few runs");
	free(line);
	exp_claim_results_free(res, n);

	/* failed runs: their -1000 never counted (else a would be below everything) */
	runs[0].state = EXP_FAILED;
	res = exp_claims_eval(&r, &n);
	c = find(res, n, "a-lowest");
	is_int(c->groups[0].n, 4, "a run that failed is not in its group");
	exp_claim_results_free(res, n);

	/* a group without runs */
	for (n = 0; n < nruns; n++)
		if (runs[n].point == 0)
			runs[n].state = EXP_PENDING;
	res = exp_claims_eval(&r, &n);
	c = find(res, n, "a-lowest");
	is_str(exp_verdict_names[c->verdict], "not separable", "no done run of a: not separable");
	is_int(c->n, 0, "no done run of a: n = 0");
	exp_claim_results_free(res, n);

	exp_runs_free(runs, nruns);
	free(names);
	exp_free(&e);
}

static void
check_gap(void)
{
	static const char text[] = "job: job.yaml\nmatrix:\n  scheme: [a, b, c]\n"
	    "  size: [1, 2]\nargs: [\"{size}\"]\nclaims:\n"
	    CLAIM("grows", "gap_grows: [{scheme: c}, {scheme: a}], over: size")
	    CLAIM("shrinks", "gap_grows: [{scheme: c}, {scheme: b}], over: size")
	    CLAIM("wrong-way", "gap_grows: [{scheme: a}, {scheme: c}], over: size");
	int reps[6] = { 5, 5, 5, 5, 5, 5 };
	struct exp_claim_result *res;
	const struct exp_claim_result *c;
	struct exp_report r;
	struct exp_run *runs;
	const char **names;
	size_t n, nnames, nruns;
	struct exp e;

	if (load(text, &e) != 0)
		return;
	names = exp_metric_names(&e, &nnames);
	runs = runs_of(&e, reps, gap, nnames, &nruns);
	r = (struct exp_report){ &e, runs, nruns, names, nnames, 1, dir };
	res = exp_claims_eval(&r, &n);
	c = find(res, n, "grows");
	is_str(exp_verdict_names[c->verdict], "holds", "a gap of 10%% then 50%%: grows");
	is_str(c->test, "Mann-Whitney U (one-sided, Holm) and the gap's growth, bootstrap 95% "
	    "interval", "gap_grows: both tests named");
	c = find(res, n, "shrinks");
	is_str(exp_verdict_names[c->verdict], "not separable",
	    "b below c by the same 30%% at both sizes: no growth shown");
	ok(strstr(c->detail, "grows by 0 [") != NULL, "the same gap: grows by 0 (%s)", c->detail);
	c = find(res, n, "wrong-way");
	is_str(exp_verdict_names[c->verdict], "fails", "c below a: fails");
	exp_claim_results_free(res, n);
	exp_runs_free(runs, nruns);
	free(names);
	exp_free(&e);
}

int
main(void)
{
	char tmpl[] = "/tmp/test-claims-eval.XXXXXX", path[PATH_MAX + 16];

	if (mkdtemp(tmpl) == NULL)
		return 1;
	snprintf(dir, sizeof dir, "%s", tmpl);
	check_forms();
	check_gap();
	snprintf(path, sizeof path, "%s/exp.yaml", dir);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
