/*
 * bench-grt — libgrt's chunk rate against the raw MPI request/response rate it is built on
 * (issue 3, "Tests and benchmark"), in one mpiexec -n 2 run:
 *   raw:    rank 1 sends a small request, rank 0 answers; blocking MPI_Send/MPI_Recv;
 *   libgrt: pss (1-unit chunks), empty compute, a no-op merge; events off, and events on
 *           (a chunk record per chunk, written to DIR/events.jsonl), both prefetching as
 *           shipped (GRT_PREFETCH auto); and events off without prefetching (one chunk
 *           at a worker at a time: the same request/response pattern as raw); and events
 *           off with the journal on (a record per merged chunk in a fresh DIR/journal,
 *           written and fdatasynced by libgrt's writer thread, on the disk DIR is on).
 * Goals (issues 13, 15, 34): libgrt at 0.8 of raw as shipped, events on at 0.95 of off
 * (issue 34; 0.9 before), journal on at 0.9 of off. With events on, the stream's volume
 * (records and bytes a second) at the rate measured, and what writing it costs the master
 * a chunk.
 * The five are run back to back, as one trial, TRIALS times (off, events on, journal on in
 * one trial, the other way round in the next), and each ratio is the median of the trials'
 * own ratios. This machine is a shared VM whose speed jumps between modes (measured: the
 * same run at 0.6 M and at 1.4 M chunks/s minutes apart): a trial's runs share a mode,
 * while the best or the median of each kind taken apart could compare runs of different
 * modes.
 * Prints rows "| area | what | value | baseline | ratio | goal |" for tests/bench/run-bench.sh
 * (values: the medians of the runs) and "#" lines with the single trials.
 *
 * usage: mpiexec -n 2 bench-grt DIR [SECONDS [off|on|journal UNITS]]
 * SECONDS per run, default 0.4. "off UNITS", "on UNITS" or "journal UNITS" runs libgrt once
 * over UNITS chunks, events off, events on or journal on, and prints its rate: a fixed
 * amount of work to profile.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mpi.h>

#include <grt/grt.h>

#define TRIALS		9
#define TAG_REQ		11
#define TAG_STOP	12
#define REQ_BYTES	16	/* a request: about what a worker's result header is */
#define RESP_BYTES	48	/* an answer: about a work header */

/* Round trips per second between ranks 0 and 1 for about secs seconds; on rank 0. */
static double
bench_raw(int rank, double secs)
{
	char req[REQ_BYTES], resp[RESP_BYTES];
	MPI_Status st;
	double t0, t, rate = 0;
	long long n = 0;

	memset(req, 1, sizeof req);
	memset(resp, 2, sizeof resp);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		for (;;) {
			MPI_Recv(req, sizeof req, MPI_BYTE, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			if (st.MPI_TAG == TAG_STOP)
				break;
			MPI_Send(resp, sizeof resp, MPI_BYTE, 1, TAG_REQ, MPI_COMM_WORLD);
		}
		MPI_Recv(&rate, 1, MPI_DOUBLE, 1, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else if (rank == 1) {
		t0 = MPI_Wtime();
		do {
			int i;

			for (i = 0; i < 256; i++) {
				MPI_Send(req, sizeof req, MPI_BYTE, 0, TAG_REQ, MPI_COMM_WORLD);
				MPI_Recv(resp, sizeof resp, MPI_BYTE, 0, TAG_REQ, MPI_COMM_WORLD,
				    MPI_STATUS_IGNORE);
			}
			n += 256;
			t = MPI_Wtime() - t0;
		} while (t < secs);
		rate = (double)n / t;
		MPI_Send(req, sizeof req, MPI_BYTE, 0, TAG_STOP, MPI_COMM_WORLD);
		MPI_Send(&rate, 1, MPI_DOUBLE, 0, TAG_STOP, MPI_COMM_WORLD);
	}
	return rate;
}

static int
bench_compute(void *ctx, int round, int64_t start, int64_t count, const void *in,
    size_t inlen, grt_buf *out)
{
	return 0;
}

static int
bench_merge(void *ctx, int round, int64_t start, int64_t count, const void *res,
    size_t reslen)
{
	*(int64_t *)ctx += count;
	return 0;
}

static long long events_bytes;	/* size of the last events.jsonl written, on rank 0 */
static long long events_lines;	/* its records */
static long long journal_bytes;	/* size of the last journal written, on rank 0 */

static int cmp_dbl(const void *, const void *);

/*
 * Seconds to append bytes to a new file in dir in 32 KB writes, as the event writer does:
 * the kernel's share of the cost of events (page-cache pages for new data). -1 on errors.
 */
static double
bench_append(const char *dir, long long bytes)
{
	static char buf[32 * 1024];
	char path[4096];
	double t0, t;
	int fd;

	memset(buf, 'x', sizeof buf);
	snprintf(path, sizeof path, "%s/append.tmp", dir);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644)) == -1)
		return -1;
	t0 = MPI_Wtime();
	while (bytes > 0) {
		size_t n = bytes < (long long)sizeof buf ? (size_t)bytes : sizeof buf;

		if (write(fd, buf, n) != (ssize_t)n) {
			close(fd);
			unlink(path);
			return -1;
		}
		bytes -= (long long)n;
	}
	t = MPI_Wtime() - t0;
	close(fd);
	unlink(path);
	return t;
}

