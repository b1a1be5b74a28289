/*
 * grt-check — the MPI test program of libgrt: every unit of every round must come back
 * merged exactly once with the right value, and every payload must arrive intact.
 *
 * Unit u of round j has the value H(seed_j, u). seed_1 is fixed; seed_{j+1} hashes seed_j
 * with a fold of all of round j's merged values, so a round that starts before the last
 * merge of the previous one, or a lost or doubled merge, changes every later value. The
 * master packs per chunk a header (round, range, seed) and --payload deterministic bytes;
 * the worker checks them byte for byte and answers with one 64-bit value per unit plus
 * --result deterministic bytes, which the master checks in merge. At the end the master
 * recomputes the whole chain sequentially and compares.
 *
 * --die-rank R --die-after-chunks K --die-how exit|kill|hang: rank R (all: every worker),
 * when handed its (K+1)-th chunk, calls _exit(3), raises SIGKILL on itself, or sleeps
 * forever.
 * --corrupt input|value|result damages one byte of the chunk that starts at unit 0 of
 * round 1 (its packed input, its first value, or its result tail): the checks above must
 * then fail, which is how the tests know that they can.
 *
 * usage: grt-check [--units N] [--rounds R] [--scheme S] [--payload BYTES]
 *                  [--result BYTES] [--work-us U] [--work-cpu-us U]
 *                  [--slow RANK:FACTOR,...]
 *                  [--master-computes] [--die-rank R] [--die-after-chunks K]
 *                  [--die-how exit|kill|hang] [--corrupt input|value|result]
 * --work-us U busies each unit for U us of the clock; --work-cpu-us U for U us of the rank's
 * CPU time instead, so that a rank sharing its core, or stopped now and then, takes longer
 * as a real computation does (tests/runtime/test-silent.sh).
 * The GRT_* environment applies (grt_config_from_env); options override it.
 * The master prints one line "grt-check: ok: ..." (fields: scheme, ranks, N, rounds,
 * merged, checksum, failed, dropped, requeued, makespan), or "grt-check: FAILED: why".
 * Exit status: 0 ok, 1 wrong result or runtime error, 2 usage.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include <grt/grt.h>

#include "tests/runtime/mpi/check-hash.h"

#define SEED0		0x6772742d636865ULL	/* "grt-che" */
#define PAYLOAD_MAGIC	0x67727450u		/* "grtP" */

enum die_how { DIE_EXIT, DIE_KILL, DIE_HANG };
#define DIE_ALL		(-2)	/* --die-rank all: every worker */
enum corrupt { CORRUPT_NONE, CORRUPT_INPUT, CORRUPT_VALUE, CORRUPT_RESULT };

/* What the master packs in front of every chunk's payload. */
struct check_hdr {
	uint32_t magic;
	int32_t round;
	int64_t start;
	int64_t count;
	uint64_t seed;
	uint64_t nbytes;	/* deterministic bytes that follow */
};

struct check {
	int rank;
	int64_t n;
	int rounds;
	size_t payload;		/* input bytes per chunk after the header */
	size_t result;		/* result bytes per chunk after the values */
	long work_us;		/* busy time per unit, times slow */
	clockid_t work_clock;	/* of work_us: CLOCK_MONOTONIC, or the thread's CPU time */
	int slow;
	int die_rank;
	int die_after;
	enum die_how die_how;
	enum corrupt corrupt;
	int chunks;		/* chunks this rank was handed */
	grt_buf scratch;	/* expected bytes, for comparisons */

	/* master */
	int round;		/* the round being merged, from 1 */
	uint64_t seed;		/* its seed */
	unsigned char *seen;	/* merges per unit this round */
	uint64_t *val;		/* merged values this round */
	int64_t merged;		/* units merged over the run */
	int rounds_done;
	char why[256];		/* the first problem found */
};

/* n deterministic bytes from key (a payload or a result tail). */
static void
fill(unsigned char *p, size_t n, uint64_t key)
{
	uint64_t v;
	size_t i;

	for (i = 0; i < n; i += 8) {
		v = mix(key + i);
		memcpy(p + i, &v, n - i < 8 ? n - i : 8);
	}
}

