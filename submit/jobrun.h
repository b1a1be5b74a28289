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
	const char *job;	/* the job file, or NULL: more_args are the program and its args */
	const char *sites;	/* site file, or NULL: the configuration's, else the embedded */
	const char *scheme;	/* --scheme, or NULL */
	const char *migration;	/* --migration (runtime.migration), or NULL */
	int ranks;		/* --ranks, or 0 */
	int metrics;		/* 1: fetch live metrics before ranking */
	int speculate;		/* 1: multi-site preflight while mpiexec starts (jobrun.c) */
	int restarts;		/* --restarts, or -1: the job file's restarts: */
	int quiet;		/* run -q: none of gridsubmit's own lines but errors */
	int now;		/* --now: start without waiting for free slots (slots.h) */
	const char *time;	/* --time (Slurm's formats, checked), over time_limit:, or NULL */
	int oversubscribe;	/* --oversubscribe: the job's oversubscribe: true */
	char *const *more_args;	/* after "--": appended to the job file's args */
	int nmore_args;
	/* jobrun-nofile.c: run|submit [--name N] [--stage-in F]... [-- PROGRAM ARGS...] */
	const char *cmd;	/* "run", "submit": named in the errors of these options */
	const char *name;	/* --name, or NULL: the job file's, else the program's */
	const char **stage_in;	/* --stage-in, in order: after the job file's stage_in */
	int nstage_in;
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
	double ran;		/* seconds this supervisor's launches ran (the time limit's count) */
	const struct sim_opts *sim;	/* jobrun_args.sim: simulated, outside the queue */
	struct slots *slots;	/* the slot ledger, while the job is in it (jobrun-queue.c) */
	pid_t top_pid;		/* run --top: the console's process, 0 for none */
	int top_saved_err;	/* our stderr while the console has the terminal, or -1 */
	FILE *top_log;		/* what we wrote to stderr meanwhile, shown after it */
	int plain;		/* the last launch never started libgrt: no journal */
	int shared_relaunched;	/* relaunches after evidence every node shared */
};

/* The failed nodes of the last launch (jobrun-restart.c): one slot per node of the sites. */
struct restart_find {
	size_t n;		/* nodes of the sites */
	char **why;		/* "rank 2's node did not answer ssh", or NULL */
	int *strong;		/* 1: out of reach, always left out */
	int *rank;		/* the lowest rank the node had, -1 for none */
};

/*
 * jobrun-ranks.c, the ranks' ends of the last launch (common/rank-end.h): record puts
 * DIR/rank-ends into st (state.json's rank_ends); failure says the first failed rank into
 * reason ("rank 2 on node b3 exited with status 3") and whether a relaunch may mend it (a
 * signal: yes; a status of the program's own: no), 1, or 0 when no rank failed; report is
 * run's last line for a program without libgrt.
 */
void jobrun_ranks_record(struct job_state *st);
int jobrun_ranks_failure(const struct job_state *st, char *reason, size_t len,
    int *restartable);
void jobrun_ranks_report(const struct jobrun *jr);

/*
 * A supervisor's event (o: its record, taken; kind for messages) appended to the job's
 * events.jsonl as one line, made durable: after a torn last line (a master killed while
 * writing) a newline first, so that the record stands on a line of its own. A failed
 * write is a warning (jobrun-restart.c).
 */
void jobrun_event_append(const struct job_state *st, json_t *o, const char *kind);

/*
 * jobrun-disk.c, a full or read-only disk under the job's directory: reserve puts a small
 * reserve file there while the job runs (release removes it), so that a full disk still
 * lets state.json record the failure. failure, after a launch that failed: 1 when a page
 * cannot be written and made durable in the directory, with reason saying the error, the
 * directory and how to resume (the reserve released for the state to be written); 0 when
 * the disk takes writes.
 */
void jobrun_disk_reserve(const struct job_state *st);
void jobrun_disk_release(const struct job_state *st);

