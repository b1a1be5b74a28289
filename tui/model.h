/*
 * model.h — the console's picture of a job, aggregated from its events.
 *
 * model_apply() folds one event in (O(1) except for start, round, end and tasks, which
 * touch every rank, a migration, which touches the task lists of its two ranks, and the
 * rare widening of the time line buckets); model_stats() derives the header meters at
 * draw time in O(ranks). Each rank that did something has a track (track.h):
 * its time line for the timeline view and its latest events for the detail view. A
 * relaunch (restart, then a second start) replaces the rank table with the new launch's
 * ranks; a resume counts what the journal held as done; a job's own record can end it
 * when no end event will (model_over). In a run of migratable tasks each rank also has the
 * set of tasks it holds (model-tasks.c): placed by tasks events, moved by migrate events
 * and by a chunk of a task from another rank. Nothing here knows about the terminal, so
 * the same model feeds the screen, --once and --json.
 */
#ifndef TUI_MODEL_H
#define TUI_MODEL_H

#include <stddef.h>

#include "common/events-read.h"
#include "common/node-stat.h"
#include "tui/track.h"

#define MODEL_HIST	64	/* buckets of each rank's unit-rate history */
#define MODEL_LOG	256	/* entries kept in the event log */
#define MODEL_MIG	1024	/* migration times kept for the per-minute rate */

enum rank_state {
	RS_WAITING,
	RS_WORKING,
	RS_DROPPED,
	RS_FAILED,
	RS_DONE,
	RS_MASTER,
	RS_SUBMASTER	/* deals its group's chunks (model-groups.c), computes nothing */
};

struct mrank {
	int known;		/* declared in start, or seen in an event */
	int rank;
	char node[EV_NODE_MAX];
	char site[EV_SITE_MAX];
	int site_idx;
	double pf, pr;
	int master;
	int submaster;		/* role "sub-master" in a hierarchy run (doc/runtime.md) */
	int group;		/* a worker of a group: its sub-master's rank; -1 otherwise */
	int gsize;		/* a sub-master: the workers of its group */
	int gnext;		/* the group's workers as a list: a sub-master's first, a */
				/* worker's next (ascending ids; -1 ends it), so a group's */
				/* sums cost its size, not the job's (model_groups_start) */
	long long units;	/* done, from chunk events (end totals win) */
	long long last_units;	/* of the last chunk, or of the last round */
	long long chunks;
	double t_calc, t_comm;	/* sums */
	double t_idle;		/* from the end event; < 0 until then */
	double perf_f;		/* units / t_exe of the last round or chunk */
	double last_t;		/* time of the last result */
	double last_exe;	/* t_exe of the last chunk */
	double t_stop;		/* dropped or failed at */
	enum rank_state fixed;	/* RS_DROPPED/RS_FAILED once known, else RS_WAITING */
	int round;		/* round of the sums below */
	long long round_units;
	double round_exe;
	char reason[EV_TEXT_MAX];
	float hist[MODEL_HIST];	/* units finished in each bucket of width model.hist_w */
	struct track *track;	/* its time line and latest events; NULL until it has any */
	int *tasks;		/* task run: the tasks it holds, ascending */
	int ntasks, taskcap;
	long long mig_in, mig_out;	/* migrations of a task to it, and from it */
};

struct msite {
	char name[EV_SITE_MAX];
	int nranks;
};

struct mlog {
	double t;
	enum ev_kind kind;
	int rank;		/* the rank concerned, -1 for none */
	int other;		/* migrate: destination rank */
	char text[256];
};

struct model {
	int started, ended;
	char job[EV_NODE_MAX];
	char scheme[EV_SITE_MAX];
	long long n;
	int rounds;
	long long total;	/* N * rounds */
	char status[EV_TEXT_MAX];
	double makespan;

	struct mrank *ranks;	/* indexed by rank id */
	int nranks;		/* highest id + 1 */
	struct msite *sites;
	int nsites;
	int ngroups;		/* sub-masters in the start record: their groups are shown */

	long long done;
	double now;		/* the model clock: seconds since job start */
	double t_last;		/* t of the latest event */
	long long events;
	long long chunks;
	double exe_sum;		/* of all chunks: the default "busy" window of a rank */

