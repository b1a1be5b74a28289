/* launch-int.h — what the files of launch/ share and nothing outside uses. */
#ifndef GS_LAUNCH_INT_H
#define GS_LAUNCH_INT_H

#include <sys/types.h>
#include <netinet/in.h>

#include <stddef.h>

#include "broker/broker.h"
#include "launch/launch.h"
#include "store/jobstore.h"

/*
 * The ssh launcher (launchers/ssh.c), whose steps the slurm launcher runs inside its
 * allocations, on the same launch and with the same private state.
 */
extern const struct launcher launcher_ssh;

/*
 * A launch that starts mpiexec before the nodes are checked (doc/architecture.md,
 * "Speculative launch"): rank 0 waits at the gate, every node's session runs the checks.
 */
struct launch_hold {
	const char *gate;	/* rank 0 waits at this FIFO before it starts the program (gate.h) */
	const char *checks;	/* each node's session runs this before the proxy (preflight.h) */
	const char *relay;	/* rank 0 on a node without our job directory: GRT_RELAY's
				   ADDR:PORT (relay.h); NULL: rank 0 writes DIR itself */
};

/*
 * The mpiexec argument vector for the job (NULL-terminated, allocated), or NULL with a
 * message in why. Ranks all on this host: hydra's fork launcher. Otherwise (multi-site):
 * -launcher ssh -launcher-exec DIR/ssh-launcher (a script of ours running ssh with the
 * options of remote.c and DIR/ssh_config), -iface toward the nodes, -genvnone with explicit
 * -genv, UCX_TLS=self,tcp (doc/testbed.md, "Launch over ssh").
 * With hold (NULL: none), the job is held until its checks have passed. *env: the
 * "KEY=VALUE" words to add to mpiexec's own environment (NULL-terminated, allocated; NULL
 * for none), which the ranks of this host inherit and no node sees.
 */
char **launch_argv(const struct gs_sites *sites, const struct gs_job *job,
    const struct gs_placement *p, const struct job_state *st, const struct launch_hold *hold,
    char ***env, char *why, size_t whylen);
void launch_argv_free(char **argv);

/*
 * smpirun's argument vector for a simulated job (launchers/smpi.c): env(1) with the job's
 * environment as under hydra (less what only hydra needs), then smpirun on DIR/platform.xml
 * and DIR/hostfile.smpi with gridsubmit's SimGrid settings and the user's, then the SMPI build
 * of the program (program) and the job's arguments.
 */
struct sim_opts;
char **launch_argv_smpi(const struct gs_job *job, const struct gs_placement *p,
    const struct job_state *st, const struct sim_opts *sim, const char *program);

/* The job directory's hostfile and rankmap for the plan's placement. 0, or -1 with why. */
int launch_write_placement(struct launch *l, char *why, size_t whylen);

/*
 * The placement's DIR/hostfile and DIR/rankmap, then l->argv (hold: as launch_argv).
 * 0, or -1 with why.
 */
int launch_write_command(struct launch *l, const struct launch_hold *hold, char *why,
    size_t whylen);

/*
 * Rank 0 on another host (launch-master.c): 1 when the placement's rank 0 is not on this
 * host. launch_master_relay, after preflight: when rank 0's node does not share our job
 * directory, open the relay r toward it (relay.h); 0 (r has no relay when none is
 * needed), or -1 with why. launch_master_fetch_status, after the run: rank 0's master.status
 * from its node's directory into ours and into l->res (the relay carries the runtime's
 * files, not the wrapper's).
 */
struct relay;
int launch_master_remote(const struct launch_plan *pl);
int launch_master_relay(const struct launch_plan *pl, struct relay *r, char *why,
    size_t whylen);
void launch_master_fetch_status(struct launch *l);

/*
 * Rank 0's end as gridsubmit-rank wrote it in DIR/master.status ("exit N" or "signal N")
 * into res (launch-proc.c); 0 when it is not there yet.
 */
int launch_master_status(const struct job_state *st, struct launch_result *res);

/* What launch_ssh_setup() found: the job's ssh_config, the interface toward the nodes. */
struct launch_net {
	char *config;		/* DIR/ssh_config */
	char iface[64];		/* hydra's -iface */
	char addr[64];		/* this host's address on it: what nodes connect back to */
};

/*
 * gridsubmit-rank next to this gridsubmit (NULL when it is missing: say so with
 * LAUNCH_NO_WRAPPER); hydra_pmi_proxy where hydra will use it.
 */
/*
 * The fan-out of the preflight's and the staging's ssh and scp: at most this many run at
 * once, each with a deadline of its own from its start (common/proc.h, proc_run_wide), so
 * that this host's load stays bounded and a node's wait does not grow with the number of
 * nodes before it (doc/scale.md). LAUNCH_FANOUT_ROUNDS(n): the rounds n nodes take.
 */
