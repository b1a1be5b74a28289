/*
 * grt-events.h — the master's buffered writer of events.jsonl (doc/runtime.md, "Events"),
 * internal.
 * Records are built in memory with cheap hand-rolled number formatting (a chunk event must
 * cost well under a microsecond: the chunk rate of pss is the hot path) and written with
 * O_APPEND at least every 100 ms, or when the buffer fills.
 */
#ifndef GRT_EVENTS_H
#define GRT_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/core/grt-sink.h"

struct grt_events {
	int fd;			/* the file's, or the relay's socket; -1: events are off */
	struct grt_sink sink;	/* where the records go */
	int own_fd;		/* 1: fd is the file grt_events_open opened, closed at the end */
	char *buf;
	size_t len;
	size_t cap;
	double t0;		/* MPI_Wtime() of the job start */
	double last_flush;
	int lost;		/* 1 after a write failed: later events are dropped */
	int err;		/* the errno of that write (ENOSPC, EROFS, EIO) */
};

/* Open path for appending (NULL path: events off). Returns GRT_OK or GRT_EIO/GRT_ENOMEM. */
int grt_events_open(struct grt_events *e, const char *path, double t0);
/* The same toward a sink of the caller's (the relay). GRT_OK or GRT_ENOMEM. */
int grt_events_open_sink(struct grt_events *e, const struct grt_sink *sink, double t0);
/* Flush and sync, close the file; returns GRT_OK or GRT_EIO when anything was lost. */
int grt_events_close(struct grt_events *e);

static inline int
grt_events_on(const struct grt_events *e)
{
	return e->fd >= 0 && !e->lost;
}

/* A record: begin (writes {"v":1,"t":..,"ev":"kind"), fields, end (writes }\n). */
void grt_events_begin(struct grt_events *e, double now, const char *kind);
void grt_events_int(struct grt_events *e, const char *key, int64_t v);
void grt_events_dbl(struct grt_events *e, const char *key, double v);
void grt_events_str(struct grt_events *e, const char *key, const char *v);
void grt_events_raw(struct grt_events *e, const char *text);	/* e.g. ",\"units\":[" */
void grt_events_rawint(struct grt_events *e, int64_t v);	/* a bare number in a list */
void grt_events_rawdbl(struct grt_events *e, double v);
void grt_events_rawstr(struct grt_events *e, const char *v);	/* a quoted, escaped string */
void grt_events_end(struct grt_events *e, double now);

/*
 * What is buffered, written now (records otherwise reach the file every EVENTS_PERIOD):
 * for the start record, which tells the supervisor the program runs on libgrt before a
 * rank can die (launch/launch-ends.c).
 */
void grt_events_flush(struct grt_events *e, double now);

/* A whole "chunk" record (t_comm = t_exe - t_calc): the fast path of the hot loop. */
void grt_events_chunk(struct grt_events *e, double now, int64_t rank, int64_t round,
    int64_t start, int64_t count, double t_calc, double t_exe);

/*
 * One element of a start event's "ranks" list (first: the list's first, no comma before):
 * {"rank":..,"node":..,"site":..,"pf":..,"pr":..,"role":..}, and "group":.. when group >= 0
 * (under a hierarchy: the rank of the group's sub-master, doc/runtime.md).
 */
void grt_events_rank(struct grt_events *e, int first, int64_t rank, const char *node,
    const char *site, double pf, double pr, const char *role, int64_t group);

/*
 * Where events' "t" counts from, as a value of the run's clock (whose now is t0): the job's
 * first launch (t_origin, seconds since the epoch) when given, so that t goes on growing
 * over a relaunch; else t0, this run's start.
 */
double grt_events_origin(double t0, double t_origin);

/* Write out the buffer when 100 ms have passed since the last write. */
void grt_events_tick(struct grt_events *e, double now);

#endif
