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
 * message in why. Ranks all on this host: hydra's fork launcher. Otherwise (multi-site):
 * -launcher ssh -launcher-exec DIR/ssh-launcher (a script of ours running ssh with the
 * options of remote.c and DIR/ssh_config), -iface toward the nodes, -genvnone with explicit
 * -genv, UCX_TLS=self,tcp. Rank 0 then runs on this host (doc/testbed.md, "Launch").
 * With hold (NULL: none), the job is held until its checks have passed (a speculative
 * launch, doc/architecture.md).
 */
struct launch_hold {
	const char *gate;	/* rank 0 waits at this FIFO before it starts the program (gate.h) */
	const char *checks;	/* each node's session runs this before the proxy (preflight.h) */
};
char **launch_argv(const struct gs_sites *sites, const struct gs_job *job,
    const struct gs_placement *p, const struct job_state *st, const struct launch_hold *hold,
    char *why, size_t whylen);
void launch_argv_free(char **argv);

/* What launch_ssh_setup() found: the job's ssh_config, the interface toward the nodes. */
struct launch_net {
	char *config;		/* DIR/ssh_config */
	char iface[64];		/* hydra's -iface */
	char addr[64];		/* this host's address on it: what nodes connect back to */
};

/* 1 when host is this machine (no ssh needed). */
int launch_host_is_local(const char *host);
/* 1 when a rank of p runs on another host; launch_sites_remote: a node of sites does. */
int launch_is_remote(const struct gs_sites *sites, const struct gs_placement *p);
int launch_sites_remote(const struct gs_sites *sites);
/* gridsubmit-rank next to this gridsubmit; hydra_pmi_proxy where hydra will use it. */
char *launch_rank_wrapper(void);
char *launch_proxy_path(void);
/* The local interface and address toward host as ssh reaches it. 0, or -1 with why. */
int launch_route(const char *config, const char *host, char *ifname, size_t iflen,
    char *addr, size_t addrlen, char *why, size_t whylen);

/*
 * Write DIR/ssh_config and DIR/ssh-launcher and find the interface toward the remote
 * ranks of p. checks (NULL: none): a command every node runs before its proxy, which
 * starts only when it succeeds. Returns 0, or -1 with why.
 */
int launch_ssh_setup(const struct gs_sites *sites, const struct gs_placement *p,
    const struct job_state *st, const char *checks, struct launch_net *net, char *why,
    size_t whylen);
void launch_net_free(struct launch_net *net);

/*
 * After the job: kill whatever is left of it on every remote node (the proxy's process
 * group, recorded by the launcher in DIR/.remote/HOST.pgid, or in the node's own job
 * directory of DIR/remote-dirs), in parallel, within ~20 s.
 */
void launch_cleanup_remote(const struct gs_sites *sites, const struct gs_placement *p,
    const struct job_state *st, int for_good);

/* 1 while mpiexec (pid, not yet reaped) runs. */
int launch_running(pid_t pid);

/* Kill mpiexec's whole process group at once and reap mpiexec (a launch called off). */
void launch_abort(pid_t pid);

/* 1 when a cancel signal has arrived (see launch_catch_signals). */
int launch_cancel_requested(void);

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
