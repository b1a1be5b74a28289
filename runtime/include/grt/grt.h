/*
 * grt.h — libgrt, the embedded load-balancing runtime of gridsubmit.
 *
 * A master-worker loop over MPI. The application has N units per round; the master (rank 0)
 * hands out chunks [start, start+count) chosen by a scheme (scheme.h, doc/schemes.md), with
 * an optional input payload the master packs, and gets back a result payload it merges.
 * Iterative applications run several rounds: round j+1 starts only when every result of
 * round j is merged. The master writes the event stream (events.jsonl, doc/runtime.md,
 * "Events").
 *
 * Failures (MPICH 4.0 has no usable ULFM): the master gives every chunk a deadline and uses
 * only non-blocking receives; a worker that died or went silent is declared failed, its
 * outstanding units are requeued to the others, and the run still ends with every unit
 * merged exactly once. After a failure MPI_Finalize would hang, so end the program with
 * grt_end(), which finalizes only when that is safe.
 *
 * The journal (cfg.journal_path, GRT_JOURNAL): the master appends every merged result, and
 * the end of every round, to an append-only file, made durable at least every 0.1 s and at
 * every round's end. When the file exists at start, the master replays it through merge
 * and round_done, in the order they were first called, and computes only the units the
 * journal lacks: a job relaunched after a lost node or a killed master resumes. The
 * contract for an application that uses it: the master's state after a run is rebuilt by
 * replaying merge and round_done in order from the state before them, and pack depends
 * only on that state (doc/runtime.md, "The journal"). The first write of the journal or
 * of the events that fails (a full or read-only disk) ends the run with GRT_EIO, the error
 * and the file in rep->why: the master never computes on unjournaled.
 *
 * The library never exits the process and never prints: it returns GRT_E* codes, and
 * grt_strerror() turns them into text (grt_report_error() adds what the master knows).
 *
 * Typical program, examples/hello/hello.c without its comments (tests/examples/test-hello.sh
 * compiles this copy and runs it with `gridsubmit run -n 2 -- ./hello`). Rank 0 is the master:
 * it deals the units out and merges their results, and computes only when it is alone or
 * cfg.master_computes is set; the other ranks are the workers, so 2 ranks are one worker.
 * The scheme and its parameters come from the GRT_* variables gridsubmit sets (below).
 *
 *	#include <stdio.h>
 *	#include <string.h>
 *	#include <grt/grt.h>
 *
 *	static int
 *	compute(void *ctx, int round, int64_t start, int64_t count, const void *in, size_t inlen,
 *	    grt_buf *out)
 *	{
 *		long long sum = 0;
 *		for (int64_t i = start; i < start + count; i++)
 *			sum += i * i;
 *		return grt_buf_append(out, &sum, sizeof sum);
 *	}
 *
 *	static int
 *	merge(void *ctx, int round, int64_t start, int64_t count, const void *res, size_t len)
 *	{
 *		long long sum;
 *		memcpy(&sum, res, sizeof sum);
 *		*(long long *)ctx += sum;
 *		return 0;
 *	}
 *
 *	int
 *	main(int argc, char **argv)
 *	{
 *		long long total = 0;
 *		struct grt_app app = { .units = 1000, .rounds = 1, .ctx = &total, .compute = compute,
 *		    .merge = merge };
 *		struct grt_config cfg;
 *		struct grt_report rep;
 *		char why[256];
 *		int rc, size;
 *		MPI_Init(&argc, &argv);
 *		MPI_Comm_size(MPI_COMM_WORLD, &size);
 *		if ((rc = grt_config_init(&cfg, NULL, why, sizeof why)) != GRT_OK)
 *			fprintf(stderr, "hello: %s\n", why);
 *		else if ((rc = grt_run(MPI_COMM_WORLD, &app, &cfg, &rep)) != GRT_OK)
 *			fprintf(stderr, "hello: %s\n", grt_report_error(rc, &rep));
 *		else if (rep.is_master)
 *			printf("hello: sum %lld, the master and %d worker(s)\n", total, size - 1);
 *		return grt_end(rc);
 *	}
 */
#ifndef GRT_H
#define GRT_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "grt-error.h"
#include "scheme.h"


/* A growable byte buffer for payloads. */
typedef struct grt_buf {
	unsigned char *data;
	size_t len;
	size_t cap;
} grt_buf;

int grt_buf_reserve(grt_buf *b, size_t cap);	/* cap at least this many bytes */
int grt_buf_append(grt_buf *b, const void *p, size_t n);
void grt_buf_free(grt_buf *b);

struct grt_app {
	int64_t units;		/* N >= 0 units per round */
	int rounds;		/* >= 1 */
	void *ctx;		/* passed to every callback */

