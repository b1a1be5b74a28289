/*
 * remote.h — commands on nodes over ssh with the options of doc/reliability.md ("SSH"):
 * one place builds the ssh command line, so preflight, staging, cleanup and hydra's
 * launcher use the same one. They run locally through common/proc.h.
 */
#ifndef GS_REMOTE_H
#define GS_REMOTE_H

#include <stddef.h>

/* How one host is reached: a site file's ssh: settings (gridsubmit-sites(5)). */
struct remote_ssh {
	char *user;		/* NULL: the local user */
	int port;		/* 22 */
	char *host_key;		/* "strict" (default) or "accept-new" */
	char *identity;		/* private key file, or NULL */
	char *config;		/* ssh_config(5) file for the host, absolute, or NULL */
};

/* A host and how to reach it (remote_write_ssh_config). */
struct remote_host {
	const char *host;
	const struct remote_ssh *ssh;
};

/* The word quoted for POSIX sh: 'a'\''b'. Allocated. */
char *remote_quote(const char *word);

/* 1 when name is a valid host name (name_host_valid, common/name.h). */
int remote_host_valid(const char *name);

/*
 * 1 when host is this machine, reached without ssh: NULL (no host named), localhost,
 * 127.*, ::1, or this host's name (any case).
 */
int remote_host_is_local(const char *host);

/* A user name ssh and hydra can take: [A-Za-z0-9._-], not starting with '-'. */
int remote_user_valid(const char *user);

/*
 * $GRIDSUBMIT_HOME/ssh: the 0700 directory of the ControlMaster sockets; NULL when it cannot
 * be had (ssh then shares no connection).
 */
const char *remote_control_dir(void);

/*
 * Write the ssh_config of a job (path): a Host block per host of hosts (port, user,
 * identity, host-key policy, then an Include of the host's ssh config file, its ssh:
 * {config: PATH}, e.g. a testbed's), then ~/.ssh/config, then the managed known_hosts
 * ($GRIDSUBMIT_HOME/known_hosts) for every other host. Returns 0, or -1 with why (also
 * when a host's ssh config file cannot be read).
 */
int remote_write_ssh_config(const struct remote_host *hosts, size_t n, const char *path,
    char *why, size_t whylen);

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

/*
 * Routes (remote-route.c): a host reached not by ssh but by srun, as a step of a Slurm
 * job on that one node, from the login host (slurm-site.h). With a route set,
 * remote_ssh_argv and remote_ssh_argv_raw for the host give ssh to the login host
 * running remote_route_wrap's command line; remote_route_target names the host that
 * scp and a route lookup should use instead (the login host), remote_route_job the
 * Slurm job (NULL: no route). sh/ssh-launcher.sh does the same for hydra's proxies.
 */
#define REMOTE_SRUN_OPTIONS \
	"--overlap --nodes=1 --ntasks=1 --mpi=none --quiet --kill-on-bad-exit=1"
/*
 * srun started so that a failure of Slurm's own (no step could start: the allocation
 * ended, the node failed) exits REMOTE_SRUN_ERROR, apart from the command's statuses and
 * ssh's 255 (SLURM_EXIT_ERROR; the two must agree).
 */
#define REMOTE_SRUN_EXEC	"exec env SLURM_EXIT_ERROR=253 srun"
#define REMOTE_SRUN_ERROR	253
void remote_route_srun(const char *host, const char *login, const char *jobid);
void remote_route_clear(void);
const char *remote_route_target(const char *host);
const char *remote_route_job(const char *host);
/* The line for sh on the login host that runs cmd (a sh command line) on host; NULL: no route. */
char *remote_route_wrap(const char *host, const char *cmd);

/*
 * The start of every ssh or scp command line: TOOL -F CONFIG, the fixed options (batch
 * mode, timeouts, keepalives, no forwarding, shared connections in remote_control_dir(),
 * none without it).
 * Allocated with room for extra more words and the NULL; *n: how many words so far.
 */
char **remote_tool_argv(const char *tool, const char *config, size_t extra, size_t *n);

#endif
