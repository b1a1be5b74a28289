/*
 * grt-task-policy.h — when a task moves, and where (doc/tasks.md, "Policies"): the
 * load-diff and load-abs policies of seed 001, decided on a snapshot of the workers' loads
 * and the tasks' progress. No MPI here: the unit tests drive it directly.
 */
#ifndef GRT_TASK_POLICY_H
#define GRT_TASK_POLICY_H

#include <stdint.h>

/* the values of enum grt_migration (grt.h) */
enum tp_policy { TP_NONE = 0, TP_LOAD_DIFF = 1, TP_LOAD_ABS = 2, TP_ROTATE = 3 };

#define TP_DIFF_THRESHOLD	0.5	/* load-diff: the default rise, and margin */
#define TP_ABS_THRESHOLD	1.5	/* load-abs: the default load */
#define TP_ABS_HOLD		3	/* load-abs: looks in a row over the threshold */
#define TP_BENEFIT_MARGIN	2.0	/* the gain must be this many times the cost */

/* A worker as the master sees it at a look. */
struct tp_worker {
	int alive;
	int tasks;		/* tasks it holds (or that are on their way to it) */
	double mhz;		/* its CPU clock (the rank map); <= 0: unknown, taken as equal */
	double load;		/* the load figure: other processes competing for its CPU */
	double rise;		/* load now less load a window ago */
	int over;		/* looks in a row with load over the threshold */
	double rate;		/* bytes per second of the states sent to it; 0: unknown */
	double lat;		/* seconds a move to it costs whatever its size */
	const char *node;
};

/* A task as the master sees it. */
struct tp_task {
	int at;			/* the worker (index into the worker array) holding it */
	int movable;		/* not ended, not moving, its last move long enough ago */
	int64_t left;		/* steps left */
	double step_s;		/* seconds per step where it is */
	double bytes;		/* its packed state */
};

struct tp_decision {
	int task;
	int to;
	char reason[256];
};

/*
 * The move to make now, if any: 1 with *d filled, 0 for none. threshold <= 0: the policy's
 * default. At most one move per look.
 */
int tp_decide(int policy, double threshold, const struct tp_worker *w, int nw,
    const struct tp_task *t, int nt, struct tp_decision *d);

/* Seconds per step of a task moved from worker a to worker b (b gaining one task). */
double tp_step_after(const struct tp_worker *a, const struct tp_worker *b, double step_s);

#endif