/*
 * The supervisor's own fatal error (jobrun-fatal.c): arm, while st's job runs, holds a
 * reserve of memory and descriptors and makes fatal()/fatalx() record the job failed with
 * the message as its reason (unless it already ended); disarm gives the reserve back and
 * records nothing more. release gives the reserve back now, for a write that failed for
 * want of it to be tried again: 1 when there was one.
 */
void jobrun_fatal_arm(struct job_state *st);
void jobrun_fatal_disarm(void);
int jobrun_fatal_release(void);
int jobrun_disk_failure(struct jobrun *jr, char *reason, size_t len);

/*
 * jobrun-resource.c, after a launch that failed: 1 when a process of the job said it had
 * no file descriptor or no memory left (DIR/stderr), with reason quoting it and naming
 * the limit; 0 otherwise.
 */
int jobrun_resource_failure(struct jobrun *jr, char *reason, size_t len);

/*
 * jobrun-cancel.c, a job stopped by a cancel signal: record writes a cancel event and the
 * state cancelled, whose reason (also in reason) says who stopped it ("cancelled by
 * gridsubmit cancel (pid 42, user ana)", "interrupted by Ctrl-C (SIGINT)", "terminated by
 * SIGTERM from pid 7") and, from when (the launch's "cancelled during preflight", or
 * NULL), when; it returns EXIT_CANCELLED. exit is the exit status of run and resume for
 * the job's code: 128+N for signal N that was no cancel, else code.
 */
int jobrun_cancel_record(struct job_state *st, const char *when, char *reason, size_t len);
int jobrun_cancel_exit(const struct job_state *st, int code);

/*
 * Load (a job that runs refused when its site file's testbed is up and the derived file
 * was meant: jobrun_derived_check), rank, place, make the job directory and prepare the
 * launch (launch.h): for a multi-site job also the preflight, unless a->speculate leaves
 * it to the launch's start.
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
 * default) and the job file (with a->overlay; its loader checks its program and stage_in
 * files with the rest), or the job of the command line when there is none
 * (jobrun_nofile_load), apply --name, --stage-in, --scheme (else, when the job names
 * none, the configuration file's scheme:), --ranks and --time. EXIT_OK, or the exit code
 * with every error printed: EXIT_INPUT for each file's and an invalid configuration
 * file's (userconf.h), EXIT_USAGE for the command line's.
 */
int jobrun_load(const struct jobrun_args *a, struct gs_sites *sites, struct gs_job *job);

/*
 * jobrun-derived.c: file (as --sites gave it; NULL: the embedded default), loaded into
 * sites, names a host that does not resolve while the testbed `testbed up file` made is
 * up: said, with the derived site file to use instead, and -1. Else 0.
 */
int jobrun_derived_check(const char *file, const struct gs_sites *sites);

/*
 * A run without a job file (jobrun-nofile.c): the program, a->more_args[0], found as
 * mpiexec finds it (a word without '/' in PATH, else from the current directory), then
 * the job of the command line loaded through the job loader's checks (job_load_doc_errs).
 * EXIT_OK, or EXIT_USAGE with the error printed ("gridsubmit run: nosuch: not found in
 * PATH").
 */
int jobrun_nofile_load(const struct jobrun_args *a, struct gs_job *job);

/*
 * The job file a run without one stands for, as a tree of the loader's keys: name (--name,
 * else the program's base name), program (absolute), args, ranks (--ranks, else 1, as
 * srun and mpiexec start one process). Each node's origin names its option. Allocated.
 */
struct ydoc_node *jobrun_nofile_doc(const struct jobrun_args *a, const char *program);

/*
 * --name and --stage-in on the loaded job (with a job file or without): the name
 * replaced, the files appended to its stage_in (job_stage_in_add). EXIT_OK, or EXIT_USAGE
 * with the error printed ("gridsubmit run: --stage-in: data.txt: No such file or
 * directory").
 */
int jobrun_nofile_apply(const struct jobrun_args *a, struct gs_job *job);

/*
 * The job directory's job.yaml and sites.yaml (jobrun-jobfile.c), once the job is loaded
 * and its state recorded: a pair that runs as the same job from any directory, `gridsubmit
 * run DIR/job.yaml --sites DIR/sites.yaml`, and that resume loads. Dies on a write error.
 */
