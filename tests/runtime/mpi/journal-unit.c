/*
 * journal-unit — the unit test of the master's journal (runtime/grt-journal*.c,
 * runtime/journal/grt-crc.c). It lives under tests/mpi because grt-journal.h includes grt.h and
 * so mpi.h, which the unit tests' compiler does not see; it makes no MPI call and runs
 * without mpiexec (tests/runtime/test-journal.sh).
 *
 * CRC-32C: the known vectors, and the instruction and the table agree on random lengths
 * and alignments. The journal: a fresh file gets its header; records written through
 * grt_journal_merge/round come back through replay as the same calls in the same order;
 * each rule a record can break (a unit merged twice, a round ended short, a round out of
 * order, another run's journal, a bad magic, a bad checksum or length) is GRT_EJOURNAL
 * with why naming the file and the byte, and leaves the file as it was; a torn tail
 * (zeros, a short record, a last record whose checksum fails) is cut, on disk too;
 * grt_replay_find on sample spans.
 *
 * usage: journal-unit [DIR]	(temporary files in a new directory under DIR, default /tmp)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file.h"
#include "runtime/journal/grt-crc.h"
#include "runtime/journal/grt-journal-format.h"
#include "runtime/journal/grt-journal.h"
#include "tests/tap.h"

#define CALLS_MAX	64

static char dir[512];

static const char *
path_of(const char *name)
{
	static char p[640];

	snprintf(p, sizeof p, "%s/%s", dir, name);
	return p;
}

/* ---------------------------------------------------------------- files */

static long long
file_size(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
}


/* The first n bytes of path into p (which holds cap); -1 when it cannot be read. */
static ssize_t
file_get(const char *path, void *p, size_t cap)
{
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0)
		return -1;
	n = read(fd, p, cap);
	close(fd);
	return n;
}

/* ---------------------------------------------------------------- journals by hand */

/* A journal's bytes, built record by record, as grt-journal-format.h lays them out. */
struct jbytes {
	unsigned char b[8192];
	size_t len;
};

static void
jb_raw(struct jbytes *j, const void *p, size_t n)
{
	if (j->len + n > sizeof j->b) {
		fprintf(stderr, "journal-unit: test journal too big\n");
		exit(2);
	}
	memcpy(j->b + j->len, p, n);
	j->len += n;
}

static void
jb_header(struct jbytes *j, const char *magic, int64_t units, int32_t rounds)
{
	struct jrn_file h;

	memset(&h, 0, sizeof h);
	memcpy(h.magic, magic, sizeof h.magic);
	h.units = units;
	h.rounds = rounds;
	h.crc = grt_crc32c(0, &h, offsetof(struct jrn_file, crc));
	j->len = 0;
	jb_raw(j, &h, sizeof h);
}

/* The deterministic result of units [start, start+count) of round: 8 bytes a unit. */
static void
result_fill(unsigned char *p, int round, int64_t start, int64_t count)
{
	uint64_t v;
	int64_t i;

	for (i = 0; i < count; i++) {
		v = ((uint64_t)round << 40) ^ (uint64_t)(start + i) * 0x9e3779b97f4a7c15ULL;
		memcpy(p + i * 8, &v, 8);
	}
}

/* Give the record at off a length of len (both copies, as a writer would). */
static void
jb_set_len(struct jbytes *j, size_t off, uint32_t len)
{
	uint32_t inv = ~len;

	memcpy(j->b + off, &len, sizeof len);
	memcpy(j->b + off + sizeof len, &inv, sizeof inv);
}

/* A record; returns its offset. Its payload is result_fill's for a merge. */
static size_t
jb_record(struct jbytes *j, int kind, int round, int64_t start, int64_t count)
{
	unsigned char res[1024];
	size_t off = j->len, reslen = kind == JRN_MERGE ? (size_t)count * 8 : 0;
	struct jrn_head h;
	struct jrn_body b;

	memset(&b, 0, sizeof b);
	b.kind = (uint8_t)kind;
	b.round = round;
	b.start = start;
	b.count = count;
	if (reslen > sizeof res)
		reslen = 0;
	result_fill(res, round, start, reslen / 8);
	h.len = (uint32_t)(sizeof b + reslen);
	h.len_inv = ~h.len;
	h.crc = grt_crc32c(grt_crc32c(0, &b, sizeof b), res, reslen);
	jb_raw(j, &h, sizeof h);
	jb_raw(j, &b, sizeof b);
	jb_raw(j, res, reslen);
	return off;
}

