/*
 * launch.h — launching and controlling a placed job: the one interface the command line
 * uses (doc/architecture.md, "The launcher interface").
 *
 * A plan (sites, job, ranking, placement, the job's directory and id) goes to the first
 * launcher of launcher.c's table that takes it: "smpi" when the plan is simulated (smpirun
 * on a SimGrid platform of the placement, simulate.h; it starts smpirun, not mpiexec, and
 * no wrapper), "slurm" when some ranks run on nodes of a Slurm site (the ssh launcher
 * inside the allocations that hold those nodes, slurm-site.h), "ssh" when some run
 * elsewhere (hydra's ssh launcher through a script of ours, with preflight, staging, the
 * ranks' lease and the cleanup of every node), else "fork" (every rank on this host,
 * hydra's fork launcher). Each starts its one process from an argument vector (never a
 * shell) in its own process group, every mpiexec rank wrapped by gridsubmit-rank, and
 * records the job's phases in its state.json (store/jobstore.h) as it goes. The command
 * line records the final verdict.
 */
#ifndef GS_LAUNCH_H
#define GS_LAUNCH_H

#include <sys/types.h>

#include "broker/broker.h"
#include "store/jobstore.h"

/* What the command line hands to a launcher; the launcher may replace failed nodes. */
struct launch_plan {
	struct gs_sites *sites;
	const struct gs_job *job;
	struct gs_ranking *ranking;
	struct gs_placement *place;
	struct job_state *st;	/* the job's id and directory; its phases go there */
	int speculate;		/* ssh: start mpiexec while the nodes are checked */
	const struct sim_opts *sim;	/* not NULL: simulate the job on SimGrid (smpi) */
	int quiet;		/* run -q: no line of ours on stderr but errors */
};

/* How mpiexec and rank 0 ended. */
struct launch_result {
	int mpiexec_status;	/* exit status of mpiexec, 128+N when killed by signal N */
	int master_exit;	/* rank 0's exit status, -1 when it died or never ran */
	int master_signal;	/* the signal that killed rank 0, or 0 */
	int cancelled;		/* 1: SIGINT/SIGTERM/SIGHUP arrived and the job was stopped */
	int timed_out;		/* 1: the launch's time_limit ran out and the job was stopped */
	double ran;		/* seconds supervised, from the wait's start to mpiexec's end */
	int killed_stragglers;	/* 1: ranks still ran after rank 0 ended and were killed */
	int plain_stopped;	/* 1: a rank of a program without libgrt failed: all stopped */
	int lease_lost;		/* 1: a node silent on the lease or its proxy dead: stopped */
	int sim_stalled;	/* 1: the simulation stalled, every rank waiting (smpi-stall.c) */
	double sim_stall_at;	/* ... at this simulated time (s), or -1 */
	/*
	 * One byte per node of the plan's sites, 1 for a node the cleanup after a failed
	 * multi-site job could not reach over ssh; NULL when no cleanup looked (freed by
	 * launch_free).
	 */
	unsigned char *lost;
};

/* What prepare and start return. */
enum launch_status {
	LAUNCH_OK = 0,
	LAUNCH_FAILED = -1,	/* why says what failed (a node, a copy, a file) */
	LAUNCH_CANCELLED = -2,	/* a cancel signal arrived; everything started is undone */
};

struct launch;
struct sim_opts;

/*
 * One way of reaching nodes, in the spirit of hydra's bootstrap servers; launcher.c lists
 * them in the order they are tried. Each step gets the launch; prepare and start return a
 * launch_status with why set on failure.
 * - match: 1 when this launcher takes the plan (the first that does is used);
 * - prepare: everything before mpiexec (staging, preflight, the mpiexec command);
 * - start: start mpiexec (the launch's pid is set on LAUNCH_OK);
 * - wait: supervise mpiexec to its end (a cancel signal, or the launch's time_limit
 *   running out, stops it) and fill the result;
 * - cancel: call off a prepared launch that will not start, or stop a started one;
 * - cleanup: after the end, nothing of the job left anywhere, its outputs collected (not
 *   those of a job stopped by a cancel or its time limit);
 * - release: free what prepare allocated (whatever step was reached), l->priv included.
 */
struct launcher {
	const char *name;
	int (*match)(const struct launch_plan *plan);
	int (*prepare)(struct launch *l, char *why, size_t whylen);
	int (*start)(struct launch *l, char *why, size_t whylen);
	void (*wait)(struct launch *l);
	void (*cancel)(struct launch *l);
	void (*cleanup)(struct launch *l);
	void (*release)(struct launch *l);
};

struct launch {
	struct launch_plan plan;
	const struct launcher *ops;
	char **argv;		/* mpiexec's */
	char **env;		/* added to mpiexec's environment ("KEY=VALUE"; NULL: none) */
	pid_t pid;		/* mpiexec, once started */
	/*
	 * Seconds the wait lets mpiexec run (0: no bound). When they run out, the job is
	 * stopped as a cancel stops it, here and on every node, and res.timed_out is set
	 * (doc/restarts.md, "The time limit"). The command line sets it before launch_wait.
	 */
	double time_limit;
	struct launch_result res;
	/*
	 * The launcher's own state: its prepare allocates it, its release frees it, and no one
	 * else looks inside. A launcher that runs another's steps shares that one's state.
	 */
	void *priv;
	/* the launcher's own look, watch(l, watch_arg) about every 50 ms while mpiexec runs */
	void (*watch)(struct launch *l, void *arg);
	void *watch_arg;
};

/*
 * Choose the launcher for plan (the first of launcher.c's table whose match takes it),
 * copy the stage_in files into the job directory and run the launcher's prepare. l is
 * initialised (free it with launch_free whatever the result).
 */
int launch_prepare(struct launch *l, const struct launch_plan *plan, char *why,
    size_t whylen);

/* Start mpiexec; on LAUNCH_OK the job is recorded running. */
int launch_start(struct launch *l, char *why, size_t whylen);

/* Supervise to the end (l->res), then clean up (cleanup step); mpiexec's pid is forgotten. */
void launch_wait(struct launch *l);

/*
 * fn(arg, 0) about every 50 ms while launch_wait supervises mpiexec, and fn(arg, 1) once
 * when the supervision ends, before anything else is said (run's progress line,
 * progress.h); fn NULL: none.
 */
void launch_set_ticker(void (*fn)(void *arg, int last), void *arg);

/*
 * After a multi-site launch that failed (doc/restarts.md): which remote nodes of its
 * placement are out of reach, each with why (allocated, a predicate: "did not answer
 * ssh within 5 s") in why[node] (one slot per node of the plan's sites, NULL for the
 * others): the cleanup could not reach it, its ranks' lease stayed open after they should
 * have ended, or it does not answer `ssh HOST true` within timeout seconds (all nodes in
 * parallel). This host and the master are never named. Returns how many were named.
 */
size_t launch_lost_nodes(struct launch *l, double timeout, char **why);

/* Call off a prepared launch (nothing is left started). */
void launch_cancel(struct launch *l);

void launch_free(struct launch *l);

/* Install the handlers that turn SIGINT/SIGTERM/SIGHUP into a cancel of the running job. */
void launch_catch_signals(void);
/* 1 when a cancel signal has arrived (see launch_catch_signals). */
int launch_cancel_requested(void);
/*
 * The first cancel signal that arrived (0: none) and, in *sender, the process that sent it
 * (kill, gridsubmit cancel), or 0 when the kernel did (Ctrl-C, a hangup of the terminal).
 */
int launch_cancel_origin(pid_t *sender);

#endif
