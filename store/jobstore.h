/*
 * jobstore.h — the job directories: the state directory (common/home.h: $GRIDSUBMIT_HOME,
 * or $XDG_STATE_HOME/gridsubmit, or ~/.local/state/gridsubmit) / jobs / ID /. Ids are never
 * reused. The state file, state.json, is written atomically (common/file.h), so a crash
 * never leaves half of it. A library: every function returns a code, with a reason where
 * the caller needs one, and never ends the process; the command line says and exits.
 */
#ifndef GS_JOBSTORE_H
#define GS_JOBSTORE_H

#include <stddef.h>
#include <jansson.h>
#include <stdint.h>

#include "common/rank-end.h"

enum job_phase {
	JOB_BROKERING,
	JOB_PENDING,		/* placed, waiting in the queue for its slots (slots.h) */
	JOB_STAGING,
	JOB_LAUNCHING,
	JOB_RUNNING,
	JOB_DONE,
	JOB_FAILED,
	JOB_CANCELLED,
	JOB_TIMEOUT,		/* stopped at its time limit (reason: which, after how long) */
};

/*
 * A Slurm allocation that holds nodes of a Slurm site for the job (slurm-site.h): asked
 * for with sbatch through the site's login host. Recorded as soon as Slurm names its id,
 * so that `cancel` and `status` find it whatever became of the supervisor.
 */
enum job_alloc_end {
	JOB_ALLOC_HELD,		/* held for the job (or pending) */
	JOB_ALLOC_RELEASED,	/* gridsubmit released it (scancel) */
	JOB_ALLOC_ENDED,	/* Slurm ended it: time limit, preemption, node failure */
};
struct job_alloc {
	char *site;		/* the site's name */
	char *login;		/* its login host */
	char *id;		/* Slurm's job id */
	char **hosts;		/* the nodes asked for */
	size_t nhosts;
	char *state;		/* Slurm's state, as last seen: "PENDING", "RUNNING", ... */
	char *reason;		/* Slurm's reason, as last seen ("Resources"), or NULL */
	enum job_alloc_end released;
};

/* One relaunch of the job (doc/restarts.md): when, why, and the nodes left out. */
struct job_restart {
	double time;		/* seconds since the epoch */
	char *reason;
	char **excluded;	/* host names */
	size_t nexcluded;
};

struct job_state {
	char id[32];
	char *name;
	char *job_file;		/* absolute path of the submitted job file */
	char *dir;		/* the job directory */
	enum job_phase phase;
	char *reason;		/* why failed/cancelled/timeout, or NULL */
	double submitted;	/* seconds since the epoch */
	double started;		/* the first launch's (a relaunch keeps it) */
	double ended;
	int ranks;
	char *scheme;
	long supervisor_pid;
	long mpiexec_pid;
	/* start times (clock ticks since boot, /proc/PID/stat) that tell a recycled pid apart */
	unsigned long long supervisor_start;
	unsigned long long mpiexec_start;
	int exit_code;		/* of mpiexec, -1 until it ended */
	int failed_ranks;
	int64_t requeued;
	double makespan;
	/* whether the last launch's program started libgrt: 1, 0 (a plain MPI program: no
	   scheme, no makespan), -1 not known yet */
	int libgrt;

	/* relaunches (doc/restarts.md) and what resume needs to load the job again */
	double t0;		/* GRT_T0: the first launch's time origin, whole ms; 0 unset */
	int restarts;		/* relaunches so far, resumes included */
	int restarts_max;	/* the current supervisor's bound (restarts: or --restarts) */
	struct job_restart *restart_log;	/* one entry per restart, oldest first */
	size_t nrestart_log;
	char *sites_file;	/* absolute path of the --sites file (DIR/sites.yaml), or NULL */
	int ranks_option;	/* --ranks, 0 when not given */
	int no_metrics;		/* 1: --no-metrics was given */

	/* the Slurm allocations of every launch, oldest first (jobstore-alloc.c) */
	struct job_alloc *allocs;
	size_t nallocs;

	/* how each rank of the last launch ended, in the order they ended (jobstore-ranks.c) */
	struct rank_end *rank_ends;
	size_t nrank_ends;
};

const char *job_phase_name(enum job_phase p);

/* Seconds since the epoch as state.json writes them (ISO 8601 UTC, ms); "" for 0. */
void jobstore_format_time(double t, char *buf, size_t len);

/* jobstore_format_time's text back to seconds; -1 when malformed. */
double jobstore_parse_time(const char *s);