/* ---------------------------------------------------------------- counting callbacks */

struct call {
	int round;		/* merges: the round; round ends: -round */
	int64_t start;
	int64_t count;
	size_t reslen;
	uint32_t crc;		/* of the payload */
};

struct calls {
	struct call c[CALLS_MAX];
	int n;
	int fail_at;		/* the call that returns non-zero, from 1; 0: none */
};

static int
calls_add(struct calls *cs, int round, int64_t start, int64_t count, const void *res,
    size_t reslen)
{
	struct call *c;

	if (cs->n == CALLS_MAX)
		return -1;
	c = &cs->c[cs->n++];
	c->round = round;
	c->start = start;
	c->count = count;
	c->reslen = reslen;
	c->crc = grt_crc32c(0, res, reslen);
	return cs->n == cs->fail_at ? -1 : 0;
}

static int
count_merge(void *ctx, int round, int64_t start, int64_t count, const void *res,
    size_t reslen)
{
	return calls_add(ctx, round, start, count, res, reslen);
}

static int
count_round(void *ctx, int round)
{
	return calls_add(ctx, -round, 0, 0, NULL, 0);
}

static void
app_counting(struct grt_app *app, struct calls *cs, int64_t units, int rounds)
{
	memset(app, 0, sizeof *app);
	memset(cs, 0, sizeof *cs);
	app->units = units;
	app->rounds = rounds;
	app->ctx = cs;
	app->merge = count_merge;
	app->round_done = count_round;
}

static int
calls_equal(const struct calls *a, const struct calls *b)
{
	int i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (a->c[i].round != b->c[i].round || a->c[i].start != b->c[i].start ||
		    a->c[i].count != b->c[i].count || a->c[i].reslen != b->c[i].reslen ||
		    a->c[i].crc != b->c[i].crc)
			return 0;
	return 1;
}

/* Open path for app, replay, close: the open's code (why and *rp filled). */
static int
replay_file(const char *path, const struct grt_app *app, struct grt_replay *rp, char *why,
    size_t whylen)
{
	struct grt_journal j;
	int rc;

	why[0] = '\0';
	rc = grt_journal_open(&j, path, app, rp, why, whylen);
	if (rc == GRT_OK)
		grt_journal_close(&j);
	return rc;
}

/* 1 when why names path and "byte off" (no more digits after it). */
static int
why_names(const char *why, const char *path, size_t off)
{
	char at[48];
	const char *p;
	size_t n;

	n = (size_t)snprintf(at, sizeof at, "byte %zu", off);
	if (strstr(why, path) == NULL)
		return 0;
	for (p = why; (p = strstr(p, at)) != NULL; p++)
		if (p[n] < '0' || p[n] > '9')
			return 1;
	return 0;
}

/* ---------------------------------------------------------------- CRC-32C */

static void
test_crc_vectors(void)
{
	unsigned char zeros[32], ones[32], inc[32];
	int i;

	memset(zeros, 0, sizeof zeros);
	memset(ones, 0xff, sizeof ones);
	for (i = 0; i < 32; i++)
		inc[i] = (unsigned char)i;
	is_int(grt_crc32c(0, "123456789", 9), 0xe3069283u, "crc32c(\"123456789\")");
	is_int(grt_crc32c_table(0, "123456789", 9), 0xe3069283u,
	    "crc32c_table(\"123456789\")");
	is_int(grt_crc32c(0, "", 0), 0, "crc32c of nothing is 0");
	is_int(grt_crc32c_table(0, NULL, 0), 0, "crc32c_table of nothing is 0");
	is_int(grt_crc32c(0, zeros, 32), 0x8a9136aau, "crc32c of 32 zero bytes");
	is_int(grt_crc32c_table(0, zeros, 32), 0x8a9136aau, "crc32c_table of 32 zero bytes");
	is_int(grt_crc32c(0, ones, 32), 0x62a8ab43u, "crc32c of 32 0xff bytes (RFC 3720)");
	is_int(grt_crc32c(0, inc, 32), 0x46dd794eu, "crc32c of bytes 0..31 (RFC 3720)");
	is_int(grt_crc32c(grt_crc32c(0, "1234", 4), "56789", 5), 0xe3069283u,
	    "crc32c continued over two pieces");
}

