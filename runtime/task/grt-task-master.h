/*
 * grt-task-master.h — the master of a task run (doc/tasks.md), shared by its files;
 * private to libgrt. The files are listed in grt-task.h.
 */
#ifndef GRT_TASK_MASTER_H
#define GRT_TASK_MASTER_H

#include "runtime/core/grt-events.h"
#include "runtime/core/grt-relay.h"
#include "runtime/task/grt-task-policy.h"
#include "runtime/task/grt-task.h"

#define TM_HIST		10	/* looks of load history kept per worker: the window */

/* A packed state as on the wire: slen bytes of state, then nmsg task messages. */
struct tm_state {
	grt_buf b;
	int64_t slen;
	int nmsg;
	int64_t step;		/* the task's steps done when it was packed */
};

/* Keep a copy of what v carries. */
int tm_state_set(struct tm_state *s, const struct tk_view *v);
void tm_state_free(struct tm_state *s);

/* A task in the master's table. */
struct tm_task {
	int at;			/* the rank holding it, or the one it is on its way to */
	int64_t epoch;		/* of at: every change of place counts one up */
	int64_t done;		/* steps done, as reported */
	int finished;		/* its final state is here */
	int moving;		/* a TK_MOVE is out and its TK_ARRIVED not in */
	int move_from;
	double t_moved;		/* when its last move ended */
	char reason[256];	/* of the move in flight */
	struct tm_state last;	/* the last packed state the master has */
	double step_s;		/* seconds per step where it is (mean of the last ones) */
	double bytes;		/* size of its last packed state */
	struct tm_state final;
};

/* A worker in the master's view. */
struct tm_worker {
	int alive;
	int tasks;		/* tasks at it or on their way to it */
	double last_heard;
	double calc;		/* seconds per step, computing (mean of the last ones) */
	double look_cpu;	/* CPU and compute seconds of its steps since the last look */
	double look_calc;
	double share_best;	/* the largest share of a CPU a look found its steps got */
	double competition;	/* best share over this look's share, less 1; < 0: unknown */
	int64_t steps;		/* totals for the end event */
	double t_calc;
	double t_comm;
	double node_load;	/* node_load1 from the loads file; < 0: not there */
	double hist[TM_HIST];	/* the load figure at the last looks (ring) */
	int nhist;
	int over;		/* looks in a row over the load-abs threshold */
	double rate;		/* bytes per second of the states sent to it */
	double lat;		/* fixed seconds of such a transfer */
	int bye;
	char name[96];		/* "NODE (rank R)", for reasons and errors */
};

/* The checkpoints of every task after the same step: what a rollback goes back to. */
struct tm_line {
	int64_t step;
	int have;		/* tasks in it so far */
	struct tm_state *st;	/* per task: its state, and the messages it sent in step */
};

struct tk_master {
	MPI_Comm comm;
	int size;
	const struct grt_task_app *app;
	const struct grt_config *cfg;
	struct grt_report *rep;
	int ntasks;
	struct tm_task *t;
	struct tm_worker *w;	/* [size], by rank; w[0] is the master */
	struct grt_rankinfo *ri;
	int nri;
	struct grt_events ev;
	struct grt_relay relay;	/* to the supervisor (cfg->relay); fd -1: none */
	struct tk_sends sends;
	grt_buf rbuf;
	int gen;		/* rollbacks so far */
	int messaging;		/* a task sent a message: a failure rolls every task back */
	int nfinished;
	struct tm_line *lines;	/* lines being collected, and lines[0] the last complete */
	int nlines;
	double t0;
	double now;
	double next_look;
	double loads_mtime;
	int suspect;		/* hydra said a rank exited: shorter deadlines */
	int rc;
};

/* grt-task-master.c */
int tm_send(struct tk_master *m, int rank, struct tk_hdr *h, const void *state, size_t slen);
int tm_assign(struct tk_master *m, int task, int rank, const struct tm_state *st);
int tm_locate(struct tk_master *m, int task, int except);
int tm_target(const struct tk_master *m, int except);
const char *tm_node(const struct tk_master *m, int rank);

/* grt-task-report.c: one message from a worker */
int tm_handle(struct tk_master *m, int src);

/* grt-task-look.c: the policy's look at the loads, and a move */
int tm_look(struct tk_master *m);
int tm_move(struct tk_master *m, int task, int to, const char *reason);

/* grt-task-failure.c */
int tm_check_silence(struct tk_master *m);
int tm_checkpoint(struct tk_master *m, const struct tk_view *v);
int tm_lines_init(struct tk_master *m);
void tm_lines_free(struct tk_master *m);

/* grt-task-loads.c: the node loads file, when it changed; the load figure of each worker */
void tm_loads_read(struct tk_master *m);
/* grt-task-look.c: the load figure of worker rank for the policy in force */
double tm_load(const struct tk_master *m, int rank);

/* grt-task-events.c */
void tm_start_event(struct tk_master *m);
void tm_tasks_event(struct tk_master *m, const char *reason);
void tm_step_event(struct tk_master *m, int rank, const struct tk_hdr *h);
void tm_migrate_event(struct tk_master *m, int task, int from, int to, double bytes,
    double seconds);
void tm_fail_event(struct tk_master *m, int rank, const int *tasks, int n, int64_t redo,
    const char *reason);
void tm_end_event(struct tk_master *m);

#endif
