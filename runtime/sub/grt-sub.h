/*
 * grt-sub.h — a sub-master's state, shared by the files of runtime/sub/; private to libgrt
 * (doc/runtime.md, "The hierarchy").
 *
 *   grt-sub.c        its life: the master's ROLE read, the loop, STOP passed on
 *   grt-sub-deal.c   the master's chunks cut by the job's scheme into pieces for its
 *                    workers, their results gathered and sent back whole
 *   grt-sub-fail.c   deadlines of its workers; a silent one's pieces requeued in the group
 *
 * To the master a sub-master is one worker whose speed is its workers' sum; to its workers
 * it is their master. It holds up to SUB_CHUNKS of the master's chunks (the second sent
 * while it computes the first: the wide-area trip hidden) and gives each worker up to
 * SUB_DEPTH pieces (its local trip hidden).
 */
#ifndef GRT_SUB_H
#define GRT_SUB_H

#include <stdint.h>

#include "runtime/core/grt-internal.h"
#include "runtime/core/grt-proto.h"

#define SUB_CHUNKS	2	/* the master's chunks in hand */
#define SUB_DEPTH	2	/* pieces outstanding at one worker */

/* A piece of one of the master's chunks, sent to a worker and not answered yet. */
struct sub_piece {
	int64_t seq;
	int64_t gseq;		/* the master's chunk it belongs to */
	struct grt_chunk c;	/* units of the loop */
	struct grt_chunk local;	/* the same units, counted from the chunk's start */
	int from_scheme;
	MPI_Request sreq;
	grt_buf sbuf;
};

struct sub_worker {
	int rank;
	int failed;		/* silent past its deadline: nothing more for it */
	struct sub_piece out[SUB_DEPTH];	/* a ring: out[head] is being computed */
	int head;
	int nout;
	double t_head;		/* when out[head] started */
	int blind;		/* out[head] started before anything was measured */
	int64_t units;
	double t_exe;
	double unit_exe;	/* of its last piece */
	struct grt_msg_member info;
};

/* One of the master's chunks: the scheme's pieces, the ranges requeued, the parts back. */
struct sub_chunk {
	struct grt_msg_work w;
	grt_sched *sched;
	struct grt_chunk *rq;	/* ranges of failed workers' pieces, to hand out again */
	size_t nrq;
	size_t caprq;
	int64_t left;		/* units not answered yet */
	double t_start;		/* the first piece's send */
	double t_calc;		/* the workers' compute time, summed */
	grt_buf res;		/* a RESULT header, then every part */
};

struct sub {
	MPI_Comm comm;
	const struct grt_app *app;
	const struct grt_config *cfg;
	struct grt_report *rep;
	int nw;
	struct sub_worker *w;
	int *index;		/* rank -> worker index, or -1 */
	int size;
	int me;			/* this rank */
	struct grt_sched_conf conf;	/* the job's scheme, the workers' PR and clocks */
	double *pr;
	double *cpu;
	struct sub_ring {
		struct sub_chunk c[SUB_CHUNKS];
		int head;
		int n;
	} ch;
	grt_buf rbuf;		/* received */
	grt_buf obuf;		/* the result on its way to the master */
	MPI_Request oreq;
	grt_buf notes;		/* failure notices for the next result */
	int64_t seq;
	double unit_exe_max;	/* slowest per-unit time of any piece: deadlines */
	double next_check;
	int failed;		/* workers declared failed */
	int suspect;		/* a rank exited (SIGUSR1): shorter deadlines from now on */
	int stopped;		/* the master's STOP came */
	struct grt_msg_stop stop;
};

/* grt-sub-deal.c: GRT_OK or an error code */
int sub_chunk_add(struct sub *s, const struct grt_msg_work *w, double now);
int sub_assign(struct sub *s, int i, double now);
int sub_assign_all(struct sub *s, double now);
int sub_result(struct sub *s, int i, const grt_buf *in, double now);
void sub_chunks_free(struct sub *s);

/* grt-sub-fail.c */
int sub_check_deadlines(struct sub *s, double now);
int sub_requeue(struct sub_chunk *ch, const struct grt_chunk *local);

static inline struct sub_chunk *
sub_chunk_at(struct sub *s, int k)
{
	return &s->ch.c[(s->ch.head + k) % SUB_CHUNKS];
}

#endif
