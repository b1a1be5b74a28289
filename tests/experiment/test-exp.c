/*
 * test-exp.c — experiment files into points and overlays: the cross product's order, zip,
 * {names} substituted into args, parameters laid over the job file (runtime and job keys,
 * the job's other keys kept), a bad value located in the experiment file, every mistake
 * of a file reported in file order; the reserved parameter mode (each point's mode, never
 * laid over the job, its bad values located); and the divisible-load bound on stars whose
 * bound is known in closed form, and on a recorded run's job directory.
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

static void
unlink_in(const char *name)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	unlink(path);
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

/* The bound of n ranks of speeds s, t_calc t, units u, port costs c (master: rank 0 if m). */
static double
bound_of(size_t n, const double *sp, const double *t, const double *u, const double *c,
    int m, double makespan, struct exp_bound *b)
{
	struct exp_bound_rank r[8];
	size_t i;

	memset(r, 0, sizeof r);
	for (i = 0; i < n; i++) {
		r[i].speed = sp[i];
		r[i].t_calc = t[i];
		r[i].units = u[i];
		r[i].c = c != NULL ? c[i] : NAN;
		r[i].master = m && i == 0;
	}
	exp_bound_star(r, n, makespan, b);
	return b->t_lb;
}

/*
 * Stars whose bound is known in closed form: equal nodes and units (W / (p x speed)), two
 * speeds (W / sum s_i, whichever units each drew), a port-bound star (U x c), the port
 * left out when the master computed and when a fit is contradicted by the makespan.
 */
static void
test_bound(void)
{
	double one[4] = { 1, 1, 1, 1 }, t[4] = { 10, 10, 10, 10 }, u[4] = { 100, 100, 100, 100 };
	double two[4] = { 2000, 2000, 1000, 1000 }, t2[4] = { 10, 2, 10, 16 };
	double c[4] = { 0.5, 0.5, 0.5, 0.5 }, x[6] = { 1, 2, 3, 4, 5, 6 }, y[6];
	struct exp_bound b;
	size_t i;

	/* 4 equal nodes, 400 units of 0.1 s each: W = 40 s, T_LB = W / 4 */
	is_dbl(bound_of(4, one, t, u, NULL, 0, 10, &b), 10, 1e-12, "equal nodes: W / p");
	is_dbl(b.work, 40, 1e-12, "equal nodes: W = sum t_calc");
	ok(b.port == 0 && !b.equal_speeds, "no port cost known: no port term");
	/*
	 * Two speeds (2000 and 1000 MHz): the work in seconds of the fastest node is 10 + 2
	 * + 10/2 + 16/2 = 25, the capacity 1 + 1 + 0.5 + 0.5 = 3; rank 1 drew cheap units
	 * (2 s for its 100) and does not make itself look faster than its clock
	 */
	is_dbl(bound_of(4, two, t2, u, NULL, 0, 16, &b), 25.0 / 3, 1e-12,
	    "two speeds: W / sum s_i, whatever units each drew");
	ok(b.t_lb <= 16, "below the longest computing time (%g)", b.t_lb);
	/* a speed unknown: every rank counted as equal, still a bound */
	two[3] = 0;
	is_dbl(bound_of(4, two, t2, u, NULL, 0, 16, &b), 38.0 / 4, 1e-12,
	    "an unknown speed: equal speeds");
	ok(b.equal_speeds, "and says so");
	/* port-bound: 400 units at 0.5 s each through one port; compute takes 10 s */
	is_dbl(bound_of(4, one, t, u, c, 0, 250, &b), 200, 1e-12, "port-bound: U x c");
	is_dbl(b.compute, 10, 1e-12, "its compute term is still W / p");
	/* the master computed: its units never crossed the port */
	is_dbl(bound_of(4, one, t, u, c, 1, 250, &b), 10, 1e-12,
	    "a master that computed: no port term");
	/* a fitted port cost the run contradicts is left out, and counted */
	is_dbl(bound_of(4, one, t, u, c, 0, 100, &b), 10, 1e-12,
	    "a port term above the makespan left out");
	ok(b.port_dropped == 1, "and flagged");
	ok(isnan(bound_of(0, one, t, u, NULL, 0, 1, &b)), "no rank: no bound");

	/* the slope: exact on a line, unmoved by one outlier (a first contact) */
	for (i = 0; i < 6; i++)
		y[i] = 0.003 + 0.25 * x[i];
	is_dbl(exp_bound_slope(x, y, 6), 0.25, 1e-12, "slope of a line");
	y[5] += 100;
	is_dbl(exp_bound_slope(x, y, 6), 0.25, 1e-12, "an outlier does not move it");
	ok(isnan(exp_bound_slope(x, y, 1)), "one chunk: no slope");
	ok(isnan(exp_bound_slope(one, y, 4)), "one size: no slope");
}

