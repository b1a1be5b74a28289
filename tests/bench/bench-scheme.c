/*
 * bench-scheme.c — the decision time of the schemes for P = 4096 workers: what the master
 * spends in grt_sched_next + grt_sched_feedback per chunk (begin_round included, amortised
 * over the round), with no MPI. Prints rows for tests/bench/run-bench.sh:
 *   | scheme | decision time per chunk, P=4096 (gss) | 35 ns | - | - | < 1 us |
 * The goal: well under the 0.8 us of one raw MPI request/response (doc/schemes.md,
 * "Cost"), so that the scheme never limits the chunk rate.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "grt/scheme.h"

#define BENCH_P		4096
#define BENCH_N		1000000000LL
#define BENCH_SECONDS	0.25

static double
bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Rounds of requests round-robin over the workers until BENCH_SECONDS have passed. */
static double
bench_self(enum grt_scheme sc, int64_t *nchunks)
{
	struct grt_sched_conf conf = { .scheme = sc, .k = 1, .alpha = 30, .swr = 0.5 };
	static double pr[BENCH_P];
	static unsigned char done[BENCH_P];
	struct grt_chunk c;
	grt_sched *s;
	double t0, t;
	int64_t chunks = 0;
	int i, left, err;

	for (i = 0; i < BENCH_P; i++)
		pr[i] = 1 + i % 4;
	conf.pr = pr;
	if ((s = grt_sched_new(&conf, BENCH_P, BENCH_N, &err)) == NULL) {
		fprintf(stderr, "bench-scheme: grt_sched_new(%s) failed: %d\n",
		    grt_scheme_name(sc), err);
		exit(1);
	}
	t0 = bench_now();
	do {
		grt_sched_begin_round(s);
		for (i = 0; i < BENCH_P; i++)
			done[i] = 0;
		for (left = BENCH_P; left > 0;)
			for (i = 0; i < BENCH_P; i++) {
				if (done[i])
					continue;
				if (!grt_sched_next(s, i, &c)) {
					done[i] = 1;
					left--;
					continue;
				}
				grt_sched_feedback(s, i, &c, 1e-6 * (double)c.count,
				    1.1e-6 * (double)c.count);
				chunks++;
			}
		t = bench_now() - t0;
	} while (t < BENCH_SECONDS);
	grt_sched_free(s);
	*nchunks = chunks;
	return t / (double)chunks;
}

/* hetcomm: begin_round (fold the feedback, plan, sort by perf_f) + one chunk per worker. */
static double
bench_hetcomm(int64_t *nchunks)
{
	struct grt_sched_conf conf = { .scheme = GRT_SCHEME_HETCOMM };
	int order[BENCH_P];
	struct grt_chunk c;
	grt_sched *s;
	double t0, t, calc;
	int64_t chunks = 0;
	int i, w, err;

	if ((s = grt_sched_new(&conf, BENCH_P, BENCH_N, &err)) == NULL) {
		fprintf(stderr, "bench-scheme: grt_sched_new(hetcomm) failed: %d\n", err);
		exit(1);
	}
	t0 = bench_now();
	do {
		grt_sched_begin_round(s);
		grt_sched_order(s, order);
		for (i = 0; i < BENCH_P; i++) {
			w = order[i];
			while (grt_sched_next(s, w, &c)) {
				/* heterogeneous, slightly noisy: a new perf_f order every round */
				calc = 1e-6 * (1 + w % 7) * (1 + 0.01 * (double)((chunks + w) % 5));
				grt_sched_feedback(s, w, &c, calc * (double)c.count,
				    (calc + 1e-7 * (1 + w % 3)) * (double)c.count);
				chunks++;
			}
		}
		t = bench_now() - t0;
	} while (t < BENCH_SECONDS);
	grt_sched_free(s);
	*nchunks = chunks;
	return t / (double)chunks;
}

static void
bench_row(const char *name, double sec, int64_t chunks)
{
	char v[32];

	if (sec < 1e-6)
		snprintf(v, sizeof v, "%.0f ns", sec * 1e9);
	else
		snprintf(v, sizeof v, "%.2f us", sec * 1e6);
	printf("| scheme | decision time per chunk, P=%d (%s) | %s | - | - | < 1 us |\n",
	    BENCH_P, name, v);
	printf("# %s: %lld chunks timed%s\n", name, (long long)chunks,
	    sec < 1e-6 ? "" : " (over the 1 us goal)");
}

int
main(void)
{
	static const enum grt_scheme self[] = { GRT_SCHEME_GSS, GRT_SCHEME_FSS, GRT_SCHEME_TSS,
	    GRT_SCHEME_PWD };
	int64_t chunks;
	double sec;
	size_t i;

	for (i = 0; i < sizeof self / sizeof self[0]; i++) {
		sec = bench_self(self[i], &chunks);
		bench_row(grt_scheme_name(self[i]), sec, chunks);
	}
	sec = bench_hetcomm(&chunks);
	bench_row("hetcomm, one round", sec, chunks);
	return 0;
}