/* The instruction and the table, over random lengths and alignments and split points. */
static void
test_crc_random(void)
{
	static unsigned char buf[4096 + 64];
	int i, same = 0, chained = 0, trials = 3000;
	size_t off, n, cut;
	uint32_t hw, tab;

	srand(20240611);
	for (i = 0; i < (int)sizeof buf; i++)
		buf[i] = (unsigned char)rand();
	for (i = 0; i < trials; i++) {
		off = (size_t)rand() % 64;
		n = i < 64 ? (size_t)i : (size_t)rand() % 4096;
		cut = n > 0 ? (size_t)rand() % n : 0;
		hw = grt_crc32c(0, buf + off, n);
		tab = grt_crc32c_table(0, buf + off, n);
		same += hw == tab;
		chained += grt_crc32c(grt_crc32c(0, buf + off, cut), buf + off + cut, n - cut) ==
		    hw;
	}
	is_int(same, trials, "crc32c: instruction and table agree on %d random spans", trials);
	is_int(chained, trials, "crc32c: a span in two pieces gives the same on %d spans",
	    trials);
}

/* ---------------------------------------------------------------- open, write, replay */

static void
test_open_fresh(void)
{
	const char *path = path_of("fresh");
	struct grt_journal j;
	struct grt_replay rp;
	struct grt_app app;
	struct calls cs;
	struct jrn_file h;
	char why[512] = "";
	int rc;

	app_counting(&app, &cs, 1000, 7);
	rc = grt_journal_open(&j, path, &app, &rp, why, sizeof why);
	if (!is_int(rc, GRT_OK, "open a new journal")) {
		printf("#   why: %s\n", why);
		return;
	}
	is_int(rp.records + rp.total + rp.rounds_done + rp.cut + cs.n, 0,
	    "a new journal replays nothing");
	is_int(grt_journal_close(&j), GRT_OK, "close it");
	is_int(file_size(path), sizeof h, "a new journal is its header, %zu bytes", sizeof h);
	memset(&h, 0, sizeof h);
	file_get(path, &h, sizeof h);
	ok(memcmp(h.magic, JRN_MAGIC, 8) == 0 && h.units == 1000 && h.rounds == 7 &&
	    h.crc == grt_crc32c(0, &h, offsetof(struct jrn_file, crc)),
	    "the header: magic, 1000 units, 7 rounds, its checksum");
	rc = replay_file(path, &app, &rp, why, sizeof why);
	if (!is_int(rc, GRT_OK, "a journal of only its header opens again"))
		printf("#   why: %s\n", why);
	is_int(file_size(path), sizeof h, "... and is left as it was");
	grt_replay_free(&rp);
}

/* Merge through the writer, noting in want the call replay must make. */
static int
write_merge(struct grt_journal *j, struct calls *want, int round, int64_t start,
    int64_t count)
{
	unsigned char res[1024];

	result_fill(res, round, start, count);
	calls_add(want, round, start, count, res, (size_t)count * 8);
	return grt_journal_merge(j, round, start, count, res, (size_t)count * 8);
}

static int
write_round(struct grt_journal *j, struct calls *want, int round)
{
	calls_add(want, -round, 0, 0, NULL, 0);
	return grt_journal_round(j, round);
}

/* 50 units x 3 rounds: rounds 1 and 2 whole, round 3 with [0,5) and [40,50) merged. */
static int
write_sample(const char *path, struct calls *want)
{
	struct grt_journal j;
	struct grt_replay rp;
	struct grt_app app;
	struct calls cs;
	char why[512];
	int rc;

	app_counting(&app, &cs, 50, 3);
	memset(want, 0, sizeof *want);
	if ((rc = grt_journal_open(&j, path, &app, &rp, why, sizeof why)) != GRT_OK)
		return rc;
	if ((rc = write_merge(&j, want, 1, 10, 15)) == GRT_OK &&
	    (rc = write_merge(&j, want, 1, 0, 10)) == GRT_OK &&
	    (rc = write_merge(&j, want, 1, 25, 25)) == GRT_OK &&
	    (rc = write_round(&j, want, 1)) == GRT_OK &&
	    (rc = write_merge(&j, want, 2, 0, 50)) == GRT_OK &&
	    (rc = write_round(&j, want, 2)) == GRT_OK &&
	    (rc = write_merge(&j, want, 3, 40, 10)) == GRT_OK)
		rc = write_merge(&j, want, 3, 0, 5);
	if (grt_journal_close(&j) != GRT_OK && rc == GRT_OK)
		rc = GRT_EIO;
	grt_replay_free(&rp);
	return rc;
}

