/*
 * testbed-slurm.c — a site behind Slurm in the testbed (doc/testbed.md, "A Slurm site"):
 * its login host as one more namespace (sshd only, hostname = the login name, the address
 * after the site's last node), and a Slurm of its own in STATE/slurm/LOGIN: a generated
 * munge key and slurm.conf, munged and slurmctld on the login host, a slurmd in each node
 * (its namespaces and cgroup: a step runs where the node's sshd runs its sessions). Every
 * daemon gets its files by option or from that slurm.conf, so nothing of the system's
 * Slurm or munge is read or written. `up` returns when sinfo on the login host sees every
 * node idle.
 */
#include <sys/random.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/file.h"
#include "common/proc.h"
#include "common/xmalloc.h"
#include "testbed/testbed.h"

static const char *const tb_slurm_tools[][2] = {
	{ "munged", "munge" }, { "slurmctld", "slurmctld" }, { "slurmd", "slurmd" },
	{ "sinfo", "slurm-client" }, { NULL, NULL }
};

/* The Slurm of site (an index into sites.sites), or NULL when it has none. */
struct tb_slurm *
tb_slurm_of(struct testbed *tb, int site)
{
	size_t i;

	for (i = 0; i < tb->nslurm; i++)
		if ((int)tb->slurm[i].site == site)
			return &tb->slurm[i];
	return NULL;
}

/* The partition the site's nodes are in: the scheduler's, else "batch". */
static const char *
tb_slurm_partition(const struct gs_sched *sc)
{
	return sc->partition != NULL ? sc->partition : "batch";
}

/* How many nodes the file lists for site s. */
static size_t
tb_site_nodes(const struct testbed *tb, size_t s)
{
	size_t i, k = 0;

	for (i = 0; i < tb->sites.nnodes; i++)
		if ((size_t)tb->sites.nodes[i].site == s)
			k++;
	return k;
}

/* Why site s cannot be emulated (said with its place in the file), or 0. */
static int
tb_slurm_refused(const struct testbed *tb, size_t s)
{
	const struct gs_site *site = &tb->sites.sites[s];
	const struct gs_sched *sc = site->sched;
	const struct gs_loc *l = &sc->loc;
	size_t i, k = tb_site_nodes(tb, s);
	const char *why = NULL;

	if (sc->auto_nodes || k == 0)
		why = "has 'nodes: auto' or no nodes: the testbed builds the nodes a site file "
		    "lists; list them (host ranges allowed)";
	else if (k > 253)
		why = "has more than 253 nodes: its login host takes the address after them";
	else if (strlen(sc->login) > 64)
		why = "has a login host name too long for a hostname (64)";
	for (i = 0; why == NULL && i < tb->sites.nnodes; i++)
		if (strcmp(tb->sites.nodes[i].host, sc->login) == 0)
			why = "has a login host that is also a node: give the login host its own name";
	for (i = 0; why == NULL && i < s; i++)
		if (tb->sites.sites[i].sched != NULL &&
		    strcmp(tb->sites.sites[i].sched->login, sc->login) == 0)
			why = "shares its login host with another site: each Slurm site gets its own";
	if (why == NULL)
		return 0;
	fprintf(stderr, "%s:%d:%d: site %s %s\n", l->file, l->line, l->col, site->name, why);
	return 1;
}

/*
 * Before anything is built: the refusals, the tools, and per Slurm site its login host's
 * names and address and its files' paths (nothing created yet).
 */
