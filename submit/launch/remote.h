/*
 * remote.h — local tools run from argument vectors (never a shell string), and commands
 * on nodes over ssh with the options of RELIABILITY.md ("SSH"): one place builds the ssh
 * command line, so preflight, staging, cleanup and hydra's launcher use the same one.
 */
#ifndef GS_REMOTE_H
#define GS_REMOTE_H

#include <sys/types.h>

#include <signal.h>
#include <stddef.h>

#include "site.h"

struct remote_out {
	int status;		/* exit code, 128+N for signal N, -1 when timed out (killed) */
	char *out;		/* stdout, NUL-terminated (capped at 1 MiB) */
	char *err;		/* stderr, NUL-terminated (capped at 64 KiB) */
};

/*
 * Run argv (execvp) with stdin from /dev/null, capture its output, wait at most timeout
 * seconds (<= 0: no limit), then kill it. Returns ro->status.
 */
int remote_run(char *const argv[], double timeout, struct remote_out *ro);
void remote_out_free(struct remote_out *ro);

/* Start argv in its own process group, stdout/stderr to the files (NULL: /dev/null). */
pid_t remote_spawn(char *const argv[], const char *outpath, const char *errpath);

/*
 * Wait for n spawned processes (pids[i] <= 0: none, status[i] untouched) until deadline
 * (CLOCK_MONOTONIC seconds), or until stop() (NULL: never) says to give up; those still
 * running then are killed (their group) and get status -1 (deadline) or -2 (stop).
 * status[i] as in remote_run; ended[i] (ended may be NULL): when process i ended.
 */
/*
 * Waiting for children without polling: block SIGCHLD (the old mask in *old, to restore
 * with sigprocmask), then nap up to ns nanoseconds or until a child ends. Nothing may be
 * forked while it is blocked (the child would inherit the mask).
 */
void remote_child_block(sigset_t *old);
void remote_child_nap(long ns);

void remote_wait_all(const pid_t *pids, int *status, double *ended, size_t n,
    double deadline, int (*stop)(void));

/* The word quoted for POSIX sh: 'a'\''b'. Allocated. */
char *remote_quote(const char *word);

/* A user name ssh and hydra can take: [A-Za-z0-9._-], not starting with '-'. */
int remote_user_valid(const char *user);

/* $GRIDSUBMIT_HOME/ssh: the 0700 directory of the ControlMaster sockets. */
const char *remote_control_dir(void);

/*
 * Write the ssh_config of a job (path): a Host block per node of sites (port, user,
 * identity, host-key policy), then the testbeds' configs ($GRIDSUBMIT_HOME/testbed/
 * [name]/ssh_config), then ~/.ssh/config, then the managed known_hosts
 * ($GRIDSUBMIT_HOME/known_hosts) for every other host. Returns 0, or -1 with why.
 */
int remote_write_ssh_config(const struct gs_sites *sites, const char *path, char *why,
    size_t whylen);

/*
 * The ssh argument vector: ssh -F config -o BatchMode=yes ... [-l user] -- host WORDS,
 * where every word after the host is quoted for the remote shell (words NULL: none;
 * remote_ssh_argv_raw puts cmd, already one shell command line, there instead).
 * Allocated; free with remote_argv_free. NULL when host or user is not valid.
 */
char **remote_ssh_argv(const char *config, const char *user, const char *host,
    char *const words[]);
char **remote_ssh_argv_raw(const char *config, const char *user, const char *host,
    const char *cmd);
void remote_argv_free(char **argv);

/* The fixed ssh options, as "-o" "K=V" pairs ending in NULL (for the launcher script). */
extern const char *const remote_ssh_options[];

#endif