static uint64_t
payload_key(uint64_t seed, int round, int64_t start)
{
	return mix(seed ^ ((uint64_t)round << 48) ^ (uint64_t)start);
}

static uint64_t
result_key(uint64_t seed, int64_t start, int64_t count)
{
	return mix(~seed ^ mix((uint64_t)start) ^ ((uint64_t)count << 32));
}

/* The fold of a round's values in unit order: seed of the next round. */
static uint64_t
next_seed(uint64_t seed, const uint64_t *val, int64_t n)
{
	uint64_t f = 0;
	int64_t u;

	for (u = 0; u < n; u++)
		f += val[u] * (2 * (uint64_t)u + 1);
	return mix(seed ^ f ^ (uint64_t)n);
}

/* Compare got with the deterministic bytes of key; the first difference in where. */
static int
bytes_differ(struct check *ck, const unsigned char *got, size_t n, uint64_t key, size_t *where)
{
	size_t i;

	if (grt_buf_reserve(&ck->scratch, n) != GRT_OK) {
		*where = 0;
		return 1;
	}
	fill(ck->scratch.data, n, key);
	if (memcmp(got, ck->scratch.data, n) == 0)
		return 0;
	for (i = 0; i < n && got[i] == ck->scratch.data[i]; i++)
		;
	*where = i;
	return 1;
}

static void
busy_wait_us(double us, clockid_t clock)
{
	struct timespec t0, t;
	double el;

	clock_gettime(clock, &t0);
	do {
		clock_gettime(clock, &t);
		el = (double)(t.tv_sec - t0.tv_sec) * 1e6 + (double)(t.tv_nsec - t0.tv_nsec) / 1e3;
	} while (el < us);
}

static void
check_die(struct check *ck)
{
	if ((ck->die_rank == DIE_ALL ? ck->rank == 0 : ck->rank != ck->die_rank) ||
	    ck->chunks++ < ck->die_after)
		return;
	fprintf(stderr, "grt-check: rank %d: dying (%s) after %d chunks, as asked\n", ck->rank,
	    ck->die_how == DIE_EXIT ? "exit" : ck->die_how == DIE_KILL ? "kill" : "hang",
	    ck->die_after);
	fflush(stderr);
	switch (ck->die_how) {
	case DIE_EXIT:
		_exit(3);
	case DIE_KILL:
		raise(SIGKILL);
		_exit(4);	/* not reached */
	case DIE_HANG:
		for (;;)
			sleep(1000);
	}
}

static int
check_pack(void *ctx, int round, int64_t start, int64_t count, grt_buf *in)
{
	struct check *ck = ctx;
	struct check_hdr h;
	size_t off;

	memset(&h, 0, sizeof h);
	h.magic = PAYLOAD_MAGIC;
	h.round = round;
	h.start = start;
	h.count = count;
	h.seed = ck->seed;
	h.nbytes = ck->payload;
	if (grt_buf_append(in, &h, sizeof h) != GRT_OK)
		return -1;
	off = in->len;
	if (grt_buf_reserve(in, off + ck->payload) != GRT_OK)
		return -1;
	fill(in->data + off, ck->payload, payload_key(ck->seed, round, start));
	in->len = off + ck->payload;
	if (ck->corrupt == CORRUPT_INPUT && round == 1 && start == 0 && ck->payload > 0)
		in->data[off + ck->payload / 2] ^= 0x20;
	return 0;
}

