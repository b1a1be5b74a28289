/*
 * codesign — the parameter-estimation phase of the Hw/Sw codesign tool of seed 000, 4.1
 * (GACSYS), through libgrt: compute-heavy units, tiny payloads, iterated in rounds.
 *
 * The specification is a set of processes (the VHDL processes of the paper); here each is
 * a synthetic data-flow graph of --ops operations of four kinds (add, mul, logic, memory),
 * made from a seed by every rank, as every node of the paper reads the specification. A
 * unit is one combination of functional units: how many adders, multipliers, logic units
 * and memory ports (1..--fu-max of each), so --fu-max M gives M^4 units; "depending on the
 * functional units number, this phase can be heavy computationally" (seed 000, 4.1). For
 * each combination the estimate is a resource-constrained list schedule of the graph
 * (priority: longest latency-weighted path to a sink), from which come the three figures
 * of the paper: execution time, power consumption and area.
 * Round r estimates every combination for process r (--rounds, or runtime: {rounds: R}
 * in the job file, which gridsubmit passes as GRT_ROUNDS; default 7, the iterations of
 * seed 000, fig. 5), so hetcalc and hetcomm have rounds to balance over.
 *   input payload: two int32, the first combination and the number of combinations
 *                  (8 bytes, as in the paper; they repeat the chunk header's start and
 *                  count, which the worker checks)
 *   result payload: count x 3 float32 (execution time ns, power mW, area units), 12 bytes
 *                   per combination
 * The master checks every figure against its own sequential estimation (same code, so
 * equal; a relative tolerance of 1e-6 allows a host that rounds differently).
 *
 * usage: codesign [--fu-max M] [--ops V] [--rounds R] [--scheme S]
 *                 [--slow RANK:FACTOR,...] [--no-check] [--corrupt-unit K]
 * --slow makes a rank repeat each estimate FACTOR times; --corrupt-unit K makes whoever
 * estimates combination K report its execution time off by 1 ns.
 * Exit status: 0 ok, 1 wrong result or runtime error, 2 usage.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include <grt/grt.h>

#define NFU		4	/* kinds of functional unit */
#define MAX_FU		32	/* units of one kind */
#define NPRED		2	/* operands of an operation */
#define TOLERANCE	1e-6

/* add, mul, logic, memory: latency (cycles), area and energy per operation (arbitrary units) */
static const int fu_lat[NFU] = { 1, 3, 1, 2 };
static const double fu_area[NFU] = { 1.0, 4.5, 0.8, 2.2 };
static const double fu_energy[NFU] = { 1.0, 3.8, 0.6, 2.5 };
static const double fu_mix[NFU] = { 0.40, 0.25, 0.20, 0.15 };	/* operation kinds */

struct dfg {
	int nops;
	unsigned char *kind;
	int32_t *pred;		/* nops x NPRED, -1 none */
	int32_t *order;		/* operations by decreasing priority */
	double energy;		/* sum over the operations */
};

struct codesign {
	int fumax;
	int nops;
	int rounds;
	int slow;
	int64_t corrupt;
	int64_t units;		/* fumax^NFU */
	float *res;		/* master: rounds x units x 3 */
	struct dfg g;		/* the graph of ... */
	int ground;		/* ... this round (0: none) */
	int32_t *scratch;	/* list scheduling state */
};

static uint64_t
mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15u;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
	return x ^ (x >> 31);
}

static void
dfg_free(struct dfg *g)
{
	free(g->kind);
	free(g->pred);
	free(g->order);
	memset(g, 0, sizeof *g);
}

static const int32_t *dfg_sort_prio;

static int
dfg_cmp(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	if (dfg_sort_prio[x] != dfg_sort_prio[y])
		return dfg_sort_prio[x] < dfg_sort_prio[y] ? 1 : -1;
	return (x > y) - (x < y);
}

/*
 * The graph of process r: operation i reads up to two results of the 24 operations before
 * it (a basic block's locality), so the graph is acyclic in index order.
 */
