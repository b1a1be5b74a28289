/*
 * track.h — one rank's history, kept for the timeline and the detail view: its compute and
 * communication time in buckets of the job's clock, the times of its drops, failures and
 * migrations, and its latest events. The model owns one per rank that did something
 * (model.h); the bucket width is the model's, the same for every rank, and doubles as the
 * job outgrows the buckets, so memory stays bounded however long the job runs.
 */
#ifndef TUI_TRACK_H
#define TUI_TRACK_H

#include "common/events-read.h"

#define TRACK_BUCKETS	128	/* buckets of the time line */
#define TRACK_EVENTS	256	/* latest events kept of each rank */
#define TRACK_WHY	16	/* reasons kept of its latest migrations */

/* Marks on the time line, and their glyphs (the timeline's legend). */
#define TRACK_MIGRATE	0x1
#define TRACK_DROP	0x2
#define TRACK_FAIL	0x4
#define TRACK_G_CALC	'#'
#define TRACK_G_COMM	'~'
#define TRACK_G_IDLE	'.'
#define TRACK_G_RUN	'='	/* working since the last result: not reported yet */
#define TRACK_G_MIGRATE	'M'
#define TRACK_G_DROP	'D'
#define TRACK_G_FAIL	'X'

/* One event of the rank, as the detail view lists it. */
struct track_ev {
	double t;
	long long start, count;	/* chunk; migrate: task, bytes; fail: units requeued */
	float t_calc, t_comm, t_exe;	/* chunk; migrate: t_exe is its seconds */
	int round;		/* chunk; migrate: the number of its reason (track.why) */
	int other;		/* migrate: the other rank */
	unsigned char kind;	/* enum ev_kind: chunk, drop, fail or migrate */
	unsigned char out;	/* migrate: the task left this rank */
};

struct track {
	float calc[TRACK_BUCKETS];	/* seconds of compute in each bucket */
	float comm[TRACK_BUCKETS];
	unsigned char mark[TRACK_BUCKETS];	/* TRACK_* marks */
	struct track_ev *ev;	/* ring of the latest events, grown up to TRACK_EVENTS */
	int evcap;
	long long nev;		/* events ever recorded */
	char drop_why[EV_TEXT_MAX];	/* the reasons of its drop and failure */
	char fail_why[EV_TEXT_MAX];
	char (*why)[EV_TEXT_MAX];	/* ring of migration reasons; NULL until one has one */
	int nwhy;		/* reasons ever recorded */
};

struct track *track_new(void);
void track_free(struct track *t);

/*
 * A chunk result: [t - t_exe, t] on the time line, compute in the middle and the
 * communication around it (the send before, the result after; doc/runtime.md), in buckets
 * of w seconds; and the event kept. The caller has made the buckets wide enough for t.
 */
void track_chunk(struct track *t, double w, const struct event *ev);
/* A drop, failure or migration of this rank (rank: which end of a migration it is). */
void track_event(struct track *t, double w, const struct event *ev, int rank);
/* The bucket width doubles: each pair of buckets becomes one. */
void track_halve(struct track *t);

/* The reason of migration e, when it had one and it is still kept; else NULL. */
const char *track_why(const struct track *t, const struct track_ev *e);
/* Events kept (at most TRACK_EVENTS), and the i-th of them, oldest first. */
int track_kept(const struct track *t);
const struct track_ev *track_get(const struct track *t, int i);

/*
 * The time line [0, span) in cols characters (dst holds cols + 1): per column the
 * compute or communication glyph when the rank was busy for at least half of it (the one
 * that took longer), else idle; a mark (failure, then drop, then migration) wins over
 * both; blank from gone on (dropped or failed; INFINITY otherwise); TRACK_G_RUN from
 * run_from to the end when the rank is working on a result not reported yet (INFINITY:
 * none). t may be NULL (nothing recorded yet). w: the bucket width.
 */
void track_row(char *dst, const struct track *t, double w, double span, int cols,
    double gone, double run_from);

#endif
