/*
 * journal-torture — every way a crash or a bad disk can leave the master's journal, and
 * a resume from each (runtime/grt-journal*.c, grt-resume.c; tests/runtime/test-journal.sh).
 *
 * Under mpiexec -n 3 the ranks first make a real journal: grt_run over MPI_COMM_WORLD with
 * gss, --units x --rounds, a result of 8 bytes a unit and a state chained across rounds:
 * the value of unit u in round j hashes round j's seed, and the next seed hashes a fold of
 * every merged value, so a merge lost, doubled, or replayed in the wrong round changes the
 * final seed. Then rank 0 alone resumes on MPI_COMM_SELF (it computes what is missing
 * itself), each time from a fresh copy of that journal and a fresh application state:
 *   1. truncated at every byte offset from 0 to its length: rc GRT_OK, the right final
 *      seed, exactly the units of the whole records before the cut resumed, and computed +
 *      resumed == units x rounds;
 *   2. with one byte of a record flipped (xor 0xff), every byte of every record (--sample:
 *      8 per record, over its head, body and payload): either GRT_OK with the right seed
 *      and units, or GRT_EJOURNAL with rep.why naming the journal;
 *   3. the same for every byte of the file's header.
 * Anything else (a wrong seed with GRT_OK, another code, a crash) fails. One TAP line per
 * class, with its counts; exit status 1 when one failed. The other ranks wait in
 * grt_end()'s barrier meanwhile.
 *
 * usage: journal-torture [--dir DIR] [--units N] [--rounds R] [--sample]
 *	(default: a new directory under /dev/shm, removed at the end: fdatasync is cheap there)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include <grt/grt.h>

#include "common/clock.h"
#include "common/file.h"
#include "runtime/journal/grt-crc.h"
#include "runtime/journal/grt-journal-format.h"
#include "tests/runtime/mpi/check-hash.h"
#include "tests/tap.h"

#define SEED0		0x6a726e2d746f7274ULL	/* "jrn-tort" */
#define DIAG_MAX	5			/* failures shown per class */
#define SAMPLE_BYTES	8			/* flips per record with --sample */

/* The application: its master's state is what a resume must rebuild. */
struct chain {
	uint64_t seed;		/* of the round being merged */
	uint64_t fold;		/* of its merged values */
	int64_t merged;		/* its units merged */
	int round;		/* from 1 */
	int64_t computed;	/* units this process computed */
	int bad;		/* a callback saw a malformed payload */
};

/* One record of the journal, as the format walk found it. */
struct record {
	size_t off;
	size_t size;		/* head, body and payload */
	int kind;
	int64_t count;		/* units merged (0 for a round's end) */
};

struct torture {
	int64_t units;
	int rounds;
	int sample;
	char dir[512];
	int own_dir;		/* dir was made here: remove it */
	char journal[540];	/* the real run's journal */
	char copy[540];		/* what each resume starts from */
	unsigned char *jb;	/* the journal's bytes */
	size_t len;
	struct record *rec;
	size_t nrec;
	uint64_t want;		/* the final seed */
	struct grt_config cfg;	/* the resumes' */
};

/* What one resume gave. */
struct outcome {
	int rc;
	uint64_t seed;
	int rounds_done;
	int bad;
	int64_t computed;
	int64_t resumed;
	int64_t units_done;
	char why[600];
};

/* A class of resumes: its counts and its first failures. */
struct tally {
	long runs;
	long right;		/* GRT_OK with the right seed and units */
	long refused;		/* GRT_EJOURNAL naming the journal */
	long dropped;		/* right, but good records after the damage were recomputed */
	long failed;
	int shown;
};

/* A merged value's share of the round's fold: it depends on its unit and round. */
static uint64_t
fold_term(uint64_t v, int64_t u, int round)
{
	return mix(v + (uint64_t)round) * (2 * (uint64_t)u + 1);
}

static uint64_t
next_seed(uint64_t seed, uint64_t fold, int64_t merged, int round)
{
	return mix(seed ^ fold ^ (uint64_t)merged ^ ((uint64_t)round << 56));
}

/* The chain computed in one pass: the seed a run must end with. */
static uint64_t
chain_expected(int64_t units, int rounds)
{
	uint64_t seed = SEED0, fold;
	int64_t u;
	int j;

	for (j = 1; j <= rounds; j++) {
		fold = 0;
		for (u = 0; u < units; u++)
			fold += fold_term(unit_value(seed, u), u, j);
		seed = next_seed(seed, fold, units, j);
	}
	return seed;
}