/*
 * Milliseconds to write bytes to a new file in dir and fdatasync it, as the journal's
 * writer does with one group commit: the median of 5, the fastest and the slowest in *lo
 * and *hi. -1 on errors.
 */
static double
bench_sync(const char *dir, long long bytes, double *lo, double *hi)
{
	static char buf[32 * 1024];
	char path[4096];
	double t[5], t0;
	int fd, i;

	memset(buf, 'j', sizeof buf);
	snprintf(path, sizeof path, "%s/sync.tmp", dir);
	for (i = 0; i < 5; i++) {
		long long left = bytes;

		if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644)) == -1)
			return -1;
		t0 = MPI_Wtime();
		while (left > 0) {
			size_t n = left < (long long)sizeof buf ? (size_t)left : sizeof buf;

			if (write(fd, buf, n) != (ssize_t)n)
				break;
			left -= (long long)n;
		}
		if (left > 0 || fdatasync(fd) != 0) {
			close(fd);
			unlink(path);
			return -1;
		}
		t[i] = (MPI_Wtime() - t0) * 1e3;
		close(fd);
	}
	unlink(path);
	qsort(t, 5, sizeof *t, cmp_dbl);
	*lo = t[0];
	*hi = t[4];
	return t[2];
}

/* The lines of the file at path: the records of an events.jsonl. -1 on errors. */
static long long
file_lines(const char *path)
{
	char buf[64 * 1024];
	long long n = 0;
	ssize_t k, i;
	int fd;

	if ((fd = open(path, O_RDONLY)) == -1)
		return -1;
	while ((k = read(fd, buf, sizeof buf)) > 0)
		for (i = 0; i < k; i++)
			n += buf[i] == '\n';
	close(fd);
	return k < 0 ? -1 : n;
}

/*
 * Chunks per second of pss over n units, with events and a journal when not NULL (both
 * removed before and after the run); on rank 0. -1 when the run failed.
 */
static double
bench_grt(int64_t n, const char *events, const char *journal, enum grt_prefetch prefetch)
{
	struct grt_config cfg;
	struct grt_report rep;
	struct grt_app app;
	int64_t merged = 0;
	int rc;

	memset(&cfg, 0, sizeof cfg);
	cfg.sched.scheme = GRT_SCHEME_PSS;
	cfg.sched.k = 1;
	cfg.sched.swr = 1;
	cfg.sched.alpha = 30;
	cfg.deadline = 60;
	cfg.deadline_factor = 10;
	cfg.events_path = events;
	cfg.events_chunks = 1;
	cfg.prefetch = prefetch;
	cfg.journal_path = journal;
	memset(&app, 0, sizeof app);
	app.units = n;
	app.rounds = 1;
	app.ctx = &merged;
	app.compute = bench_compute;
	app.merge = bench_merge;
	if (events != NULL)
		unlink(events);
	if (journal != NULL)
		unlink(journal);
	MPI_Barrier(MPI_COMM_WORLD);
	rc = grt_run(MPI_COMM_WORLD, &app, &cfg, &rep);
	if (events != NULL && rep.is_master) {
		struct stat sb;

		if (stat(events, &sb) == 0)
			events_bytes = (long long)sb.st_size;
		events_lines = file_lines(events);
		unlink(events);
	}
	if (journal != NULL && rep.is_master) {
		struct stat sb;

		if (stat(journal, &sb) == 0)
			journal_bytes = (long long)sb.st_size;
		unlink(journal);
	}
	if (rc != GRT_OK) {
		fprintf(stderr, "bench-grt: rank %d: grt_run: %s\n", rep.rank, grt_strerror(rc));
		return -1;
	}
	if (!rep.is_master)
		return 0;
	if (merged != n || rep.events_lost || rep.journal_lost || rep.resumed != 0) {
		fprintf(stderr, "bench-grt: %lld of %lld units merged%s%s%s\n",
		    (long long)merged, (long long)n, rep.events_lost ? ", events lost" : "",
		    rep.journal_lost ? ", journal lost" : "",
		    rep.resumed != 0 ? ", resumed from an old journal" : "");
		return -1;
	}
	return (double)n / rep.makespan;
}

