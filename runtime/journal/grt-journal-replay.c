/*
 * grt-journal-replay.c — opening the master's journal (grt-journal.h): a new one gets its
 * header; an existing one is checked record by record and replayed through the
 * application's merge and round_done, so the master resumes where the journal ends.
 *
 * What a crash can leave at the end of the file is a torn record: a record head cut
 * short, a record that runs past the end (its length intact), a zeroed tail, or a last
 * record whose checksum fails. It is cut off, and its units are computed again. Anything
 * else wrong is an error, never a silent guess: a length whose two copies differ, a
 * record whose checksum fails with more after it, a record that breaks the journal's
 * rules (a unit merged twice, a round out of order), a journal of another run.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/core/grt-sink.h"
#include "runtime/journal/grt-crc.h"
#include "runtime/journal/grt-journal-format.h"
#include "runtime/journal/grt-journal.h"

/* What replaying needs to say where a problem is. */
struct replay_ctx {
	const char *path;
	const struct grt_app *app;
	struct grt_replay *rp;
	char *why;
	size_t whylen;
};

static int
replay_error(struct replay_ctx *x, size_t off, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	snprintf(x->why, x->whylen, "%s: record at byte %zu: %s", x->path, off, what);
	return GRT_EJOURNAL;
}

void
grt_replay_free(struct grt_replay *rp)
{
	free(rp->done);
	memset(rp, 0, sizeof *rp);
}

