/*
 * jobrun.h — one job from its files to its end (see jobrun.c); shared by `run` (foreground)
 * and `submit` (detached supervisor).
 */
#ifndef GS_JOBRUN_H
#define GS_JOBRUN_H

#include <stdio.h>
#include <sys/types.h>

#include "broker/broker.h"
#include "broker/metrics.h"
#include "launch/launch.h"
#include "simulate/simulate.h"
#include "store/jobstore.h"
#include "store/slots.h"
#include "submit/cmd.h"

struct jobrun_args {
	const char *job;	/* the job file */
	const char *sites;	/* site file, or NULL: the configuration's, else the embedded */
	const char *scheme;	/* --scheme, or NULL */
	const char *migration;	/* --migration (runtime.migration), or NULL */
	int ranks;		/* --ranks, or 0 */
	int metrics;		/* 1: fetch live metrics before ranking */
	int speculate;		/* 1: multi-site preflight while mpiexec starts (jobrun.c) */
	int restarts;		/* --restarts, or -1: the job file's restarts: */
	int quiet;		/* run -q: none of gridsubmit's own lines but errors */
	int now;		/* --now: start without waiting for free slots (slots.h) */
	int oversubscribe;	/* --oversubscribe: the job's oversubscribe: true */
	char *const *more_args;	/* after "--": appended to the job file's args */
	int nmore_args;
	/* an experiment's parameters over the job file (job_load_file_overlay_errs), or NULL */
	const struct ydoc_node *overlay;
	const char *overlay_origin;	/* the experiment file, named in their errors */
	/* gridsubmit simulate: the job on SimGrid (simulate.h), or NULL for a real run */
	const struct sim_opts *sim;
};

struct jobrun {
	struct gs_sites sites;
	struct gs_job job;
	struct gs_ranking ranking;
	struct gs_placement place;
	struct job_state st;
	struct launch launch;	/* the launcher's, from jobrun_prepare on */
	int loaded, ranked, placed;
	int speculate;		/* jobrun_args.speculate, for every launch of the job */
	int metrics;		/* 1: fetch live metrics before the first ranking */
	int restarts_max;	/* relaunches this supervisor may make (doc/restarts.md) */
	int restarts_here;	/* relaunches it made */
	int quiet;		/* jobrun_args.quiet: jobrun_report says only a failure */
	int now;		/* jobrun_args.now */
	const struct sim_opts *sim;	/* jobrun_args.sim: simulated, outside the queue */
	struct slots *slots;	/* the slot ledger, while the job is in it (jobrun-queue.c) */
	pid_t top_pid;		/* run --top: the console's process, 0 for none */
	int top_saved_err;	/* our stderr while the console has the terminal, or -1 */
	FILE *top_log;		/* what we wrote to stderr meanwhile, shown after it */
};

/*
 * Load, rank, place, make the job directory and prepare the launch (launch.h): for a
 * multi-site job also the preflight, unless a->speculate leaves it to the launch's start.
 * Returns EXIT_OK, or the exit code with the error printed (and, once the job exists,
 * recorded as failed).
 */
int jobrun_prepare(const struct jobrun_args *a, struct jobrun *jr);

/*
 * Before a simulated job takes an id (jobrun-sim.c): what the simulator cannot represent
 * in its site file, an SMPI build of its program, the memory maps its ranks need. Returns
 * EXIT_OK, or the exit code with every error printed.
 */
int jobrun_sim_check(const struct jobrun *jr);

/*
 * Make a simulated job of a (gridsubmit simulate, an experiment's mode: simulate): o, reset
 * to the defaults (per-node links, seed 1, host_mhz from the site file), becomes a->sim;
 * no restarts, no queue, no live metrics.
 */
void jobrun_sim_args(struct jobrun_args *a, struct sim_opts *o);

/*
 * Load the site file (a->sites, else the configuration file's sites:, else the embedded
 * default) and the job file (with a->overlay), check that its program can run and its
 * stage_in files exist, apply --scheme (else, when the job names none, the configuration
 * file's scheme:) and --ranks. 0, or -1 with every error printed: each file's, and an
 * invalid configuration file's (userconf.h).
 */
int jobrun_load(const struct jobrun_args *a, struct gs_sites *sites, struct gs_job *job);

/*
 * The job directory's job.yaml and sites.yaml (jobrun-jobfile.c), once the job is loaded
 * and its state recorded: a pair that runs as the same job from any directory, `gridsubmit
 * run DIR/job.yaml --sites DIR/sites.yaml`, and that resume loads. Dies on a write error.
 */
