/*
 * grt-journal.h — the master's journal of merged results (doc/runtime.md, "The journal");
 * private to libgrt.
 *
 * An append-only file: a header (the run's units and rounds), then one record per merged
 * range and one per finished round. A record is its body's length (4 bytes), the length
 * inverted (4), the CRC-32C of its body (4), and the body: kind (1 byte), 3 zero bytes,
 * round (4), start (8), count (8), then, for a merge, the result payload. Integers are
 * little-endian, as this machine writes them (grt-journal-format.h).
 *
 * Records go to memory first; a writer thread writes them and makes them durable
 * (fdatasync, or, through the relay, the supervisor's fdatasync on the submitting host,
 * acknowledged) at least every JOURNAL_PERIOD seconds and at every round's end: the master
 * never waits for the disk unless the writer falls a whole buffer behind.
 */
#ifndef GRT_JOURNAL_H
#define GRT_JOURNAL_H

#include <pthread.h>
#include <stdint.h>

#include "grt/grt.h"
#include "runtime/core/grt-relay.h"
#include "runtime/core/grt-sink.h"

#define JOURNAL_PERIOD	0.1	/* seconds between two group commits, at most */

/* Units [start, end) of a round. */
struct grt_span {
	int64_t start;
	int64_t end;
};

/* What a replay found: the master resumes from there. */
struct grt_replay {
	int rounds_done;	/* rounds whose end was journaled */
	struct grt_span *done;	/* the ranges merged in round rounds_done + 1, sorted */
	size_t ndone;
	size_t capdone;
	int64_t merged;		/* units in done */
	int64_t total;		/* units merged over every round replayed */
	long records;		/* records replayed */
	long long cut;		/* bytes of a torn last record cut off */
};

struct grt_journal {
	int fd;			/* the file's, or the relay's socket; -1: no journal */
	struct grt_sink sink;	/* where the writer's records go: the file, or the relay */
	int own_fd;		/* 1: fd is the file, closed at the end */
	const char *path;
	grt_buf fill;		/* the master appends here */
	grt_buf flush;		/* the writer writes this */
	double last_commit;
	pthread_t writer;
	int have_writer;
	pthread_mutex_t mu;
	pthread_cond_t work;	/* the writer has a buffer to write, or must stop */
	pthread_cond_t done;	/* the writer finished a buffer */
	int flushing;		/* flush holds records being written */
	int stop;
	int lost;		/* a write or fdatasync failed: nothing more is written */
	int err;		/* the errno of that failure (ENOSPC, EROFS, EIO) */
};

/*
 * Open the journal at path for a run of units x rounds. A new or empty file gets its
 * header. An existing one is replayed through app's merge and round_done, in order, into
 * rp (zeroed first; free with grt_replay_free); a torn last record is cut off. Returns
 * GRT_OK; GRT_EJOURNAL with why saying which file, where and what (a corrupt record, a
 * journal of another run); GRT_EAPP when a callback failed; GRT_EIO, GRT_ENOMEM.
 */
int grt_journal_open(struct grt_journal *j, const char *path, const struct grt_app *app,
    struct grt_replay *rp, char *why, size_t whylen);

/*
 * After grt_journal_open on the node's copy of the relay's journal (grt-relay.h): make the
 * supervisor's journal the same as the copy (the new journal's header sent, or a torn
 * tail cut there too), wait for its acknowledgment, and from then on write and commit
 * through the relay alone (the copy is closed). GRT_OK, or GRT_EIO with why.
 */
int grt_journal_relay(struct grt_journal *j, struct grt_relay *r, char *why,
    size_t whylen);

/* No journal: every call below does nothing. */
void grt_journal_none(struct grt_journal *j);

/* Record a merged range, or the end of a round (made durable before it returns). */
int grt_journal_merge(struct grt_journal *j, int round, int64_t start, int64_t count,
    const void *res, size_t reslen);
int grt_journal_round(struct grt_journal *j, int round);

/* Group commit: hand the records to the writer when JOURNAL_PERIOD has passed since now. */
void grt_journal_tick(struct grt_journal *j, double now);

/*
 * 0 while every record handed to the writer was written, else the errno of the write or
 * fdatasync that failed (ENOSPC, EROFS, EIO): the writer has stopped writing, and the
 * master must not count on the journal any more (grt-master-disk.c).
 */
int grt_journal_failed(struct grt_journal *j);

/* Write and fdatasync every record, stop the writer, close. GRT_OK or GRT_EIO (lost). */
int grt_journal_close(struct grt_journal *j);

void grt_replay_free(struct grt_replay *rp);

/* 1 when units [start, start+count) overlap a range done in rp, with the first such. */
const struct grt_span *grt_replay_find(const struct grt_replay *rp, int64_t start,
    int64_t count);

#endif
