/*
 * test-sim-load.c — the background-load speed traces of `gridsubmit simulate` as SimGrid
 * and a user rely on them: the same seed gives the same bytes and another seed or host
 * other arrivals; the lines are "TIME VALUE" from time 0 with times strictly increasing
 * and values in (0, 1], then LOOPAFTER, so that a round lasts the horizon; no load is the
 * constant 1; a node starts empty, as the testbed's; the jobs arrive when common/loadgen.h,
 * which the testbed's generator draws from, says they do for the seed and the host; on a
 * node without ranks the mean number of jobs is the configured load; more load slows the
 * ranks more. The number of jobs the trace implies is
 * compared with two independent figures for the same model: a plain time-stepped
 * simulation (its own random stream, jobs kept as an array of remaining work, not the
 * event queue of sim-load.c), and, on one core with one rank, the closed form. The
 * closed form: with one rank always busy the n jobs get 1/(n + 1) of the core each, so
 * they are served at n/(n + 1) in all, a processor-sharing queue with state-dependent
 * rate, whose distribution does not depend on the work's (Kelly's symmetric queues, also
 * with the drop above most jobs): p(n) ~ (n + 1) rho^n for n <= most, rho = load / (1 +
 * load), whose mean is near 2 load, not the plain M/G/1-PS load.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/loadgen.h"
#include "simulate/simulate.h"
#include "tests/tap.h"

/* What a trace says, read as SimGrid reads it. */
struct trace {
	int ok;			/* the whole text parsed as below */
	char why[256];		/* what did not, at which line */
	size_t lines;		/* "TIME VALUE" lines */
	double round;		/* last time + LOOPAFTER: the length of one round */
	double mean_v;		/* time-weighted mean value over the round */
	double mean_n;		/* time-weighted mean jobs over the round (trace_read's cores, ranks) */
	double min_v, max_v;
	int n_exact;		/* every value is the share of a whole number of jobs */
	int repeats;		/* a line has the value of the line before */
};