void jobrun_write_files(const struct jobrun_args *a, struct jobrun *jr);

/*
 * Where the job's ranks go (jobrun-plan.c), the same for run, submit and rank: a
 * multi-site job's master on this host, live metrics read with mo (NULL: none), the nodes
 * ranked into rk (*ranked), then as many ranks as fit down to the job's min_ranks placed
 * into pl (*placed). Returns EXIT_OK, EXIT_INPUT (no ranking) or EXIT_NOPLACE, with err.
 */
int jobrun_plan(struct gs_sites *sites, const struct gs_job *job, const struct metrics_opts *mo,
    struct gs_ranking *rk, int *ranked, struct gs_placement *pl, int *placed,
    struct gs_error *err);

/*
 * Rank and place the loaded job (its directory made, its state recorded), write the job
 * directory's launch files and prepare the launch. Returns EXIT_OK, or the exit code with
 * the job recorded as failed or cancelled.
 */
int jobrun_place(struct jobrun *jr);

/*
 * Launch and supervise to the end (with the console when top), relaunching after a
 * failure while restarts remain (jobrun-restart.c); returns the exit code.
 */
int jobrun_execute(struct jobrun *jr, int top);

/*
 * The job failed for good: record it failed with reason and the reasons of every earlier
 * restart (state.json's restart_log), say it on stderr when say is 1, return code.
 */
int jobrun_fail(struct jobrun *jr, int code, const char *reason, int say);

/*
 * The launch of jr ended in failure (reason; restartable: 0 when the program itself
 * decided to fail, doc/restarts.md): relaunch it when restarts remain. Finds the failed
 * nodes, places again without them, records the restart and prepares the new launch in
 * the same job directory. Returns EXIT_OK when that launch is ready to start; otherwise
 * the job's end is recorded and its exit code returned.
 */
int jobrun_restart(struct jobrun *jr, const char *reason, int restartable);

/*
 * Record a restart: state.json (restarts, restart_log; written atomically), a restart
 * event in events.jsonl and one line on stderr; the last launch's stdout and stderr are
 * kept as stdout.N and stderr.N. excluded: the nodes left out; resumed: 1 for the restart
 * that `gridsubmit resume` is.
 */
void jobrun_restart_record(struct jobrun *jr, const char *reason, char *const *excluded,
    size_t nexcluded, int resumed);

/*
 * The placed job waits in the queue (slots.h) until it holds the slots of its placement:
 * recorded pending with the reason meanwhile, said on stderr when it changes. Returns a
 * launch_status: LAUNCH_OK when it holds them; LAUNCH_CANCELLED when a cancel signal
 * came first, LAUNCH_FAILED when the ledger cannot be used (why), the prepared launch
 * called off in both cases.
 */
int jobrun_queue_enter(struct jobrun *jr, char *why, size_t whylen);

/* After a relaunch placed the job again: its claims replaced, held at once. */
int jobrun_queue_update(struct jobrun *jr, char *why, size_t whylen);

/* The job has ended: its slots are free. */
void jobrun_queue_leave(struct jobrun *jr);

/* The console of run --top in a process of its own while we supervise (jobrun-top.c). */
void jobrun_top_start(struct jobrun *jr);
void jobrun_top_end(struct jobrun *jr);

/*
 * jobrun_execute in the foreground (run, resume) with the progress line on a terminal
 * (progress.h) unless top or jr->quiet, then jobrun_report; returns the exit code.
 */
int jobrun_follow(struct jobrun *jr, int top);

/*
 * The program's output on stdout (and, when it failed, its stderr on stderr); the final
 * line and where the results are on stderr, unless jr->quiet (then only a failure's line).
 */
void jobrun_report(struct jobrun *jr, int code);

void jobrun_free(struct jobrun *jr);

/*
 * The node-loads feed (jobrun-loads.c; doc/runtime.md, "Node loads"): while the launch
 * of jr runs, when its job's migration is set and not none, a child process writes
 * DIR/loads about every second: the node_load1 of every placed node whose monitor answers.
 * jobrun_loads_start returns the child's pid, or 0 when there is none to start (no
 * migration, a simulated job, no placed node with a monitor); jobrun_loads_stop(pid) ends
 * it (0: nothing) and removes its temporary file.
 */
pid_t jobrun_loads_start(struct jobrun *jr);
void jobrun_loads_stop(const struct jobrun *jr, pid_t pid);

#endif