static int
cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(const double *v, int n)
{
	double s[TRIALS];

	memcpy(s, v, (size_t)n * sizeof *v);
	qsort(s, (size_t)n, sizeof *s, cmp_dbl);
	return s[n / 2];
}

/* A row; ratio < 0: none (the baseline row). */
static void
row(const char *what, double value, const char *base, double baseval, double ratio,
    double goal)
{
	char b[64] = "-", r[32] = "-", g[32] = "-";

	if (ratio >= 0) {
		snprintf(b, sizeof b, "%s %.0f/s", base, baseval);
		snprintf(r, sizeof r, "%.2f", ratio);
		snprintf(g, sizeof g, ">= %.1f", goal);
	}
	printf("| libgrt | %s | %.0f/s | %s | %s | %s |\n", what, value, b, r, g);
	if (ratio >= 0 && ratio < goal)
		printf("# %s: ratio %.2f misses the goal %.1f\n", what, ratio, goal);
}

/* The runs of one trial, and the ratios of its own. */
struct trials {
	double raw[TRIALS], off[TRIALS], on[TRIALS], one[TRIALS], jon[TRIALS];
	double r_off[TRIALS], r_on[TRIALS], r_one[TRIALS], r_jon[TRIALS];
};

static void
report(const char *dir, double secs, int64_t n, const struct trials *t)
{
	const double *raw = t->raw, *off = t->off, *on = t->on, *one = t->one;
	const double *r_off = t->r_off, *r_on = t->r_on, *r_one = t->r_one;
	double append = -1, a, m_off = median(off, TRIALS), m_on = median(on, TRIALS);
	double m_jon = median(t->jon, TRIALS), batch, ms, lo, hi;
	int i;

	for (i = 0; i < 3; i++)
		if ((a = bench_append(dir, events_bytes)) >= 0 && (append < 0 || a < append))
			append = a;
	row("raw MPI request/response, 2 ranks, blocking Send/Recv", median(raw, TRIALS), "", 0,
	    -1, 0);
	row("chunk rate, pss, empty compute, events off", m_off, "raw", median(raw, TRIALS),
	    median(r_off, TRIALS), 0.8);
	row("chunk rate, pss, empty compute, events off, no prefetching", median(one, TRIALS),
	    "raw", median(raw, TRIALS), median(r_one, TRIALS), 0.5);
	row("chunk rate, pss, empty compute, chunk events on", m_on, "events off", m_off,
	    median(r_on, TRIALS), 0.95);
	if (events_lines > 0)
		printf("| libgrt | event stream at the events-on median rate: records/s (MB/s; "
		    "bytes a record); the master's cost of writing, ns a chunk | %.0f/s (%.1f "
		    "MB/s; %.0f B); %.0f ns | - | - | - |\n", (double)events_lines / (double)n *
		    m_on, (double)events_bytes / (double)n * m_on / 1e6,
		    (double)events_bytes / (double)events_lines, 1e9 / m_on - 1e9 / m_off);
	row("chunk rate, pss, empty compute, journal on", m_jon, "events off", m_off,
	    median(t->r_jon, TRIALS), 0.9);
	printf("# %d trials of raw, events off, events on, journal on, no prefetching (%.2f s "
	    "each at the raw rate); ratios are the median of the trials' own\n", TRIALS, secs);
	for (i = 0; i < TRIALS; i++)
		printf("#   trial %d: raw %.0f/s, off %.0f/s (%.2f of raw), on %.0f/s (%.2f of "
		    "off), journal %.0f/s (%.2f of off), no prefetching %.0f/s (%.2f of raw)\n",
		    i + 1, raw[i], off[i], r_off[i], on[i], r_on[i], t->jon[i], t->r_jon[i],
		    one[i], r_one[i]);
	if (journal_bytes > 0) {
		/* what one group commit writes at the median rate: JOURNAL_PERIOD = 0.1 s */
		batch = (double)journal_bytes / ((double)n / m_jon) * 0.1;
		printf("# journal: %.1f bytes per chunk (%.2f MB for the last run's %lld chunks, "
		    "%.1f MB/s at the median rate); it costs %.0f ns per chunk at the medians\n",
		    (double)journal_bytes / (double)n, journal_bytes / 1e6, (long long)n,
		    journal_bytes / 1e6 * m_jon / (double)n, 1e9 / m_jon - 1e9 / m_off);
		if ((ms = bench_sync(dir, (long long)batch, &lo, &hi)) >= 0)
			printf("# journal: writing one 0.1 s batch (%.0f KB) and fdatasync on this "
			    "disk: %.2f ms median (%.2f..%.2f) of 5\n", batch / 1024, ms, lo, hi);
	}
	if (append >= 0 && events_bytes > 0)
		printf("# chunk events cost %.0f ns per chunk at the medians (%.0f bytes each); "
		    "appending the last run's %.1f MB to a new file in the same directory alone "
		    "costs %.0f ns per chunk (%.0f MB/s): the kernel's page-cache allocation, the "
		    "floor of any writer on this machine\n", 1e9 / m_on - 1e9 / m_off,
		    (double)events_bytes / (double)n, events_bytes / 1e6,
		    append / (double)n * 1e9, events_bytes / 1e6 / append);
	fflush(stdout);
}

