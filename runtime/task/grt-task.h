/*
 * grt-task.h — what the files of a task run share (grt_tasks_run, doc/tasks.md); private
 * to libgrt.
 *
 *   grt-task-run.c      grt_tasks_run, grt_tasks_default: set up, then master or worker
 *   grt-task-wire.c     building and reading messages; the sends still in flight
 *   grt-task-comm-poll.c    sending, receiving, waiting under MPICH: probes, a back-off
 *   grt-task-comm-block.c   ... under SMPI: blocking calls (the Makefile links one)
 *   grt-task-worker.c   a worker: its tasks' steps, moves, checkpoints
 *   grt-task-mail.c     a worker: task messages, their forwarding, grt_task_send/recv
 *   grt-task-master.c   the master: placement, reports, the end
 *   grt-task-failure.c  the master: silent workers, restarts and rollbacks
 *   grt-task-policy.c   when a task moves, and where (load-diff, load-abs, rotate)
 *   grt-task-loads.c    the node loads gridsubmit writes during the run
 *   grt-task-events.c   the events of a task run
 */
#ifndef GRT_TASK_H
#define GRT_TASK_H

#include <stdint.h>

#include "runtime/core/grt-internal.h"
#include "runtime/core/grt-proto.h"
#include "runtime/task/grt-task-proto.h"

#define TK_BEAT_S		1.0	/* a worker says at least this often that it is alive */
#define TK_MSGS_PER_LOOK	64	/* messages handled in a row before the sends are tested */
#define TK_BYE_WAIT_S		5.0	/* at the end, how long sends may take to complete */

/* A task message held by a worker (an inbox) or logged by the master (a checkpoint). */
struct tk_msg {
	struct tk_msg *next;
	int from;
	int to;
	int64_t step;		/* the step it was sent in */
	int taken;		/* received by its task */
	size_t len;
	unsigned char data[];
};

struct tk_msg *tk_msg_new(int from, int to, int64_t step, const void *data, size_t len);
void tk_msg_free_list(struct tk_msg *m);

/* A send in flight: its buffer lives until it completes; then may go on to a second rank. */
struct tk_send {
	struct tk_send *next;
	MPI_Request req;
	grt_buf buf;
	int then;		/* rank to send the same bytes to afterwards, or -1 */
	int then_kind;		/* ... with the header's kind and flags changed to these */
	int then_flags;
};

struct tk_sends {
	MPI_Comm comm;
	struct tk_send *head;
	int failed;		/* a send returned an error (the peer is gone) */
};

/* Send buf (taken over, left empty) to dest; then, when then >= 0, to then as well. */
int tk_post(struct tk_sends *s, int dest, grt_buf *buf, int then, int then_kind,
    int then_flags);
/* A message of the header and slen bytes of state (tk_build), sent to dest (tk_post). */
int tk_send(struct tk_sends *s, int dest, const struct tk_hdr *h, const void *state,
    size_t slen);
/* Complete what has completed. */
void tk_sends_test(struct tk_sends *s);
int tk_sends_pending(const struct tk_sends *s);
/* Cancel nothing, free everything (the requests left are abandoned). */
void tk_sends_free(struct tk_sends *s);

/* A message: the header, then slen bytes of state (state may be NULL with slen 0). */
int tk_build(grt_buf *b, const struct tk_hdr *h, const void *state, size_t slen);
/* Append one task message (its tk_mhdr and bytes) to b. */
int tk_put_msg(grt_buf *b, int from, int to, int64_t step, const void *data, size_t len);
/* The same to a message built by tk_build, counted in its header. */
int tk_build_msg(grt_buf *b, int from, int to, int64_t step, const void *data, size_t len);

/* A received message, read in place. */
struct tk_view {
	struct tk_hdr h;
	const unsigned char *state;	/* h.slen bytes */
	const unsigned char *msgs;	/* h.nmsg (tk_mhdr, bytes) after the state */
	size_t msgs_len;
};

/* GRT_OK, or GRT_EPROTO when n bytes do not hold what the header says. */
int tk_view(const void *buf, size_t n, struct tk_view *v);
/* The task messages of v as a list (allocated; NULL with *rc set on failure or none). */
struct tk_msg *tk_view_msgs(const struct tk_view *v, int *rc);

/* Send len bytes to dest; *req completes when buf may be reused (grt-task-comm-*.c). */
int tk_isend(const void *buf, size_t len, int dest, MPI_Comm comm, MPI_Request *req);

/*
 * Receive the next message of the task protocol, if one waits: 1 with its bytes in b and
 * its source in *src and the seconds its receive took in *secs, 0 when none waits, or an
 * error code (grt-task-comm-*.c).
 */