static int
chain_pack(void *ctx, int round, int64_t start, int64_t count, grt_buf *in)
{
	struct chain *c = ctx;

	return grt_buf_append(in, &c->seed, sizeof c->seed) == GRT_OK ? 0 : -1;
}

static int
chain_compute(void *ctx, int round, int64_t start, int64_t count, const void *in,
    size_t inlen, grt_buf *out)
{
	struct chain *c = ctx;
	uint64_t seed, v;
	int64_t i;

	if (inlen != sizeof seed)
		return -1;
	memcpy(&seed, in, sizeof seed);
	for (i = 0; i < count; i++) {
		v = unit_value(seed, start + i);
		if (grt_buf_append(out, &v, sizeof v) != GRT_OK)
			return -1;
	}
	c->computed += count;
	return 0;
}

/* No check of its own beyond the payload's size: a wrong merge must show in the seed. */
static int
chain_merge(void *ctx, int round, int64_t start, int64_t count, const void *res,
    size_t reslen)
{
	struct chain *c = ctx;
	const unsigned char *r = res;
	uint64_t v;
	int64_t i;

	if (count < 0 || reslen != (size_t)count * 8) {
		c->bad = 1;
		return -1;
	}
	for (i = 0; i < count; i++) {
		memcpy(&v, r + i * 8, 8);
		c->fold += fold_term(v, start + i, round);
	}
	c->merged += count;
	return 0;
}

static int
chain_round_done(void *ctx, int round)
{
	struct chain *c = ctx;

	c->seed = next_seed(c->seed, c->fold, c->merged, round);
	c->fold = 0;
	c->merged = 0;
	c->round++;
	return 0;
}

static void
chain_app(struct grt_app *app, struct chain *c, int64_t units, int rounds)
{
	memset(c, 0, sizeof *c);
	c->seed = SEED0;
	c->round = 1;
	memset(app, 0, sizeof *app);
	app->units = units;
	app->rounds = rounds;
	app->ctx = c;
	app->pack = chain_pack;
	app->compute = chain_compute;
	app->merge = chain_merge;
	app->round_done = chain_round_done;
}

enum fault { FAULT_NONE, FAULT_REVERSED, FAULT_DOUBLED, FAULT_LOST, FAULT_ROUND };

/*
 * The callbacks driven by hand, a unit a chunk, with one fault at unit 7 of round 2: the
 * final seed. Merging in another order must not change it; any fault must.
 */
static uint64_t
chain_drive(int64_t units, int rounds, enum fault fault)
{
	grt_buf in = { NULL, 0, 0 }, out = { NULL, 0, 0 };
	struct grt_app app;
	struct chain c;
	int64_t i, u;
	int j, hit;

	chain_app(&app, &c, units, rounds);
	for (j = 1; j <= rounds; j++) {
		for (i = 0; i < units; i++) {
			u = fault == FAULT_REVERSED ? units - 1 - i : i;
			hit = j == 2 && u == 7;
			in.len = out.len = 0;
			chain_pack(&c, j, u, 1, &in);
			chain_compute(&c, j, u, 1, in.data, in.len, &out);
			if (!(hit && fault == FAULT_LOST))
				chain_merge(&c, hit && fault == FAULT_ROUND ? j + 1 : j, u, 1,
				    out.data, out.len);
			if (hit && fault == FAULT_DOUBLED)
				chain_merge(&c, j, u, 1, out.data, out.len);
		}
		chain_round_done(&c, j);
	}
	grt_buf_free(&in);
	grt_buf_free(&out);
	return c.seed;
}

static int
chain_self_test(const struct torture *t)
{
	int64_t n = t->units < 8 ? 8 : t->units;
	int r = t->rounds < 2 ? 2 : t->rounds;
	uint64_t want = chain_expected(n, r);

	return ok(chain_drive(n, r, FAULT_NONE) == want &&
	    chain_drive(n, r, FAULT_REVERSED) == want &&
	    chain_drive(n, r, FAULT_DOUBLED) != want && chain_drive(n, r, FAULT_LOST) != want &&
	    chain_drive(n, r, FAULT_ROUND) != want, "the chain: merges in any order give "
	    "the same seed; a doubled, lost or misplaced merge another");
}

/* ---------------------------------------------------------------- the journal's records */