	int round_cur;		/* highest round seen in chunks, or last round + 1 */
	int round_done;		/* j of the last round event */
	double round_mean, round_sd;	/* of the last round event */
	int cr_round;		/* the round the running t_exe statistics are of */
	long long cr_n;
	double cr_mean, cr_m2;	/* Welford sums of t_exe in round cr_round */

	int restarts;		/* restart events: the job was relaunched (doc/restarts.md) */
	long long resumed;	/* units the last relaunched master took from its journal */
	long long migrations;
	long long mig_bytes;
	double mig_t[MODEL_MIG];
	int nfailed, ndropped;

	struct mlog log[MODEL_LOG];
	long long nlog;		/* entries ever logged; the newest is log[(nlog-1) % MODEL_LOG] */

	double hist_w;		/* seconds per history bucket; doubles as the job runs */
	float hist_peak;	/* the highest bucket of any rank: the sparklines' scale */
	double track_w;		/* seconds per time line bucket (track.h); doubles too */

	int task_run;		/* migratable tasks: start said "scheme":"tasks", or a tasks event */
	int ntasks;		/* start: T tasks of S steps each; 0 when not said */
	long long steps;
	char migration[EV_SITE_MAX];	/* start: the policy */
	int *task_at;		/* task i is held by rank task_at[i]; -1: not known */
	int nat, atcap;		/* nat > 0: some task's place is known */
	long long restarted;	/* end: tasks restarted after a failure; -1 until said */
	int plain;		/* no start yet: the ranks and their ends from the job directory */
	int nends;		/* plain: ranks whose end is known */
	struct node_stat *nodes;	/* the placed nodes' values from their monitors */
	size_t nnodes;
	unsigned long gen;	/* bumped by every change */
	unsigned long placed;	/* bumped when a rank is given its node or site */
};

/* The ranks that share one node, summed (model-nodesum.c). */
struct mnode_sum {
	int nranks;		/* known ranks on the node, the master among them */
	int lowest;		/* the lowest rank id there: the node's id in the view */
	long long units;
	double t_calc, t_comm;
	double pr;		/* the node's share of the work */
	double perf_f;		/* units per second of the workers' last chunks, summed */
	float hist[MODEL_HIST];	/* units finished in each history bucket, summed */
};

struct model_stats {
	double elapsed;
	long long done, total;
	double pct;		/* done / total, 0..100; NAN when total is unknown */
	double rate;		/* units per second, whole job */
	double eta;		/* seconds; NAN when unknown */
	int round, rounds;
	double sd_exe;		/* of the current round (running), else of the last round */
	double imbalance;	/* percent, see model_stats() */
	double calc, comm, idle;	/* sums over the workers */
	double ratio;		/* calc / comm; INFINITY when comm is 0 */
	double mig_per_min;
	long long migrations;
	int nworkers, nworking, nwaiting, nfailed, ndropped;
	int restarts;		/* relaunches of the job so far */
	int nsites;		/* sites with at least one rank */
};

void model_init(struct model *m);
void model_free(struct model *m);
void model_apply(struct model *m, const struct event *ev);
/*
 * The job is over by its own record (state.json) though no end event said so: cancelled,
 * or failed without one. The clock stops at t (seconds on the events' clock; not before
 * the last event, which is taken when t is not finite) and the job shows as ended with
 * status. Nothing changes when an end event was seen already.
 */
void model_over(struct model *m, double t, const char *status);
/*
 * A job without events so far (a program without libgrt, or one not in grt_run yet), from
 * its directory dir (model-plain.c): its ranks as DIR/rankmap places them, each rank's end
 * as DIR/rank-ends has it (RS_DONE for exit 0, RS_FAILED with "exit N" or "signal N"),
 * and a log entry per end as it comes. Nothing once a start event was seen.
 */
void model_plain(struct model *m, const char *dir);
/*
 * The placed nodes' load and CPU busy share as DIR/nodes has them now (model-nodes.c),
 * replacing what the model had; nothing changes when the file cannot be read. For a job
 * being followed, not a replay: the values are of now, not of the events' time.
 */
void model_nodes(struct model *m, const char *dir);
/* "load 0.52 cpu 13% 1s ago" (cpu "-" not known yet) for s at wall time now, into buf. */
char *model_node_short(const struct node_stat *s, double now, char *buf, size_t len);
/*
 * The ranks on the node of r (its site and node name), summed into s: what several ranks
 * placed on one node do together. A worker whose PERF_F is not known yet adds nothing
 * to it.
 */
