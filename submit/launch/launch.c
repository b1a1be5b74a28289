/* launch.c — mpiexec argument vector, start, supervision and cancel of one job. */
#include <sys/socket.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "gs-config.h"
#include "launch.h"
#include "lease.h"
#include "log.h"
#include "remote.h"
#include "stage.h"
#include "xmalloc.h"

#define STRAGGLER_GRACE	10.0	/* seconds ranks may outlive rank 0 */
#define KILL_GRACE	5.0	/* seconds between SIGTERM and SIGKILL */
#define POLL_NS		50000000L

static volatile sig_atomic_t launch_cancel;

static void
launch_on_signal(int sig)
{
	launch_cancel = sig;
}

void
launch_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = launch_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

struct argv_builder {
	char **v;
	size_t n;
	size_t cap;
};

static void
argv_add(struct argv_builder *b, const char *s)
{
	if (b->n + 2 > b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->v = xreallocarray(b->v, b->cap, sizeof *b->v);
	}
	b->v[b->n++] = xstrdup(s);
	b->v[b->n] = NULL;
}

static void
argv_genv(struct argv_builder *b, const char *key, const char *value)
{
	argv_add(b, "-genv");
	argv_add(b, key);
	argv_add(b, value);
}

/* A host this machine answers for without ssh: the fork launcher can start it. */
int
launch_host_is_local(const char *host)
{
	char me[HOST_NAME_MAX + 1];

	if (host == NULL)
		return 1;
	if (strcmp(host, "localhost") == 0 || strncmp(host, "127.", 4) == 0 ||
	    strcmp(host, "::1") == 0)
		return 1;
	return gethostname(me, sizeof me) == 0 && strcasecmp(me, host) == 0;
}

static const char *
launch_rank_host(const struct gs_sites *sites, const struct gs_placement *p, int r)
{
	return p->ranks[r].node == BROKER_NODE_NONE ? sites->master :
	    sites->nodes[p->ranks[r].node].host;
}

int
launch_is_remote(const struct gs_sites *sites, const struct gs_placement *p)
{
	int r;

	for (r = 0; r < p->nranks; r++)
		if (!launch_host_is_local(launch_rank_host(sites, p, r)))
			return 1;
	return 0;
}

int
launch_sites_remote(const struct gs_sites *sites)
{
	size_t i;

	for (i = 0; i < sites->nnodes; i++)
		if (!launch_host_is_local(sites->nodes[i].host))
			return 1;
	return 0;
}

/* gridsubmit-rank lives next to the gridsubmit binary (build dir, or the install's bin). */
char *
launch_rank_wrapper(void)
{
	char self[PATH_MAX], *slash, *path;
	ssize_t n;

	if ((n = readlink("/proc/self/exe", self, sizeof self - 1)) < 0)
		fatal("cannot find the gridsubmit binary");
	self[n] = '\0';
	if ((slash = strrchr(self, '/')) != NULL)
		*slash = '\0';
	xasprintf(&path, "%s/gridsubmit-rank", self);
	if (access(path, X_OK) != 0)
		fatal("%s", path);
	return path;
}

/*
 * Where hydra looks for hydra_pmi_proxy on every host: next to the real mpiexec (it
 * passes "DIR/hydra_pmi_proxy" with DIR the directory of its own binary).
 */
char *
launch_proxy_path(void)
{
	const char *path = getenv("PATH");
	char *dirs, *d, *save = NULL, *full, *real, *slash, *out = NULL;

	if (strchr(GS_MPIEXEC, '/') != NULL)
		full = xstrdup(GS_MPIEXEC);
	else {
		full = NULL;
		dirs = xstrdup(path != NULL ? path : "/usr/bin:/bin");
		for (d = strtok_r(dirs, ":", &save); d != NULL; d = strtok_r(NULL, ":", &save)) {
			xasprintf(&full, "%s/%s", d, GS_MPIEXEC);
			if (access(full, X_OK) == 0)
				break;
			free(full);
			full = NULL;
		}
		free(dirs);
	}
	if (full != NULL && (real = realpath(full, NULL)) != NULL) {
		if ((slash = strrchr(real, '/')) != NULL)
			*slash = '\0';
		xasprintf(&out, "%s/hydra_pmi_proxy", real);
		free(real);
	}
	free(full);
	return out != NULL ? out : xstrdup("/usr/bin/hydra_pmi_proxy");
}

