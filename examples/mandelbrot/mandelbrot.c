/*
 * mandelbrot — the Mandelbrot set of seed 002 (section 4.4) through libgrt.
 *
 * Units are image rows: the work per row is irregular (rows through the set cost up to
 * max-iter iterations per pixel, rows outside it a few), which is what PWD's SWR and the
 * self-scheduling schemes are about. A chunk carries no input (two numbers, start and
 * count, as in the paper); its result is count x size bytes of pixels.
 *
 * usage: mandelbrot [--size N] [--iter M] [--scheme S] [--check] [--out FILE.pgm]
 *                   [--slow RANK:FACTOR,...]
 * --check computes the image sequentially on the master too and exits 1 if a pixel
 * differs; --slow makes the given ranks repeat each row FACTOR times (an artificial cost
 * for the benchmarks). Exit status: 0 ok, 1 wrong result or runtime error, 2 usage.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include <grt/grt.h>

/* seed 002, fig. 2: [-1.8, 0.5] x [-1.2, 1.2] */
#define RE_MIN	(-1.8)
#define RE_MAX	0.5
#define IM_MIN	(-1.2)
#define IM_MAX	1.2

struct mandel {
	int size;
	int maxiter;
	int slow;		/* this rank's repeat factor */
	unsigned char *image;	/* master: size x size */
};

static void
mandel_row(const struct mandel *m, int64_t y, unsigned char *out)
{
	double im = IM_MIN + (IM_MAX - IM_MIN) * (double)y / m->size;
	int x;

	for (x = 0; x < m->size; x++) {
		double re = RE_MIN + (RE_MAX - RE_MIN) * (double)x / m->size;
		double zr = 0, zi = 0, t;
		int it = 0;

		while (it < m->maxiter && zr * zr + zi * zi <= 4.0) {
			t = zr * zr - zi * zi + re;
			zi = 2 * zr * zi + im;
			zr = t;
			it++;
		}
		out[x] = it >= m->maxiter ? 0 : (unsigned char)(1 + it % 255);
	}
}

static int
mandel_compute(void *ctx, int round, int64_t start, int64_t count, const void *in,
    size_t inlen, grt_buf *out)
{
	struct mandel *m = ctx;
	size_t off = out->len;
	int64_t y;
	int rep;

	if (grt_buf_reserve(out, off + (size_t)count * m->size) != GRT_OK)
		return -1;
	for (y = 0; y < count; y++)
		for (rep = 0; rep < m->slow; rep++)
			mandel_row(m, start + y, out->data + off + (size_t)y * m->size);
	out->len = off + (size_t)count * m->size;
	return 0;
}

static int
mandel_merge(void *ctx, int round, int64_t start, int64_t count, const void *res,
    size_t reslen)
{
	struct mandel *m = ctx;

	if (reslen != (size_t)count * m->size || start < 0 || start + count > m->size)
		return -1;
	memcpy(m->image + (size_t)start * m->size, res, reslen);
	return 0;
}

static int
mandel_write_pgm(const struct mandel *m, const char *path)
{
	char tmp[4096];
	FILE *f;
	int ok;

	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	if ((f = fopen(tmp, "wb")) == NULL)
		return -1;
	fprintf(f, "P5\n%d %d\n255\n", m->size, m->size);
	ok = fwrite(m->image, 1, (size_t)m->size * m->size, f) == (size_t)m->size * m->size;
	ok &= fclose(f) == 0;
	if (!ok || rename(tmp, path) != 0) {
		remove(tmp);
		return -1;
	}
	return 0;
}

static void
usage(int rank)
{
	if (rank == 0)
		fprintf(stderr, "usage: mandelbrot [--size N] [--iter M] [--scheme S] [--check] "
		    "[--out FILE.pgm] [--slow RANK:FACTOR,...]\n");
}

int
main(int argc, char **argv)
{
	struct mandel m = { 512, 1000, 1, NULL };
	struct grt_config cfg;
	struct grt_report rep;
	struct grt_app app;
	const char *out = NULL, *scheme = NULL, *slow = NULL;
	int rank, size, check = 0, i, rc;
	char why[160];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--check") == 0)
			check = 1;
		else if (strcmp(a, "--size") == 0 && v != NULL && (m.size = atoi(v)) > 0 &&
		    m.size <= 65536)
			i++;
		else if (strcmp(a, "--iter") == 0 && v != NULL && (m.maxiter = atoi(v)) > 0)
			i++;
		else if (strcmp(a, "--out") == 0 && v != NULL)
			out = argv[++i];
		else if (strcmp(a, "--scheme") == 0 && v != NULL)
			scheme = argv[++i];
		else if (strcmp(a, "--slow") == 0 && v != NULL)
			slow = argv[++i];
		else {
			if (rank == 0)
				fprintf(stderr, "mandelbrot: bad argument '%s'\n", a);
			usage(rank);
			MPI_Finalize();
			return 2;
		}
	}
	if ((m.slow = grt_rank_factor(slow, rank)) < 1) {
		usage(rank);
		MPI_Finalize();
		return 2;
	}
	if (grt_config_init(&cfg, scheme, why, sizeof why) != GRT_OK) {
		if (rank == 0)
			fprintf(stderr, "mandelbrot: %s\n", why);
		MPI_Finalize();
		return 2;
	}
	if (rank == 0 && (m.image = calloc((size_t)m.size, (size_t)m.size)) == NULL) {
		fprintf(stderr, "mandelbrot: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}

	memset(&app, 0, sizeof app);
	app.units = m.size;
	app.rounds = 1;
	app.ctx = &m;
	app.compute = mandel_compute;
	app.merge = mandel_merge;
	rc = grt_run(MPI_COMM_WORLD, &app, &cfg, &rep);
	if (rc != GRT_OK) {
		fprintf(stderr, "mandelbrot: rank %d: %s\n", rank, grt_report_error(rc, &rep));
		return grt_end(rc);
	}
	if (rep.is_master) {
		const char *verdict = "not checked";

		if (check) {
			unsigned char *row = malloc((size_t)m.size);
			int64_t y, bad = 0;
			struct mandel seq = m;

			seq.slow = 1;
			for (y = 0; row != NULL && y < m.size; y++) {
				mandel_row(&seq, y, row);
				bad += memcmp(row, m.image + (size_t)y * m.size, (size_t)m.size) != 0;
			}
			free(row);
			if (row == NULL || bad > 0) {
				fprintf(stderr, "mandelbrot: wrong result: %lld of %d rows differ "
				    "from the sequential computation\n", (long long)bad, m.size);
				rc = GRT_EAPP;
			}
			verdict = rc == GRT_OK ? "matches the sequential computation" : "WRONG";
		}
		if (rc == GRT_OK && out != NULL && mandel_write_pgm(&m, out) != 0) {
			fprintf(stderr, "mandelbrot: cannot write %s: %s\n", out, strerror(errno));
			rc = GRT_EAPP;
		}
		printf("mandelbrot: %dx%d, scheme %s, %d ranks, makespan %.3f s, %d failed, "
		    "%lld units requeued, image %s%s%s\n", m.size, m.size,
		    grt_scheme_name(cfg.sched.scheme), size, rep.makespan, rep.failed_ranks,
		    (long long)rep.requeued, verdict, out != NULL ? ", written to " : "",
		    out != NULL ? out : "");
		if (rep.events_lost)
			fprintf(stderr, "mandelbrot: warning: the event log is incomplete\n");
		free(m.image);
	}
	return grt_end(rc);
}
