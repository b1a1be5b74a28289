/*
 * test-exp.c — experiment files into points and overlays: the cross product's order, zip,
 * {names} substituted into args, parameters laid over the job file (runtime and job keys,
 * the job's other keys kept), a bad value located in the experiment file, every mistake
 * of a file reported in file order; the reserved parameter mode (each point's mode, never
 * laid over the job, its bad values located); and the divisible-load bound on stars worked
 * by hand.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/tap.h"

#include "broker/errlist.h"
#include "broker/job.h"
#include "experiment/exp-metrics.h"
#include "experiment/exp.h"

static char dir[PATH_MAX];

static void
put(const char *name, const char *text)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

/* Load text as DIR/exp.yaml; err gets the first error only (errlist_first). */
static int
load(const char *text, struct exp *e, struct gs_error *err)
{
	struct gs_errlist errs;
	char path[PATH_MAX + 64];
	int rc;

	put("exp.yaml", text);
	snprintf(path, sizeof path, "%s/exp.yaml", dir);
	memset(err, 0, sizeof *err);
	if ((rc = exp_load_errs(path, e, &errs)) == -1)
		errlist_first(&errs, err);
	return rc;
}

/* The job of point p (rep, seed) as a run would load it. */
static int
job_of(const struct exp *e, size_t p, int rep, uint64_t seed, struct gs_job *job)
{
	struct ydoc_node *o = exp_overlay(e, p, rep, seed);
	struct gs_errlist errs;
	int rc = job_load_file_overlay_errs(e->job, o, e->path, job, &errs);

	ydoc_free(o);
	return rc;
}

static void
test_points(void)
{
	struct exp e;
	struct gs_error err;
	struct gs_job job;

	ok(load("job: job.yaml\nmatrix:\n  scheme: [gss, static]\n  size: [64, 128, 256]\n"
	    "  ranks: [2, 3]\nargs: [\"--size\", \"{size}\", \"--seed={seed}\", \"r{rep}\", "
	    "\"{x\"]\nrepeat: 2\n", &e, &err) == 0, "a matrix loads (%s)", err.msg);
	is_int(e.npoints, 12, "2 x 3 x 2 points");
	is_str(exp_point_text(&e, 0, 0), "gss", "point 1: the first values");
	is_str(exp_point_text(&e, 1, 2), "3", "the last parameter varies fastest");
	is_str(exp_point_text(&e, 2, 1), "128", "then the one before it");
	is_str(exp_point_text(&e, 6, 0), "static", "the first varies slowest");
	ok(job_of(&e, 7, 2, 99, &job) == 0, "point 8's job loads");
	is_str(job_runtime_get(&job, "scheme"), "static", "scheme laid under runtime:");
	is_str(job_runtime_get(&job, "k"), "3", "the job's own runtime keys kept");
	is_int(job.ranks, 3, "ranks, a job key, replaced");
	is_int(job.nargs, 5, "args replaced by the experiment's");
	is_str(job.args[1], "64", "{size} substituted");
	is_str(job.args[2], "--seed=99", "{seed} substituted");
	is_str(job.args[3], "r2", "{rep} substituted");
	is_str(job.args[4], "{x", "a '{' that opens no name is text");
	ok(job.stage_out != NULL && strcmp(job.stage_out[0], "out.pgm") == 0,
	    "the job's other keys kept");
	job_free(&job);
	exp_free(&e);

	ok(load("job: job.yaml\nzip:\n  scheme: [gss, pwd]\n  size: [1, 2]\nargs: "
	    "[\"{size}\"]\n", &e, &err) == 0, "a zip loads (%s)", err.msg);
	is_int(e.npoints, 2, "zip pairs the lists");
	is_str(exp_point_text(&e, 1, 1), "2", "element by element");
	exp_free(&e);
}