/* Walk the records after the header; 0 when they end exactly at the file's end. */
static int
journal_walk(struct torture *t)
{
	struct jrn_head h;
	struct jrn_body b;
	size_t off = sizeof(struct jrn_file), cap = 0;
	struct record *r;

	t->nrec = 0;
	while (t->len - off >= sizeof h + sizeof b) {
		memcpy(&h, t->jb + off, sizeof h);
		if (h.len < sizeof b || h.len > t->len - off - sizeof h ||
		    grt_crc32c(0, t->jb + off + sizeof h, h.len) != h.crc)
			return -1;
		memcpy(&b, t->jb + off + sizeof h, sizeof b);
		if (t->nrec == cap) {
			cap = cap ? cap * 2 : 64;
			if ((r = realloc(t->rec, cap * sizeof *r)) == NULL)
				return -1;
			t->rec = r;
		}
		r = &t->rec[t->nrec++];
		r->off = off;
		r->size = sizeof h + h.len;
		r->kind = b.kind;
		r->count = b.kind == JRN_MERGE ? b.count : 0;
		off += r->size;
	}
	return off == t->len ? 0 : -1;
}

/* 1 when every round's merges add up to the units, each round ends, in order. */
static int
journal_tiles(const struct torture *t)
{
	int64_t merged = 0;
	int ends = 0;
	size_t i;

	for (i = 0; i < t->nrec; i++) {
		if (t->rec[i].kind == JRN_ROUND) {
			if (merged != t->units)
				return 0;
			merged = 0;
			ends++;
		} else
			merged += t->rec[i].count;
	}
	return ends == t->rounds && merged == 0;
}

/* Units in the whole records of the first len bytes: what a resume from them replays. */
static int64_t
units_before(const struct torture *t, size_t len)
{
	int64_t n = 0;
	size_t i;

	for (i = 0; i < t->nrec && t->rec[i].off + t->rec[i].size <= len; i++)
		n += t->rec[i].count;
	return n;
}

/* ---------------------------------------------------------------- resumes */

/* Resume from the journal t->copy as it is, on MPI_COMM_SELF with a fresh state. */
static void
resume_run(struct torture *t, struct outcome *o)
{
	struct grt_report rep;
	struct grt_app app;
	struct chain c;

	memset(o, 0, sizeof *o);
	chain_app(&app, &c, t->units, t->rounds);
	o->rc = grt_run(MPI_COMM_SELF, &app, &t->cfg, &rep);
	o->seed = c.seed;
	o->rounds_done = c.round - 1;
	o->bad = c.bad;
	o->computed = c.computed;
	o->resumed = rep.resumed;
	o->units_done = rep.units_done;
	snprintf(o->why, sizeof o->why, "%s", grt_report_error(o->rc, &rep));
}

/* Resume from len bytes at p, copied to t->copy. */
static void
resume_from(struct torture *t, const unsigned char *p, size_t len, struct outcome *o)
{
	if (file_write(t->copy, p, len) != 0) {
		memset(o, 0, sizeof *o);
		o->rc = GRT_EIO;
		snprintf(o->why, sizeof o->why, "cannot write %s", t->copy);
		return;
	}
	resume_run(t, o);
}

/* GRT_OK with the right seed, every round done, and the units accounted for. */
static int
outcome_right(const struct torture *t, const struct outcome *o)
{
	int64_t all = t->units * t->rounds;

	return o->rc == GRT_OK && !o->bad && o->seed == t->want &&
	    o->rounds_done == t->rounds && o->computed + o->resumed == all &&
	    o->units_done == all;
}

static int
outcome_refused(const struct torture *t, const struct outcome *o)
{
	return o->rc == GRT_EJOURNAL && strstr(o->why, t->copy) != NULL;
}

static void
tally_fail(struct tally *ty, const char *what, const struct outcome *o)
{
	ty->failed++;
	if (ty->shown++ >= DIAG_MAX)
		return;
	printf("#   %s: rc %d (%s), seed %016llx, rounds %d, computed %lld, resumed %lld, "
	    "units_done %lld\n", what, o->rc, o->why, (unsigned long long)o->seed,
	    o->rounds_done, (long long)o->computed, (long long)o->resumed,
	    (long long)o->units_done);
}

/*
 * Truncated at every offset: always right, with exactly the whole records resumed; and
 * the journal that resume leaves holds the whole run: resumed again, nothing is computed.
 */
