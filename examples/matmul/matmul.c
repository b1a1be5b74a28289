/*
 * matmul — C = A x B, dense, square, of order n, through libgrt, in the two forms of the
 * papers. The elements are small integers (int32, in [-8, 7]) as in seed 000, 5.2 ("matrixes
 * of integers"), generated from a hash of (matrix, row, column): every rank can make any
 * part of A or B without a random-number state, and the integer sums are exact whatever
 * the order, so the check against the sequential product is exact (no tolerance).
 *
 * --form a (seed 000, 4.2; payload-heavy). Units are rows of A; B is "broadcast step by
 * step": the run has ceil(n/W) rounds, and round j (1-based) works on the j-th block of W
 * columns of B (W = --bcols; W = 1 is the paper's column by column). libgrt has no
 * broadcast and pack() does not know which worker a chunk goes to, so the block travels
 * with every chunk of round j: for the rounds schemes (hetcalc, hetcomm: one chunk per
 * worker and round) that is exactly one broadcast per round, as in the paper; the
 * self-scheduling schemes pay it once per chunk, a per-chunk cost like a latency.
 *   input payload of a chunk of count rows: n*W*4 bytes (B block, column-major)
 *                                           + count*n*4 bytes (the rows of A)
 *   result payload: count*W*4 bytes (C[rows, block j])
 * Workers hold nothing: everything they compute with comes in the payload.
 *
 * --form b (seed 002, 4.2; compute-bound). Every rank generates A and B itself; one round;
 * units are rows of C; a chunk is an index range (the two integers of the paper: the chunk
 * header, no input payload); its result is count*n*4 bytes of C.
 *
 * usage: matmul [--form a|b] [--n N] [--bcols W] [--scheme S] [--slow RANK:FACTOR,...]
 *               [--no-check] [--corrupt-unit K]
 * The master checks C against its own sequential product unless --no-check, and exits 1
 * with a message when an element differs. --slow makes the given ranks repeat each chunk's
 * computation FACTOR times (an artificial cost for the benchmarks); --corrupt-unit K makes
 * whoever computes row K return it off by one (to prove the check can fail).
 * Exit status: 0 ok, 1 wrong result or runtime error, 2 usage.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include <grt/grt.h>

#define MAX_ORDER	8192

struct matmul {
	int form;		/* 'a' or 'b' */
	int n;
	int bcols;		/* form a: W, columns of B per round */
	int slow;		/* this rank's repeat factor */
	int64_t corrupt;	/* unit to corrupt, -1 none */
	int32_t *a, *b;		/* master (both forms), every rank (form b): n x n, row-major */
	int32_t *c;		/* master: the result */
	int32_t *bblock;	/* master, form a: the block of columns of B of ... */
	int bround;		/* ... this round (0: none yet) */
	double bytes;		/* master: payload bytes sent and received */
};

/* Element (i, j) of matrix m (0: A, 1: B), in [-8, 7]: a splitmix64 hash of its index. */
static int32_t
mat_elem(int m, int64_t i, int64_t j)
{
	uint64_t x = ((uint64_t)m << 62) ^ ((uint64_t)i << 31) ^ (uint64_t)j;

	x += 0x9e3779b97f4a7c15u;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
	x ^= x >> 31;
	return (int32_t)(x & 15) - 8;
}

static int32_t *
mat_make(int m, int n)
{
	int32_t *p = malloc((size_t)n * n * sizeof *p);
	int i, j;

	for (i = 0; p != NULL && i < n; i++)
		for (j = 0; j < n; j++)
			p[(size_t)i * n + j] = mat_elem(m, i, j);
	return p;
}

/* The columns [c0, c0+w) of round: form a's round j is the j-th block of W columns. */
static void
mat_block(const struct matmul *mm, int round, int *c0, int *w)
{
	*c0 = (round - 1) * mm->bcols;
	*w = mm->n - *c0 < mm->bcols ? mm->n - *c0 : mm->bcols;
}

static int
mat_pack(void *ctx, int round, int64_t start, int64_t count, grt_buf *in)
{
	struct matmul *mm = ctx;
	int c0, w, k, c;

	mat_block(mm, round, &c0, &w);
	/* the block of B, column by column, as the paper broadcasts columns */
	for (c = 0; mm->bround != round && c < w; c++)
		for (k = 0; k < mm->n; k++)
			mm->bblock[(size_t)c * mm->n + k] = mm->b[(size_t)k * mm->n + c0 + c];
	mm->bround = round;
	if (grt_buf_append(in, mm->bblock, (size_t)w * mm->n * sizeof(int32_t)) != GRT_OK ||
	    grt_buf_append(in, mm->a + (size_t)start * mm->n,
	    (size_t)count * mm->n * sizeof(int32_t)) != GRT_OK)
		return -1;
	mm->bytes += (double)((size_t)w * mm->n + (size_t)count * mm->n) * sizeof(int32_t);
	return 0;
}