	/*
	 * Compute units [start, start+count) of a round, on a worker. in/inlen is the chunk's
	 * input payload (empty without pack). Append the result payload to out (it may stay
	 * empty). Returns 0, or non-zero to fail the run with GRT_EAPP.
	 */
	int (*compute)(void *ctx, int round, int64_t start, int64_t count,
	    const void *in, size_t inlen, grt_buf *out);

	/* Master, optional: the input payload of a chunk, appended to in. */
	int (*pack)(void *ctx, int round, int64_t start, int64_t count, grt_buf *in);

	/*
	 * Master, optional: take a chunk's result. Called once for every unit range: a
	 * duplicate result (a chunk requeued after a deadline whose first worker answered
	 * late) is dropped before it gets here.
	 */
	int (*merge)(void *ctx, int round, int64_t start, int64_t count,
	    const void *res, size_t reslen);

	/* Master, optional: every result of round has been merged. */
	int (*round_done)(void *ctx, int round);
};

/* cfg.prefetch: a worker's second chunk sent before it finished the first (doc/runtime.md) */
enum grt_prefetch {
	GRT_PREFETCH_AUTO = 0,	/* when the latency is more than 5% of a chunk's time */
	GRT_PREFETCH_OFF,
	GRT_PREFETCH_ON,
};

/*
 * cfg.hierarchy: sub-masters between the master and the workers (doc/runtime.md, "The
 * hierarchy"); a value >= 2 is the number of workers under each sub-master.
 */
enum grt_hierarchy {
	GRT_HIER_AUTO = -2,	/* site when the rank map names several sites and the job
				   has GRT_HIER_AUTO_RANKS ranks or more, else none */
	GRT_HIER_SITE = -1,	/* one sub-master per site of the rank map */
	GRT_HIER_NONE = 0,	/* every worker under the master */
};

/* GRT_HIER_AUTO takes sites from this many ranks on (doc/runtime.md, "The hierarchy") */
#define GRT_HIER_AUTO_RANKS	2000

/* cfg.migration: when a task moves (doc/tasks.md, "Policies") */
enum grt_migration {
	GRT_MIGRATE_NONE = 0,
	GRT_MIGRATE_LOAD_DIFF,	/* seed 001 "sched 1": from the node whose load rose most */
	GRT_MIGRATE_LOAD_ABS,	/* seed 001 "sched 2": a node's load stays over threshold */
	GRT_MIGRATE_ROTATE,	/* tests only: every task moves after every step */
};

/* The policy's name in job files and GRT_MIGRATION ("load-diff"), or NULL. */
const char *grt_migration_name(enum grt_migration p);
/* The policy of a name (any case), or -1. "rotate" is known only when tests is 1. */
int grt_migration_parse(const char *name, int tests);

struct grt_config {
	struct grt_sched_conf sched;	/* scheme and its parameters */
	int swr_auto;			/* pwd: measure SWR from 5 sampled units (seed 002, eq. 3) */
	double deadline;		/* GRT_DEADLINE: seconds a chunk may take at least
					   before its worker is failed, and all the first
					   chunks may take; 0 (unset): 2 s, and 60 s for the
					   first (doc/runtime.md, "Failures") */
	double deadline_factor;		/* ... or this many times the expected time, if longer
					   (4) */
	const char *events_path;	/* events.jsonl to append to; NULL: no events */
	const char *job_id;		/* for the start event */
	const char *rankmap_path;	/* rank -> node, site, pf, pr, cpu_mhz (see rankmap below) */
	int events_chunks;		/* 1: a "chunk" event per chunk (default); 0: rounds only */
	int master_computes;		/* 1: rank 0 computes chunks too, in slices between
					   looks for results */
	enum grt_prefetch prefetch;	/* GRT_PREFETCH_AUTO unless set */
	int rounds;			/* GRT_ROUNDS, the job file's runtime.rounds; 0: unset.
					   libgrt runs app->rounds: an application whose number
					   of rounds is free copies this into it when > 0 */
	const char *journal_path;	/* the journal to append to and resume from; NULL:
					   none */
	double t_origin;		/* seconds since the epoch that events' "t" counts
					   from (the job's first launch); 0: this run's start */
	double time_limit;		/* GRT_TIME_LIMIT: seconds of MPI_Wtime (simulated
					   under SMPI) after which the master ends the run,
					   GRT_ETIMEOUT, its merged results journaled; 0: none */