static void
test_errors(void)
{
	struct exp e;
	struct gs_error err;

	ok(load("job: job.yaml\nmatrix:\n  scheme: [gss]\n  swr: [0.5, 2]\n", &e, &err) == -1,
	    "a bad runtime value in the matrix is refused");
	ok(strstr(err.msg, "exp.yaml:4:14: 'swr' must be") != NULL,
	    "located at the value in the experiment file (%s)", err.msg);
	ok(load("job: job.yaml\nmatrix: {n: [1]}\n", &e, &err) == -1 &&
	    strstr(err.msg, "exp.yaml:2:10: parameter 'n' is neither") != NULL,
	    "a free parameter no {n} uses (%s)", err.msg);
	ok(load("job: job.yaml\nmatrix: {scheme: [gss]}\nargs: [\"{nope}\"]\n", &e,
	    &err) == -1 && strstr(err.msg, "exp.yaml:3:8: '{nope}' is not defined") != NULL,
	    "an undefined {name} (%s)", err.msg);
	ok(load("job: job.yaml\nmatrix: {scheme: [gss]}\nrepat: 3\n", &e, &err) == -1 &&
	    strstr(err.msg, "did you mean 'repeat'") != NULL, "a typo (%s)", err.msg);
	ok(load("job: job.yaml\nmatrix: {scheme: [gss, pwd]}\nbaseline: {scheme: fss}\n", &e,
	    &err) == -1 && strstr(err.msg, "exp.yaml:3:20: baseline: 'fss'") != NULL,
	    "a baseline value the matrix lacks (%s)", err.msg);
}

/* Every mistake of an experiment file, in file order, each located, on one line. */
static void
test_all_errors(void)
{
	static const char *const want[] = {
		"exp.yaml:1:6: 'job': cannot open",
		"exp.yaml:4:3: '2x' cannot name a parameter",
		"exp.yaml:5:8: parameter 'swr' needs a non-empty list",
		"exp.yaml:6:8: '{nope}' is not defined",
		"exp.yaml:7:9: 'repeat' must be a whole number",
		"exp.yaml:8:1: unknown key 'ordr' (did you mean 'order'?)",
		"exp.yaml:9:20: baseline: 'fss' is not one of the values of 'scheme'",
		"exp.yaml:11:5: a metric needs 'name' and 'regex'",
		"exp.yaml:13:17: 'rows': 'sheme' is not a parameter of the matrix",
	};
	char path[PATH_MAX + 64];
	struct gs_errlist errs;
	struct exp e;
	size_t i, n = sizeof want / sizeof want[0];

	put("exp.yaml", "job: nosuch.yaml\nmatrix:\n  scheme: [gss]\n  2x: [a]\n  swr: []\n"
	    "args: [\"{nope}\"]\nrepeat: 0\nordr: random\nbaseline: {scheme: fss}\n"
	    "metrics:\n  - {name: w}\nreport:\n  table: {rows: sheme}\n");
	snprintf(path, sizeof path, "%s/exp.yaml", dir);
	ok(exp_load_errs(path, &e, &errs) == -1, "a file with several mistakes is refused");
	is_int(errs.n, n, "every mistake reported");
	for (i = 0; i < n && i < errs.n; i++)
		ok(strstr(errlist_get(&errs, i)->msg, want[i]) != NULL &&
		    strchr(errlist_get(&errs, i)->msg, '\n') == NULL, "error %zu: %s (%s)",
		    i + 1, want[i], errlist_get(&errs, i)->msg);
	is_int(errs.dropped, 0, "none dropped below the cap");
}