/*
 * The local interface and address by which host is reached, as ssh will reach it (its
 * HostName from the job's ssh_config, resolved, then the kernel's route): hydra's -iface,
 * so that remote proxies connect back to an address they can reach.
 */
int
launch_route(const char *config, const char *host, char *ifname, size_t iflen, char *addr,
    size_t addrlen, char *why, size_t whylen)
{
	char *argv[] = { "ssh", "-F", (char *)config, "-G", "--", (char *)host, NULL };
	struct addrinfo hints, *ai = NULL;
	struct sockaddr_in local;
	socklen_t len = sizeof local;
	struct ifaddrs *ifa, *i;
	struct remote_out ro;
	char target[256] = "", *p;
	int s, found = 0;
	/* the last answer: preflight and launch ask for the same host (ssh -G takes ~50 ms) */
	static char *c_config, *c_host, c_if[64], c_addr[64];

	if (c_config != NULL && strcmp(c_config, config) == 0 && strcmp(c_host, host) == 0) {
		snprintf(ifname, iflen, "%s", c_if);
		snprintf(addr, addrlen, "%s", c_addr);
		return 0;
	}
	if (remote_run(argv, 10, &ro) != 0) {
		snprintf(why, whylen, "%s: ssh -G failed: %s", host, ro.err);
		remote_out_free(&ro);
		return -1;
	}
	for (p = ro.out; p != NULL && *p != '\0'; p = strchr(p, '\n') ? strchr(p, '\n') + 1 :
	    NULL)
		if (sscanf(p, "hostname %255s", target) == 1)
			break;
	remote_out_free(&ro);
	if (*target == '\0')
		snprintf(target, sizeof target, "%s", host);
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_INET;
	hints.ai_socktype = SOCK_DGRAM;
	if (getaddrinfo(target, "9", &hints, &ai) != 0 || ai == NULL) {
		snprintf(why, whylen, "%s: cannot resolve %s", host, target);
		return -1;
	}
	if ((s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1 ||
	    connect(s, ai->ai_addr, ai->ai_addrlen) == -1 ||
	    getsockname(s, (struct sockaddr *)&local, &len) == -1) {
		snprintf(why, whylen, "%s: no route to %s: %s", host, target, strerror(errno));
		if (s != -1)
			close(s);
		freeaddrinfo(ai);
		return -1;
	}
	close(s);
	freeaddrinfo(ai);
	inet_ntop(AF_INET, &local.sin_addr, addr, (socklen_t)addrlen);
	if (getifaddrs(&ifa) == 0) {
		for (i = ifa; i != NULL && !found; i = i->ifa_next) {
			if (i->ifa_addr == NULL || i->ifa_addr->sa_family != AF_INET)
				continue;
			if (((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr ==
			    local.sin_addr.s_addr) {
				snprintf(ifname, iflen, "%s", i->ifa_name);
				found = 1;
			}
		}
		freeifaddrs(ifa);
	}
	if (!found) {
		snprintf(why, whylen, "%s: no local interface has %s", host, addr);
		return -1;
	}
	free(c_config);
	free(c_host);
	c_config = xstrdup(config);
	c_host = xstrdup(host);
	snprintf(c_if, sizeof c_if, "%s", ifname);
	snprintf(c_addr, sizeof c_addr, "%s", addr);
	return 0;
}

/*
 * hydra's -launcher-exec: a script in the job directory. hydra runs it as
 *	ssh-launcher [-x] [user@]host "PROXY" ARGS...
 * (the proxy's path in double quotes, for a remote shell to strip); it validates host and
 * user, quotes every word for POSIX sh, records the remote process group (the login
 * shell's pid, which execs the proxy; sshd made it a session leader) in
 * JOBDIR/.remote/HOST.pgid for the cleanup (JOBDIR: DIR, or the node's own directory
 * of DIR/remote-dirs, stage.h), and runs ssh from its own argument vector with
 * the options of remote.c. When ssh itself fails (255) it stops mpiexec, which would
 * otherwise wait forever for the proxy. With checks (preflight_session_command), the node
 * runs them first, answers in JOBDIR/.remote/HOST.preflight and starts the proxy only when
 * they pass; the launcher marks the session's end in DIR/.remote/HOST.ended, here.
 */
static int
launch_write_launcher(const struct job_state *st, const char *config, const char *checks,
    char *why, size_t whylen)
{
	char *path, *text = NULL, *q, *remote_dir, *qdir, *qdirs;
	size_t len = 0, i;
	FILE *f;

	if ((f = open_memstream(&text, &len)) == NULL)
		fatal("open_memstream");
	qdir = remote_quote(st->dir);
	xasprintf(&remote_dir, "%s/remote-dirs", st->dir);
	qdirs = remote_quote(remote_dir);
	fprintf(f, "#!/bin/sh\n"
	    "# generated by gridsubmit for job %s: hydra's -launcher-exec (see launch.c)\n"
	    "set -f\n"
	    "gs_quote() {\n"
	    "\tgs_s=$1 gs_r=\n"
	    "\twhile :; do\n"
	    "\t\tcase $gs_s in\n"
	    "\t\t*\"'\"*) gs_r=\"$gs_r${gs_s%%%%\"'\"*}'\\\\''\"; gs_s=${gs_s#*\"'\"} ;;\n"
	    "\t\t*) break ;;\n"
	    "\t\tesac\n"
	    "\tdone\n"
	    "\tgs_q=\"'$gs_r$gs_s'\"\n"
	    "}\n"
	    "gs_fail() {\n"
	    "\techo \"gridsubmit: $1; stopping mpiexec\" >&2\n"
	    "\t# only while it is our parent: once mpiexec is gone, its pid is anyone's\n"
	    "\tgs_pp=$(ps -o ppid= -p $$ 2>/dev/null)\n"
	    "\t[ \"${gs_pp##* }\" != \"$PPID\" ] || kill -TERM \"$PPID\" 2>/dev/null\n"
	    "\texit 255\n"
	    "}\n"
	    "gs_user=\n"
	    "while [ $# -gt 0 ]; do\n"
	    "\tcase $1 in\n"
	    "\t-x|-X|-q) shift ;;\n"
	    "\t-l) [ $# -ge 2 ] || gs_fail 'ssh-launcher: -l without a user'; gs_user=$2; "
	    "shift 2 ;;\n"
	    "\t*) break ;;\n"
	    "\tesac\n"
	    "done\n"
	    "[ $# -ge 1 ] || gs_fail 'ssh-launcher: no host'\n"
	    "gs_host=$1\n"
	    "shift\n"
	    "case $gs_host in *@*) gs_user=${gs_host%%%%@*}; gs_host=${gs_host#*@} ;; esac\n"
	    "case $gs_host in\n"
	    "''|-*|.*|*[!A-Za-z0-9.-]*) gs_fail 'ssh-launcher: invalid host name' ;;\n"
	    "esac\n"
	    "case $gs_user in\n"
	    "-*|*[!A-Za-z0-9._-]*) gs_fail 'ssh-launcher: invalid user name' ;;\n"
	    "esac\n"
	    "# the job's directory there: its own one when it does not share ours (stage.h)\n"
	    "gs_rdir=%s\n"
	    "if [ -r %s ]; then\n"
	    "\twhile read -r gs_h gs_d gs_rest; do\n"
	    "\t\t[ \"$gs_h\" = \"$gs_host\" ] && gs_rdir=$gs_d\n"
	    "\tdone < %s\n"
	    "fi\n"
	    "# the process group first, then the cleanup's stop mark: a session that starts\n"
	    "# after the cleanup looked (cancel) never runs the proxy (launch_cleanup_remote)\n"
	    "gs_quote \"$gs_rdir/.remote/$gs_host.pgid\"\n"
	    "gs_cmd=\"echo \\$\\$ 2>/dev/null >$gs_q || exit 1;\"\n"
	    "gs_quote \"$gs_rdir/.remote/$gs_host.stop\"\n"
	    "gs_cmd=\"$gs_cmd [ ! -e $gs_q ] || exit 1;\"\n",
	    st->id, qdir, qdirs, qdirs);
	if (checks != NULL) {
		q = remote_quote(checks);
		fprintf(f, "# the checks first: the proxy starts only when they pass\n"
		    "gs_quote \"$gs_rdir/.remote/$gs_host.preflight\"\n"
		    "gs_cmd=\"$gs_cmd \"%s\" >$gs_q || exit 1;\"\n", q);
		free(q);
	}
	fprintf(f, "gs_cmd=\"$gs_cmd exec\"\n"
	    "for gs_w; do\n"
	    "\tcase $gs_w in \\\"*\\\") gs_w=${gs_w#\\\"}; gs_w=${gs_w%%\\\"} ;; esac\n"
	    "\tgs_quote \"$gs_w\"\n"
	    "\tgs_cmd=\"$gs_cmd $gs_q\"\n"
	    "done\n");
	free(qdir);
	free(qdirs);
	free(remote_dir);
	q = remote_quote(config);
	fprintf(f, "ssh -F %s", q);
	free(q);
	for (i = 0; remote_ssh_options[i] != NULL; i++) {
		q = remote_quote(remote_ssh_options[i]);
		fprintf(f, " %s", q);
		free(q);
	}
	xasprintf(&path, "ControlPath=%s/%%C", remote_control_dir());
	q = remote_quote(path);
	fprintf(f, " -o %s", q);
	free(q);
	free(path);
	fprintf(f, " ${gs_user:+-l \"$gs_user\"} -- \"$gs_host\" \"$gs_cmd\"\n"
	    "gs_rc=$?\n");
	if (checks != NULL) {
		q = remote_quote(st->dir);
		fprintf(f, "echo \"$gs_rc\" >%s/.remote/\"$gs_host.ended\"\n", q);
		free(q);
	}
	fprintf(f, "[ $gs_rc -ne 255 ] || gs_fail \"ssh to $gs_host failed\"\n"
	    "exit $gs_rc\n");
	fclose(f);
	xasprintf(&path, "%s/ssh-launcher", st->dir);
	if (jobstore_write_file(st->dir, "ssh-launcher", text, len) != 0 ||
	    chmod(path, 0700) == -1) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		free(path);
		free(text);
		return -1;
	}
	free(path);
	free(text);
	return 0;
}

int
launch_ssh_setup(const struct gs_sites *sites, const struct gs_placement *p,
    const struct job_state *st, const char *checks, struct launch_net *net, char *why,
    size_t whylen)
{
	int r;

	memset(net, 0, sizeof *net);
	xasprintf(&net->config, "%s/ssh_config", st->dir);
	if (remote_write_ssh_config(sites, net->config, why, whylen) == -1)
		return -1;
	for (r = 0; r < p->nranks; r++) {
		const char *host = launch_rank_host(sites, p, r);

		if (launch_host_is_local(host))
			continue;
		if (launch_route(net->config, host, net->iface, sizeof net->iface, net->addr,
		    sizeof net->addr, why, whylen) == -1)
			return -1;
		break;
	}
	return launch_write_launcher(st, net->config, checks, why, whylen);
}

void
launch_net_free(struct launch_net *net)
{
	free(net->config);
	memset(net, 0, sizeof *net);
}

/* The job directory of rank r's host when it is not ours (DIR/remote-dirs), else NULL. */
static const struct stage_dir *
launch_rank_dir(const struct gs_sites *sites, const struct gs_placement *p, int r,
    const struct stage_dir *sd, size_t nsd)
{
	const char *host = launch_rank_host(sites, p, r);

	if (nsd == 0 || launch_host_is_local(host))
		return NULL;
	return stage_dirs_find(sd, nsd, host);
}

static char *
launch_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return xstrdup(slash != NULL ? slash + 1 : path);
}

static int
launch_env_has(const struct gs_job *job, const char *key)
{
	size_t i;

	for (i = 0; i < job->nenv; i++)
		if (strcmp(job->env[i].key, key) == 0)
			return 1;
	return 0;
}

char **
launch_argv(const struct gs_sites *sites, const struct gs_job *job, const struct gs_placement *p,
    const struct job_state *st, const struct launch_hold *hold, char *why, size_t whylen)
{
	struct argv_builder b = { NULL, 0, 0 };
	struct launch_net net;
	char *path, *wrapper, nbuf[32], *key, *base;
	struct stage_dir *sd;
	size_t i, nsd;
	int remote = launch_is_remote(sites, p), r, next;

	argv_add(&b, GS_MPIEXEC);
	/* a rank that exits must not take the job down: libgrt requeues its units */
	argv_add(&b, "-disable-auto-cleanup");
	if (!remote) {
		argv_add(&b, "-launcher");
		argv_add(&b, "fork");
	} else {
		if (launch_ssh_setup(sites, p, st, hold != NULL ? hold->checks : NULL, &net,
		    why, whylen) == -1) {
			launch_net_free(&net);
			return NULL;
		}
		argv_add(&b, "-launcher");
		argv_add(&b, "ssh");
		argv_add(&b, "-launcher-exec");
		xasprintf(&path, "%s/ssh-launcher", st->dir);
		argv_add(&b, path);
		free(path);
		/* hydra's ports: only on the interface toward the nodes (RELIABILITY.md) */
		argv_add(&b, "-iface");
		argv_add(&b, net.iface);
		/* hydra forwards the whole environment otherwise: only what we list */
		argv_add(&b, "-genvnone");
		/* what ties the remote ranks to the job: the tag and the lease (lease.h) */
		if ((key = lease_tag_new(st, why, whylen)) == NULL) {
			launch_net_free(&net);
			launch_argv_free(b.v);
			return NULL;
		}
		argv_genv(&b, LEASE_TAG_ENV, key);
		free(key);
		xasprintf(&key, "%s:0", net.addr);
		argv_genv(&b, LEASE_ENV, key);
		free(key);
		launch_net_free(&net);
	}
	xasprintf(&path, "%s/hostfile", st->dir);
	argv_add(&b, "-f");
	argv_add(&b, path);
	free(path);

	/*
	 * UCX sees all hosts of a testbed as one machine and would use shared memory between
	 * them (DESIGN section 7): TCP only, so that traffic crosses the (shaped) links.
	 */
	if (remote && !launch_env_has(job, "UCX_TLS"))
		argv_genv(&b, "UCX_TLS", "self,tcp");
	/* the runtime's parameters (grt.h): GRT_<KEY> for every runtime: key of the job */
	for (i = 0; i < job->nruntime; i++) {
		char *k;

		xasprintf(&key, "GRT_%s", job->runtime[i].key);
		for (k = key; *k != '\0'; k++)
			if (*k >= 'a' && *k <= 'z')
				*k = (char)(*k - 'a' + 'A');
		argv_genv(&b, key, job->runtime[i].value);
		free(key);
	}
	xasprintf(&path, "%s/events.jsonl", st->dir);
	argv_genv(&b, "GRT_EVENTS", path);
	free(path);
	xasprintf(&path, "%s/rankmap", st->dir);
	argv_genv(&b, "GRT_RANKMAP", path);
	free(path);
	argv_genv(&b, "GRT_JOB", st->id);
	/* -disable-auto-cleanup is on: grt_end() may skip MPI_Finalize (runtime/grt-end.c) */
	argv_genv(&b, "GRT_FINALIZE", "skip");
	for (i = 0; i < job->nenv; i++)
		argv_genv(&b, job->env[i].key, job->env[i].value);

	/*
	 * The ranks, as one block of consecutive ranks per job directory: DIR for this host
	 * and the nodes sharing it, a node's own directory otherwise (DIR/remote-dirs, with
	 * the program and gridsubmit-rank staged in its bin/ when it lacked them). hydra
	 * gives the ranks of "-n K ... : -n K ..." blocks to the hostfile's slots in order,
	 * and the hostfile lists the nodes in rank order (broker_write_hostfile).
	 */
	if (stage_dirs_read(st->dir, &sd, &nsd) == -1) {
		snprintf(why, whylen, "%s/remote-dirs: %s", st->dir, strerror(errno));
		launch_argv_free(b.v);
		return NULL;
	}
	base = launch_basename(job->program);
	wrapper = launch_rank_wrapper();
	for (r = 0; r < p->nranks; r = next) {
		const struct stage_dir *d = launch_rank_dir(sites, p, r, sd, nsd);

		for (next = r + 1; next < p->nranks &&
		    launch_rank_dir(sites, p, next, sd, nsd) == d; next++)
			;
		if (r > 0)
			argv_add(&b, ":");
		snprintf(nbuf, sizeof nbuf, "%d", next - r);
		argv_add(&b, "-n");
		argv_add(&b, nbuf);
		argv_add(&b, "-wdir");
		argv_add(&b, d != NULL ? d->dir : st->dir);
		if (d != NULL && d->rankexec) {
			xasprintf(&path, "%s/bin/gridsubmit-rank", d->dir);
			argv_add(&b, path);
			free(path);
		} else
			argv_add(&b, wrapper);
		argv_add(&b, "--status");
		xasprintf(&path, "%s/master.status", st->dir);
		argv_add(&b, path);
		free(path);
		if (hold != NULL && hold->gate != NULL) {
			argv_add(&b, "--gate");
			argv_add(&b, hold->gate);
		}
		argv_add(&b, "--");
		if (d != NULL && d->program) {
			xasprintf(&path, "%s/bin/%s", d->dir, base);
			argv_add(&b, path);
			free(path);
		} else
			argv_add(&b, job->program);
		for (i = 0; i < job->nargs; i++)
			argv_add(&b, job->args[i]);
	}
	free(wrapper);
	free(base);
	stage_dirs_free(sd, nsd);
	return b.v;
}

/*
 * A launcher session with checks that has ended (DIR/.remote/HOST.ended) without recording
 * a process group in DIR started nothing there: its shell stops before the proxy unless
 * the pgid was written first (launch_write_launcher). Its node needs no cleanup, which
 * matters for an unreachable one: that ssh would only wait for its timeout again.
 */
static int
launch_session_left_nothing(const struct job_state *st, const char *host)
{
	char *ended, *pgid;
	int nothing;

	xasprintf(&ended, "%s/.remote/%s.ended", st->dir, host);
	xasprintf(&pgid, "%s/.remote/%s.pgid", st->dir, host);
	nothing = access(ended, F_OK) == 0 && access(pgid, F_OK) == -1;
	free(ended);
	free(pgid);
	return nothing;
}

/*
 * After the job (ended, failed or cancelled): on every remote node of the placement, kill
 * the process group of the job's proxy (JOBDIR/.remote/HOST.pgid, written by the
 * launcher), whatever of it is left: no rank is ever left behind on any host
 * (RELIABILITY.md, 5). With for_good, it leaves JOBDIR/.remote/HOST.stop before it looks:
 * a launcher session that was still on its way (a cancel right after launch) writes its
 * pgid, then sees the mark and never starts the proxy. Without (a speculative launch
 * called off before a relaunch, whose mpiexec is already dead: a late proxy finds no one
 * to connect to and ends by itself), no mark stays to stop the relaunch. In parallel,
 * bounded by the ssh timeout.
 */
void
launch_cleanup_remote(const struct gs_sites *sites, const struct gs_placement *p,
    const struct job_state *st, int for_good)
{
	static const char script[] =
	    "f=$1; [ \"$2\" = mark ] && : 2>/dev/null >\"${f%.pgid}.stop\"; "
	    "[ -r \"$f\" ] || exit 0; g=$(cat \"$f\"); "
	    "case $g in ''|*[!0-9]*) exit 0 ;; esac; "
	    "kill -s TERM -- \"-$g\" 2>/dev/null && sleep 1; kill -s KILL -- \"-$g\" 2>/dev/null; "
	    "rm -f \"$f\"; exit 0";
	char *config, *words[7], **argv;
	struct stage_dir *sd = NULL;
	const struct stage_dir *d;
	pid_t *pids;
	int *status, r, n = 0;
	size_t i, nsd = 0;
	int *seen;

	if (!launch_is_remote(sites, p))
		return;
	/* a node with a job directory of its own has its record there (stage.h) */
	if (stage_dirs_read(st->dir, &sd, &nsd) == -1)
		nsd = 0;
	xasprintf(&config, "%s/ssh_config", st->dir);
	pids = xcalloc((size_t)p->nranks, sizeof *pids);
	status = xcalloc((size_t)p->nranks, sizeof *status);
	seen = xcalloc(sites->nnodes + 1, sizeof *seen);
	for (r = 0; r < p->nranks; r++) {
		size_t node = p->ranks[r].node;
		const char *host;

		if (node == BROKER_NODE_NONE || seen[node])
			continue;
		seen[node] = 1;
		host = sites->nodes[node].host;
		if (launch_host_is_local(host))
			continue;
		d = stage_dirs_find(sd, nsd, host);
		if (d == NULL && launch_session_left_nothing(st, host))
			continue;
		words[0] = "sh";
		words[1] = "-c";
		words[2] = (char *)script;
		words[3] = "sh";
		xasprintf(&words[4], "%s/.remote/%s.pgid", d != NULL ? d->dir : st->dir, host);
		words[5] = for_good ? "mark" : "nomark";
		words[6] = NULL;
		argv = remote_ssh_argv(config, NULL, host, words);
		free(words[4]);
		if (argv == NULL)
			continue;
		pids[n++] = remote_spawn(argv, NULL, NULL);
		remote_argv_free(argv);
	}
	remote_wait_all(pids, status, NULL, (size_t)n, clock_mono() + 20, NULL);
	for (i = 0; i < (size_t)n; i++)
		if (status[i] != 0)
			log_warnx("job %s: cleanup on a node failed (ssh status %d): ranks may "
			    "be left there", st->id, status[i]);
	free(seen);
	free(pids);
	free(status);
	free(config);
	stage_dirs_free(sd, nsd);
}

void
launch_argv_free(char **argv)
{
	char **a;

	for (a = argv; a != NULL && *a != NULL; a++)
		free(*a);
	free(argv);
}

static void
launch_redirect(int fd, const char *dir, const char *name, int flags)
{
	char *path;
	int nfd;

	xasprintf(&path, "%s/%s", dir, name);
	if ((nfd = open(path, flags | O_CLOEXEC, 0644)) == -1) {
		fprintf(stderr, "gridsubmit: %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	if (dup2(nfd, fd) == -1)
		_exit(127);
	close(nfd);
	free(path);
}

int
launch_cancel_requested(void)
{
	return launch_cancel != 0;
}

pid_t
launch_start(char **argv, const struct job_state *st)
{
	pid_t pid, parent = getpid();

	fflush(NULL);
	if ((pid = fork()) == -1)
		fatal("fork");
	if (pid == 0) {
		/* its own process group: cancel signals all that mpiexec starts */
		setpgid(0, 0);
		/* a supervisor killed outright takes its job down (mpiexec stops its ranks) */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(127);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		launch_redirect(STDIN_FILENO, "/", "dev/null", O_RDONLY);
		launch_redirect(STDOUT_FILENO, st->dir, "stdout", O_WRONLY | O_CREAT | O_TRUNC);
		launch_redirect(STDERR_FILENO, st->dir, "stderr", O_WRONLY | O_CREAT | O_TRUNC);
		execv(argv[0], argv);
		fprintf(stderr, "gridsubmit: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	return pid;
}

static int
launch_reap(pid_t pid, int *status)
{
	int st;
	pid_t r;

	while ((r = waitpid(pid, &st, WNOHANG)) == -1 && errno == EINTR)
		;
	if (r != pid)
		return 0;
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 1;
}

/* SIGTERM to the group, SIGKILL after the grace period; returns once mpiexec is reaped. */
static void
launch_stop_group(pid_t pid, int *status)
{
	double until = clock_mono() + KILL_GRACE;
	struct timespec ts = { 0, POLL_NS };

	kill(-pid, SIGTERM);
	while (!launch_reap(pid, status)) {
		if (clock_mono() > until) {
			kill(-pid, SIGKILL);
			until = clock_mono() + 3600;
		}
		nanosleep(&ts, NULL);
	}
	/* whatever of the group is left (ranks hydra did not reap) */
	kill(-pid, SIGKILL);
}

int
launch_running(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof si);
	/* WNOWAIT: looked at, not reaped (launch_wait or launch_abort reaps it) */
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == -1)
		return 0;
	return si.si_pid == 0;
}

void
launch_abort(pid_t pid)
{
	int status;

	kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
}

/* rank 0's end as gridsubmit-rank wrote it: "exit N" or "signal N"; 0 when not yet. */
static int
launch_master_status(const struct job_state *st, struct launch_result *res)
{
	char *path, line[64];
	FILE *f;
	int v, got = 0;

	xasprintf(&path, "%s/master.status", st->dir);
	if ((f = fopen(path, "r")) != NULL) {
		if (fgets(line, sizeof line, f) != NULL) {
			if (sscanf(line, "exit %d", &v) == 1) {
				res->master_exit = v;
				got = 1;
			} else if (sscanf(line, "signal %d", &v) == 1) {
				res->master_signal = v;
				got = 1;
			}
		}
		fclose(f);
	}
	free(path);
	return got;
}

void
launch_wait(pid_t pid, const struct job_state *st, struct launch_result *res)
{
	double master_ended = 0;
	sigset_t old;

	memset(res, 0, sizeof *res);
	res->master_exit = -1;
	/* mpiexec's end wakes us at once; the rest (lease, rank 0's status) every POLL_NS */
	remote_child_block(&old);
	for (;;) {
		if (launch_reap(pid, &res->mpiexec_status))
			break;
		lease_accept();
		if (launch_cancel) {
			res->cancelled = 1;
			launch_stop_group(pid, &res->mpiexec_status);
			break;
		}
		if (master_ended == 0 && launch_master_status(st, res))
			master_ended = clock_mono();
		if (master_ended > 0 && clock_mono() - master_ended > STRAGGLER_GRACE) {
			res->killed_stragglers = 1;
			launch_stop_group(pid, &res->mpiexec_status);
			break;
		}
		remote_child_nap(POLL_NS);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	/* hydra's own children are in the group: none may outlive the job */
	kill(-pid, SIGKILL);
	launch_master_status(st, res);
}