static int
check_compute(void *ctx, int round, int64_t start, int64_t count, const void *in,
    size_t inlen, grt_buf *out)
{
	struct check *ck = ctx;
	struct check_hdr h;
	size_t off, where;
	uint64_t v;
	int64_t i;

	check_die(ck);
	if (inlen < sizeof h) {
		fprintf(stderr, "grt-check: rank %d: chunk [%lld,+%lld) of round %d: input of "
		    "%zu bytes, shorter than its header\n", ck->rank, (long long)start,
		    (long long)count, round, inlen);
		return -1;
	}
	memcpy(&h, in, sizeof h);
	if (h.magic != PAYLOAD_MAGIC || h.round != round || h.start != start ||
	    h.count != count || h.nbytes != inlen - sizeof h) {
		fprintf(stderr, "grt-check: rank %d: chunk [%lld,+%lld) of round %d: header says "
		    "[%lld,+%lld) of round %d, %llu bytes (got %zu)\n", ck->rank,
		    (long long)start, (long long)count, round, (long long)h.start,
		    (long long)h.count, (int)h.round, (unsigned long long)h.nbytes,
		    inlen - sizeof h);
		return -1;
	}
	if (bytes_differ(ck, (const unsigned char *)in + sizeof h, inlen - sizeof h,
	    payload_key(h.seed, round, start), &where)) {
		fprintf(stderr, "grt-check: rank %d: chunk [%lld,+%lld) of round %d: input "
		    "payload differs at byte %zu of %zu\n", ck->rank, (long long)start,
		    (long long)count, round, where, inlen - sizeof h);
		return -1;
	}
	off = out->len;
	if (grt_buf_reserve(out, off + (size_t)count * 8 + ck->result) != GRT_OK)
		return -1;
	for (i = 0; i < count; i++) {
		v = unit_value(h.seed, start + i);
		memcpy(out->data + off + (size_t)i * 8, &v, 8);
	}
	fill(out->data + off + (size_t)count * 8, ck->result, result_key(h.seed, start, count));
	out->len = off + (size_t)count * 8 + ck->result;
	if (round == 1 && start == 0 && count > 0) {
		if (ck->corrupt == CORRUPT_VALUE)
			out->data[off + 3] ^= 0x01;
		else if (ck->corrupt == CORRUPT_RESULT && ck->result > 0)
			out->data[off + (size_t)count * 8 + ck->result - 1] ^= 0x80;
	}
	if (ck->work_us > 0)
		busy_wait_us((double)ck->work_us * ck->slow * (double)count, ck->work_clock);
	return 0;
}

static int
check_merge(void *ctx, int round, int64_t start, int64_t count, const void *res,
    size_t reslen)
{
	struct check *ck = ctx;
	const unsigned char *r = res;
	size_t where;
	uint64_t v;
	int64_t i;

	if (ck->why[0] != '\0')
		return -1;
	if (round != ck->round) {
		snprintf(ck->why, sizeof ck->why, "merge of [%lld,+%lld) for round %d while "
		    "round %d is open", (long long)start, (long long)count, round, ck->round);
		return -1;
	}
	if (start < 0 || count < 0 || start > ck->n || count > ck->n - start) {
		snprintf(ck->why, sizeof ck->why, "round %d: merge of [%lld,+%lld) outside "
		    "[0,%lld)", round, (long long)start, (long long)count, (long long)ck->n);
		return -1;
	}
	if (reslen != (size_t)count * 8 + ck->result) {
		snprintf(ck->why, sizeof ck->why, "round %d: result of [%lld,+%lld) has %zu "
		    "bytes, want %zu", round, (long long)start, (long long)count, reslen,
		    (size_t)count * 8 + ck->result);
		return -1;
	}
	for (i = 0; i < count; i++) {
		int64_t u = start + i;

		memcpy(&v, r + (size_t)i * 8, 8);
		if (ck->seen[u]++ != 0) {
			snprintf(ck->why, sizeof ck->why, "round %d: unit %lld merged twice "
			    "(second time in [%lld,+%lld))", round, (long long)u,
			    (long long)start, (long long)count);
			return -1;
		}
		if (v != unit_value(ck->seed, u)) {
			snprintf(ck->why, sizeof ck->why, "round %d: unit %lld has value %016llx, "
			    "want %016llx", round, (long long)u, (unsigned long long)v,
			    (unsigned long long)unit_value(ck->seed, u));
			return -1;
		}
		ck->val[u] = v;
	}
	if (bytes_differ(ck, r + (size_t)count * 8, ck->result,
	    result_key(ck->seed, start, count), &where)) {
		snprintf(ck->why, sizeof ck->why, "round %d: result payload of [%lld,+%lld) "
		    "differs at byte %zu of %zu", round, (long long)start, (long long)count,
		    where, ck->result);
		return -1;
	}
	ck->merged += count;
	return 0;
}