static void
test_mode(void)
{
	struct exp e;
	struct gs_error err;
	struct gs_job job;
	struct ydoc_node *o;

	ok(load("job: job.yaml\nmatrix:\n  scheme: [gss, static]\n  mode: [run, simulate]\n",
	    &e, &err) == 0, "mode: [run, simulate] loads (%s)", err.msg);
	is_int(e.mode_param, 1, "the mode parameter found");
	ok(exp_point_mode(&e, 0) == EXP_MODE_RUN && exp_point_mode(&e, 1) == EXP_MODE_SIMULATE &&
	    exp_point_mode(&e, 3) == EXP_MODE_SIMULATE, "each point's mode");
	ok(exp_has_real_points(&e), "a point runs for real");
	o = exp_overlay(&e, 1, 1, 7);
	ok(ydoc_get(o, "mode") == NULL, "mode is not laid over the job");
	ydoc_free(o);
	ok(job_of(&e, 1, 1, 7, &job) == 0, "a simulated point's job loads");
	is_str(job_runtime_get(&job, "scheme"), "gss", "with its other parameters");
	job_free(&job);
	exp_free(&e);

	ok(load("job: job.yaml\nmatrix: {scheme: [gss]}\n", &e, &err) == 0 &&
	    e.mode_param == -1 && exp_point_mode(&e, 0) == EXP_MODE_RUN,
	    "without mode every point runs (%s)", err.msg);
	exp_free(&e);
	ok(load("job: job.yaml\ntestbed: job.yaml\nzip: {mode: [simulate, simulate], k: [1, 2]}\n",
	    &e, &err) == 0 && !exp_has_real_points(&e), "every point simulated (%s)", err.msg);
	exp_free(&e);
	ok(load("job: job.yaml\ntestbed: job.yaml\nmatrix: {mode: [testbed, run]}\n", &e,
	    &err) == 0 && exp_point_mode(&e, 0) == EXP_MODE_TESTBED,
	    "mode testbed with testbed: (%s)", err.msg);
	exp_free(&e);

	ok(load("job: job.yaml\nmatrix: {mode: [run, simualte]}\n", &e, &err) == -1 &&
	    strstr(err.msg, "exp.yaml:2:22: 'mode' must be run, testbed or simulate, not "
	    "'simualte' (did you mean 'simulate'?)") != NULL, "a misspelt mode (%s)", err.msg);
	ok(load("job: job.yaml\nmatrix: {mode: [[run]]}\n", &e, &err) == -1 &&
	    strstr(err.msg, "exp.yaml:2:17: 'mode' must be run, testbed or simulate, not "
	    "'[\"run\"]'") != NULL && strstr(err.msg, "did you mean") == NULL,
	    "a list as a mode (%s)", err.msg);
	ok(load("job: job.yaml\nmatrix: {mode: [testbed]}\n", &e, &err) == -1 &&
	    strstr(err.msg, "exp.yaml:2:17: mode 'testbed' needs the experiment's 'testbed:' "
	    "key") != NULL, "mode testbed without testbed: (%s)", err.msg);
}

static void
test_bound(void)
{
	struct exp_worker_times t[3] = { { 1, 0 }, { 1, 0 }, { 0, 0 } };

	/* two workers of 1 s per unit, free links: rho = 2 units/s */
	is_dbl(exp_divisible_bound(t, 3, 100), 50, 1e-12, "free links: W / sum 1/w_i");
	/* c = 0.8: the first worker takes 0.8 of the port, the second 0.2 / 0.8 = 0.25 */
	t[0].c = t[1].c = 0.8;
	is_dbl(exp_divisible_bound(t, 2, 100), 100 / 1.25, 1e-12, "the port limits the second");
	/* the cheaper link goes first whatever the order given */
	/* c 0.8 then 0.5: the 0.5 worker takes 0.5 of the port, the other 0.5 / 0.8 */
	t[0].c = 0.8;
	t[1].c = 0.5;
	is_dbl(exp_divisible_bound(t, 2, 90), 90 / 1.625, 1e-12, "greedy by increasing c");
	ok(isnan(exp_divisible_bound(t + 2, 1, 10)), "no worker: no bound");
}

int
main(void)
{
	char tmpl[] = "/tmp/test-exp.XXXXXX";

	if (mkdtemp(tmpl) == NULL)
		return 1;
	snprintf(dir, sizeof dir, "%s", tmpl);
	put("job.yaml", "program: /bin/true\nargs: [a]\nranks: 2\nruntime: {scheme: gss, k: 3}\n"
	    "stage_out: [out.pgm]\n");
	test_points();
	test_errors();
	test_all_errors();
	test_mode();
	test_bound();
	{
		char cmd[PATH_MAX + 16];

		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		if (system(cmd) != 0)
			return 1;
	}
	return tap_done();
}