static int
torture_truncate(struct torture *t)
{
	struct tally ty;
	struct outcome o;
	char what[80];
	size_t off;
	long whole = 0;
	double t0 = clock_mono();

	memset(&ty, 0, sizeof ty);
	for (off = 0; off <= t->len; off++) {
		resume_from(t, t->jb, off, &o);
		ty.runs++;
		if (!outcome_right(t, &o) || o.resumed != units_before(t, off)) {
			snprintf(what, sizeof what, "cut at byte %zu (want %lld resumed)", off,
			    (long long)units_before(t, off));
			tally_fail(&ty, what, &o);
			continue;
		}
		ty.right++;
		resume_run(t, &o);
		if (outcome_right(t, &o) && o.computed == 0) {
			whole++;
			continue;
		}
		snprintf(what, sizeof what, "cut at byte %zu, resumed, then resumed again", off);
		tally_fail(&ty, what, &o);
	}
	return ok(ty.failed == 0, "truncated at each of %ld offsets: %ld correct, %ld wrong; "
	    "%ld journals so completed resume with nothing to compute (%.1f s)", ty.runs,
	    ty.right, ty.failed, whole, clock_mono() - t0);
}

/* Flip byte off and resume; r is the record it belongs to (NULL: the header). */
static void
flip_one(struct torture *t, struct tally *ty, size_t off, const struct record *r)
{
	struct outcome o;
	char what[96];
	int64_t whole = units_before(t, t->len);

	t->jb[off] ^= 0xff;
	resume_from(t, t->jb, t->len, &o);
	t->jb[off] ^= 0xff;
	ty->runs++;
	if (outcome_right(t, &o)) {
		ty->right++;
		if (r != NULL && o.resumed < whole - r->count)
			ty->dropped++;
	} else if (outcome_refused(t, &o)) {
		ty->refused++;
	} else {
		snprintf(what, sizeof what, "byte %zu flipped (record at byte %zu)", off,
		    r != NULL ? r->off : 0);
		tally_fail(ty, what, &o);
	}
}

/* The bytes of r to flip: all, or SAMPLE_BYTES spread over head, body and payload. */
static void
flip_record(struct torture *t, struct tally *ty, const struct record *r)
{
	static const size_t fixed[] = { 0, 5, 8, 12 };
	size_t i, nspread = SAMPLE_BYTES - 4;

	if (!t->sample || r->size <= SAMPLE_BYTES * 2) {
		for (i = 0; i < r->size; i++)
			flip_one(t, ty, r->off + i, r);
		return;
	}
	/* the head's length and checksum, the body's kind and round, then evenly from the
	   body's start to the record's last byte */
	for (i = 0; i < 4; i++)
		flip_one(t, ty, r->off + fixed[i], r);
	for (i = 0; i < nspread; i++)
		flip_one(t, ty, r->off + 16 + i * (r->size - 17) / (nspread - 1), r);
}

static int
torture_flip_records(struct torture *t)
{
	struct tally ty;
	double t0 = clock_mono();
	size_t i;

	memset(&ty, 0, sizeof ty);
	for (i = 0; i < t->nrec; i++)
		flip_record(t, &ty, &t->rec[i]);
	return ok(ty.failed == 0, "flipped %ld record bytes (%s of %zu records): %ld resumed "
	    "right (%ld of them recomputing good records after the damage), %ld refused with "
	    "the journal named, %ld wrong (%.1f s)", ty.runs, t->sample ? "a sample" : "every "
	    "byte", t->nrec, ty.right, ty.dropped, ty.refused, ty.failed, clock_mono() - t0);
}

static int
torture_flip_header(struct torture *t)
{
	struct tally ty;
	size_t i;

	memset(&ty, 0, sizeof ty);
	for (i = 0; i < sizeof(struct jrn_file); i++)
		flip_one(t, &ty, i, NULL);
	return ok(ty.failed == 0 && ty.refused == ty.runs, "flipped each of the header's %ld "
	    "bytes: %ld refused with the journal named, %ld resumed, %ld wrong", ty.runs,
	    ty.refused, ty.right, ty.failed);
}

/* ---------------------------------------------------------------- the real run */

static int
real_run(struct torture *t, MPI_Comm comm, int size)
{
	struct grt_config cfg = t->cfg;
	struct grt_report rep;
	struct grt_app app;
	struct chain c;
	int rc;

	cfg.journal_path = t->journal;
	chain_app(&app, &c, t->units, t->rounds);
	rc = grt_run(comm, &app, &cfg, &rep);
	if (!rep.is_master)
		return rc;
	if (!ok(rc == GRT_OK && c.seed == t->want && rep.resumed == 0 && !rep.journal_lost,
	    "real run on %d ranks, gss, %lld units x %d rounds: the right seed, journaled",
	    size, (long long)t->units, t->rounds))
		printf("#   rc %d (%s), seed %016llx, want %016llx\n", rc,
		    grt_report_error(rc, &rep), (unsigned long long)c.seed,
		    (unsigned long long)t->want);
	return rc;
}

