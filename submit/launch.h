/*
 * launch.h — start one MPI job with MPICH's hydra mpiexec and supervise it to its end:
 * every rank wrapped by gridsubmit-rank, mpiexec run from an argument vector (never a
 * shell), in its own process group so that cancel reaches every process it started.
 */
#ifndef GS_LAUNCH_H
#define GS_LAUNCH_H

#include <sys/types.h>

#include "broker.h"
#include "jobstore.h"

struct launch_result {
	int mpiexec_status;	/* exit status of mpiexec, 128+N when killed by signal N */
	int master_exit;	/* rank 0's exit status, -1 when it died or never ran */
	int master_signal;	/* the signal that killed rank 0, or 0 */
	int cancelled;		/* 1: SIGINT/SIGTERM/SIGHUP arrived and the job was stopped */
	int killed_stragglers;	/* 1: ranks still ran after rank 0 ended and were killed */
};

/*
 * The mpiexec argument vector for the job (NULL-terminated, allocated), or NULL with a
 * message in why (e.g. a node that is not this host: multi-site launch needs ssh).
 */
char **launch_argv(const struct gs_sites *sites, const struct gs_job *job,
    const struct gs_placement *p, const struct job_state *st, char *why, size_t whylen);
void launch_argv_free(char **argv);

/* Start mpiexec in the job directory, output to DIR/stdout and DIR/stderr. */
pid_t launch_start(char **argv, const struct job_state *st);

/*
 * Wait for mpiexec. While it runs: a cancel signal stops the whole process group (SIGTERM,
 * then SIGKILL after a grace period); once rank 0 has ended (DIR/master.status written by
 * gridsubmit-rank), ranks that are still there after a grace period are killed, because
 * after a failure hydra never exits until its last rank does.
 */
void launch_wait(pid_t pid, const struct job_state *st, struct launch_result *res);

/* Install the handlers that turn SIGINT/SIGTERM/SIGHUP into a cancel of the running job. */
void launch_catch_signals(void);

#endif