static int
dfg_make(struct dfg *g, int nops, int r)
{
	uint64_t s = mix64(0xc0de5157u ^ (uint64_t)r);
	int32_t *prio = NULL;
	int i, j;

	memset(g, 0, sizeof *g);
	g->nops = nops;
	if ((g->kind = malloc((size_t)nops)) == NULL ||
	    (g->pred = malloc((size_t)nops * NPRED * sizeof *g->pred)) == NULL ||
	    (g->order = malloc((size_t)nops * sizeof *g->order)) == NULL ||
	    (prio = calloc((size_t)nops, sizeof *prio)) == NULL) {
		free(prio);
		dfg_free(g);
		return -1;
	}
	for (i = 0; i < nops; i++) {
		double u = (double)((s = mix64(s)) >> 11) / 9007199254740992.0, c = 0;
		int k;

		for (k = 0; k < NFU - 1 && u >= c + fu_mix[k]; k++)
			c += fu_mix[k];
		g->kind[i] = (unsigned char)k;
		g->energy += fu_energy[k];
		for (j = 0; j < NPRED; j++) {
			int back = (int)((s = mix64(s)) % 24) + 1;

			g->pred[i * NPRED + j] = i - back >= 0 && (s >> 40) % 4 != 0 ? i - back : -1;
		}
		g->order[i] = i;
	}
	/* priority: the longest latency-weighted path from the operation to a sink */
	for (i = nops - 1; i >= 0; i--) {
		prio[i] += fu_lat[g->kind[i]];
		for (j = 0; j < NPRED; j++) {
			int p = g->pred[i * NPRED + j];

			if (p >= 0 && prio[p] < prio[i])
				prio[p] = prio[i];
		}
	}
	dfg_sort_prio = prio;
	qsort(g->order, (size_t)nops, sizeof *g->order, dfg_cmp);
	free(prio);
	return 0;
}

/* Units of each kind in combination u: mixed radix, digit t is the count of kind t - 1. */
static void
combo_decode(int64_t u, int fumax, int *n)
{
	int t;

	for (t = 0; t < NFU; t++) {
		n[t] = 1 + (int)(u % fumax);
		u /= fumax;
	}
}

/*
 * The estimate of one combination: list scheduling, cycle by cycle, of the operations in
 * priority order on non-pipelined units; scratch holds 2 * nops int32. The figures:
 * execution time = cycles x clock period, the period growing with the units (wiring and
 * multiplexers); area = the units plus an interconnect term; power = dynamic energy over
 * the execution time plus leakage proportional to the area.
 */
static void
estimate(const struct dfg *g, const int *n, int32_t *scratch, float *out)
{
	int32_t *finish = scratch, *left = scratch + g->nops;
	int32_t freeat[NFU][MAX_FU];
	int nleft = g->nops, cycle = 0, i, j, t, total = 0, end = 0;
	double period, area, time;

	memset(freeat, 0, sizeof freeat);
	for (i = 0; i < g->nops; i++) {
		finish[i] = -1;
		left[i] = g->order[i];
	}
	while (nleft > 0) {
		int o = 0;

		for (i = 0; i < nleft; i++) {
			int op = left[i], k = g->kind[op], ready = 1, u;

			for (j = 0; j < NPRED && ready; j++) {
				int p = g->pred[op * NPRED + j];

				ready = p < 0 || (finish[p] >= 0 && finish[p] <= cycle);
			}
			for (u = 0; ready && u < n[k] && freeat[k][u] > cycle; u++)
				;
			if (ready && u < n[k]) {
				finish[op] = freeat[k][u] = cycle + fu_lat[k];
				if (finish[op] > end)
					end = finish[op];
			} else
				left[o++] = op;
		}
		nleft = o;
		cycle++;
	}
	for (t = 0; t < NFU; t++)
		total += n[t];
	period = 10.0 * (1.0 + 0.02 * total);
	area = 0.15 * pow(total, 1.5);
	for (t = 0; t < NFU; t++)
		area += n[t] * fu_area[t];
	time = end * period;
	out[0] = (float)time;
	out[1] = (float)(1000.0 * g->energy / time + 0.05 * area);
	out[2] = (float)area;
}

