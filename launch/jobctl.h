/*
 * jobctl.h — the processes of a job on this host, seen through /proc: whether its
 * supervisor still lives, which processes still belong to the job, and stopping them.
 * Shared by status, list, wait, logs (a dead supervisor) and cancel (no process left).
 */
#ifndef GS_JOBCTL_H
#define GS_JOBCTL_H

#include <sys/types.h>

#include "store/jobstore.h"

/*
 * 1 when the job's supervisor (the process that records its end) still runs: the pid
 * exists, is the user's own, is no zombie, and is the same process (start time, or a gridsubmit command line
 * for states that recorded no start time). 0 otherwise.
 */
int jobctl_supervisor_alive(const struct job_state *st);

/* Wait up to secs for the job's supervisor to end, polling; 1 when it did, 0 when not yet. */
int jobctl_supervisor_wait(const struct job_state *st, double secs);

/*
 * A job that is not final and whose supervisor is dead will never be recorded by it: record
 * it as failed ("supervisor died"), so that status, wait and list agree and the check is
 * not repeated. Returns 1 when it recorded that (st updated), 0 when nothing changed (st
 * re-read if it became final meanwhile), -1 with why set on error.
 */
int jobctl_refresh(struct job_state *st, char *why, size_t whylen);

/* The reason jobctl_refresh records. */
#define JOBCTL_SUPERVISOR_DIED	"supervisor died"

struct jobctl_proc {
	pid_t pid;
	unsigned long long start;
	char what[120];		/* "1234 gridsubmit-rank --status ..." for messages */
};

/*
 * The live processes of the job on this host, among the user's own only (another uid's
 * are skipped before anything of them is read): mpiexec's process group while its leader
 * is the recorded mpiexec (same start time), every gridsubmit-rank whose --status file is
 * in the job directory, the hydra proxies that started them, the launcher scripts and
 * their ssh (by the job's ssh-launcher and ssh_config in their arguments), and every
 * process whose environment names the job's events file or carries its tag (the ranks'
 * programs and their children). Only processes in our network namespace: another one is
 * another node (the testbed's), reached over ssh (jobctl-remote.h). Returns how many,
 * with an allocated array in *procs (NULL when none).
 */
size_t jobctl_processes(const struct job_state *st, struct jobctl_proc **procs);

/*
 * Stop the job's processes: SIGTERM (mpiexec stops its proxies and ranks), SIGKILL
 * to those left after grace seconds, and give up after limit seconds. Returns how many
 * processes remain, listed in *left (allocated, NULL when none); *seen gets how many there
 * were at the start.
 */
size_t jobctl_stop(const struct job_state *st, double grace, double limit,
    struct jobctl_proc **left, size_t *seen);

#endif
