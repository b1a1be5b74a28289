/*
 * grt-master.h — the master's state, shared by the files of rank 0; private to libgrt.
 *
 *   grt-master.c         the master's life: set up, the main loop, tear down
 *   grt-round.c          the start of a round: dropped workers, the scheme's first chunks
 *   grt-sample.c         pwd with SWR auto: five units timed before round 1
 *   grt-dispatch.c       choosing a worker's next chunk and sending it; STOP
 *   grt-merge.c          receiving results, accounting and merging them
 *   grt-self.c           the master's own chunks when it computes too
 *   grt-failure.c        deadlines, failed workers, late answers
 *   grt-requeue.c        the ranges taken back from failed workers
 *   grt-master-events.c  the events the master writes
 */
#ifndef GRT_MASTER_H
#define GRT_MASTER_H

#include <stdint.h>

#include "grt-events.h"
#include "grt-internal.h"

#define SAMPLE_UNITS		5	/* seed 002, sec. 3.3: five sampled iterations */

enum wstate_kind {
	W_IDLE,		/* no chunk; the scheme has nothing more for it this round */
	W_BUSY,		/* a chunk is outstanding */
	W_FAILED,	/* declared failed: missed a deadline */
	W_DROPPED,	/* the scheme cannot balance it; it got STOP */
	W_SELF,		/* the master's own worker slot (master computes) */
};

struct worker {
	enum wstate_kind state;
	int self_idle;		/* W_SELF: nothing more this round */
	int64_t seq;
	struct grt_chunk c;
	int kind;		/* GRT_WORK_CHUNK or GRT_WORK_SAMPLE */
	int from_scheme;	/* the chunk came from grt_sched_next (not a requeue) */
	long rq;		/* index of the chunk in master.rq, or -1 */
	double t_send;
	double deadline;
	MPI_Request sreq;
	grt_buf sbuf;

	int64_t units;		/* totals over the run */
	double t_calc;
	double t_exe;
	int64_t r_units;	/* this round */
	double r_exe;
	double unit_exe;	/* t_exe per unit of its last chunk: for deadlines */
};

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

	struct requeued *rq;	/* every range requeued after a failure, this round */
	size_t nrq;
	size_t caprq;
	size_t nqueued;		/* of them, waiting for a worker */

	int round;
	int64_t merged;		/* units merged in this round */
	int sampling;		/* pwd with swr auto: sampling before round 1 */
	int64_t sample_units[SAMPLE_UNITS];
	double sample_t[SAMPLE_UNITS];
	int nsamples;		/* units to sample */
	int nsampled;		/* sampled so far */
	int sample_next;	/* next unit index to hand out */
	int sampler;		/* worker doing the sampling, -1 none */

	double t0;
	double next_check;
	int64_t seq;
	int failed_now;		/* workers in W_FAILED */
	int suspect;		/* a rank exited (SIGUSR1): shorter deadlines from now on */
	int rc;
};

struct grt_msg_result;

static inline int
w_rank(const struct master *m, int w)
{
	return w + m->off;
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

/* grt-merge.c: master_poll returns 1 when a result was handled, 0 when none waits */
int master_poll(struct master *m);
int master_done(struct master *m, int w, const struct grt_chunk *c, int from_scheme,
    double t_calc, double t_exe, const void *res, size_t reslen, double now);

/* grt-self.c */
int master_compute_self(struct master *m, int w);

/* grt-failure.c: master_late returns 1 (the result was handled) or an error code */
double master_deadline(const struct master *m, const struct worker *wk, double now);
int master_check_deadlines(struct master *m, double now);
int master_late(struct master *m, int w, const struct grt_msg_result *h, const void *res,
    size_t reslen, double now);

/* grt-requeue.c */
int master_requeue(struct master *m, struct worker *wk);
long master_dequeue(struct master *m);

/* grt-master-events.c */
void master_start_event(struct master *m, double now);
void master_round_event(struct master *m, double now);
void master_chunk_event(struct master *m, int rank, const struct grt_chunk *c, double t_calc,
    double t_exe, double now);
void master_fail_event(struct master *m, int rank, int64_t requeued, const char *reason,
    double now);
void master_drop_event(struct master *m, int w, double share, double now);
void master_end_event(struct master *m, double now);

#endif