/*
 * Recorded events of a synthetic run: the efficiency from a job directory (events.jsonl
 * and rankmap, as the broker writes it), the master not counted, speeds from cpu_mhz.
 */
static void
test_bound_dir(void)
{
	double v[EXP_NBUILTIN];
	struct exp_bound b;

	put("rankmap", "# rank node site pf pr cpu_mhz\n0 here - 1 1 0\n1 a s 1 1 3000\n"
	    "2 b s 1 1 1000\n");
	/* rank 1: 3 chunks, 6 s of computing; rank 2: 2 chunks, 6 s: W = 6 + 6/3 = 8 */
	put("events.jsonl",
	    "{\"v\":1,\"t\":0,\"ev\":\"start\",\"job\":\"1\",\"scheme\":\"gss\","
	    "\"N\":60,\"rounds\":1,\"ranks\":[{\"rank\":0,\"node\":\"here\",\"site\":\"-\","
	    "\"pf\":1,\"pr\":1,\"role\":\"master\"},{\"rank\":1,\"node\":\"a\",\"site\":\"s\","
	    "\"pf\":1,\"pr\":1,\"role\":\"worker\"},{\"rank\":2,\"node\":\"b\",\"site\":\"s\","
	    "\"pf\":1,\"pr\":1,\"role\":\"worker\"}]}\n"
	    "{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":1,\"round\":0,\"start\":0,"
	    "\"count\":20,\"t_calc\":2,\"t_comm\":0.01,\"t_exe\":2.01}\n"
	    "{\"v\":1,\"t\":2,\"ev\":\"chunk\",\"rank\":2,\"round\":0,\"start\":20,"
	    "\"count\":15,\"t_calc\":3,\"t_comm\":0.01,\"t_exe\":3.01}\n"
	    "{\"v\":1,\"t\":3,\"ev\":\"chunk\",\"rank\":1,\"round\":0,\"start\":35,"
	    "\"count\":10,\"t_calc\":2,\"t_comm\":0.01,\"t_exe\":2.01}\n"
	    "{\"v\":1,\"t\":4,\"ev\":\"chunk\",\"rank\":2,\"round\":0,\"start\":45,"
	    "\"count\":10,\"t_calc\":3,\"t_comm\":0.01,\"t_exe\":3.01}\n"
	    "{\"v\":1,\"t\":5,\"ev\":\"chunk\",\"rank\":1,\"round\":0,\"start\":55,"
	    "\"count\":5,\"t_calc\":2,\"t_comm\":0.01,\"t_exe\":2.01}\n"
	    "{\"v\":1,\"t\":6.5,\"ev\":\"end\",\"makespan\":6.5,\"requeued\":0,"
	    "\"failed\":0,\"status\":\"done\",\"ranks\":[]}\n");
	exp_dir_metrics(dir, v, &b);
	is_dbl(b.work, 8, 1e-12, "recorded run: W in seconds of the fastest node");
	is_dbl(b.t_lb, 8 / (1 + 1.0 / 3), 1e-12, "recorded run: T_LB = W / (1 + 1/3)");
	is_dbl(v[EXP_M_EFFICIENCY], 6 / 6.5, 1e-12, "recorded run: efficiency T_LB / makespan");
	ok(strcmp(b.speeds, "site file") == 0, "speeds from the rank map (%s)", b.speeds);
	/* a simulation's platform.xml gives the exact speeds, whatever the rank map says */
	put("platform.xml", "    <host id=\"a\" speed=\"2e9f\" core=\"1\"/>\n"
	    "    <host id=\"b\" speed=\"1e9f\" core=\"1\"/>\n");
	exp_dir_metrics(dir, v, &b);
	is_dbl(b.t_lb, (6 + 3) / 1.5, 1e-12, "simulated run: speeds of the platform");
	ok(strcmp(b.speeds, "platform") == 0, "and says so (%s)", b.speeds);
	unlink_in("platform.xml");
	unlink_in("events.jsonl");
	unlink_in("rankmap");
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
	test_bound_dir();
	{
		char cmd[PATH_MAX + 16];

		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		if (system(cmd) != 0)
			return 1;
	}
	return tap_done();
}