static void
test_roundtrip(void)
{
	const char *path = path_of("roundtrip");
	struct calls want, more;
	struct grt_journal j;
	struct grt_replay rp;
	struct grt_app app;
	struct calls cs;
	char why[512];
	long long size;
	int rc;

	is_int(write_sample(path, &want), GRT_OK, "write 7 merges and 2 round ends");
	size = file_size(path);
	is_int(size, 24 + 8 * 36 + (15 + 10 + 25 + 50 + 10 + 5) * 8,
	    "the file holds the header and 8 records");
	app_counting(&app, &cs, 50, 3);
	rc = grt_journal_open(&j, path, &app, &rp, why, sizeof why);
	if (!is_int(rc, GRT_OK, "reopen it")) {
		printf("#   why: %s\n", why);
		return;
	}
	ok(calls_equal(&cs, &want), "replay makes the same %d calls in the same order, "
	    "payloads intact", want.n);
	ok(rp.rounds_done == 2 && rp.records == 8 && rp.merged == 15 && rp.total == 115 &&
	    rp.cut == 0, "replay: 2 rounds done, 8 records, 15 of round 3, 115 in all, no cut");
	ok(rp.ndone == 2 && rp.done[0].start == 0 && rp.done[0].end == 5 &&
	    rp.done[1].start == 40 && rp.done[1].end == 50,
	    "replay: round 3's done spans are [0,5) and [40,50)");
	/* the resumed run goes on appending */
	memset(&more, 0, sizeof more);
	rc = write_merge(&j, &more, 3, 5, 35);
	if (rc == GRT_OK)
		rc = write_round(&j, &more, 3);
	is_int(rc, GRT_OK, "append the rest of round 3 and its end");
	is_int(grt_journal_close(&j), GRT_OK, "close");
	grt_replay_free(&rp);
	app_counting(&app, &cs, 50, 3);
	rc = replay_file(path, &app, &rp, why, sizeof why);
	ok(rc == GRT_OK && rp.rounds_done == 3 && rp.total == 150 && rp.records == 10 &&
	    cs.n == want.n + 2, "reopened again: 3 rounds done, 150 units, 10 records");
	grt_replay_free(&rp);
}

static void
test_callback_fails(void)
{
	const char *path = path_of("appfail");
	struct calls want, cs;
	struct grt_replay rp;
	struct grt_app app;
	char why[512];
	int rc;

	if (write_sample(path, &want) != GRT_OK) {
		ok(0, "write a journal for the callback test");
		return;
	}
	app_counting(&app, &cs, 50, 3);
	cs.fail_at = 3;
	rc = replay_file(path, &app, &rp, why, sizeof why);
	is_int(rc, GRT_EAPP, "a merge that fails during replay: GRT_EAPP");
	is_int(cs.n, 3, "... and replay stops there");
	grt_replay_free(&rp);
	app_counting(&app, &cs, 50, 3);
	cs.fail_at = 4;
	is_int(replay_file(path, &app, &rp, why, sizeof why), GRT_EAPP,
	    "a round_done that fails during replay: GRT_EAPP");
	grt_replay_free(&rp);
}

/* ---------------------------------------------------------------- replay rules */

/* A journal that breaks a rule: why is built for it, bad is the byte it names. */
struct bad_case {
	const char *name;
	const char *says;	/* in why */
	size_t bad;
};