int tk_recv_any(MPI_Comm comm, grt_buf *b, int *src, double *secs);

/*
 * A rank with nothing to do waits (grt-task-comm-*.c). Under MPICH: one step of the
 * back-off bo, and 0, with *clock the time when the back-off read it (else 0). Under SMPI:
 * blocked until the next message comes; 1 with it as tk_recv_any gives it and *clock the
 * time, after the sends of s are tested (one that goes on to a second rank goes on), or an
 * error code.
 */
int tk_wait(MPI_Comm comm, struct tk_sends *s, struct grt_backoff *bo, grt_buf *b, int *src,
    double *secs, double *clock);

/* A task a worker holds. */
struct tk_task {
	int id;
	void *state;
	int64_t done;		/* steps done: the next step */
	int64_t epoch;		/* of its location */
	int running;		/* its step is on the stack */
	int dead;		/* dropped by a rollback while running: freed when it returns */
	int broken;		/* a callback failed: the master ends the run */
	int move_to;		/* a TK_MOVE waits for the step to end: the rank, or -1 */
	int64_t move_epoch;
	struct tk_msg *inbox;	/* messages to it, sent in step done - 1 or later */
};

/* A step in progress: what grt_task_send and grt_task_recv work on. */
struct grt_task_io {
	struct tk_worker *wk;
	struct tk_task *t;
	struct grt_task_io *outer;	/* the step this one runs inside, or NULL */
	int64_t step;
	double wait;		/* seconds waiting for messages, nested steps excluded */
	double wait_cpu;	/* CPU seconds of this thread meanwhile (nested steps excluded) */
	double nested_wall;	/* seconds of the steps run inside this one */
	double nested_cpu;
	int nsent;
	struct tk_msg *sent;	/* copies of what it sent: one per receiver, checkpoints */
};

/* A worker. */
struct tk_worker {
	MPI_Comm comm;
	int rank;
	int size;
	const struct grt_task_app *app;
	const struct grt_config *cfg;
	struct grt_report *rep;
	int ntasks;
	struct tk_task **held;	/* [ntasks]: the tasks here, or NULL */
	int *loc;		/* [ntasks]: the rank of every task, as last heard */
	int64_t *lepoch;	/* [ntasks]: the epoch of that */
	struct tk_msg *limbo;	/* messages to tasks on their way here */
	struct tk_sends sends;
	grt_buf rbuf;
	int gen;		/* rollback generation */
	int stop;		/* the master said TK_STOP */
	int stop_reason;
	int rc;
	struct grt_task_io *io;	/* the innermost step running, or NULL */
	double last_said;	/* the clock at the last message to the master */
};

/* grt-task-worker.c: handle what has come, test the sends, say alive; GRT_OK or an error */
int wk_progress(struct tk_worker *wk);
/* Wait for something to do (tk_wait), and handle what came; GRT_OK or an error. */
int wk_wait(struct tk_worker *wk, struct grt_backoff *bo);
/* Run one step of t (from the top or inside another's wait). */
int wk_step(struct tk_worker *wk, struct tk_task *t);
/* The held task that is not running and has done fewest steps, fewer than below; or NULL. */
struct tk_task *wk_pick(struct tk_worker *wk, int64_t below);
/* Send the master a message (header, state). */
int wk_tell(struct tk_worker *wk, struct tk_hdr *h, const void *state, size_t slen);

/* grt-task-mail.c */
/* Take m: into a held task's inbox, kept for a task on its way here, or forwarded. */
int mail_route(struct tk_worker *wk, struct tk_msg *m);
/* The messages kept for task (on its way here): taken out of the limbo. */
struct tk_msg *mail_limbo_take(struct tk_worker *wk, int task);
/* Forward what the limbo holds for task, which is now elsewhere. */
int mail_limbo_forward(struct tk_worker *wk, int task);
/* Drop t's inbox messages sent before step `before`. */
void mail_drop_old(struct tk_task *t, int64_t before);

/* The worker's and the master's life (grt-task-worker.c, grt-task-master.c). */
int grt_task_worker(MPI_Comm comm, const struct grt_task_app *app,
    const struct grt_config *cfg, struct grt_report *rep);
int grt_task_master(MPI_Comm comm, const struct grt_task_app *app,
    const struct grt_config *cfg, struct grt_report *rep);

/*
 * Where task starts: worker 1 + task mod (workers - spares), the spares the last ranks
 * (gridsubmit places the best nodes first). Master and workers compute the same table, so
 * only the states travel at the start.
 */
int tk_first_rank(int task, int size, int spare);

/* CPU seconds of this thread (the load signal: a step's CPU time against its wall time). */
double tk_cpu_now(void);

#endif