int
tb_slurm_plan(struct testbed *tb)
{
	size_t s, n = 0, i;
	int refused = 0, missing = 0;
	char *p;

	for (s = 0; s < tb->sites.nsites; s++)
		if (tb->sites.sites[s].sched != NULL) {
			refused |= tb_slurm_refused(tb, s);
			n++;
		}
	if (refused)
		return TB_UP_REFUSED;
	if (n == 0)
		return 0;
	for (i = 0; tb_slurm_tools[i][0] != NULL; i++) {
		if ((p = tb_which(tb_slurm_tools[i][0])) == NULL) {
			fprintf(stderr, "gridsubmit testbed: %s not found (Debian package %s; "
			    "scripts/install-deps installs it): a Slurm site needs it\n",
			    tb_slurm_tools[i][0], tb_slurm_tools[i][1]);
			missing = 1;
		}
		free(p);
	}
	/* slurm.conf splits its values at white space and comments out what follows '#' */
	if (strpbrk(tb->dir, " \t\n#\"'=") != NULL) {
		fprintf(stderr, "gridsubmit testbed: %s: slurm.conf cannot name files under this "
		    "directory (white space, '#', quotes or '='): set GRIDSUBMIT_HOME to "
		    "another one\n", tb->dir);
		missing = 1;
	}
	if (missing)
		return -1;
	tb->slurm = xcalloc(n, sizeof *tb->slurm);
	for (s = 0; s < tb->sites.nsites; s++) {
		const struct gs_sched *sc = tb->sites.sites[s].sched;
		struct tb_slurm *sl;

		if (sc == NULL)
			continue;
		sl = &tb->slurm[tb->nslurm];
		sl->site = s;
		sl->host.host = sc->login;
		sl->host.site = (int)s;
		sl->host.cores = 1;
		sl->host.slots = 1;
		sl->host.emulate.cpu_scale = 1;
		sl->tn.node = &sl->host;
		/* at most 254 sites (tb_up) of 253 nodes (tb_slurm_refused) */
		snprintf(sl->tn.addr, sizeof sl->tn.addr, "%s.%u.%u", tb->net,
		    (unsigned)((s + 1) % 256), (unsigned)((tb_site_nodes(tb, s) + 1) % 256));
		snprintf(sl->tn.netns, sizeof sl->tn.netns, "gs-%s-%s", tb->tag, sc->login);
		snprintf(sl->tn.veth, sizeof sl->tn.veth, "gs%sl%u", tb->tag,
		    (unsigned)(tb->nslurm % 256));
		snprintf(sl->tn.peer, sizeof sl->tn.peer, "gs%sq%u", tb->tag,
		    (unsigned)(tb->nslurm % 256));
		xasprintf(&sl->tn.dir, "%s/nodes/%s", tb->dir, sc->login);
		xasprintf(&sl->dir, "%s/slurm/%s", tb->dir, sc->login);
		xasprintf(&sl->conf, "%s/slurm.conf", sl->dir);
		snprintf(sl->cluster, sizeof sl->cluster, "gs%ss%u", tb->tag,
		    (unsigned)((s + 1) % 256));
		sl->tn.slurm_conf = sl->conf;
		sl->tn.slurm_dir = sl->dir;
		tb->nslurm++;
	}
	return 0;
}

/* What tb_slurm_plan allocated (the login hosts' names are the site file's). */
void
tb_slurm_free(struct testbed *tb)
{
	size_t i;

	for (i = 0; i < tb->nslurm; i++) {
		free(tb->slurm[i].tn.dir);
		free(tb->slurm[i].dir);
		free(tb->slurm[i].conf);
	}
	free(tb->slurm);
	tb->slurm = NULL;
	tb->nslurm = 0;
}

/* scheduler: as written, flow style: only the keys the file gave. */
void
tb_slurm_yaml(FILE *f, const struct gs_sched *sc)
{
	const char *keys[] = { "partition", "account", "time", "qos" };
	const char *vals[] = { sc->partition, sc->account, sc->time, sc->qos };
	size_t i;

	fprintf(f, "{type: slurm, login: ");
	tb_yq(f, sc->login);
	for (i = 0; i < 4; i++)
		if (vals[i] != NULL) {
			fprintf(f, ", %s: ", keys[i]);
			tb_yq(f, vals[i]);
		}
	fprintf(f, "}");
}

/* A munge key of the testbed's own: 1024 random bytes, readable by root only. */
static int
tb_munge_key(const char *path)
{
	unsigned char key[1024];
	size_t got = 0;
	ssize_t n;
	int fd, rc = 0;

	while (got < sizeof key) {
		if ((n = getrandom(key + got, sizeof key - got, 0)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		got += (size_t)n;
	}
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0400)) == -1)
		return -1;
	if (write(fd, key, sizeof key) != (ssize_t)sizeof key)
		rc = -1;
	if (close(fd) == -1)
		rc = -1;
	return rc;
}

/*
 * slurm.conf: every file under DIR; authentication and job credentials through our munged
 * (cred/munge takes AuthInfo's socket too); processes tracked by their parents (no
 * cgroup plugin: the node's cgroup is the testbed's quota); no accounting; fast timeouts,
 * a test's grid comes and goes in seconds; a node that registers is idle (ReturnToService),
 * with its size from this file, not from this host's hardware (config_overrides).
 */