/* The graph of round r on this rank, made once per round. */
static int
cd_graph(struct codesign *cd, int round)
{
	if (cd->ground == round)
		return 0;
	dfg_free(&cd->g);
	cd->ground = 0;
	if (dfg_make(&cd->g, cd->nops, round) != 0)
		return -1;
	cd->ground = round;
	return 0;
}

static int
cd_pack(void *ctx, int round, int64_t start, int64_t count, grt_buf *in)
{
	int32_t v[2] = { (int32_t)start, (int32_t)count };

	return grt_buf_append(in, v, sizeof v) == GRT_OK ? 0 : -1;
}

static int
cd_compute(void *ctx, int round, int64_t start, int64_t count, const void *in,
    size_t inlen, grt_buf *out)
{
	struct codesign *cd = ctx;
	size_t off = out->len;
	int32_t v[2];
	float *res;
	int64_t i;
	int n[NFU], rep;

	if (inlen != sizeof v)
		return -1;
	memcpy(v, in, sizeof v);
	if (v[0] != start || v[1] != count || start < 0 || start + count > cd->units ||
	    cd_graph(cd, round) != 0 ||
	    grt_buf_reserve(out, off + (size_t)count * 3 * sizeof *res) != GRT_OK)
		return -1;
	res = (float *)(void *)(out->data + off);
	for (i = 0; i < count; i++) {
		combo_decode(start + i, cd->fumax, n);
		for (rep = 0; rep < cd->slow; rep++)
			estimate(&cd->g, n, cd->scratch, res + 3 * i);
		if (start + i == cd->corrupt)
			res[3 * i] += 1.0f;
	}
	out->len = off + (size_t)count * 3 * sizeof *res;
	return 0;
}

static int
cd_merge(void *ctx, int round, int64_t start, int64_t count, const void *res,
    size_t reslen)
{
	struct codesign *cd = ctx;

	if (round < 1 || round > cd->rounds || start < 0 || start + count > cd->units ||
	    reslen != (size_t)count * 3 * sizeof(float))
		return -1;
	memcpy(cd->res + ((size_t)(round - 1) * cd->units + start) * 3, res, reslen);
	return 0;
}

/* Figures that differ from the sequential estimation; the first in *first_r, *first_u. */
static int64_t
cd_check(struct codesign *cd, int *first_r, int64_t *first_u)
{
	int64_t u, bad = 0;
	float want[3];
	int r, n[NFU], f;

	for (r = 1; r <= cd->rounds; r++) {
		if (cd_graph(cd, r) != 0)
			return -1;
		for (u = 0; u < cd->units; u++) {
			const float *got = cd->res + ((size_t)(r - 1) * cd->units + u) * 3;
			int differs = 0;

			combo_decode(u, cd->fumax, n);
			estimate(&cd->g, n, cd->scratch, want);
			for (f = 0; f < 3; f++)
				differs |= !(fabs((double)got[f] - want[f]) <=
				    TOLERANCE * fabs((double)want[f]));
			if (differs && bad++ == 0) {
				*first_r = r;
				*first_u = u;
			}
		}
	}
	return bad;
}

static int
usage(int rank, const char *bad)
{
	if (rank == 0) {
		if (bad != NULL)
			fprintf(stderr, "codesign: bad argument '%s'\n", bad);
		fprintf(stderr, "usage: codesign [--fu-max M] [--ops V] [--rounds R] [--scheme S] "
		    "[--slow RANK:FACTOR,...] [--no-check] [--corrupt-unit K]\n");
	}
	MPI_Finalize();
	return 2;
}