static void
expect_rejected(const struct bad_case *bc, const struct jbytes *jb)
{
	const char *path = path_of("bad");
	unsigned char back[sizeof jb->b];
	struct grt_replay rp;
	struct grt_app app;
	struct calls cs;
	char why[512];
	int rc;

	if (file_write(path, jb->b, jb->len) != 0) {
		ok(0, "%s: write the journal", bc->name);
		return;
	}
	app_counting(&app, &cs, 10, 2);
	rc = replay_file(path, &app, &rp, why, sizeof why);
	grt_replay_free(&rp);
	is_int(rc, GRT_EJOURNAL, "%s: GRT_EJOURNAL", bc->name);
	if (!ok(why_names(why, path, bc->bad) && strstr(why, bc->says) != NULL,
	    "%s: why names the file, byte %zu and '%s'", bc->name, bc->bad, bc->says))
		printf("#   why: %s\n", why);
	ok(file_size(path) == (long long)jb->len &&
	    file_get(path, back, sizeof back) == (ssize_t)jb->len &&
	    memcmp(back, jb->b, jb->len) == 0, "%s: the file is left as it was", bc->name);
}

static void
test_rules(void)
{
	struct bad_case bc;
	struct jbytes jb;

	/* the app of expect_rejected: 10 units x 2 rounds */
	jb_header(&jb, JRN_MAGIC, 10, 2);
	jb_record(&jb, JRN_MERGE, 1, 0, 10);
	bc.bad = jb_record(&jb, JRN_MERGE, 1, 5, 5);
	jb_record(&jb, JRN_ROUND, 1, 0, 0);
	bc.name = "a unit merged twice";
	bc.says = "merged twice";
	expect_rejected(&bc, &jb);

	jb_header(&jb, JRN_MAGIC, 10, 2);
	jb_record(&jb, JRN_MERGE, 1, 0, 4);
	jb_record(&jb, JRN_MERGE, 1, 6, 4);
	bc.bad = jb_record(&jb, JRN_ROUND, 1, 0, 0);
	bc.name = "a round ends with units missing";
	bc.says = "8 of 10 units";
	expect_rejected(&bc, &jb);

	jb_header(&jb, JRN_MAGIC, 10, 2);
	bc.bad = jb_record(&jb, JRN_MERGE, 2, 0, 10);
	bc.name = "a merge of round 2 before round 1";
	bc.says = "round 2 where round 1 was due";
	expect_rejected(&bc, &jb);

	jb_header(&jb, JRN_MAGIC, 10, 2);
	jb_record(&jb, JRN_MERGE, 1, 0, 10);
	jb_record(&jb, JRN_ROUND, 1, 0, 0);
	bc.bad = jb_record(&jb, JRN_ROUND, 1, 0, 0);
	bc.name = "round 1 ended twice";
	bc.says = "round 1 where round 2 was due";
	expect_rejected(&bc, &jb);

	jb_header(&jb, JRN_MAGIC, 10, 2);
	jb_record(&jb, JRN_MERGE, 1, 0, 10);
	jb_record(&jb, JRN_ROUND, 1, 0, 0);
	jb_record(&jb, JRN_MERGE, 2, 0, 10);
	jb_record(&jb, JRN_ROUND, 2, 0, 0);
	bc.bad = jb_record(&jb, JRN_MERGE, 3, 0, 10);
	bc.name = "a round past the run's last";
	bc.says = "round 3";
	expect_rejected(&bc, &jb);

	jb_header(&jb, JRN_MAGIC, 10, 2);
	bc.bad = jb_record(&jb, JRN_MERGE, 1, 5, 6);
	bc.name = "a merge past the last unit";
	bc.says = "units [5, +6) of 10";
	expect_rejected(&bc, &jb);

	jb_header(&jb, JRN_MAGIC, 10, 2);
	bc.bad = jb_record(&jb, JRN_MERGE + 7, 1, 0, 1);
	jb_record(&jb, JRN_MERGE, 1, 0, 10);
	bc.name = "a record of an unknown kind";
	bc.says = "kind 8";
	expect_rejected(&bc, &jb);

	jb_header(&jb, JRN_MAGIC, 20, 2);
	jb_record(&jb, JRN_MERGE, 1, 0, 10);
	bc.bad = 0;
	bc.name = "a journal of 20 units";
	bc.says = "20 units x 2 rounds";
	expect_rejected(&bc, &jb);

	jb_header(&jb, JRN_MAGIC, 10, 3);
	bc.name = "a journal of 3 rounds";
	bc.says = "10 units x 3 rounds";
	expect_rejected(&bc, &jb);

	jb_header(&jb, "GRTJRNL2", 10, 2);
	jb_record(&jb, JRN_MERGE, 1, 0, 10);
	bc.name = "a bad magic";
	bc.says = "not a libgrt journal";
	expect_rejected(&bc, &jb);

	jb.len = 0;
	jb_raw(&jb, "GRTJ-no", 7);
	bc.name = "a short file that is no journal";
	expect_rejected(&bc, &jb);

	jb_header(&jb, JRN_MAGIC, 10, 2);
	jb.b[12] ^= 0x01;
	bc.name = "a header whose checksum fails";
	bc.says = "checksum";
	expect_rejected(&bc, &jb);

	jb_header(&jb, JRN_MAGIC, 10, 2);
	bc.bad = jb_record(&jb, JRN_MERGE, 1, 0, 5);
	jb.b[bc.bad + 12 + 24 + 3] ^= 0x40;
	jb_record(&jb, JRN_MERGE, 1, 5, 5);
	bc.name = "a damaged record with more after it";
	bc.says = "checksum does not match";
	expect_rejected(&bc, &jb);

	jb_header(&jb, JRN_MAGIC, 10, 2);
	bc.bad = jb_record(&jb, JRN_MERGE, 1, 0, 5);
	jb_set_len(&jb, bc.bad, 12);
	jb_record(&jb, JRN_MERGE, 1, 5, 5);
	bc.name = "a record shorter than its body";
	bc.says = "a length of 12 bytes";
	expect_rejected(&bc, &jb);

	jb_header(&jb, JRN_MAGIC, 10, 2);
	bc.bad = jb_record(&jb, JRN_MERGE, 1, 0, 5);
	jb.b[bc.bad + 1] ^= 0x40;
	jb_record(&jb, JRN_MERGE, 1, 5, 5);
	bc.name = "a length damaged to run past the end";
	bc.says = "two copies of the length differ";
	expect_rejected(&bc, &jb);
}