static int
tb_slurm_conf(struct testbed *tb, const struct tb_slurm *sl)
{
	const struct gs_sched *sc = tb->sites.sites[sl->site].sched;
	char *text = NULL;
	size_t len = 0, i, k = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	fprintf(f, "# generated by gridsubmit testbed up: the Slurm of site %s (testbed %s)\n"
	    "ClusterName=%s\nSlurmctldHost=%s(%s)\nSlurmctldPort=%d\nSlurmdPort=%d\n"
	    "AuthType=auth/munge\nAuthInfo=socket=%s/munge.socket\nCredType=cred/munge\n"
	    "SlurmUser=root\nSlurmdUser=root\n"
	    "StateSaveLocation=%s/ctld\nSlurmdSpoolDir=%s/spool/%%n\n"
	    "SlurmctldPidFile=%s/slurmctld.pid\nSlurmdPidFile=%s/slurmd-%%n.pid\n"
	    "SlurmctldLogFile=%s/slurmctld.log\nSlurmdLogFile=%s/slurmd-%%n.log\n"
	    "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
	    "JobAcctGatherType=jobacct_gather/none\nAccountingStorageType=accounting_storage/none\n"
	    "JobCompType=jobcomp/none\nMpiDefault=none\nMailProg=/bin/true\n"
	    "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n"
	    "ReturnToService=2\nSlurmdParameters=config_overrides\n"
	    "SlurmctldTimeout=10\nSlurmdTimeout=10\nMessageTimeout=5\nKillWait=2\n"
	    "InactiveLimit=0\nMinJobAge=10\n",
	    tb->sites.sites[sl->site].name, tb->name, sl->cluster, sc->login, sl->tn.addr,
	    TB_SLURMCTLD_PORT, TB_SLURMD_PORT, sl->dir, sl->dir, sl->dir, sl->dir, sl->dir,
	    sl->dir, sl->dir);
	for (i = 0; i < tb->n; i++) {
		const struct gs_node *n = tb->nodes[i].node;

		if ((size_t)n->site != sl->site)
			continue;
		fprintf(f, "NodeName=%s NodeAddr=%s CPUs=%d RealMemory=%.0f State=UNKNOWN\n",
		    n->host, tb->nodes[i].addr, n->cores > 0 ? n->cores : 1,
		    n->mem_mb >= 1 ? n->mem_mb : 1);
	}
	fprintf(f, "PartitionName=%s Nodes=", tb_slurm_partition(sc));
	for (i = 0; i < tb->n; i++)
		if ((size_t)tb->nodes[i].node->site == sl->site)
			fprintf(f, "%s%s", k++ ? "," : "", tb->nodes[i].node->host);
	fprintf(f, " Default=YES MaxTime=INFINITE State=UP\n");
	fclose(f);
	rc = file_write_atomic(sl->dir, "slurm.conf", text, strlen(text), 0644);
	if (rc == -1)
		fprintf(stderr, "gridsubmit testbed: cannot write %s: %s\n", sl->conf,
		    strerror(errno));
	free(text);
	return rc;
}

/* Start a daemon in host tn: argv[0] found in $PATH; 0, or -1 (said). */
static int
tb_slurm_spawn(struct testbed *tb, struct tb_node *tn, const char *what, char **argv,
    pid_t *pid)
{
	char *prog;

	if ((prog = tb_which(argv[0])) == NULL) {
		fprintf(stderr, "gridsubmit testbed: %s not found\n", argv[0]);
		return -1;
	}
	argv[0] = prog;
	*pid = tb_spawn(tb, tn, what, argv, NULL);
	free(prog);
	return *pid == -1 ? -1 : 0;
}

/* Wait until path exists while pid lives; 0, or -1 (said, with the log to read). */
static int
tb_wait_file(const struct tb_node *tn, const char *what, pid_t pid, const char *path,
    double seconds)
{
	double until = clock_mono() + seconds;
	struct timespec ts = { 0, 50000000L };

	while (access(path, F_OK) == -1) {
		if (tb_proc_start(pid) < 0 || clock_mono() > until) {
			fprintf(stderr, "gridsubmit testbed: %s: %s %s (see %s/%s.log)\n",
			    tn->node->host, what, tb_proc_start(pid) < 0 ? "exited" :
			    "did not start", tn->dir, what);
			return -1;
		}
		nanosleep(&ts, NULL);
	}
	return 0;
}

/*
 * sinfo on the login host until every node of the site is idle, at most
 * TB_SLURM_IDLE_WAIT seconds; 0, or -1 with each node that is not, Slurm's state and
 * reason, and its slurmd's log.
 */