void jobrun_write_files(const struct jobrun_args *a, struct jobrun *jr);

/*
 * Where rank 0 runs (jobrun-plan.c; doc/broker.md, "Placement"): the site file's master
 * when it names a node of the sites, not left out after a failure and not of a Slurm site
 * (sites->master kept); otherwise, for a multi-site job, this host (sites->master set to
 * its name). Returns 1 with a note for the user in note (len bytes) when the site file
 * named another master, else 0 (note empty). A relaunch that lost the master node calls
 * it again: rank 0 then comes here, where the journal is.
 */
int jobrun_master_place(struct gs_sites *sites, char *note, size_t len);

/*
 * Where the job's ranks go (jobrun-plan.c), the same for run, submit and rank: rank 0
 * where jobrun_master_place says, live metrics read with mo (NULL: none), the nodes
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
 * failure while restarts remain (jobrun-restart.c), within the job's time_limit (the
 * running time of this call's launches added up: doc/restarts.md, "The time limit");
 * returns the exit code.
 */
int jobrun_execute(struct jobrun *jr, int top);

/*
 * The job's time limit (jobrun-timeout.c; doc/restarts.md, "The time limit").
 * jobrun_time_left: the seconds the next launch may run, the job's time_limit less what
 * this supervisor's launches ran (jr->ran); 0 for no limit, and for a simulated job, whose
 * limit is in simulated time (GRT_TIME_LIMIT).
 * jobrun_timeout_stopped: 1 when the launch ended at the limit, stopped by the supervisor
 * (res.timed_out) or by the master (end_status "timeout", the end record's; NULL: none);
 * jobrun_timeout_slurm: 1 when a launch that failed had an allocation that Slurm ended at
 * its own time limit (state TIMEOUT). When they return 1 the job is recorded timeout with
 * the reason (also in reason), its journal kept; else 0.
 */
double jobrun_time_left(const struct jobrun *jr);
int jobrun_timeout_stopped(struct jobrun *jr, const char *end_status, char *reason,
    size_t len);
int jobrun_timeout_slurm(struct jobrun *jr, char *reason, size_t len);

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
 * jobrun-shared.c (doc/restarts.md, "Evidence every node shares"): whether the evidence
 * in f is the nodes' own. JOBRUN_SHARED_ALL: evidence against (nearly) every remote node
 * that had ranks, 3 or more of them: all of it dropped from f. JOBRUN_SHARED_WEAK: weak
 * evidence against more than a quarter of them, 2 or more: the weak evidence dropped.
 * JOBRUN_SHARED_NONE: f as it was. note (len bytes) says which, with the reason most
 * nodes gave, or is empty.
 */
#define JOBRUN_SHARED_NONE	0
#define JOBRUN_SHARED_ALL	1
#define JOBRUN_SHARED_WEAK	2
int jobrun_shared(const struct jobrun *jr, struct restart_find *f, char *note, size_t len);

/*
 * Record a restart: state.json (restarts, restart_log; written atomically), a restart
 * event in events.jsonl and, for a relaunch, one line on stderr; the last launch's stdout
 * and stderr are kept as stdout.N and stderr.N. excluded: the nodes left out; resumed: 1
 * for the restart that `gridsubmit resume` is (resume says it in its own line).
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
 * The node feed (jobrun-loads.c; doc/runtime.md, "Node loads"): while the launch of jr
 * runs, a child process writes DIR/nodes about every second, each placed node's load and
 * CPU busy fraction from its monitor (common/node-stat.h); and, when the job's migration
 * is set and not none, DIR/loads: the node_load1 of every placed node whose monitor
 * answers. jobrun_loads_start returns the child's pid, or 0 when there is none to start (a
 * simulated job, no placed node with a monitor); jobrun_loads_stop(pid) ends it (0:
 * nothing) and removes its temporary files.
 */
pid_t jobrun_loads_start(struct jobrun *jr);
void jobrun_loads_stop(const struct jobrun *jr, pid_t pid);

#endif