void model_node_sum(const struct model *m, const struct mrank *r, struct mnode_sum *s);
/* Add rank o to the sums s (its share; its work unless it is the master). */
void model_sum_add(struct mnode_sum *s, const struct mrank *o);
/*
 * Groups of a hierarchy run (model-groups.c). model_groups_start: after a start record,
 * each sub-master's group size and m->ngroups; a worker whose group names no sub-master
 * is taken as a plain worker; the workers of each group listed through gnext.
 * model_group_sum: the group of sub-master sub summed into s as a node's ranks are
 * (nranks: its workers; lowest: the sub-master), in O(its workers).
 */
void model_groups_start(struct model *m);
void model_group_sum(const struct model *m, const struct mrank *sub, struct mnode_sum *s);
/*
 * The node row of r as the table shows it (model-groups.c): the ranks of r's node in r's
 * group, no sub-master (without groups, every rank of the node: model_node_sum).
 */
void model_group_node_sum(const struct model *m, const struct mrank *r, struct mnode_sum *s);
/*
 * The group of r in words, for its detail: "group of sub-master 1 (node a1, 2 ranks)" for
 * a worker of a group, "sub-master of 2 ranks" for a sub-master, else what it is outside
 * any group ("none: the master", "none: a worker under the master").
 */
char *model_group_text(const struct model *m, const struct mrank *r, char *buf, size_t len);
/* Does rank r share its node with another known rank? */
int model_node_shared(const struct model *m, const struct mrank *r);
/* Move the clock (e.g. replay time, or wall time since the last event); never backwards. */
void model_set_clock(struct model *m, double t);

enum rank_state model_rank_state(const struct model *m, const struct mrank *r);
double model_rank_idle(const struct model *m, const struct mrank *r);
const char *model_state_name(enum rank_state s);
void model_stats(const struct model *m, struct model_stats *st);

/* The newest-first i-th log entry, or NULL. */
const struct mlog *model_log_get(const struct model *m, long long i);
/* Buckets of history filled so far (1..MODEL_HIST). */
int model_hist_len(const struct model *m);
/* The highest unit rate of any rank in any bucket, units/s: one scale for every sparkline. */
double model_rate_peak(const struct model *m);

/*
 * Tasks (model-tasks.c). model_task_put: task goes to rank r (which exists), leaving the
 * rank that held it. model_tasks_reset: no task is anywhere (a tasks event places them all
 * again). model_tasks_free: the ranks' task sets and the task table, freed.
 */
void model_task_put(struct model *m, int task, struct mrank *r);
void model_tasks_reset(struct model *m);
void model_tasks_free(struct model *m);
/*
 * The tasks cell of rank r in at most width characters: its tasks ("3,7"), their count
 * when the list does not fit ("12 tasks"), "spare" for a live worker with none once
 * tasks are placed, else "-".
 */
char *model_tasks_text(const struct model *m, const struct mrank *r, char *dst, size_t sz,
    int width);

/*
 * Fold a chunk, drop, failure or migration into the track of rank r (model-track.c),
 * widening every rank's buckets first when ev->t lies beyond them. Called by model_apply.
 */
void model_track_add(struct model *m, struct mrank *r, const struct event *ev);
/*
 * The rank with this id, created (and put in site "-") the first time it is named; the
 * index of the site of this name, added when new; a line in the event log (ev gives its
 * time and kind). For model.c and model-plain.c.
 */
struct mrank *model_rank(struct model *m, int id);
int model_site_index(struct model *m, const char *name);
void model_log(struct model *m, const struct event *ev, int rank, int other, const char *fmt,
    ...) __attribute__((format(printf, 5, 6)));
/* Free the tracks of every rank (a relaunch, or the end of the model). */
void model_track_free(struct model *m);
/*
 * The timeline row of rank r over [0, span) in cols characters (dst holds cols + 1): its
 * track (track_row), blank from its drop or failure on, and "running" since its last
 * result while it is working.
 */
void model_track_row(const struct model *m, const struct mrank *r, double span, int cols,
    char *dst);

#endif
