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
 * only on that state (doc/runtime.md, "The journal").
 *
 * The library never exits the process and never prints: it returns GRT_E* codes, and
 * grt_strerror() turns them into text (grt_report_error() adds what the master knows).
 *
 * Typical program:
 *	MPI_Init(&argc, &argv);
 *	struct grt_config cfg;
 *	grt_config_from_env(&cfg);		// GRT_SCHEME, GRT_K, ... (set by gridsubmit)
 *	struct grt_app app = { .units = n, .rounds = 1, .compute = f, .merge = g, .ctx = &st };
 *	struct grt_report rep;
 *	int rc = grt_run(MPI_COMM_WORLD, &app, &cfg, &rep);
 *	if (rc == GRT_OK && rep.is_master) check_and_write_result(&st);
 *	return grt_end(rc);
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

struct grt_config {
	struct grt_sched_conf sched;	/* scheme and its parameters */
	int swr_auto;			/* pwd: measure SWR from 5 sampled units (seed 002, eq. 3) */
	double deadline;		/* seconds a chunk may take before its worker is failed */
	double deadline_factor;		/* ... or this many times the expected time, if longer */
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
};

/*
 * Defaults overridden by the environment gridsubmit sets for every rank:
 *   GRT_SCHEME   scheme name (default gss)        GRT_K        css chunk size (default 1)
 *   GRT_ALPHA    ngss percent (default 30)         GRT_SWR      pwd ratio 0..1 or "auto"
 *   GRT_DEADLINE seconds per chunk (default 60)    GRT_EVENTS   events.jsonl path
 *   GRT_JOB      job id                            GRT_RANKMAP  rank map file
 *   GRT_EVENTS_CHUNKS 0|1                          GRT_MASTER_COMPUTES 0|1
 *   GRT_ROUNDS   rounds asked for (see cfg->rounds) GRT_PREFETCH auto|0|1
 *   GRT_JOURNAL  the journal's path                GRT_T0       cfg->t_origin
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
 * End the program; every rank of MPI_COMM_WORLD calls it, after its last MPI call. After a
 * failure it only flushes (MPICH 4.0 hangs in MPI_Finalize then). Otherwise the ranks meet
 * in a barrier, and MPI_Finalize runs under a 5 s watchdog (with UCX over tcp it can hang
 * even after a clean run), or not at all when GRT_FINALIZE=skip (gridsubmit sets it: its
 * mpiexec runs with -disable-auto-cleanup). Returns the exit status for main(): 0 when rc
 * is GRT_OK, 1 otherwise; the watchdog exits with that status too.
 */
int grt_end(int rc);

#endif