/* The first done range that ends after start, or ndone. */
static size_t
replay_lower(const struct grt_replay *rp, int64_t start)
{
	size_t lo = 0, hi = rp->ndone, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (rp->done[mid].end <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct grt_span *
grt_replay_find(const struct grt_replay *rp, int64_t start, int64_t count)
{
	size_t i = replay_lower(rp, start);

	if (i < rp->ndone && rp->done[i].start < start + count)
		return &rp->done[i];
	return NULL;
}

/* Add [start, end) to the done ranges, joined with its neighbours; -1 when it overlaps. */
static int
replay_add(struct grt_replay *rp, int64_t start, int64_t end)
{
	size_t i = replay_lower(rp, start);
	int join_prev = i > 0 && rp->done[i - 1].end == start;
	int join_next = i < rp->ndone && rp->done[i].start == end;

	if (i < rp->ndone && rp->done[i].start < end)
		return -1;
	if (join_prev && join_next) {
		rp->done[i - 1].end = rp->done[i].end;
		memmove(&rp->done[i], &rp->done[i + 1], (rp->ndone - i - 1) * sizeof *rp->done);
		rp->ndone--;
	} else if (join_prev) {
		rp->done[i - 1].end = end;
	} else if (join_next) {
		rp->done[i].start = start;
	} else {
		if (rp->ndone == rp->capdone) {
			size_t ncap = rp->capdone ? rp->capdone * 2 : 64;
			struct grt_span *p = realloc(rp->done, ncap * sizeof *p);

			if (p == NULL)
				return -2;
			rp->done = p;
			rp->capdone = ncap;
		}
		memmove(&rp->done[i + 1], &rp->done[i], (rp->ndone - i) * sizeof *rp->done);
		rp->done[i].start = start;
		rp->done[i].end = end;
		rp->ndone++;
	}
	return 0;
}

/* One record that passed its checksum: checked against the rules, then replayed. */
static int
replay_record(struct replay_ctx *x, size_t off, const struct jrn_body *b, const void *res,
    size_t reslen)
{
	const struct grt_app *app = x->app;
	struct grt_replay *rp = x->rp;
	int round = rp->rounds_done + 1;

	if (b->round != round || round > app->rounds)
		return replay_error(x, off, "round %d where round %d was due", (int)b->round,
		    round);
	if (b->kind == JRN_ROUND) {
		if (rp->merged != app->units)
			return replay_error(x, off, "round %d ends with %lld of %lld units merged",
			    round, (long long)rp->merged, (long long)app->units);
		if (app->round_done != NULL && app->round_done(app->ctx, round) != 0)
			return GRT_EAPP;
		rp->rounds_done++;
		rp->ndone = 0;
		rp->merged = 0;
		return GRT_OK;
	}
	if (b->kind != JRN_MERGE || b->start < 0 || b->count < 1 ||
	    b->count > app->units - b->start)
		return replay_error(x, off, "kind %d, units [%lld, +%lld) of %lld", b->kind,
		    (long long)b->start, (long long)b->count, (long long)app->units);
	switch (replay_add(rp, b->start, b->start + b->count)) {
	case -1:
		return replay_error(x, off, "units [%lld, +%lld) of round %d merged twice",
		    (long long)b->start, (long long)b->count, round);
	case -2:
		return GRT_ENOMEM;
	}
	if (app->merge != NULL &&
	    app->merge(app->ctx, round, b->start, b->count, res, reslen) != 0)
		return GRT_EAPP;
	rp->merged += b->count;
	rp->total += b->count;
	return GRT_OK;
}

static int
replay_zeros(const unsigned char *p, size_t n)
{
	while (n > 0 && *p == 0)
		p++, n--;
	return n == 0;
}

/* The header: a journal of this run. */
static int
replay_header(struct replay_ctx *x, const unsigned char *base)
{
	struct jrn_file h;

	memcpy(&h, base, sizeof h);
	if (memcmp(h.magic, JRN_MAGIC, sizeof h.magic) != 0)
		return replay_error(x, 0, "not a libgrt journal");
	if (grt_crc32c(0, &h, offsetof(struct jrn_file, crc)) != h.crc)
		return replay_error(x, 0, "the header's checksum does not match");
	if (h.units != x->app->units || h.rounds != x->app->rounds)
		return replay_error(x, 0, "a journal of %lld units x %d rounds, this run has "
		    "%lld x %d", (long long)h.units, (int)h.rounds, (long long)x->app->units,
		    x->app->rounds);
	return GRT_OK;
}

/* Every record of base[0, size): *end is where the good records end. */
static int
replay_records(struct replay_ctx *x, const unsigned char *base, size_t size, size_t *end)
{
	struct jrn_head h;
	struct jrn_body b;
	size_t off = sizeof(struct jrn_file), room;
	int rc;

	if ((rc = replay_header(x, base)) != GRT_OK)
		return rc;
	for (; size - off >= sizeof h; off += sizeof h + h.len) {
		memcpy(&h, base + off, sizeof h);
		room = size - off - sizeof h;
		if (replay_zeros(base + off, size - off))
			break;
		if (h.len != ~h.len_inv)
			return replay_error(x, off, "its two copies of the length differ");
		if (h.len > room)
			break;
		if (h.len < sizeof b)
			return replay_error(x, off, "a length of %u bytes", h.len);
		if (grt_crc32c(0, base + off + sizeof h, h.len) != h.crc) {
			if (h.len == room)
				break;
			return replay_error(x, off, "the checksum does not match");
		}
		memcpy(&b, base + off + sizeof h, sizeof b);
		rc = replay_record(x, off, &b, base + off + sizeof h + sizeof b,
		    h.len - sizeof b);
		if (rc != GRT_OK)
			return rc;
		x->rp->records++;
	}
	*end = off;
	return GRT_OK;
}

/* A new journal: its header, durable, and the directory entry too. */
static int
journal_create(int fd, const struct grt_app *app, const char *path)
{
	struct jrn_file h;
	char *copy, *dir;
	int dfd, rc = 0;

	memset(&h, 0, sizeof h);
	memcpy(h.magic, JRN_MAGIC, sizeof h.magic);
	h.units = app->units;
	h.rounds = app->rounds;
	h.crc = grt_crc32c(0, &h, offsetof(struct jrn_file, crc));
	if (ftruncate(fd, 0) != 0 || grt_write_all(fd, &h, sizeof h) != 0 ||
	    fdatasync(fd) != 0)
		return -1;
	if ((copy = strdup(path)) == NULL)
		return -1;
	dir = dirname(copy);
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		rc = fsync(dfd);
		close(dfd);
	}
	free(copy);
	return rc;
}

/* Replay the journal open on fd (size bytes), then cut a torn tail. */
static int
journal_replay(int fd, size_t size, struct replay_ctx *x)
{
	unsigned char *base;
	size_t end = size;
	int rc;

	base = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (base == MAP_FAILED) {
		snprintf(x->why, x->whylen, "%s: %s", x->path, strerror(errno));
		return GRT_EIO;
	}
	rc = replay_records(x, base, size, &end);
	munmap(base, size);
	if (rc != GRT_OK || end == size)
		return rc;
	x->rp->cut = (long long)(size - end);
	if (ftruncate(fd, (off_t)end) != 0 || fdatasync(fd) != 0) {
		snprintf(x->why, x->whylen, "%s: cutting a torn record: %s", x->path,
		    strerror(errno));
		return GRT_EIO;
	}
	return GRT_OK;
}

int
grt_journal_open(struct grt_journal *j, const char *path, const struct grt_app *app,
    struct grt_replay *rp, char *why, size_t whylen)
{
	struct replay_ctx x = { path, app, rp, why, whylen };
	struct stat sb;
	size_t head = sizeof(struct jrn_file);
	int rc = GRT_OK;

	grt_journal_none(j);
	memset(rp, 0, sizeof *rp);
	j->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (j->fd < 0 || fstat(j->fd, &sb) != 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		rc = GRT_EIO;
	} else if ((size_t)sb.st_size < head) {
		/* new, or a header torn while it was written: a prefix of the magic */
		char lead[sizeof(struct jrn_file)];
		ssize_t n = pread(j->fd, lead, (size_t)sb.st_size, 0);

		if (n != sb.st_size || memcmp(lead, JRN_MAGIC, (size_t)n < 8 ? (size_t)n : 8))
			rc = replay_error(&x, 0, "not a libgrt journal");
		else if (journal_create(j->fd, app, path) != 0) {
			snprintf(why, whylen, "%s: %s", path, strerror(errno));
			rc = GRT_EIO;
		}
	} else {
		rc = journal_replay(j->fd, (size_t)sb.st_size, &x);
	}
	if (rc == GRT_OK)
		rc = grt_journal_start(j);
	if (rc != GRT_OK) {
		if (j->fd >= 0)
			close(j->fd);
		j->fd = -1;
	}
	return rc;
}