/* Form a: rows of A (in the payload) times a block of columns of B (in the payload). */
static void
mat_rows_a(int n, int w, const int32_t *bcol, const int32_t *arows, int64_t count,
    int32_t *out)
{
	int64_t i;
	int c, k;

	for (i = 0; i < count; i++) {
		const int32_t *ar = arows + (size_t)i * n;

		for (c = 0; c < w; c++) {
			const int32_t *bc = bcol + (size_t)c * n;
			int32_t s = 0;

			for (k = 0; k < n; k++)
				s += ar[k] * bc[k];
			out[(size_t)i * w + c] = s;
		}
	}
}

/* Form b: rows [start, start+count) of C = A x B, both held locally (i-k-j order). */
static void
mat_rows_b(int n, const int32_t *a, const int32_t *b, int64_t start, int64_t count,
    int32_t *out)
{
	int64_t i;
	int j, k;

	for (i = 0; i < count; i++) {
		const int32_t *ar = a + (size_t)(start + i) * n;
		int32_t *cr = out + (size_t)i * n;

		memset(cr, 0, (size_t)n * sizeof *cr);
		for (k = 0; k < n; k++) {
			const int32_t *br = b + (size_t)k * n;
			int32_t av = ar[k];

			for (j = 0; j < n; j++)
				cr[j] += av * br[j];
		}
	}
}

static int
mat_compute(void *ctx, int round, int64_t start, int64_t count, const void *in,
    size_t inlen, grt_buf *out)
{
	struct matmul *mm = ctx;
	size_t off = out->len, rowlen;
	int32_t *res;
	int c0, w, rep;

	if (mm->form == 'a') {
		const int32_t *bcol = in;

		mat_block(mm, round, &c0, &w);
		if (w < 1 || inlen != ((size_t)w * mm->n + (size_t)count * mm->n) *
		    sizeof(int32_t))
			return -1;
		rowlen = (size_t)w;
		if (grt_buf_reserve(out, off + (size_t)count * rowlen * sizeof *res) != GRT_OK)
			return -1;
		res = (int32_t *)(void *)(out->data + off);
		for (rep = 0; rep < mm->slow; rep++)
			mat_rows_a(mm->n, w, bcol, bcol + (size_t)w * mm->n, count, res);
	} else {
		if (inlen != 0 || start < 0 || start + count > mm->n)
			return -1;
		rowlen = (size_t)mm->n;
		if (grt_buf_reserve(out, off + (size_t)count * rowlen * sizeof *res) != GRT_OK)
			return -1;
		res = (int32_t *)(void *)(out->data + off);
		for (rep = 0; rep < mm->slow; rep++)
			mat_rows_b(mm->n, mm->a, mm->b, start, count, res);
	}
	if (mm->corrupt >= start && mm->corrupt < start + count)
		res[(size_t)(mm->corrupt - start) * rowlen] += 1;
	out->len = off + (size_t)count * rowlen * sizeof *res;
	return 0;
}

static int
mat_merge(void *ctx, int round, int64_t start, int64_t count, const void *res,
    size_t reslen)
{
	struct matmul *mm = ctx;
	const int32_t *r = res;
	int64_t i;
	int c0, w;

	if (mm->form == 'a')
		mat_block(mm, round, &c0, &w);
	else {
		c0 = 0;
		w = mm->n;
	}
	if (start < 0 || start + count > mm->n ||
	    reslen != (size_t)count * w * sizeof(int32_t))
		return -1;
	for (i = 0; i < count; i++)
		memcpy(mm->c + (size_t)(start + i) * mm->n + c0, r + (size_t)i * w,
		    (size_t)w * sizeof *r);
	mm->bytes += (double)reslen;
	return 0;
}

/* Rows of C that differ from the sequential product (form b's kernel, one row at a time). */
static int64_t
mat_check(const struct matmul *mm, int64_t *first)
{
	int32_t *row = malloc((size_t)mm->n * sizeof *row);
	int64_t i, bad = 0;

	*first = -1;
	if (row == NULL)
		return -1;
	for (i = 0; i < mm->n; i++) {
		mat_rows_b(mm->n, mm->a, mm->b, i, 1, row);
		if (memcmp(row, mm->c + (size_t)i * mm->n, (size_t)mm->n * sizeof *row) != 0) {
			if (bad++ == 0)
				*first = i;
		}
	}
	free(row);
	return bad;
}

static int
usage(int rank, const char *bad)
{
	if (rank == 0) {
		if (bad != NULL)
			fprintf(stderr, "matmul: bad argument '%s'\n", bad);
		fprintf(stderr, "usage: matmul [--form a|b] [--n N] [--bcols W] [--scheme S] "
		    "[--slow RANK:FACTOR,...] [--no-check] [--corrupt-unit K]\n");
	}
	MPI_Finalize();
	return 2;
}