/* ---------------------------------------------------------------- torn tails */

/* good journal + tail: cut back to the good records, on disk too. */
static void
expect_cut(const char *name, const struct jbytes *good, const void *tail, size_t tlen)
{
	const char *path = path_of("torn");
	struct jbytes jb = *good;
	struct grt_replay rp;
	struct grt_app app;
	struct calls cs;
	char why[512];
	int rc;

	jb_raw(&jb, tail, tlen);
	if (file_write(path, jb.b, jb.len) != 0) {
		ok(0, "%s: write the journal", name);
		return;
	}
	app_counting(&app, &cs, 10, 2);
	rc = replay_file(path, &app, &rp, why, sizeof why);
	if (!is_int(rc, GRT_OK, "%s: opens", name))
		printf("#   why: %s\n", why);
	ok(rp.cut == (long long)tlen && rp.records == 3 && cs.n == 3 && rp.rounds_done == 1 &&
	    rp.merged == 4, "%s: %zu bytes cut, the 3 records before replayed", name, tlen);
	is_int(file_size(path), good->len, "%s: the file is cut on disk", name);
	grt_replay_free(&rp);
}

static void
test_torn(void)
{
	struct jbytes good, rec;
	unsigned char zeros[100];
	size_t off;

	jb_header(&good, JRN_MAGIC, 10, 2);
	jb_record(&good, JRN_MERGE, 1, 0, 10);
	jb_record(&good, JRN_ROUND, 1, 0, 0);
	jb_record(&good, JRN_MERGE, 2, 3, 4);
	/* the next record alone, to tear */
	jb_header(&rec, JRN_MAGIC, 10, 2);
	off = jb_record(&rec, JRN_MERGE, 2, 7, 3);
	memset(zeros, 0, sizeof zeros);

	expect_cut("a zeroed tail", &good, zeros, 37);
	expect_cut("a zeroed tail shorter than a head", &good, zeros, 5);
	expect_cut("a record cut in its head", &good, rec.b + off, 6);
	expect_cut("a record cut in its body", &good, rec.b + off, 20);
	expect_cut("a record cut in its payload", &good, rec.b + off, rec.len - off - 1);
	rec.b[rec.len - 1] ^= 0x10;
	expect_cut("a last record whose checksum fails", &good, rec.b + off, rec.len - off);
	rec.b[rec.len - 1] ^= 0x10;
	jb_set_len(&rec, off, 0x4000);
	expect_cut("a last record whose length runs past the end", &good, rec.b + off,
	    rec.len - off);
}