/* The trace of host for cores and ranks, as a string (NULL when sim_load_trace fails). */
static char *
trace_host(double load, double interval, int cores, int ranks, uint64_t seed,
    const char *host)
{
	struct gs_emulate e = { .cpu_scale = 1, .load = load, .load_interval = interval };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (f == NULL)
		return NULL;
	rc = sim_load_trace(f, &e, cores, ranks, seed, host);
	fclose(f);
	if (rc != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The trace of host ws1 for cores and ranks, as a string (NULL when sim_load_trace fails). */
static char *
trace_text(double load, double interval, int cores, int ranks, uint64_t seed)
{
	return trace_host(load, interval, cores, ranks, seed, "ws1");
}

/*
 * The jobs a value means: min(1, cores / (n + ranks)) / min(1, cores / ranks) = v, ranks
 * counted as one on a node without any (the share a rank coming there would get).
 */
static double
trace_jobs(double v, int cores, int ranks)
{
	int r = ranks > 0 ? ranks : 1;

	return cores / (v * fmin(1, (double)cores / r)) - r;
}

/*
 * Read text: "TIME VALUE" lines, the first at time 0, then one "LOOPAFTER X" line last.
 * A value of 1 with cores to spare stands for every n up to cores - ranks: mean_n counts
 * it as the least (only meaningful when cores <= ranks).
 */
static void
trace_read(const char *text, int cores, int ranks, struct trace *t)
{
	const char *p = text, *nl;
	double pt = 0, pv = 0, x, v;
	double sum_v = 0, sum_n = 0;
	char line[128];
	int used;

	memset(t, 0, sizeof *t);
	t->n_exact = 1;
	t->min_v = INFINITY;
	t->max_v = -INFINITY;
	for (; *p != '\0'; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL || (size_t)(nl - p) >= sizeof line) {
			snprintf(t->why, sizeof t->why, "line %zu: unterminated or long", t->lines + 1);
			return;
		}
		memcpy(line, p, nl - p);
		line[nl - p] = '\0';
		if (sscanf(line, "LOOPAFTER %lf%n", &x, &used) == 1 && line[used] == '\0') {
			if (nl[1] != '\0' || t->lines == 0 || !(x >= 0)) {
				snprintf(t->why, sizeof t->why, "LOOPAFTER misplaced or negative: %s", line);
				return;
			}
			sum_v += pv * x;
			sum_n += trace_jobs(pv, cores, ranks) * x;
			t->round = pt + x;
			t->mean_v = sum_v / t->round;
			t->mean_n = sum_n / t->round;
			t->ok = 1;
			return;
		}
		if (sscanf(line, "%lf %lf%n", &x, &v, &used) != 2 || line[used] != '\0') {
			snprintf(t->why, sizeof t->why, "line %zu: not TIME VALUE: %s", t->lines + 1, line);
			return;
		}
		if (t->lines == 0 ? x != 0 || line[0] != '0' || line[1] != ' ' : !(x > pt)) {
			snprintf(t->why, sizeof t->why, "line %zu: time %s after %.9g", t->lines + 1,
			    line, pt);
			return;
		}
		if (!(v > 0 && v <= 1)) {
			snprintf(t->why, sizeof t->why, "line %zu: value out of (0, 1]: %s",
			    t->lines + 1, line);
			return;
		}
		if (t->lines > 0) {
			sum_v += pv * (x - pt);
			sum_n += trace_jobs(pv, cores, ranks) * (x - pt);
			t->repeats |= v == pv;
		}
		if (v < 1 && fabs(trace_jobs(v, cores, ranks) -
		    round(trace_jobs(v, cores, ranks))) > 1e-6)
			t->n_exact = 0;
		t->min_v = fmin(t->min_v, v);
		t->max_v = fmax(t->max_v, v);
		pt = x;
		pv = v;
		t->lines++;
	}
	snprintf(t->why, sizeof t->why, "no LOOPAFTER line at the end");
}

static void
trace_check(const char *name, double load, double interval, int cores, int ranks,
    uint64_t seed, struct trace *t)
{
	char *text = trace_text(load, interval, cores, ranks, seed);

	memset(t, 0, sizeof *t);
	if (!ok(text != NULL, "%s: sim_load_trace returns 0", name))
		return;
	trace_read(text, cores, ranks, t);
	if (!ok(t->ok, "%s: TIME VALUE lines from 0, times increasing, values in (0, 1], "
	    "LOOPAFTER last", name))
		printf("#   %s\n", t->why);
	free(text);
}

/*
 * The same model stepped by dt = interval / 200 from an empty node: an array of remaining
 * work, each job served min(1, cores / (n + ranks)) per second, arrivals from erand48.
 * Returns the
 * time-weighted mean number of jobs over length seconds (ten rounds of the trace, so
 * that its own noise is small against the trace's, about 2.6% at load 4).
 */
static double
stepped_mean_jobs(double load, double interval, int cores, int ranks, double length,
    unsigned short xs[3])
{
	double work = cores * interval * load / (1 + load);
	double most = floor(4 * load) + 4, dt = interval / 200, t, next, sum = 0, share;
	size_t n = 0, i, cap = (size_t)most;
	double *rem = calloc(cap, sizeof *rem);

	if (rem == NULL)
		return NAN;
	next = -interval * log(1 - erand48(xs));
	for (t = 0; t < length; t += dt) {
		sum += (double)n * dt;
		share = fmin(1, (double)cores / ((double)n + ranks));
		for (i = 0; i < n; )
			if ((rem[i] -= share * dt) <= 0)
				rem[i] = rem[--n];
			else
				i++;
		for (; next <= t + dt; next += -interval * log(1 - erand48(xs)))
			if ((double)n < most)
				rem[n++] = work;
	}
	free(rem);
	return sum / length;
}

/*
 * The mean of the closed form (top of the file) for cores and ranks: n jobs are served
 * at n min(1, cores / (n + ranks)) / work in all and arrive at 1 / interval, so
 * p(n) ~ prod(k = 1..n) cores rho / (k min(1, cores / (k + ranks))), n <= most; on one core
 * with one rank that is (n + 1) rho^n.
 */
static double
closed_mean_jobs(double load, int cores, int ranks)
{
	double rho = load / (1 + load), p = 1, sum = 1, mean = 0;
	int n, most = (int)floor(4 * load) + 4;

	for (n = 1; n <= most; n++) {
		p *= cores * rho / (n * fmin(1, (double)cores / (n + ranks)));
		sum += p;
		mean += n * p;
	}
	return mean / sum;
}

static void
check_no_load(void)
{
	char *text;

	text = trace_text(0, 1, 4, 2, 7);
	is_str(text, "0 1\n", "load 0: the constant 1");
	free(text);
	text = trace_text(-1, 0, 1, 1, 7);
	is_str(text, "0 1\n", "negative load (and no interval): the constant 1");
	free(text);
}

static void
check_determinism(void)
{
	char *a = trace_text(2, 0.5, 2, 1, 42);
	char *b = trace_text(2, 0.5, 2, 1, 42);
	char *c = trace_text(2, 0.5, 2, 1, 43);
	char *d = trace_text(2, 0.5, 2, 1, 42 | (1ULL << 60));

	ok(a != NULL && b != NULL && strcmp(a, b) == 0, "same arguments: same bytes");
	ok(a != NULL && c != NULL && strcmp(a, c) != 0, "seed 43 differs from seed 42");
	ok(a != NULL && d != NULL && strcmp(a, d) != 0, "the seed's high bits count");
	free(c);
	c = trace_host(2, 0.5, 2, 1, 42, "ws2");
	ok(a != NULL && c != NULL && strcmp(a, c) != 0, "host ws2 differs from ws1");
	free(a);
	free(b);
	free(c);
	free(d);
}

static void
check_format(void)
{
	struct trace t;
	char *text;

	/* the testbed's node starts with no job running: so does the trace */
	text = trace_text(2, 1, 1, 1, 5);
	ok(text != NULL && strncmp(text, "0 1\n", 4) == 0,
	    "load 2: the first line is 0 1, no job running");
	free(text);

	trace_check("1 core, load 2, interval 1 s", 2, 1, 1, 1, 5, &t);
	is_dbl(t.round, 3600, 1e-6, "interval 1 s: a round is the 3600 s cap");
	ok(t.lines > 2000, "interval 1 s: a line per change (%zu lines)", t.lines);
	ok(t.n_exact, "1 core: every value is 1 / (n + 1)");
	ok(!t.repeats, "no line repeats the value before it");

	trace_check("1 core, load 1, interval 0.05 s", 1, 0.05, 1, 1, 5, &t);
	is_dbl(t.round, 1000, 1e-6, "interval 0.05 s: a round is 20000 intervals");

	trace_check("3 cores 2 ranks, load 0.3, interval 1 ms", 0.3, SIM_LOAD_RESOLUTION, 3, 2,
	    9, &t);
	is_dbl(t.round, 20, 1e-6, "interval 1 ms: a round is 20 s");
	ok(t.lines > 1000, "interval 1 ms: %zu lines", t.lines);
	ok(t.n_exact, "3 cores 2 ranks: every value below 1 is 3 / (n + 2)");
	ok(!t.repeats, "3 cores 2 ranks: no line repeats the value before it");
}

static void
check_mean_value_falls(void)
{
	const double loads[] = { 0.5, 1, 2, 4 };
	double prev = 1;
	struct trace t;
	char name[64];
	size_t i;

	for (i = 0; i < sizeof loads / sizeof loads[0]; i++) {
		snprintf(name, sizeof name, "1 core, load %g", loads[i]);
		trace_check(name, loads[i], 0.1, 1, 1, 11, &t);
		ok(t.mean_v < prev, "load %g: mean value %.4f below %.4f (the lighter load's)",
		    loads[i], t.mean_v, prev);
		prev = t.mean_v;
	}
}

static void
check_mean_jobs(void)
{
	const double loads[] = { 0.5, 1, 2, 4 };
	unsigned short xs[3] = { 0x1234, 0x5678, 0x9abc };
	double want, closed;
	struct trace t;
	char name[64];
	size_t i;

	for (i = 0; i < sizeof loads / sizeof loads[0]; i++) {
		snprintf(name, sizeof name, "1 core 1 rank, load %g", loads[i]);
		trace_check(name, loads[i], 0.1, 1, 1, 3, &t);
		want = stepped_mean_jobs(loads[i], 0.1, 1, 1, 10 * t.round, xs);
		closed = closed_mean_jobs(loads[i], 1, 1);
		ok(fabs(t.mean_n - want) <= 0.1 * want, "load %g: mean jobs %.3f within 10%% "
		    "of the stepped simulation's %.3f", loads[i], t.mean_n, want);
		ok(fabs(t.mean_n - closed) <= 0.1 * closed, "load %g: mean jobs %.3f within 10%% "
		    "of the closed form's %.3f", loads[i], t.mean_n, closed);
	}
}

/*
 * On one core without ranks every arrival that is not dropped adds a job and lowers the
 * value, every end raises it: the times the value falls are the arrivals, which must be
 * the ones loadgen gives the testbed's node of that name for the seed (drops need 5 jobs
 * at load 0.25, which these 300 arrivals do not reach).
 */
static void
check_arrivals(void)
{
	char *text = trace_host(0.25, 1, 1, 0, LOADGEN_SEED, "ws3"), *p, *nl;
	struct loadgen g;
	double t, v, pv = 1, want = 0;
	int k = 0, same = 1;

	if (!ok(text != NULL, "ws3, seed %d: a trace", LOADGEN_SEED))
		return;
	loadgen_init(&g, LOADGEN_SEED, "ws3");
	for (p = text; k < 300 && (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		if (sscanf(p, "%lf %lf", &t, &v) != 2)
			break;
		if (v < pv) {
			want += loadgen_next(&g, 1);
			if (fabs(t - want) > 1e-6 * fmax(1, want)) {
				if (same)
					printf("#   arrival %d at %.9g, loadgen says %.9g\n", k + 1, t,
					    want);
				same = 0;
			}
			k++;
		}
		pv = v;
	}
	is_int(k, 300, "ws3: 300 arrivals in the trace");
	ok(same, "ws3: each arrival at the time loadgen draws for the testbed's ws3");
	free(text);
}

/* Without ranks the jobs have the core: the mean number running is the configured load. */
static void
check_idle_mean(void)
{
	const double loads[] = { 0.5, 1, 2 };
	struct trace t;
	char name[64];
	size_t i;

	for (i = 0; i < sizeof loads / sizeof loads[0]; i++) {
		snprintf(name, sizeof name, "1 core no rank, load %g", loads[i]);
		trace_check(name, loads[i], 0.1, 1, 0, 21, &t);
		ok(fabs(t.mean_n - loads[i]) <= 0.1 * loads[i], "load %g, no rank: mean jobs %.3f "
		    "within 10%% of the load", loads[i], t.mean_n);
		ok(fabs(t.mean_n - closed_mean_jobs(loads[i], 1, 0)) <=
		    0.1 * closed_mean_jobs(loads[i], 1, 0), "load %g, no rank: mean jobs %.3f "
		    "within 10%% of the closed form's %.3f", loads[i], t.mean_n,
		    closed_mean_jobs(loads[i], 1, 0));
	}
}

static void
check_multicore(void)
{
	unsigned short xs[3] = { 0x4321, 0x8765, 0xcba9 };
	struct trace t;
	double want;

	trace_check("4 cores 4 ranks, load 2", 2, 0.1, 4, 4, 17, &t);
	ok(t.min_v > 0 && t.max_v <= 1, "4 cores 4 ranks: values in [%.4f, %.4f]", t.min_v,
	    t.max_v);
	ok(t.min_v < 0.5, "4 cores 4 ranks: the load slows the ranks (least %.4f)", t.min_v);
	ok(t.n_exact, "4 cores 4 ranks: every value below 1 is 4 / (n + 4)");
	want = stepped_mean_jobs(2, 0.1, 4, 4, 10 * t.round, xs);
	ok(fabs(t.mean_n - want) <= 0.1 * want, "4 cores 4 ranks: mean jobs %.3f within 10%% "
	    "of the stepped simulation's %.3f", t.mean_n, want);
	want = closed_mean_jobs(2, 4, 4);
	ok(fabs(t.mean_n - want) <= 0.1 * want, "4 cores 4 ranks: mean jobs %.3f within 10%% "
	    "of the closed form's %.3f", t.mean_n, want);

	/* one rank on 4 cores: full speed until 4 jobs run */
	trace_check("4 cores 1 rank, load 2", 2, 1, 4, 1, 17, &t);
	ok(t.max_v == 1 && t.min_v < 1, "4 cores 1 rank: values from %.4f up to 1", t.min_v);
	ok(t.n_exact, "4 cores 1 rank: every value below 1 is 4 / (n + 1)");
	ok(!t.repeats, "4 cores 1 rank: no line repeats the value before it");
}

static void
check_errors(void)
{
	struct gs_emulate e = { .cpu_scale = 1, .load = 1, .load_interval = 1 };
	FILE *f = fopen("/dev/full", "w");

	if (ok(f != NULL, "open /dev/full")) {
		setvbuf(f, NULL, _IONBF, 0);
		is_int(sim_load_trace(f, &e, 1, 1, 1, "ws1"), -1, "a full disk: -1");
		e.load = 0;
		is_int(sim_load_trace(f, &e, 1, 1, 1, "ws1"), -1, "a full disk, no load: -1");
		fclose(f);
	}
	e.load = 1;
	e.load_interval = SIM_LOAD_RESOLUTION / 2;
	f = fopen("/dev/null", "w");
	errno = 0;
	ok(f != NULL && sim_load_trace(f, &e, 1, 1, 1, "ws1") == -1 && errno == EINVAL,
	    "load_interval below SIM_LOAD_RESOLUTION: -1, EINVAL");
	if (f != NULL)
		fclose(f);
}

int
main(void)
{
	check_no_load();
	check_determinism();
	check_format();
	check_mean_value_falls();
	check_mean_jobs();
	check_arrivals();
	check_idle_mean();
	check_multicore();
	check_errors();
	return tap_done();
}