	/* migratable tasks (grt_tasks_run below; doc/tasks.md) */
	enum grt_migration migration;	/* GRT_MIGRATION: the policy; default none */
	double threshold;		/* GRT_THRESHOLD: the policy's load threshold;
					   0: the policy's default */
	int spare;			/* GRT_SPARE: workers kept free as targets */
	int64_t checkpoint_every;	/* GRT_CHECKPOINT_EVERY: steps between two
					   checkpoints of a task; 0: none */
	double move_gap;		/* GRT_MOVE_GAP: seconds between two moves of one
					   task; 0: the default (5 s) */
	const char *loads_path;		/* GRT_LOADS: "node load1" lines that gridsubmit
					   rewrites during the run; NULL: none */
	int hierarchy;			/* GRT_HIERARCHY: enum grt_hierarchy, or the
					   workers per sub-master (>= 2); default
					   GRT_HIER_AUTO. With a sub-master, pack runs
					   on the sub-masters: it may depend only on its
					   arguments and what every rank holds from the
					   start, so a program with pack and more than one
					   round runs without (auto), or is refused with
					   GRT_EINVAL (site, N). The task runtime takes
					   none or auto only */
	const char *relay;		/* GRT_RELAY: ADDR:PORT/KEY of gridsubmit's relay, set
					   when rank 0 runs on a node without the job
					   directory: the rank map and the journal come from
					   it into rankmap_path and journal_path, the events
					   and the journal's records go to it, and a journal
					   commit waits for its acknowledgment (doc/runtime.md,
					   "The relay"); NULL: the files alone */
};

/*
 * Defaults overridden by the environment gridsubmit sets for every rank:
 *   GRT_SCHEME   scheme name (default gss)        GRT_K        css chunk size (default 1)
 *   GRT_ALPHA    ngss percent (default 30)         GRT_SWR      pwd ratio 0..1 or "auto"
 *   GRT_DEADLINE seconds per chunk at least (default: adaptive, see cfg->deadline)
 *   GRT_EVENTS   events.jsonl path
 *   GRT_JOB      job id                            GRT_RANKMAP  rank map file
 *   GRT_EVENTS_CHUNKS 0|1                          GRT_MASTER_COMPUTES 0|1
 *   GRT_ROUNDS   rounds asked for (see cfg->rounds) GRT_PREFETCH auto|0|1
 *   GRT_JOURNAL  the journal's path                GRT_T0       cfg->t_origin
 *   GRT_TIME_LIMIT cfg->time_limit (gridsubmit simulate's time_limit)
 *   GRT_HIERARCHY none|site|auto|N (cfg->hierarchy; default auto)
 * The rank map has one line per rank: "rank node site pf pr cpu_mhz" (whitespace separated,
 * '#' comments); only the master reads it, for PR (pwd), CPU clocks (wstatic, ngss, angss)
 * and the start event. Returns GRT_OK or GRT_EINVAL with the variable's name in *why (when
 * why is not NULL). The strings in cfg point into the environment.
 */
int grt_config_from_env(struct grt_config *cfg, const char **why);

/*
 * The environment as above, then the program's own --scheme (NULL: none). Returns GRT_OK, or
 * GRT_EINVAL with a message for the user in why ("bad GRT_K in the environment",
 * "unknown scheme 'gsss'").
 */
int grt_config_init(struct grt_config *cfg, const char *scheme, char *why, size_t whylen);

/*
 * For benchmarks and tests that slow some ranks down on purpose: the factor of rank in a
 * "RANK:FACTOR,..." list (e.g. "1:2,3:4"); 1 when list is NULL or does not name the rank,
 * -1 when the list is malformed or a factor is below 1.
 */
int grt_rank_factor(const char *list, int rank);

struct grt_report {
	int is_master;		/* 1 on rank 0 */
	int rank;
	double makespan;	/* master: seconds from start to the last merge */
	int failed_ranks;	/* master: workers declared failed */
	int dropped_ranks;	/* master: workers dropped by the scheme */
	int64_t requeued;	/* master: units requeued after failures */
	int64_t units_done;	/* this rank: units computed (master: units merged) */
	double swr;		/* master, pwd: the static workload ratio used */
	int events_lost;	/* master: the event file could not be written completely */
	int64_t resumed;	/* master: units merged from the journal, not computed */
	int journal_lost;	/* master: the journal could not be written completely */
	int64_t migrations;	/* master, tasks: moves done */
	int64_t restarted;	/* master, tasks: tasks started again after a failure */
	char why[512];		/* master: what failed, when it knows more than the code
				   (the journal's path, the record's offset and fault) */
};

/* A failed run in words: rep->why when the master said more, else grt_strerror(rc). */
const char *grt_report_error(int rc, const struct grt_report *rep);

/*
 * Run the application over comm (rank 0 is the master). Collective over comm; returns on
 * every rank. With fewer than 2 ranks the master computes everything itself.
 */
int grt_run(MPI_Comm comm, const struct grt_app *app, const struct grt_config *cfg,
    struct grt_report *report);

