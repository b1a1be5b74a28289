/*
 * grt-master.h — the master's state, shared by the files of rank 0; private to libgrt.
 *
 *   grt-master.c         the master's life: set up, the main loop, tear down
 *   grt-comm-poll.c      (or grt-comm-block.c in the SMPI build) the master's wait when
 *                        it has nothing to do (grt-comm.h)
 *   grt-round.c          the start of a round: dropped workers, the scheme's first chunks
 *   grt-sample.c         pwd with SWR auto: five units timed before round 1
 *   grt-dispatch.c       choosing a worker's next chunk and sending it; STOP
 *   grt-merge.c          receiving results, accounting and merging them
 *   grt-self.c           the master's own chunks when it computes too
 *   grt-failure.c        deadlines, failed workers, late answers
 *   grt-requeue.c        the ranges taken back from failed workers
 *   grt-master-events.c  the events the master writes
 *   grt-resume.c         the journal: opened and replayed, the units it holds skipped
 *   grt-master-relay.c   the relay to the supervisor when the job directory is not here
 *   grt-master-disk.c    the run stopped when the journal or the events cannot be written
 *   grt-group.c          the hierarchy: groups under sub-masters, their parts merged
 *   grt-group-events.c   the events of a hierarchy: every rank's totals, its group
 */
#ifndef GRT_MASTER_H
#define GRT_MASTER_H

#include <stdint.h>

#include "runtime/core/grt-events.h"
#include "runtime/core/grt-internal.h"
#include "runtime/core/grt-proto.h"
#include "runtime/journal/grt-journal.h"

#define SAMPLE_UNITS		5	/* seed 002, sec. 3.3: five sampled iterations */

enum wstate_kind {
	W_IDLE,		/* no chunk; the scheme has nothing more for it this round */
	W_BUSY,		/* chunks are outstanding */
	W_FAILED,	/* declared failed: missed a deadline */
	W_DROPPED,	/* the scheme cannot balance it; it got STOP */
	W_SELF,		/* the master's own worker slot (master computes) */
};

/*
 * A chunk sent to a worker and not answered yet. A worker has one, or two when the master
 * prefetches for it (grt-prefetch.c): the second waits in the worker's queue while it
 * computes the first, and the worker answers them in order (MPI does not overtake).
 */
struct outchunk {
	int64_t seq;
	struct grt_chunk c;
	int round;		/* of the chunk: a late answer from an earlier round is dropped */
	int kind;		/* GRT_WORK_CHUNK or GRT_WORK_SAMPLE */
	int from_scheme;	/* the chunk came from grt_sched_next (not a requeue) */
	long rq;		/* index of the chunk in master.rq, or -1 */
	int taken_back;		/* requeued from this worker after a missed deadline */
	double t_send;
	MPI_Request sreq;	/* the send; sbuf stays untouched until it completes */
	grt_buf sbuf;
};

#define GRT_DEPTH_MAX	2	/* chunks outstanding at one worker, prefetching */

struct worker {
	enum wstate_kind state;
	struct outchunk out[GRT_DEPTH_MAX];	/* a ring: out[head] is being computed */
	int head;
	int nout;
	int depth;		/* 1, or 2 while prefetching for it */
	double t_head;		/* when out[head] started: its send or the previous result */
	int blind;		/* out[head] started before any chunk of the job was
				   measured: its deadline is the generous first one */
	struct grt_msg_stop stop;	/* kept alive until stop_req completes */
	MPI_Request stop_req;

	int64_t units;		/* totals over the run */
	double t_calc;
	double t_exe;
	int64_t r_units;	/* this round */
	double r_exe;
	double unit_exe;	/* t_exe per unit of its last chunk: for deadlines */
	double last_calc;	/* t_calc of its last chunk: for prefetching */
	double gap;		/* t_exe - t_calc of its last chunk sent while it idled */
	int group;		/* a sub-master: its workers (grt-group.c); else 0 */
};

/* A rank's totals under a hierarchy, from the parts its sub-master forwards. */
struct grt_rankstat {
	int64_t units;
	double t_calc;
	double t_exe;
	int64_t r_units;	/* this round */
	double r_exe;
	int failed;		/* its sub-master declared it failed */
};

/*
 * The hierarchy (grt-group.c): on when cfg->hierarchy made groups. Worker index w is
 * rank wrank[w]: the master itself (master computes), a sub-master, or a plain worker
 * (a group of one); group w's ranks are order[first[w] .. first[w] + group], its leader
 * first.
 */