/* For JSON documents: a time as jobstore_format_time, or null for 0. */
json_t *jobstore_json_time(double t);

/*
 * A new job: the next id (jobs/next-id, under the store's lock) and its directory, with st
 * (filled by the caller, st->id and st->dir excepted) written as its first state.json.
 * Fills st->id and st->dir and returns 0; or -1 with why, and then nothing of the job is
 * left: an id taken is skipped, never handed out again. When jobs/next-id is missing, ids
 * go on after the highest job directory; a next-id that is not a number is refused, and
 * so is a jobs/ that is not the user's or that others can write (doc/security.md).
 */
int jobstore_create(struct job_state *st, char *why, size_t whylen);

/*
 * The job's state as state.json and `status --json` both hold it (gridsubmit-json(5)):
 * id (a number), name, state, reason, submitted, started, ended, job_file, ranks, scheme,
 * supervisor_pid, restarts, restarts_max, restart_log, allocations and rank_ends. NULL when it cannot
 * be built (a text that is not UTF-8, or out of memory).
 */
json_t *jobstore_state_json(const struct job_state *st);

/* The schema_version of the state.json this gridsubmit writes (1 is read too). */
#define JOBSTORE_SCHEMA_VERSION	2

/*
 * Write st to DIR/state.json atomically: jobstore_state_json and what only the store keeps
 * (pids' start times, mpiexec's exit status, what resume needs). Returns 0, or -1 with errno
 * (EILSEQ: the document cannot be built).
 */
int jobstore_write_state(const struct job_state *st);

/*
 * The job enters phase (reason: why it failed or was cancelled, else NULL): st updated, the
 * start time set on the first JOB_RUNNING, the end time on a final phase, and written. 0,
 * or -1 with errno.
 */
int jobstore_set_phase(struct job_state *st, enum job_phase phase, const char *reason);

void job_state_free(struct job_state *st);

/*
 * The fields of state.json that resume needs (t0, sites_file, ranks_option, metrics) into
 * the state document o (0, or -1 when one cannot be set), and back with the restart fields
 * (jobstore-restart.c); decoding returns JOBSTORE_OK, or JOBSTORE_BAD with why.
 */
int jobstore_resume_to_json(const struct job_state *st, json_t *o);
int jobstore_restarts_from_json(json_t *o, struct job_state *st, const char *path, char *why,
    size_t whylen);
void jobstore_restarts_free(struct job_state *st);

/*
 * jobstore-alloc.c: the "allocations" field of state.json. jobstore_alloc_add appends one
 * (copies of its strings; state "SUBMITTED") and returns it; set_state records Slurm's
 * state and reason (NULL: none) in it; to_json sets the field in o (0, or -1 when it
 * cannot be built).
 */
struct job_alloc *jobstore_alloc_add(struct job_state *st, const char *site,
    const char *login, const char *id, char *const *hosts, size_t nhosts);
void jobstore_alloc_set_state(struct job_alloc *a, const char *state, const char *reason);
int jobstore_allocs_to_json(const struct job_state *st, json_t *o);
int jobstore_allocs_from_json(json_t *o, struct job_state *st, const char *path, char *why,
    size_t whylen);
void jobstore_allocs_free(struct job_state *st);

/*
 * jobstore-ranks.c: the "rank_ends" field of state.json, [{rank, node, host, exit, signal,
 * ended}] (exit null when a signal killed the rank, signal null otherwise). set replaces
 * st's with a copy of the n at v; json builds the field (NULL when it cannot); from_json
 * reads it back (JOBSTORE_OK, or JOBSTORE_BAD with why).
 */
void jobstore_rank_ends_set(struct job_state *st, const struct rank_end *v, size_t n);
json_t *jobstore_rank_ends_json(const struct job_state *st);
int jobstore_rank_ends_from_json(json_t *o, struct job_state *st, const char *path, char *why,
    size_t whylen);
void jobstore_rank_ends_free(struct job_state *st);

/*
 * The restart log as state.json and status --json hold it: [{time, reason, excluded}];
 * NULL when it cannot be built.
 */
json_t *jobstore_restart_log_json(const struct job_state *st);

/* Add a restart to st's log (not written: jobstore_write_state does). */
void jobstore_restart_add(struct job_state *st, double when, const char *reason,
    char *const *excluded, size_t nexcluded);

/*
 * Lock the job directory (the lock jobstore_record_end takes): a file descriptor to
 * close to unlock, or -1 with why. Two resumes of one job take turns through it.
 */