static int
check_round_done(void *ctx, int round)
{
	struct check *ck = ctx;
	int64_t u;

	if (ck->why[0] != '\0')
		return -1;
	if (round != ck->round) {
		snprintf(ck->why, sizeof ck->why, "round %d reported done while round %d is open",
		    round, ck->round);
		return -1;
	}
	for (u = 0; u < ck->n; u++) {
		if (ck->seen[u] != 1) {
			snprintf(ck->why, sizeof ck->why, "round %d done but unit %lld was merged "
			    "%d times", round, (long long)u, ck->seen[u]);
			return -1;
		}
	}
	ck->seed = next_seed(ck->seed, ck->val, ck->n);
	memset(ck->seen, 0, (size_t)ck->n);
	ck->round++;
	ck->rounds_done++;
	return 0;
}

/* The sequential computation of the whole chain: the final seed the run must reach. */
static uint64_t
check_expected(struct check *ck)
{
	uint64_t seed = SEED0;
	int64_t u;
	int j;

	for (j = 0; j < ck->rounds; j++) {
		for (u = 0; u < ck->n; u++)
			ck->val[u] = unit_value(seed, u);
		seed = next_seed(seed, ck->val, ck->n);
	}
	return seed;
}

static int
parse_size(const char *s, long long max, long long *out)
{
	char *end;
	long long v;

	if (s == NULL)
		return -1;
	v = strtoll(s, &end, 10);
	if (end == s || *end != '\0' || v < 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

static int
usage(int rank, const char *bad)
{
	if (rank == 0) {
		if (bad != NULL)
			fprintf(stderr, "grt-check: bad argument '%s'\n", bad);
		fprintf(stderr, "usage: grt-check [--units N] [--rounds R] [--scheme S] "
		    "[--payload BYTES] [--result BYTES] [--work-us U] [--work-cpu-us U] "
		    "[--slow RANK:FACTOR,...] "
		    "[--master-computes] [--die-rank R] [--die-after-chunks K] "
		    "[--die-how exit|kill|hang] [--corrupt input|value|result]\n");
	}
	MPI_Finalize();
	return 2;
}

int
main(int argc, char **argv)
{
	struct check ck;
	struct grt_config cfg;
	struct grt_report rep;
	struct grt_app app;
	const char *scheme = NULL, *slow = NULL;
	long long v;
	int rank, size, i, rc, master_computes = 0;
	char why[160];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	memset(&ck, 0, sizeof ck);
	ck.rank = rank;
	ck.n = 1000;
	ck.work_clock = CLOCK_MONOTONIC;
	ck.rounds = 1;
	ck.die_rank = -1;
	ck.round = 1;
	ck.seed = SEED0;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--master-computes") == 0) {
			master_computes = 1;
			continue;
		}
		if (val == NULL)
			return usage(rank, a);
		i++;
		if (strcmp(a, "--scheme") == 0)
			scheme = val;
		else if (strcmp(a, "--slow") == 0)
			slow = val;
		else if (strcmp(a, "--die-how") == 0) {
			if (strcmp(val, "exit") == 0)
				ck.die_how = DIE_EXIT;
			else if (strcmp(val, "kill") == 0)
				ck.die_how = DIE_KILL;
			else if (strcmp(val, "hang") == 0)
				ck.die_how = DIE_HANG;
			else
				return usage(rank, val);
		} else if (strcmp(a, "--corrupt") == 0) {
			if (strcmp(val, "input") == 0)
				ck.corrupt = CORRUPT_INPUT;
			else if (strcmp(val, "value") == 0)
				ck.corrupt = CORRUPT_VALUE;
			else if (strcmp(val, "result") == 0)
				ck.corrupt = CORRUPT_RESULT;
			else
				return usage(rank, val);
		} else if (strcmp(a, "--units") == 0 && parse_size(val, 1LL << 30, &v) == 0)
			ck.n = v;
		else if (strcmp(a, "--rounds") == 0 && parse_size(val, 100000, &v) == 0 && v >= 1)
			ck.rounds = (int)v;
		else if (strcmp(a, "--payload") == 0 && parse_size(val, 1LL << 30, &v) == 0)
			ck.payload = (size_t)v;
		else if (strcmp(a, "--result") == 0 && parse_size(val, 1LL << 30, &v) == 0)
			ck.result = (size_t)v;
		else if (strcmp(a, "--work-us") == 0 && parse_size(val, 10000000, &v) == 0)
			ck.work_us = (long)v;
		else if (strcmp(a, "--work-cpu-us") == 0 && parse_size(val, 10000000, &v) == 0) {
			ck.work_us = (long)v;
			ck.work_clock = CLOCK_THREAD_CPUTIME_ID;
		}
		else if (strcmp(a, "--die-rank") == 0 && val != NULL && strcmp(val, "all") == 0)
			ck.die_rank = DIE_ALL;
		else if (strcmp(a, "--die-rank") == 0 && parse_size(val, 1 << 20, &v) == 0)
			ck.die_rank = (int)v;
		else if (strcmp(a, "--die-after-chunks") == 0 &&
		    parse_size(val, 1 << 30, &v) == 0)
			ck.die_after = (int)v;
		else
			return usage(rank, a);
	}
	if ((ck.slow = grt_rank_factor(slow, rank)) < 1)
		return usage(rank, slow);
	if (grt_config_init(&cfg, scheme, why, sizeof why) != GRT_OK) {
		if (rank == 0)
			fprintf(stderr, "grt-check: %s\n", why);
		MPI_Finalize();
		return 2;
	}
	if (master_computes)
		cfg.master_computes = 1;
	if (rank == 0 && ((ck.seen = calloc((size_t)ck.n + 1, 1)) == NULL ||
	    (ck.val = calloc((size_t)ck.n + 1, sizeof *ck.val)) == NULL)) {
		fprintf(stderr, "grt-check: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}

	memset(&app, 0, sizeof app);
	app.units = ck.n;
	app.rounds = ck.rounds;
	app.ctx = &ck;
	app.compute = check_compute;
	app.pack = check_pack;
	app.merge = check_merge;
	app.round_done = check_round_done;
	rc = grt_run(MPI_COMM_WORLD, &app, &cfg, &rep);
	if (rep.is_master) {
		uint64_t want = check_expected(&ck);

		if (rc == GRT_OK && ck.why[0] == '\0') {
			if (ck.rounds_done != ck.rounds)
				snprintf(ck.why, sizeof ck.why, "%d of %d rounds done",
				    ck.rounds_done, ck.rounds);
			else if (ck.merged != ck.n * ck.rounds)
				snprintf(ck.why, sizeof ck.why, "%lld units merged, want %lld",
				    (long long)ck.merged, (long long)(ck.n * ck.rounds));
			else if (ck.seed != want)
				snprintf(ck.why, sizeof ck.why, "final checksum %016llx, the "
				    "sequential computation gives %016llx",
				    (unsigned long long)ck.seed, (unsigned long long)want);
			else if (rep.units_done != ck.n * ck.rounds)
				snprintf(ck.why, sizeof ck.why, "report: %lld units done, want "
				    "%lld", (long long)rep.units_done,
				    (long long)(ck.n * ck.rounds));
		}
		if (rc != GRT_OK || ck.why[0] != '\0') {
			printf("grt-check: FAILED: %s%s%s\n", grt_report_error(rc, &rep),
			    ck.why[0] != '\0' ? ": " : "", ck.why);
			if (rc == GRT_OK)
				rc = GRT_EAPP;
		} else
			printf("grt-check: ok: scheme %s, ranks %d, N %lld, rounds %d, merged %lld, "
			    "checksum %016llx, failed %d, dropped %d, requeued %lld, "
			    "makespan %.3f\n", grt_scheme_name(cfg.sched.scheme), size,
			    (long long)ck.n, ck.rounds, (long long)ck.merged,
			    (unsigned long long)ck.seed, rep.failed_ranks, rep.dropped_ranks,
			    (long long)rep.requeued, rep.makespan);
		if (rep.events_lost)
			fprintf(stderr, "grt-check: warning: the event log is incomplete\n");
		fflush(stdout);
	} else if (rc != GRT_OK)
		fprintf(stderr, "grt-check: rank %d: %s\n", rank, grt_strerror(rc));
	free(ck.seen);
	free(ck.val);
	grt_buf_free(&ck.scratch);
	return grt_end(rc);
}