struct master_groups {
	int on;
	int *order;		/* ranks 1..size-1, grouped */
	int *site;		/* per rank: its site's index (rank map order) */
	int *wrank;		/* worker index -> rank */
	int *rankw;		/* rank -> worker index; -1: a worker under a sub-master */
	int *first;		/* worker index -> its group's first entry of order */
	int *len;		/* scratch: the groups' sizes */
	int *group_of;		/* rank -> the worker index of its group; -1: rank 0 */
	struct grt_rankstat *rs;	/* per rank */
};

/*
 * The master's own chunk when it computes too (grt-self.c): computed in slices, the
 * results looked for between two slices; the units not started yet, [next, end), can go
 * to a worker that finds nothing else to do, so the master never holds a loop's tail.
 */
struct selfwork {
	int active;		/* a chunk is in hand */
	int idle;		/* nothing more for the master this round */
	struct grt_chunk c;	/* as taken */
	int64_t next;		/* the first unit not computed yet */
	int64_t end;		/* the end of the units still the master's */
	int kind;
	int from_scheme;
	double t_calc;		/* compute time of its slices so far */
	double t_start;
	double unit_s;		/* seconds per unit of the last slice */
};

static inline struct outchunk *
w_head(struct worker *wk)
{
	return &wk->out[wk->head];
}

/* A range taken back from a failed worker: queued, handed out again, then merged. */
enum rq_state { RQ_QUEUED, RQ_OUT, RQ_MERGED };

struct requeued {
	struct grt_chunk c;
	enum rq_state state;
};

struct master {
	MPI_Comm comm;
	const struct grt_app *app;
	const struct grt_config *cfg;
	struct grt_report *rep;
	int size;
	int nw;			/* workers in the scheme */
	int off;		/* rank = worker index + off */
	struct worker *w;
	grt_sched *sched;
	struct grt_sched_conf conf;
	double *pr;		/* per worker, or NULL */
	double *cpu;
	struct grt_rankinfo *ri;	/* rank map, or NULL */
	int nri;
	struct grt_events ev;
	grt_buf rbuf;		/* received messages */
	grt_buf obuf;		/* the master's own results */
	grt_buf ibuf;		/* the master's own inputs (pack) */
	struct selfwork self;	/* worker 0 when the master computes */

	struct requeued *rq;	/* every range requeued after a failure, this round */
	size_t nrq;
	size_t caprq;
	size_t nqueued;		/* of them, waiting for a worker */

	int round;
	int64_t merged;		/* units merged in this round */
	struct grt_journal jn;	/* every merge and round's end, for a resume */
	struct grt_relay relay;	/* to the supervisor (cfg->relay); fd -1: none */
	struct grt_replay replay;	/* what the journal held at start: rounds done, and
					   the ranges merged in the round after them */
	int sampling;		/* pwd with swr auto: sampling before round 1 */
	int64_t sample_units[SAMPLE_UNITS];
	double sample_t[SAMPLE_UNITS];
	int nsamples;		/* units to sample */
	int nsampled;		/* sampled so far */
	int sample_next;	/* next unit index to hand out */
	int sampler;		/* worker doing the sampling, -1 none */

	double t0;
	double now;		/* the clock at the latest result */
	double unit_exe_max;	/* the largest t_exe per unit of any chunk so far: for
				   deadlines */
	double next_check;
	int64_t seq;
	int failed_now;		/* workers in W_FAILED */
	int suspect;		/* a rank exited (SIGUSR1): shorter deadlines from now on */
	struct master_groups grp;	/* sub-masters, when cfg->hierarchy makes them */
	int timing_out;		/* GRT_TIME_LIMIT passed: no new chunk; once the outstanding
				   ones are merged, the run ends with GRT_ETIMEOUT */
	int rc;
};

static inline int
w_rank(const struct master *m, int w)
{
	return m->grp.on ? m->grp.wrank[w] : w + m->off;
}

/*
 * The round a chunk belongs to: SWR sampling runs before round 1 is begun (m->round is
 * still 0), but the sampled units are units of round 1 and the application sees them so.
 */
static inline int
master_work_round(const struct master *m)
{
	return m->round > 0 ? m->round : 1;
}

/* grt-round.c: a round begins (or sampling ends); errors are left in m->rc. */
void master_start_scheme(struct master *m, double now);

/* grt-sample.c */
void master_start_sampling(struct master *m, double now);
void master_sampled(struct master *m, double t_calc, double now);