int jobstore_lock(const char *dir, char *why, size_t whylen);

/*
 * 1 when the job has ended (done, failed, cancelled, timeout): nothing will change its
 * state.
 */
int job_phase_final(enum job_phase p);

/* What jobstore_read_state and friends return. */
enum {
	JOBSTORE_OK = 0,
	JOBSTORE_NOJOB = -1,	/* no such job (or a malformed id) */
	JOBSTORE_BAD = -2,	/* the state file is missing, torn, corrupt or unreadable */
	JOBSTORE_ERROR = -3,	/* the store cannot be used (home.h: no place, not ours) */
	JOBSTORE_LIVE = -4,	/* the job has not ended (jobstore_purge) */
};

/*
 * Copy a job id given on the command line, normalised ("007" -> "7"), into id. Returns 0,
 * or -1 when it is not a positive decimal number (ids are never paths).
 */
int jobstore_parse_id(const char *arg, char *id, size_t idlen);

/*
 * The directory of job id (allocated); the job need not exist. NULL with why when the store
 * cannot be used (its root or jobs/ not the user's alone, doc/security.md).
 */
char *jobstore_job_dir(const char *id, char *why, size_t whylen);

/*
 * Read a job's state.json (schema_version 1, whose id is a string, or 2), by id ("12") or
 * by directory (anything with a '/'). Fills st (free with job_state_free) and returns
 * JOBSTORE_OK; otherwise returns JOBSTORE_NOJOB, JOBSTORE_BAD or JOBSTORE_ERROR with a
 * message for the user in why ("job 12: no such job", or the file's path and what is wrong
 * with it). Never dies on bad content. What it does not trust is JOBSTORE_BAD: a job
 * directory or state.json that is a symbolic link, another user's, or writable by group
 * or others; a pid of 1 or below 0; an allocation whose login, id or hosts are not a
 * host name or digits (doc/security.md).
 */
int jobstore_read_state(const char *id_or_dir, struct job_state *st, char *why,
    size_t whylen);

/*
 * The highest job id in the store into id: JOBSTORE_OK; JOBSTORE_NOJOB when there is no
 * job ("no job yet in ROOT/jobs" in why), or JOBSTORE_ERROR with why.
 */
int jobstore_latest_id(char *id, size_t idlen, char *why, size_t whylen);

/*
 * The ids of every job directory, oldest (smallest) first, into *ids: an allocated array
 * of allocated strings (NULL when there is none), its length in *n. 0, or -1 with why
 * (*ids NULL, *n 0). Free with jobstore_list_free. Like every function here that only
 * reads (jobstore_read_state, jobstore_latest_id, jobstore_job_dir), it never makes the
 * store (home_find): one not made yet holds no job.
 */
int jobstore_list(char ***ids, size_t *n, char *why, size_t whylen);
void jobstore_list_free(char **ids, size_t n);

/* What jobstore_purge removed, or would remove. */
struct jobstore_purged {
	char id[32];
	char *name;		/* or NULL */
	enum job_phase phase;
	long long bytes;	/* of its files (common/fstree.h's fstree_size) */
};

/*
 * jobstore-purge.c: remove an ended job, its state and its directory in one step (renamed
 * out of the store, then removed), under its lock with its state read again, so that no
 * command ever sees half of it and a resume cannot bring it back meanwhile; ids stay never
 * reused (jobs/next-id is kept). With dry_run, only out is filled. Returns JOBSTORE_OK
 * with out filled (free with jobstore_purged_free); JOBSTORE_LIVE (not ended: nothing
 * done), JOBSTORE_NOJOB, JOBSTORE_BAD or JOBSTORE_ERROR with why.
 */
int jobstore_purge(const char *id, int dry_run, struct jobstore_purged *out, char *why,
    size_t whylen);
void jobstore_purged_free(struct jobstore_purged *p);

/*
 * What a purge interrupted by a crash left (jobs/.purge-ID, no longer a job) removed: the
 * number removed, or -1 with why when the store cannot be used.
 */
int jobstore_purge_leftovers(char *why, size_t whylen);

/*
 * Record the end of a job that its supervisor can no longer record (it died, or cancel
 * killed it): under a lock of the job directory, re-read the state; when it is already
 * final, st becomes that state and 0 is returned; otherwise phase, reason and the end time
 * are written and 1 is returned. -1 with why set when the state cannot be read or written.
 */
int jobstore_record_end(struct job_state *st, enum job_phase phase, const char *reason,
    char *why, size_t whylen);

#endif
