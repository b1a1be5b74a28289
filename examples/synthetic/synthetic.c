/*
 * synthetic — an irregular loop with known statistics, through libgrt: units whose costs
 * are exponentially distributed, the classic test load of the factoring schemes (the
 * variance of the unit times is what factoring and weighted factoring size their batches
 * for). Nothing is read or sent: a chunk carries no input (start and count) and its result
 * is one 64-bit value per unit.
 *
 * The cost of unit u is a pure function of (--seed, u) through splitmix64, so every rank
 * knows it without communication; its mean is --mean-us microseconds (default 20). The
 * work is real CPU work, the logistic map x <- 3.99 x (1 - x): a chain of dependent
 * floating-point operations whose final state decides a test the compiler cannot settle,
 * so it cannot drop it (unit_result). Microseconds become iterations through a rate the master measures
 * before the run and broadcasts (or --iters-per-us gives), never per rank: three ranks on
 * two cores, or a slowed rank, would measure different rates and then do different work
 * for the same unit. --rounds R (or GRT_ROUNDS; default 1) repeats the loop with the same
 * costs, as an iterative application would; the round enters the result so that a result
 * of the wrong round cannot pass.
 *
 * usage: synthetic [--units N] [--mean-us M] [--seed S] [--rounds R] [--iters-per-us X]
 *                  [--scheme S] [--check] [--slow RANK:FACTOR,...] [--corrupt-unit K]
 *                  [--uniform]
 * --check recomputes every unit sequentially on the master and exits 1 if a result
 * differs; --slow makes the given ranks repeat each unit FACTOR times (an artificial cost
 * for the benchmarks; the result is unchanged); --corrupt-unit K makes whoever computes
 * unit K report a wrong result, to see the check fail; --uniform gives every unit the mean
 * cost (a regular loop, whose ideal schedule the divisible-load bound gives exactly).
 * Exit status: 0 ok, 1 wrong result or runtime error, 2 usage.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include <grt/grt.h>

#include "common/numarg.h"

#define LOGISTIC_R	3.99	/* chaotic: the orbit never settles into a cheap pattern */
#define CALIB_MIN_S	0.01	/* one calibration sample lasts at least this long */
#define CALIB_SAMPLES	5	/* the fastest of these is the machine's rate */
#define MAX_UNITS	(INT64_C(1) << 32)

struct synth {
	int64_t units;
	int rounds;
	double mean_us;
	uint64_t seed;
	double ipus;		/* busy-loop iterations per microsecond, the same on every rank */
	int slow;		/* this rank's repeat factor */
	int uniform;		/* --uniform: every unit costs mean_us */
	int64_t corrupt;	/* unit to corrupt, -1 none */
	uint64_t *acc;		/* master: per unit, the results of the rounds so far folded */
};

/* splitmix64's finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mix */
static uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* The u-th output of a splitmix64 generator seeded with seed: random access by unit. */
static uint64_t
unit_random(uint64_t seed, int64_t u, uint64_t stream)
{
	return mix64(seed + ((uint64_t)u + 1) * UINT64_C(0x9e3779b97f4a7c15) + mix64(stream));
}

/*
 * Unit u's iterations: -mean ln(1 - U) microseconds, U uniform in [0, 1) from 53 bits; with
 * --uniform, the mean for every unit.
 */
static int64_t
unit_iters(const struct synth *s, int64_t u)
{
	double p = (double)(unit_random(s->seed, u, 0) >> 11) * 0x1p-53;

	if (s->uniform)
		return (int64_t)llround(s->mean_us * s->ipus);
	return (int64_t)llround(-s->mean_us * log1p(-p) * s->ipus);
}

static double
busy(double x, int64_t n)
{
	int64_t i;

	for (i = 0; i < n; i++)
		x = LOGISTIC_R * x * (1 - x);
	return x;
}

/*
 * Unit u's result in round, a function of (seed, round, u) only, after the busy loop. The
 * loop's state stays in (0, 1), so the test on it never holds, but the compiler cannot
 * know that and must run the loop. The number of iterations follows the rate measured at
 * start, which differs from run to run: a run resumed from its journal (grt.h) gets the
 * same results as the run it continues.
 */