int
main(int argc, char **argv)
{
	struct matmul mm;
	struct grt_config cfg;
	struct grt_report rep;
	struct grt_app app;
	const char *scheme = NULL, *slow = NULL;
	int rank, size, check = 1, i, rc, need;
	char why[160];

	memset(&mm, 0, sizeof mm);
	mm.form = 'a';
	mm.n = 600;
	mm.bcols = 64;
	mm.corrupt = -1;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--check") == 0)
			check = 1;
		else if (strcmp(a, "--no-check") == 0)
			check = 0;
		else if (strcmp(a, "--form") == 0 && v != NULL &&
		    (strcmp(v, "a") == 0 || strcmp(v, "b") == 0)) {
			mm.form = v[0];
			i++;
		} else if (strcmp(a, "--n") == 0 && v != NULL && (mm.n = atoi(v)) > 0 &&
		    mm.n <= MAX_ORDER)
			i++;
		else if (strcmp(a, "--bcols") == 0 && v != NULL && (mm.bcols = atoi(v)) > 0)
			i++;
		else if (strcmp(a, "--scheme") == 0 && v != NULL)
			scheme = argv[++i];
		else if (strcmp(a, "--slow") == 0 && v != NULL)
			slow = argv[++i];
		else if (strcmp(a, "--corrupt-unit") == 0 && v != NULL &&
		    (mm.corrupt = atoll(v)) >= 0)
			i++;
		else
			return usage(rank, a);
	}
	if (mm.bcols > mm.n)
		mm.bcols = mm.n;
	if ((mm.slow = grt_rank_factor(slow, rank)) < 1)
		return usage(rank, slow);
	if (grt_config_init(&cfg, scheme, why, sizeof why) != GRT_OK) {
		if (rank == 0)
			fprintf(stderr, "matmul: %s\n", why);
		MPI_Finalize();
		return 2;
	}

	/* the master holds A, B and C; in form b every rank holds A and B (seed 002) */
	need = rank == 0 || mm.form == 'b' || cfg.master_computes;
	if (need && ((mm.a = mat_make(0, mm.n)) == NULL || (mm.b = mat_make(1, mm.n)) == NULL)) {
		fprintf(stderr, "matmul: rank %d: out of memory for A and B\n", rank);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (rank == 0 && ((mm.c = calloc((size_t)mm.n * mm.n, sizeof *mm.c)) == NULL ||
	    (mm.bblock = malloc((size_t)mm.n * mm.bcols * sizeof *mm.bblock)) == NULL)) {
		fprintf(stderr, "matmul: out of memory for C\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}

	memset(&app, 0, sizeof app);
	app.units = mm.n;
	app.rounds = mm.form == 'a' ? (mm.n + mm.bcols - 1) / mm.bcols : 1;
	app.ctx = &mm;
	app.compute = mat_compute;
	app.pack = mm.form == 'a' ? mat_pack : NULL;
	app.merge = mat_merge;
	rc = grt_run(MPI_COMM_WORLD, &app, &cfg, &rep);
	if (rc != GRT_OK)
		fprintf(stderr, "matmul: rank %d: %s\n", rank, grt_report_error(rc, &rep));
	else if (rep.is_master) {
		const char *verdict = "not checked";

		if (check) {
			int64_t first, bad = mat_check(&mm, &first);

			if (bad != 0) {
				if (bad < 0)
					fprintf(stderr, "matmul: out of memory for the check\n");
				else
					fprintf(stderr, "matmul: wrong result: %lld of %d rows of C "
					    "differ from the sequential product (the first is row "
					    "%lld)\n", (long long)bad, mm.n, (long long)first);
				rc = GRT_EAPP;
			}
			verdict = rc == GRT_OK ? "matches the sequential product" : "WRONG";
		}
		if (mm.form == 'a')
			printf("matmul: form a, order %d, %d rounds of %d columns, scheme %s, %d "
			    "ranks, makespan %.3f s, %.1f MB moved, %d failed, %lld units "
			    "requeued, C %s\n", mm.n, app.rounds, mm.bcols,
			    grt_scheme_name(cfg.sched.scheme), size, rep.makespan, mm.bytes / 1e6,
			    rep.failed_ranks, (long long)rep.requeued, verdict);
		else
			printf("matmul: form b, order %d, scheme %s, %d ranks, makespan %.3f s, "
			    "%.1f MB moved, %d failed, %lld units requeued, C %s\n", mm.n,
			    grt_scheme_name(cfg.sched.scheme), size, rep.makespan, mm.bytes / 1e6,
			    rep.failed_ranks, (long long)rep.requeued, verdict);
		if (rep.events_lost)
			fprintf(stderr, "matmul: warning: the event log is incomplete\n");
	}
	free(mm.a);
	free(mm.b);
	free(mm.c);
	free(mm.bblock);
	return grt_end(rc);
}