int
main(int argc, char **argv)
{
	static struct trials t;
	double secs = 0.4;
	char events[4096], journal[4096];
	int64_t n = 0;
	int rank, size, i;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc < 2 || size != 2) {
		if (rank == 0)
			fprintf(stderr, "usage: mpiexec -n 2 bench-grt DIR [SECONDS [off|on|journal "
			    "UNITS]]\n");
		MPI_Finalize();
		return 2;
	}
	if (argc > 2 && (secs = atof(argv[2])) <= 0)
		secs = 0.4;
	snprintf(events, sizeof events, "%s/events.jsonl", argv[1]);
	snprintf(journal, sizeof journal, "%s/journal", argv[1]);
	if (argc > 4) {
		int jrn = strcmp(argv[3], "journal") == 0;
		double r = bench_grt(atoll(argv[4]), strcmp(argv[3], "on") == 0 ? events : NULL,
		    jrn ? journal : NULL, GRT_PREFETCH_AUTO);

		if (rank == 0)
			printf("# libgrt pss, %s %s, %s chunks: %.0f/s\n", jrn ? "journal" : "events",
			    jrn ? "on" : argv[3], argv[4], r);
		MPI_Finalize();
		return r < 0;
	}

	for (i = 0; i < TRIALS; i++) {
		int off_first = i % 2 == 0;

		t.raw[i] = bench_raw(rank, secs);
		/* as many chunks as raw round trips in secs: a run lasts secs at 1.0 */
		if (rank == 0)
			n = (int64_t)(t.raw[i] * secs);
		MPI_Bcast(&n, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
		/* off, events on, journal on; the next trial journal on, events on, off */
		if ((off_first && (t.off[i] = bench_grt(n, NULL, NULL, GRT_PREFETCH_AUTO)) < 0) ||
		    (!off_first &&
		    (t.jon[i] = bench_grt(n, NULL, journal, GRT_PREFETCH_AUTO)) < 0) ||
		    (t.on[i] = bench_grt(n, events, NULL, GRT_PREFETCH_AUTO)) < 0 ||
		    (off_first &&
		    (t.jon[i] = bench_grt(n, NULL, journal, GRT_PREFETCH_AUTO)) < 0) ||
		    (!off_first && (t.off[i] = bench_grt(n, NULL, NULL, GRT_PREFETCH_AUTO)) < 0) ||
		    (t.one[i] = bench_grt(n, NULL, NULL, GRT_PREFETCH_OFF)) < 0) {
			MPI_Abort(MPI_COMM_WORLD, 1);
			return 1;
		}
		if (rank == 0) {
			t.r_off[i] = t.off[i] / t.raw[i];
			t.r_on[i] = t.on[i] / t.off[i];
			t.r_jon[i] = t.jon[i] / t.off[i];
			t.r_one[i] = t.one[i] / t.raw[i];
		}
	}
	if (rank == 0)
		report(argv[1], secs, n, &t);
	MPI_Finalize();
	return 0;
}