int
main(int argc, char **argv)
{
	struct codesign cd;
	struct grt_config cfg;
	struct grt_report rep;
	struct grt_app app;
	const char *scheme = NULL, *slow = NULL, *env;
	int rank, size, check = 1, i, t, rc;
	char why[160];

	memset(&cd, 0, sizeof cd);
	cd.fumax = 6;
	cd.nops = 300;
	cd.rounds = 7;
	cd.corrupt = -1;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if ((env = getenv("GRT_ROUNDS")) != NULL && *env != '\0' &&
	    ((cd.rounds = atoi(env)) < 1 || cd.rounds > 10000)) {
		if (rank == 0)
			fprintf(stderr, "codesign: bad GRT_ROUNDS in the environment\n");
		MPI_Finalize();
		return 2;
	}
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--check") == 0)
			check = 1;
		else if (strcmp(a, "--no-check") == 0)
			check = 0;
		else if (strcmp(a, "--fu-max") == 0 && v != NULL && (cd.fumax = atoi(v)) >= 1 &&
		    cd.fumax <= MAX_FU)
			i++;
		else if (strcmp(a, "--ops") == 0 && v != NULL && (cd.nops = atoi(v)) >= 1 &&
		    cd.nops <= 1000000)
			i++;
		else if (strcmp(a, "--rounds") == 0 && v != NULL && (cd.rounds = atoi(v)) >= 1 &&
		    cd.rounds <= 10000)
			i++;
		else if (strcmp(a, "--scheme") == 0 && v != NULL)
			scheme = argv[++i];
		else if (strcmp(a, "--slow") == 0 && v != NULL)
			slow = argv[++i];
		else if (strcmp(a, "--corrupt-unit") == 0 && v != NULL &&
		    (cd.corrupt = atoll(v)) >= 0)
			i++;
		else
			return usage(rank, a);
	}
	for (cd.units = 1, t = 0; t < NFU; t++)
		cd.units *= cd.fumax;
	if ((cd.slow = grt_rank_factor(slow, rank)) < 1)
		return usage(rank, slow);
	if (grt_config_init(&cfg, scheme, why, sizeof why) != GRT_OK) {
		if (rank == 0)
			fprintf(stderr, "codesign: %s\n", why);
		MPI_Finalize();
		return 2;
	}
	if ((cd.scratch = malloc((size_t)cd.nops * 2 * sizeof *cd.scratch)) == NULL ||
	    (rank == 0 && (cd.res = calloc((size_t)cd.rounds * cd.units * 3,
	    sizeof *cd.res)) == NULL)) {
		fprintf(stderr, "codesign: rank %d: out of memory\n", rank);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}

	memset(&app, 0, sizeof app);
	app.units = cd.units;
	app.rounds = cd.rounds;
	app.ctx = &cd;
	app.compute = cd_compute;
	app.pack = cd_pack;
	app.merge = cd_merge;
	rc = grt_run(MPI_COMM_WORLD, &app, &cfg, &rep);
	if (rc != GRT_OK)
		fprintf(stderr, "codesign: rank %d: %s\n", rank, grt_report_error(rc, &rep));
	else if (rep.is_master) {
		const char *verdict = "not checked";

		if (check) {
			int64_t fu = 0, bad;
			int fr = 0;

			if ((bad = cd_check(&cd, &fr, &fu)) != 0) {
				if (bad < 0)
					fprintf(stderr, "codesign: out of memory for the check\n");
				else
					fprintf(stderr, "codesign: wrong result: %lld of %lld "
					    "estimates differ from the sequential estimation (the "
					    "first: process %d, combination %lld)\n", (long long)bad,
					    (long long)cd.units * cd.rounds, fr, (long long)fu);
				rc = GRT_EAPP;
			}
			verdict = rc == GRT_OK ? "match the sequential estimation" : "WRONG";
		}
		printf("codesign: %lld combinations (1..%d of %d kinds of unit), %d operations, "
		    "%d rounds, scheme %s, %d ranks, makespan %.3f s, %d failed, %d dropped, "
		    "%lld units requeued, estimates %s\n", (long long)cd.units, cd.fumax, NFU,
		    cd.nops, cd.rounds, grt_scheme_name(cfg.sched.scheme), size, rep.makespan,
		    rep.failed_ranks, rep.dropped_ranks, (long long)rep.requeued, verdict);
		if (rep.events_lost)
			fprintf(stderr, "codesign: warning: the event log is incomplete\n");
	}
	dfg_free(&cd.g);
	free(cd.scratch);
	free(cd.res);
	return grt_end(rc);
}
