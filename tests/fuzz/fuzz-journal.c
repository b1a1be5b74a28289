/*
 * fuzz-journal.c — libFuzzer target for the replay of the master's journal
 * (runtime/journal/grt-journal-replay.c), which reads back what a crash, a full disk or
 * a damaged copy left. The bytes are the journal file twice: as they are, then with the
 * header's and every record's checksum made right, so that mutations reach the rules
 * behind the checksums (a unit merged twice, a round out of order). The run's units and
 * rounds are the header's when they are ones grt_run would take, so the header matches.
 * Every open must replay or say why, and merge only units of the run, each once a round.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/journal/grt-crc.h"
#include "runtime/journal/grt-journal-format.h"
#include "runtime/journal/grt-journal.h"
#include "tests/fuzz/fuzz-file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the application saw of the replay: every unit of the round merged once at most. */
struct fuzz_run {
	int64_t units;
	int round;
	unsigned char *seen;	/* units of the current round merged, when units is small */
};

static int
fuzz_merge(void *ctx, int round, int64_t start, int64_t count, const void *res,
    size_t reslen)
{
	struct fuzz_run *run = ctx;
	int64_t u;

	(void)res;
	(void)reslen;
	if (round != run->round + 1 || start < 0 || count < 1 || count > run->units - start)
		abort();
	if (run->seen != NULL)
		for (u = start; u < start + count; u++) {
			if (run->seen[u])
				abort();
			run->seen[u] = 1;
		}
	return 0;
}

static int
fuzz_round_done(void *ctx, int round)
{
	struct fuzz_run *run = ctx;

	if (round != run->round + 1)
		abort();
	run->round = round;
	if (run->seen != NULL)
		memset(run->seen, 0, (size_t)run->units);
	return 0;
}

/* Open the journal at path as a run of units x rounds; the replay checked. */
static void
fuzz_open(const char *path, int64_t units, int rounds)
{
	struct fuzz_run run = { units, 0, NULL };
	struct grt_app app;
	struct grt_journal j;
	struct grt_replay rp;
	char why[512];
	int rc;

	if (units <= 4096 && (run.seen = calloc((size_t)units + 1, 1)) == NULL)
		abort();
	memset(&app, 0, sizeof app);
	app.units = units;
	app.rounds = rounds;
	app.ctx = &run;
	app.merge = fuzz_merge;
	app.round_done = fuzz_round_done;
	why[0] = '\0';
	rc = grt_journal_open(&j, path, &app, &rp, why, sizeof why);
	if (rc == GRT_OK) {
		if (rp.rounds_done != run.round || rp.merged < 0 || rp.merged > units ||
		    rp.cut < 0)
			abort();
		if (grt_journal_close(&j) != GRT_OK)
			abort();
	} else if (why[0] == '\0') {
		abort();
	}
	grt_replay_free(&rp);
	free(run.seen);
}

/* The header's and every whole record's checksums computed again, in place. */
static void
fuzz_fix(unsigned char *p, size_t size)
{
	struct jrn_file f;
	struct jrn_head h;
	size_t off = sizeof f;

	if (size < sizeof f)
		return;
	memcpy(&f, p, sizeof f);
	f.crc = grt_crc32c(0, &f, offsetof(struct jrn_file, crc));
	memcpy(p, &f, sizeof f);
	while (size - off >= sizeof h) {
		memcpy(&h, p + off, sizeof h);
		if (h.len > size - off - sizeof h)
			break;
		h.len_inv = ~h.len;
		h.crc = grt_crc32c(0, p + off + sizeof h, h.len);
		memcpy(p + off, &h, sizeof h);
		off += sizeof h + h.len;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jrn_file f;
	unsigned char *copy;
	char path[512];
	int64_t units = 100;
	int rounds = 3;

	if (size >= sizeof f) {
		memcpy(&f, data, sizeof f);
		if (f.units >= 0 && f.units <= ((int64_t)1 << 40) && f.rounds >= 1 &&
		    f.rounds <= 1000) {
			units = f.units;
			rounds = f.rounds;
		}
	}
	fuzz_write("journal", data, size, path, sizeof path);
	fuzz_open(path, units, rounds);
	if ((copy = malloc(size + 1)) == NULL)
		abort();
	memcpy(copy, data, size);
	fuzz_fix(copy, size);
	fuzz_write("journal", copy, size, path, sizeof path);
	fuzz_open(path, units, rounds);
	free(copy);
	return 0;
}