/* grt-dispatch.c: GRT_OK or an error code, unless said otherwise */
int master_take(struct master *m, int w, struct grt_chunk *c, int *kind, int *from_scheme,
    long *rq);
int master_assign(struct master *m, int w, double now);
int master_wake_idle(struct master *m, double now);
int master_stop(struct master *m, int w, int reason);
void master_stop_all(struct master *m);

/* grt-prefetch.c: how many chunks worker w may hold (1 or 2), from its last chunk */
int master_depth(const struct master *m, const struct worker *wk);

/* grt-master.c: what the master does now and then; can any result still come? */
int master_periodic(struct master *m, int self, double now);
int master_can_progress(const struct master *m, int self);

/*
 * grt-comm-poll.c or grt-comm-block.c: the master with no result waiting and no slice of
 * its own to compute waits (self: its worker slot, or -1). GRT_OK or an error of the run.
 */
int master_wait(struct master *m, int self, struct grt_backoff *bo);

/*
 * grt-merge.c: master_poll returns 1 when a result was handled, 0 when none waits (wait 0),
 * or an error
 */
int master_poll(struct master *m, int wait);
int master_merge(struct master *m, const struct grt_chunk *c, const void *res, size_t reslen);
void master_account(struct master *m, int w, const struct grt_chunk *c, double t_calc,
    double t_exe, double now);
int master_settle(struct master *m, int w, struct outchunk *o, double t_calc, double t_exe,
    const void *res, size_t reslen, double now);
void master_pop(struct master *m, int w, double now);

/* grt-self.c: the master's own chunk, one slice per call; GRT_OK or an error */
int master_self_take(struct master *m, int w);
int master_self_slice(struct master *m, int w);
int master_self_share(struct master *m, struct grt_chunk *c);

/* grt-failure.c: master_late returns 1 (the result was handled) or an error code */
int master_check_deadlines(struct master *m, double now);
int master_late(struct master *m, int w, const struct grt_msg_result *h, const void *res,
    size_t reslen, double now);

/* grt-requeue.c */
int master_requeue(struct master *m, struct outchunk *o);
int master_queue_range(struct master *m, const struct grt_chunk *c);
long master_dequeue(struct master *m);

/* grt-resume.c */
int master_resume_open(struct master *m);

/*
 * grt-master-relay.c: with cfg->relay, connect to the supervisor and fetch the rank map and
 * the journal into their paths (before master_conf and master_resume_open); the events'
 * sink; the journal switched to the relay once replayed; the connection closed at the
 * end. Without cfg->relay they do nothing (events: the file of cfg->events_path).
 */
/*
 * grt-master-disk.c: GRT_OK while the journal and the events are written; GRT_EIO, with
 * the error and the file in rep->why, after a write of either failed.
 */
int master_disk_check(struct master *m);

int master_relay_open(struct master *m);
int master_relay_events(struct master *m);
int master_relay_journal(struct master *m);
void master_relay_close(struct master *m);
int master_resume_clip(struct master *m, struct grt_chunk *c);
void master_resume_round(struct master *m);

/* grt-group.c: GRT_OK or an error code, unless said otherwise */
int master_group_setup(struct master *m);
int master_group_worker(const struct master *m, int rank);
int master_group_notes(struct master *m, const void *res, size_t reslen, double now);
int master_group_settle(struct master *m, int w, const struct outchunk *o, double t_calc,
    double t_exe, const void *res, size_t reslen, double now);
void master_group_stop_orphans(struct master *m, int reason);
void master_group_free(struct master *m);

/* grt-group-events.c: the start record's ranks, the round and end records by rank */
void master_group_ranks(struct master *m);
void master_group_round_event(struct master *m, double now);
void master_group_end_event(struct master *m, double now);

/* grt-master-events.c */
void master_start_event(struct master *m, double now);
void master_round_event(struct master *m, double now);
/* The round record: per rank (m->size) its units and time; mean and sd over those with units. */
void master_round_write(struct master *m, double now, const int64_t *units, const double *exe);
void master_chunk_event(struct master *m, int rank, const struct grt_chunk *c, double t_calc,
    double t_exe, double now);
void master_fail_event(struct master *m, int rank, int64_t requeued, const char *reason,
    double now);
void master_drop_event(struct master *m, int w, double share, double now);
void master_end_event(struct master *m, double now);
void master_resume_event(struct master *m, double now);
/* "master", "master+worker", "sub-master" or "worker" */
const char *master_role(const struct master *m, int rank);

#endif