static int
tb_slurm_wait_idle(struct testbed *tb, const struct tb_slurm *sl)
{
	const struct gs_sched *sc = tb->sites.sites[sl->site].sched;
	double until = clock_mono() + TB_SLURM_IDLE_WAIT;
	struct timespec ts = { 0, 200000000L };
	char *env, *argv[16];
	struct proc_task pt;
	size_t i, idle, total;
	int rc, last;

	xasprintf(&env, "SLURM_CONF=%s", sl->conf);
	argv[0] = "ip";
	argv[1] = "netns";
	argv[2] = "exec";
	argv[3] = (char *)sl->tn.netns;
	argv[4] = "env";
	argv[5] = env;
	argv[6] = "sinfo";
	argv[7] = "-h";
	argv[8] = "-N";
	argv[9] = "-p";
	argv[10] = (char *)tb_slurm_partition(sc);
	argv[11] = "-o";
	argv[12] = "%N %T %E";
	argv[13] = NULL;
	for (;;) {
		rc = proc_run(argv, 10, &pt);
		last = clock_mono() > until;
		idle = total = 0;
		for (i = 0; i < tb->n; i++) {
			const char *host = tb->nodes[i].node->host;
			char *line, state[64] = "", *save = NULL, *text;
			const char *reason = "";

			if ((size_t)tb->nodes[i].node->site != sl->site)
				continue;
			total++;
			text = xstrdup(rc == 0 ? pt.out : "");
			for (line = strtok_r(text, "\n", &save); line != NULL;
			    line = strtok_r(NULL, "\n", &save)) {
				size_t hl = strlen(host);

				if (strncmp(line, host, hl) == 0 && line[hl] == ' ' &&
				    sscanf(line + hl + 1, "%63s", state) == 1) {
					reason = strchr(line + hl + 1, ' ');
					reason = reason != NULL ? reason + 1 : "";
					break;
				}
			}
			if (strcmp(state, "idle") == 0)
				idle++;
			else if (last && rc != 0)
				fprintf(stderr, "gridsubmit testbed: site %s: sinfo on %s failed: "
				    "%s (see %s/slurmctld.log)\n", tb->sites.sites[sl->site].name,
				    sc->login, *pt.err != '\0' ? pt.err : "timed out", sl->dir);
			else if (last)
				fprintf(stderr, "gridsubmit testbed: site %s: Slurm's node %s is %s "
				    "after %.0f s, not idle%s%s (see %s/slurmd-%s.log)\n",
				    tb->sites.sites[sl->site].name, host, *state != '\0' ? state :
				    "not in the partition", TB_SLURM_IDLE_WAIT,
				    *reason != '\0' && strcmp(reason, "none") != 0 ? ": " : "",
				    strcmp(reason, "none") != 0 ? reason : "", sl->dir, host);
			free(text);
			if (last && rc != 0)
				break;
		}
		proc_free(&pt, 1);
		if (idle == total || last)
			break;
		nanosleep(&ts, NULL);
	}
	free(env);
	return idle == total ? 0 : -1;
}