static uint64_t
unit_result(const struct synth *s, int round, int64_t u)
{
	uint64_t start = unit_random(s->seed, u, (uint64_t)round);
	double x = 0.1 + 0.8 * (double)(start >> 11) * 0x1p-53;

	return mix64(start ^ (uint64_t)(busy(x, unit_iters(s, u)) >= 1.0));
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * Iterations of the busy loop per microsecond on this rank: the fastest of a few samples
 * of at least CALIB_MIN_S each, since a shared machine only ever makes a sample slower.
 */
static double
synth_calibrate(void)
{
	volatile double sink;
	double t, best = 0;
	int64_t n = 1000;
	int i;

	for (;;) {
		t = now_s();
		sink = busy(0.3, n);
		if ((t = now_s() - t) >= CALIB_MIN_S)
			break;
		n *= 2;
	}
	for (i = 0; i < CALIB_SAMPLES; i++) {
		t = now_s();
		sink = busy(0.3, n);
		t = now_s() - t;
		if (t > 0 && n / (t * 1e6) > best)
			best = n / (t * 1e6);
	}
	(void)sink;
	return best;
}

/*
 * The master's rate to every rank. The others wait sleeping, not in a spinning MPI_Bcast:
 * with more ranks than cores they would take the CPU the master is measuring.
 */
static void
synth_share_rate(struct synth *s, int rank)
{
	struct timespec nap = { 0, 200000 };
	MPI_Request req;
	int done = 0;

	if (rank == 0 && s->ipus <= 0)
		s->ipus = synth_calibrate();
	MPI_Ibcast(&s->ipus, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &req);
	while (MPI_Test(&req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done)
		nanosleep(&nap, NULL);
}

static int
synth_compute(void *ctx, int round, int64_t start, int64_t count, const void *in,
    size_t inlen, grt_buf *out)
{
	struct synth *s = ctx;
	size_t off = out->len;
	volatile uint64_t once;	/* every repetition of --slow is stored, so none is dropped */
	uint64_t v;
	int64_t i;
	int rep;

	if (start < 0 || start + count > s->units ||
	    grt_buf_reserve(out, off + (size_t)count * sizeof v) != GRT_OK)
		return -1;
	for (i = 0; i < count; i++) {
		for (rep = 0; rep < s->slow; rep++)
			once = unit_result(s, round, start + i);
		v = once;
		if (start + i == s->corrupt)
			v ^= 1;
		memcpy(out->data + off + (size_t)i * sizeof v, &v, sizeof v);
	}
	out->len = off + (size_t)count * sizeof v;
	return 0;
}

/* Rounds are merged one after another, so folding them in order is deterministic. */
static void
synth_fold(uint64_t *acc, uint64_t v)
{
	*acc = mix64(*acc + v);
}

static int
synth_merge(void *ctx, int round, int64_t start, int64_t count, const void *res,
    size_t reslen)
{
	struct synth *s = ctx;
	uint64_t v;
	int64_t i;

	if (reslen != (size_t)count * sizeof v || start < 0 || start + count > s->units)
		return -1;
	for (i = 0; i < count; i++) {
		memcpy(&v, (const unsigned char *)res + (size_t)i * sizeof v, sizeof v);
		synth_fold(&s->acc[start + i], v);
	}
	return 0;
}

/* Units whose folded results differ from a sequential computation; the first in *first. */
static int64_t
synth_check(const struct synth *s, int64_t *first)
{
	int64_t u, bad = 0;
	uint64_t want;
	int r;

	for (u = 0; u < s->units; u++) {
		for (want = 0, r = 1; r <= s->rounds; r++)
			synth_fold(&want, unit_result(s, r, u));
		if (want != s->acc[u] && bad++ == 0)
			*first = u;
	}
	return bad;
}

static int
usage(int rank, const char *bad)
{
	if (rank == 0) {
		if (bad != NULL)
			fprintf(stderr, "synthetic: bad argument '%s'\n", bad);
		fprintf(stderr, "usage: synthetic [--units N] [--mean-us M] [--seed S] "
		    "[--rounds R] [--iters-per-us X] [--scheme S] [--check] "
		    "[--slow RANK:FACTOR,...] [--corrupt-unit K] [--uniform]\n");
	}
	MPI_Finalize();
	return 2;
}

/* The options into s; returns the argument that is wrong, or NULL. */
static const char *
synth_args(int argc, char **argv, struct synth *s, const char **scheme, const char **slow,
    int *check)
{
	int64_t n;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--check") == 0)
			*check = 1;
		else if (strcmp(a, "--uniform") == 0)
			s->uniform = 1;
		else if (strcmp(a, "--units") == 0 && numarg_int(v, 1, MAX_UNITS, &s->units) == 0)
			i++;
		else if (strcmp(a, "--mean-us") == 0 && numarg_double(v, 0, 1e6, &s->mean_us) == 0)
			i++;
		else if (strcmp(a, "--seed") == 0 && numarg_int(v, 0, INT64_MAX, &n) == 0) {
			s->seed = (uint64_t)n;
			i++;
		} else if (strcmp(a, "--rounds") == 0 && numarg_int(v, 1, 1000000, &n) == 0) {
			s->rounds = (int)n;
			i++;
		} else if (strcmp(a, "--iters-per-us") == 0 &&
		    numarg_double(v, 1e-3, 1e6, &s->ipus) == 0)
			i++;
		else if (strcmp(a, "--corrupt-unit") == 0 &&
		    numarg_int(v, 0, INT64_MAX, &s->corrupt) == 0)
			i++;
		else if (strcmp(a, "--scheme") == 0 && v != NULL)
			*scheme = argv[++i];
		else if (strcmp(a, "--slow") == 0 && v != NULL)
			*slow = argv[++i];
		else
			return a;
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	struct synth s = { .units = 100000, .mean_us = 20, .seed = 1, .slow = 1, .corrupt = -1 };
	struct grt_config cfg;
	struct grt_report rep;
	struct grt_app app;
	const char *scheme = NULL, *slow = NULL, *bad;
	int rank, size, check = 0, rc;
	char why[160];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if ((bad = synth_args(argc, argv, &s, &scheme, &slow, &check)) != NULL)
		return usage(rank, bad);
	if ((s.slow = grt_rank_factor(slow, rank)) < 1)
		return usage(rank, slow);
	if (grt_config_init(&cfg, scheme, why, sizeof why) != GRT_OK) {
		if (rank == 0)
			fprintf(stderr, "synthetic: %s\n", why);
		MPI_Finalize();
		return 2;
	}
	if (s.rounds == 0)
		s.rounds = cfg.rounds > 0 ? cfg.rounds : 1;
	if (rank == 0 && (s.acc = calloc((size_t)s.units, sizeof *s.acc)) == NULL) {
		fprintf(stderr, "synthetic: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	synth_share_rate(&s, rank);

	memset(&app, 0, sizeof app);
	app.units = s.units;
	app.rounds = s.rounds;
	app.ctx = &s;
	app.compute = synth_compute;
	app.merge = synth_merge;
	rc = grt_run(MPI_COMM_WORLD, &app, &cfg, &rep);
	if (rc != GRT_OK) {
		fprintf(stderr, "synthetic: rank %d: %s\n", rank, grt_report_error(rc, &rep));
		return grt_end(rc);
	}
	if (rep.is_master) {
		const char *verdict = "not checked";
		int64_t nbad, first = 0;

		if (check) {
			if ((nbad = synth_check(&s, &first)) > 0) {
				fprintf(stderr, "synthetic: wrong result: %lld of %lld units differ "
				    "from the sequential computation (the first: unit %lld)\n",
				    (long long)nbad, (long long)s.units, (long long)first);
				rc = GRT_EAPP;
			}
			verdict = rc == GRT_OK ? "matches the sequential computation" : "WRONG";
		}
		printf("synthetic: %lld units x %d rounds, exponential mean %g us (seed %llu, "
		    "%.1f iterations/us), scheme %s, %d ranks, makespan %.3f s, %d failed, "
		    "%lld units requeued, result %s\n", (long long)s.units, s.rounds, s.mean_us,
		    (unsigned long long)s.seed, s.ipus, grt_scheme_name(cfg.sched.scheme), size,
		    rep.makespan, rep.failed_ranks, (long long)rep.requeued, verdict);
		if (rep.events_lost)
			fprintf(stderr, "synthetic: warning: the event log is incomplete\n");
		free(s.acc);
	}
	return grt_end(rc);
}