/*
 * Migratable tasks (seed 001; doc/tasks.md). Instead of a loop of units, the application
 * declares T long-lived tasks with virtual ids 0..T-1, each with its own state, that all run
 * the same number of steps. The master (rank 0) only coordinates: it places the tasks on the
 * workers (one per worker while there are enough, cfg.spare workers kept free as targets),
 * keeps the table of where each task is, reads the load signals (every step's wall and CPU
 * time, and cfg.loads_path), and moves a task from one worker to another when the policy
 * (cfg.migration) says so. A task moves only between two of its steps: a step, and every
 * message it sends or receives, is a critical section. The master keeps every task's last
 * packed state (at every move and every cfg.checkpoint_every steps): the tasks of a worker
 * that died start again from there, and the result is the same.
 *
 * A worker runs the steps of the tasks it holds, the task with the fewest steps done first.
 * Messages go from task to task by virtual id, also across moves: a message a task sends
 * in step k is the one its receiver gets with grt_task_recv in step k + 1 (and only then:
 * one message per pair of tasks and step; what is not received in step k + 1 is dropped;
 * what is sent in the last step goes nowhere). Each is delivered exactly once: a message to
 * a task that moved is forwarded, and a task that moves takes its waiting messages along.
 *
 * Callbacks: a non-zero return fails the run with GRT_EAPP, naming the task (rep->why).
 */
struct grt_task_io;	/* a step's mailbox, for grt_task_send and grt_task_recv */

struct grt_task_app {
	int tasks;		/* T >= 1 */
	int64_t steps;		/* every task runs steps 0..steps-1 (>= 1) */
	void *ctx;		/* passed to every callback */

	/* Master: the packed initial state of task, appended to st. */
	int (*init)(void *ctx, int task, grt_buf *st);
	/*
	 * Worker: task arrives (at start, after a move, after a restart): make its live state
	 * from the packed bytes into *state.
	 */
	int (*unpack)(void *ctx, int task, const void *data, size_t len, void **state);
	/* Worker: pack the live state, appended to st (a move, a checkpoint, the end). */
	int (*pack)(void *ctx, int task, const void *state, grt_buf *st);
	/* Worker: one step of task; io is valid during the call only. */
	int (*step)(void *ctx, int task, void *state, int64_t step, struct grt_task_io *io);
	/* Worker, optional: free a live state (the task left, or it ended). */
	void (*release)(void *ctx, int task, void *state);
	/*
	 * Master: the packed final state of task, after its last step. Called once per task,
	 * in the order of the ids, when every task has ended.
	 */
	int (*finish)(void *ctx, int task, const void *data, size_t len);
};

/*
 * In a step: send len bytes to task to (copied; another task, 0 <= to < T). GRT_OK, or
 * GRT_EINVAL for a bad id, a second message to the same task in one step, or a call outside
 * a step; GRT_ENOMEM.
 */
int grt_task_send(struct grt_task_io *io, int to, const void *data, size_t len);

/*
 * In step k >= 1: the message task from sent this task in step k - 1, waited for if it has
 * not come yet (other tasks of this worker that are behind run meanwhile). *data stays
 * valid until the step returns. GRT_OK, GRT_EINVAL (bad id, step 0, received twice),
 * GRT_EMASTER when the run is being stopped.
 */
int grt_task_recv(struct grt_task_io *io, int from, const void **data, size_t *len);

/* The task and step an io belongs to (for messages in errors). */
int grt_task_io_task(const struct grt_task_io *io);

/*
 * How many tasks the examples run by default: one per worker that is not a spare (the size
 * of comm, less the master, less cfg->spare), at least 1.
 */
int grt_tasks_default(MPI_Comm comm, const struct grt_config *cfg);

/*
 * Run the tasks over comm (rank 0 the master, at least one worker). Collective over comm;
 * returns on every rank. rep: makespan, failed_ranks, units_done (steps, on every rank),
 * migrations, why. GRT_EINVAL for fewer than 2 ranks or more spares than workers allow.
 */
int grt_tasks_run(MPI_Comm comm, const struct grt_task_app *app, const struct grt_config *cfg,
    struct grt_report *report);

/*
 * End the program; every rank of MPI_COMM_WORLD calls it, after its last MPI call. After a
 * failure it only flushes (MPICH 4.0 hangs in MPI_Finalize then). Otherwise the ranks meet
 * in a barrier, and MPI_Finalize runs under a 5 s watchdog (with UCX over tcp it can hang
 * even after a clean run), or not at all when GRT_FINALIZE=skip (gridsubmit sets it: its
 * mpiexec runs with -disable-auto-cleanup). Returns the exit status for main(): 0 when rc
 * is GRT_OK, 1 otherwise; the watchdog exits with that status too.
 */
int grt_end(int rc);

#endif