/* One Slurm site: its files, its login host, munged, slurmctld, the slurmds; then idle. */
static int
tb_slurm_site_up(struct testbed *tb, struct tb_slurm *sl)
{
	char *path, *argv[16], *a[8];
	size_t i;
	pid_t pid;
	int k;

	if (tb_manifest_add(tb, "slurm %zu %s %s %s %s %s", sl->site,
	    tb->sites.sites[sl->site].name, sl->host.host, sl->tn.addr, sl->tn.netns,
	    sl->conf) == -1)
		return -1;
	xasprintf(&path, "%s/ctld", sl->dir);
	k = tb_mkdir(path, 0700);
	free(path);
	xasprintf(&path, "%s/spool", sl->dir);
	if (k == -1 || tb_mkdir(path, 0711) == -1)
		return -1;
	free(path);
	for (i = 0; i < tb->n; i++) {
		if ((size_t)tb->nodes[i].node->site != sl->site)
			continue;
		xasprintf(&path, "%s/spool/%s", sl->dir, tb->nodes[i].node->host);
		k = tb_mkdir(path, 0755);
		free(path);
		if (k == -1)
			return -1;
	}
	xasprintf(&path, "%s/munge.key", sl->dir);
	if (tb_munge_key(path) == -1) {
		fprintf(stderr, "gridsubmit testbed: cannot write %s: %s\n", path,
		    strerror(errno));
		return -1;
	}
	free(path);
	if (tb_slurm_conf(tb, sl) == -1)
		return -1;
	if (tb_host_net(tb, &sl->tn) == -1 || tb_host_sshd(tb, &sl->tn) == -1)
		return -1;

	/* -f: the socket's directory is under the job store, which only root may enter */
	argv[0] = "munged";
	argv[1] = "-F";
	argv[2] = "-f";
	xasprintf(&a[0], "--key-file=%s/munge.key", sl->dir);
	xasprintf(&a[1], "--socket=%s/munge.socket", sl->dir);
	xasprintf(&a[2], "--pid-file=%s/munged.pid", sl->dir);
	xasprintf(&a[3], "--log-file=%s/munged.log", sl->dir);
	xasprintf(&a[4], "--seed-file=%s/munged.seed", sl->dir);
	xasprintf(&a[5], "--origin=%s", sl->tn.addr);
	for (i = 0; i < 6; i++)
		argv[3 + i] = a[i];
	argv[9] = NULL;
	k = tb_slurm_spawn(tb, &sl->tn, "munged", argv, &pid);
	for (i = 0; i < 6; i++)
		free(a[i]);
	if (k == -1)
		return -1;
	xasprintf(&path, "%s/munge.socket", sl->dir);
	k = tb_wait_file(&sl->tn, "munged", pid, path, 10);
	free(path);
	if (k == -1)
		return -1;

	argv[0] = "slurmctld";
	argv[1] = "-D";
	argv[2] = "-f";
	argv[3] = sl->conf;
	argv[4] = NULL;
	if (tb_slurm_spawn(tb, &sl->tn, "slurmctld", argv, &pid) == -1)
		return -1;
	for (i = 0; i < tb->n; i++) {
		struct tb_node *tn = &tb->nodes[i];

		if ((size_t)tn->node->site != sl->site)
			continue;
		argv[0] = "slurmd";
		argv[1] = "-D";
		argv[2] = "-f";
		argv[3] = sl->conf;
		argv[4] = "-N";
		argv[5] = tn->node->host;
		argv[6] = NULL;
		if (tb_slurm_spawn(tb, tn, "slurmd", argv, &pid) == -1)
			return -1;
	}
	if (tb_wait_port(sl->tn.addr, TB_SSH_PORT, 10) == -1) {
		fprintf(stderr, "gridsubmit testbed: %s: sshd does not answer on %s:%d (see "
		    "%s/sshd.log)\n", sl->host.host, sl->tn.addr, TB_SSH_PORT, sl->tn.dir);
		return -1;
	}
	if (tb_wait_port(sl->tn.addr, TB_SLURMCTLD_PORT, 15) == -1) {
		fprintf(stderr, "gridsubmit testbed: %s: slurmctld does not answer on %s:%d "
		    "(see %s/slurmctld.log and %s/slurmctld.log)\n", sl->host.host, sl->tn.addr,
		    TB_SLURMCTLD_PORT, sl->dir, sl->tn.dir);
		return -1;
	}
	return tb_slurm_wait_idle(tb, sl);
}

/*
 * Before the nodes: STATE/slurm/LOGIN exists when a private_fs node's sshd brings it back
 * (testbed-fs.c). 0711 down to the spools (0755): another user's batch script runs from
 * its node's spool.
 */
int
tb_slurm_dirs(struct testbed *tb)
{
	char *path;
	size_t i;
	int rc;

	if (tb->nslurm == 0)
		return 0;
	xasprintf(&path, "%s/slurm", tb->dir);
	rc = tb_mkdir(path, 0711);
	free(path);
	for (i = 0; rc == 0 && i < tb->nslurm; i++)
		rc = tb_mkdir(tb->slurm[i].dir, 0711);
	return rc;
}

/* After the nodes: every Slurm site, each said on stderr with the time it took. */
int
tb_slurm_up(struct testbed *tb)
{
	double t0 = clock_mono();
	size_t i;

	for (i = 0; i < tb->nslurm; i++) {
		struct tb_slurm *sl = &tb->slurm[i];
		const struct gs_sched *sc = tb->sites.sites[sl->site].sched;

		if (tb_slurm_site_up(tb, sl) == -1)
			return -1;
		fprintf(stderr, "gridsubmit testbed: site %s: Slurm cluster %s up in %.1f s: "
		    "slurmctld on %s (%s), a slurmd on each of its %zu nodes, partition %s "
		    "(SLURM_CONF=%s)\n", tb->sites.sites[sl->site].name, sl->cluster,
		    clock_mono() - t0, sc->login, sl->tn.addr, tb_site_nodes(tb, sl->site),
		    tb_slurm_partition(sc), sl->conf);
		t0 = clock_mono();
	}
	return 0;
}