/* The real journal read back and walked: its records tile every round. */
static int
journal_load(struct torture *t)
{
	char *bytes;
	int walked;

	if (file_read(t->journal, SIZE_MAX / 2, &bytes, &t->len) != 0) {
		ok(0, "read the journal %s", t->journal);
		return -1;
	}
	t->jb = (unsigned char *)bytes;
	walked = journal_walk(t) == 0;
	if (!ok(walked && journal_tiles(t), "the journal: %zu bytes, %zu "
	    "records that end at its end, each round's merges tile its %lld units",
	    t->len, t->nrec, (long long)t->units))
		return -1;
	return 0;
}

static int
parse_args(struct torture *t, int argc, char **argv)
{
	int i;

	t->units = 300;
	t->rounds = 3;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--sample") == 0)
			t->sample = 1;
		else if (i + 1 < argc && strcmp(argv[i], "--dir") == 0)
			snprintf(t->dir, sizeof t->dir, "%s", argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--units") == 0)
			t->units = atoll(argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--rounds") == 0)
			t->rounds = atoi(argv[++i]);
		else
			return -1;
	}
	return t->units >= 1 && t->rounds >= 1 ? 0 : -1;
}

/* Rank 0: the directory and the configuration every run shares. */
static int
torture_setup(struct torture *t)
{
	char why[160];

	if (t->dir[0] == '\0') {
		snprintf(t->dir, sizeof t->dir, "/dev/shm/journal-torture.XXXXXX");
		if (mkdtemp(t->dir) == NULL) {
			snprintf(t->dir, sizeof t->dir, "/tmp/journal-torture.XXXXXX");
			if (mkdtemp(t->dir) == NULL)
				return -1;
		}
		t->own_dir = 1;
	}
	snprintf(t->journal, sizeof t->journal, "%s/journal", t->dir);
	snprintf(t->copy, sizeof t->copy, "%s/resumed", t->dir);
	unlink(t->journal);
	if (grt_config_init(&t->cfg, "gss", why, sizeof why) != GRT_OK) {
		fprintf(stderr, "journal-torture: %s\n", why);
		return -1;
	}
	t->cfg.events_path = NULL;
	t->cfg.rankmap_path = NULL;
	t->cfg.master_computes = 0;
	t->cfg.journal_path = t->copy;
	t->want = chain_expected(t->units, t->rounds);
	return 0;
}

static void
torture_cleanup(struct torture *t)
{
	unlink(t->journal);
	unlink(t->copy);
	if (t->own_dir)
		rmdir(t->dir);
	free(t->jb);
	free(t->rec);
}

/*
 * Rank 0 ends with its own barrier and MPI_Finalize, not grt_end(): the resumes refused
 * on MPI_COMM_SELF set grt_end's "a run failed" flag, which would skip the barrier the
 * other ranks wait in. Its barrier is the one they call in grt_end.
 */
static int
master_end(int failed)
{
	MPI_Request req;

	fflush(NULL);
	/* non-blocking: a blocking barrier would not match grt_end's MPI_Ibarrier */
	MPI_Ibarrier(MPI_COMM_WORLD, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return failed ? 1 : 0;
}

int
main(int argc, char **argv)
{
	struct torture t;
	int rank, size, rc, bad;
	char why[160];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	memset(&t, 0, sizeof t);
	bad = parse_args(&t, argc, argv) != 0;
	if (rank == 0 && bad)
		fprintf(stderr, "usage: journal-torture [--dir DIR] [--units N] [--rounds R] "
		    "[--sample]\n");
	if (rank == 0 && !bad && torture_setup(&t) != 0) {
		fprintf(stderr, "journal-torture: no directory for the journal\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (bad) {
		MPI_Finalize();
		return 2;
	}
	if (rank != 0) {
		grt_config_init(&t.cfg, "gss", why, sizeof why);
		t.cfg.journal_path = NULL;
		t.cfg.events_path = NULL;
		t.cfg.master_computes = 0;
		rc = real_run(&t, MPI_COMM_WORLD, size);
		return grt_end(rc);
	}
	chain_self_test(&t);
	if (real_run(&t, MPI_COMM_WORLD, size) == GRT_OK && journal_load(&t) == 0) {
		torture_truncate(&t);
		torture_flip_records(&t);
		torture_flip_header(&t);
	}
	torture_cleanup(&t);
	return master_end(tap_failures > 0);
}