/* A header torn while it was written: the file starts over. */
static void
test_torn_header(void)
{
	const char *path = path_of("torn-header");
	struct grt_replay rp;
	struct grt_app app;
	struct calls cs;
	struct jbytes jb;
	char why[512];
	size_t n, good = 0;

	jb_header(&jb, JRN_MAGIC, 10, 2);
	app_counting(&app, &cs, 10, 2);
	for (n = 0; n < jb.len; n++) {
		file_write(path, jb.b, n);
		if (replay_file(path, &app, &rp, why, sizeof why) == GRT_OK &&
		    file_size(path) == (long long)jb.len && rp.records == 0)
			good++;
		grt_replay_free(&rp);
	}
	is_int(good, jb.len, "a header torn at each of its %zu bytes is written again",
	    jb.len);
}

/* ---------------------------------------------------------------- grt_replay_find */

static void
test_find(void)
{
	struct grt_span spans[] = { { 0, 10 }, { 20, 30 }, { 40, 50 } };
	struct grt_replay rp;
	const struct grt_span *s;

	memset(&rp, 0, sizeof rp);
	ok(grt_replay_find(&rp, 0, 100) == NULL, "find: nothing done, nothing found");
	rp.done = spans;
	rp.ndone = 3;
	rp.capdone = 3;
	ok(grt_replay_find(&rp, 5, 1) == &spans[0], "find: [5,6) is in [0,10)");
	ok(grt_replay_find(&rp, 10, 10) == NULL, "find: the gap [10,20) overlaps nothing");
	ok(grt_replay_find(&rp, 10, 11) == &spans[1], "find: [10,21) touches [20,30)");
	ok(grt_replay_find(&rp, 9, 1) == &spans[0], "find: [9,10), the last unit of [0,10)");
	ok(grt_replay_find(&rp, 0, 100) == &spans[0], "find: the first of several");
	ok(grt_replay_find(&rp, 30, 10) == NULL, "find: [30,40) between two spans");
	s = grt_replay_find(&rp, 45, 100);
	ok(s == &spans[2], "find: [45,145) starts in the last span");
	ok(grt_replay_find(&rp, 50, 5) == NULL, "find: past the last span");
}

/* Spans merged out of order and touching come back joined. */
static void
test_join(void)
{
	const char *path = path_of("join");
	struct grt_replay rp;
	struct grt_app app;
	struct calls cs;
	struct jbytes jb;
	char why[512];

	jb_header(&jb, JRN_MAGIC, 10, 2);
	jb_record(&jb, JRN_MERGE, 1, 6, 2);
	jb_record(&jb, JRN_MERGE, 1, 0, 2);
	jb_record(&jb, JRN_MERGE, 1, 4, 2);
	jb_record(&jb, JRN_MERGE, 1, 2, 1);
	file_write(path, jb.b, jb.len);
	app_counting(&app, &cs, 10, 2);
	is_int(replay_file(path, &app, &rp, why, sizeof why), GRT_OK, "join: replay");
	ok(rp.ndone == 2 && rp.done[0].start == 0 && rp.done[0].end == 3 &&
	    rp.done[1].start == 4 && rp.done[1].end == 8 && rp.merged == 7,
	    "join: [6,8) [0,2) [4,6) [2,3) make [0,3) and [4,8)");
	ok(grt_replay_find(&rp, 3, 1) == NULL && grt_replay_find(&rp, 8, 2) == NULL &&
	    grt_replay_find(&rp, 3, 2) == &rp.done[1], "join: the gaps are 3 and [8,10)");
	grt_replay_free(&rp);
}

static void
cleanup(void)
{
	static const char *const names[] = { "fresh", "roundtrip", "appfail", "bad", "torn",
	    "torn-header", "join" };
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		unlink(path_of(names[i]));
	rmdir(dir);
}

int
main(int argc, char **argv)
{
	snprintf(dir, sizeof dir, "%s/journal-unit.XXXXXX", argc > 1 ? argv[1] : "/tmp");
	if (mkdtemp(dir) == NULL) {
		perror("journal-unit: mkdtemp");
		return 1;
	}
	test_crc_vectors();
	test_crc_random();
	test_open_fresh();
	test_roundtrip();
	test_callback_fails();
	test_rules();
	test_torn();
	test_torn_header();
	test_find();
	test_join();
	cleanup();
	return tap_done();
}
