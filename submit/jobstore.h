/*
 * jobstore.h — the job directories: $GRIDSUBMIT_HOME (or $XDG_STATE_HOME/gridsubmit, or
 * ~/.local/state/gridsubmit) / jobs / ID /. Ids are never reused. The state file is written
 * atomically (temp, fsync, rename, fsync the directory), so a crash never leaves half of it.
 */
#ifndef GS_JOBSTORE_H
#define GS_JOBSTORE_H

#include <stdint.h>

enum job_phase {
	JOB_BROKERING,
	JOB_STAGING,
	JOB_LAUNCHING,
	JOB_RUNNING,
	JOB_DONE,
	JOB_FAILED,
	JOB_CANCELLED,
};

struct job_state {
	char id[32];
	char *name;
	char *job_file;		/* absolute path of the submitted job file */
	char *dir;		/* the job directory */
	enum job_phase phase;
	char *reason;		/* why failed/cancelled, or NULL */
	double submitted;	/* seconds since the epoch */
	double started;
	double ended;
	int ranks;
	char *scheme;
	long supervisor_pid;
	long mpiexec_pid;
	int exit_code;		/* of mpiexec, -1 until it ended */
	int failed_ranks;
	int64_t requeued;
	double makespan;
};

const char *job_phase_name(enum job_phase p);

/* The store's root, created (0700) if needed; dies with a message when unusable. */
const char *jobstore_root(void);

/* A new job: a fresh id and its directory. Fills st->id and st->dir. */
void jobstore_create(struct job_state *st);

/* Write st to DIR/state.json atomically. Returns 0, or -1 with errno. */
int jobstore_write_state(const struct job_state *st);

/* Write a whole file atomically in dir (temp + fsync + rename). Returns 0 or -1. */
int jobstore_write_file(const char *dir, const char *name, const void *data, size_t len);

void job_state_free(struct job_state *st);

#endif