#define LAUNCH_FANOUT		32
#define LAUNCH_FANOUT_ROUNDS(n)	(((n) + LAUNCH_FANOUT - 1) / LAUNCH_FANOUT + ((n) == 0))

#define LAUNCH_NO_WRAPPER "gridsubmit-rank is missing next to gridsubmit (run make)"
char *launch_rank_wrapper(void);
/*
 * libgridsubmit-finalize.so next to gridsubmit-rank's real path (the wrapper preloads it
 * from its own directory, so a node that gets the wrapper gets it too); NULL when it is not
 * there: say so with LAUNCH_NO_FINALIZE.
 */
#define LAUNCH_NO_FINALIZE "libgridsubmit-finalize.so is missing next to gridsubmit-rank " \
	"(run make)"
char *launch_finalize_lib(void);
char *launch_proxy_path(void);
/*
 * The name ssh reaches host by (its HostName in config, from `ssh -G`) into target; 0, or
 * -1 with why (target is then host itself).
 */
int launch_ssh_hostname(const char *config, const char *host, char *target, size_t len,
    char *why, size_t whylen);
/* The IPv4 address ssh reaches host at (its HostName in config, resolved); -1: unknown. */
int launch_host_addr(const char *config, const char *host, struct in_addr *addr);
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
 * directory of DIR/remote-dirs), in parallel, within ~20 s. lost (NULL: not wanted), one
 * byte per node of sites: set to 1 for every node whose ssh failed or did not answer.
 */
void launch_cleanup_remote(const struct gs_sites *sites, const struct gs_placement *p,
    const struct job_state *st, int for_good, unsigned char *lost);

/* mpiexec as a process (launch-proc.c). */

/*
 * Start mpiexec in the job directory, output to DIR/stdout and DIR/stderr, with the
 * "KEY=VALUE" words of env (NULL: none) added to its environment; -1: no fork.
 */
pid_t launch_proc_start(char **argv, char **env, const struct job_state *st);

/*
 * Wait for mpiexec (l->pid), its result in l->res. While it runs: a cancel signal stops
 * the whole process group (SIGTERM, then SIGKILL after a grace period); once rank 0 has
 * ended (DIR/master.status written by gridsubmit-rank), ranks that are still there after
 * a grace period are killed, because after a failure hydra never exits until its last rank
 * does; a program without libgrt is stopped at its first failed rank (launch-ends.c); the
 * ranks' ends that arrive on the lease are appended to DIR/rank-ends, and read for a
 * moment more after mpiexec ended by itself; l->watch, when set, is called with the ticker
 * (l->watch_arg its argument).
 */
void launch_proc_wait(struct launch *l);

/* What launch_ends_plain_failed has seen of DIR/rank-ends: zero it before a launch. */
struct launch_ends {
	long long size;		/* bytes of the file when last read */
};

/*
 * launch-ends.c: before mpiexec starts, no rank's end: DIR/rank-ends removed, and what the
 * lease holds of a launch called off read and dropped; the lease's ends go to DIR/rank-ends
 * from then on.
 */
void launch_ends_reset(const struct job_state *st);

/*
 * launch-ends.c: 1 when a rank has failed (rank-end.h) and the launch's events hold no
 * start record (a program without libgrt): the job is lost and its launch is stopped. The
 * file is read again only when it has grown.
 */
int launch_ends_plain_failed(const struct job_state *st, struct launch_ends *w);

/* 1 while mpiexec (pid, not yet reaped) runs. */
int launch_running(pid_t pid);

/* Kill mpiexec's whole process group at once and reap mpiexec (a launch called off). */
void launch_proc_abort(pid_t pid);

/*
 * The start and cancel steps of a launcher whose one process runs here, with nothing
 * elsewhere (fork, smpi): start l->argv (l->pid), or LAUNCH_FAILED with why; kill its
 * process group if it runs.
 */
int launch_proc_launch(struct launch *l, char *why, size_t whylen);
void launch_proc_call_off(struct launch *l);

/*
 * launchers/smpi-stall.c: 1 when the simulation of the job in dir stalled (SimGrid said
 * "Oops! Deadlock detected" on its stderr), with the simulated time it said so in *when
 * (-1 when the line gives none); 0 otherwise.
 */
int smpi_stalled(const char *dir, double *when);

/*
 * Record phase in the job's state.json; a write that fails is a warning (the job goes on:
 * its processes matter more than the record, and the verdict is written again at the end).
 */
void launch_phase(struct launch *l, enum job_phase phase);
/* The same, with mpiexec's pid (and its start time, which tells a recycled pid apart). */
void launch_phase_mpiexec(struct launch *l, enum job_phase phase);

#endif
