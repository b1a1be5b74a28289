/*
 * testbed-down.c — take a testbed down from its manifest (also one left by a crash halfway
 * through `up`): kill every process of its namespaces and cgroups and the ones it recorded,
 * delete the namespaces, links and cgroups, then its state directory. And `status`: per node,
 * whether sshd and the node_exporter answer, its CPU quota and how its link latency is
 * emulated; per Slurm site, whether its login host's sshd answers and its daemons run.
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/fstree.h"
#include "common/jsonout.h"
#include "common/xmalloc.h"
#include "testbed/testbed.h"

struct tb_manifest {
	char **netns, **veth, **bridge, **cgroup;
	size_t nnetns, nveth, nbridge, ncgroup;
	long *pid;
	long long *start;
	size_t npid;
	char **node;		/* "HOST ADDR NETNS SITE" */
	size_t nnode;
	char **latency;		/* "HOST HOW MS" (testbed-latency.c) */
	size_t nlatency;
	char **delay;		/* "PID START HOST" of the delay lines */
	size_t ndelay;
	char **cpu;		/* "HOST CPUS": the quota applied (testbed-speed.c) */
	size_t ncpu;
	char **slurm;		/* "SITEINDEX SITE LOGIN ADDR NETNS CONF" (testbed-slurm.c) */
	size_t nslurm;
	char **proc;		/* "PID START WHAT HOST" of every process recorded */
	size_t nproc;
	char limits[8];		/* "limits TAG": its share of the kernel limits (testbed-limits.c) */
	double cpu_per_mhz;	/* "speeds on SCALE"; 0: off, or a manifest without it */
	int speeds_off;		/* "speeds off": --no-speeds */
	int up;
	char name[256];
	char net[8];		/* "net NET"; TB_NET_OLD in a manifest without it */
};

static void
tb_push(char ***v, size_t *n, const char *s)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
}

static int
tb_manifest_read(const char *dir, struct tb_manifest *m)
{
	char *path, *line = NULL, arg[4096];
	size_t cap = 0;
	ssize_t len;
	FILE *f;

	memset(m, 0, sizeof *m);
	snprintf(m->net, sizeof m->net, "%s", TB_NET_OLD);
	xasprintf(&path, "%s/manifest", dir);
	f = fopen(path, "r");
	free(path);
	if (f == NULL)
		return -1;
	while ((len = getline(&line, &cap, f)) > 0) {
		long pid;
		long long start;
		char what[64];

		if (line[len - 1] != '\n')
			break;	/* torn last line: the step it names was not taken */
		line[len - 1] = '\0';
		if (sscanf(line, "netns %4095s", arg) == 1)
			tb_push(&m->netns, &m->nnetns, arg);
		else if (sscanf(line, "veth %4095s", arg) == 1)
			tb_push(&m->veth, &m->nveth, arg);
		else if (sscanf(line, "bridge %4095s", arg) == 1)
			tb_push(&m->bridge, &m->nbridge, arg);
		else if (sscanf(line, "cgroup %4095s", arg) == 1)
			tb_push(&m->cgroup, &m->ncgroup, arg);
		else if (sscanf(line, "pid %ld %lld", &pid, &start) == 2) {
			m->pid = xreallocarray(m->pid, m->npid + 1, sizeof *m->pid);
			m->start = xreallocarray(m->start, m->npid + 1, sizeof *m->start);
			m->pid[m->npid] = pid;
			m->start[m->npid++] = start;
			tb_push(&m->proc, &m->nproc, line + 4);
			if (sscanf(line, "pid %*s %*s %63s %4095s", what, arg) == 2 &&
			    strcmp(what, "delay") == 0) {
				char *d;

				xasprintf(&d, "%ld %lld %s", pid, start, arg);
				tb_push(&m->delay, &m->ndelay, d);
				free(d);
			}
		} else if (strncmp(line, "latency ", 8) == 0)
			tb_push(&m->latency, &m->nlatency, line + 8);
		else if (strncmp(line, "node ", 5) == 0)
			tb_push(&m->node, &m->nnode, line + 5);
		else if (strncmp(line, "cpu ", 4) == 0)
			tb_push(&m->cpu, &m->ncpu, line + 4);
		else if (strncmp(line, "slurm ", 6) == 0)
			tb_push(&m->slurm, &m->nslurm, line + 6);
		else if (sscanf(line, "speeds on %lf", &m->cpu_per_mhz) == 1)
			continue;
		else if (strcmp(line, "speeds off") == 0)
			m->speeds_off = 1;
		else if (sscanf(line, "net %7s", m->net) == 1)
			continue;
		else if (sscanf(line, "limits %7s", m->limits) == 1)
			continue;
		else if (strcmp(line, "up") == 0)
			m->up = 1;
		else
			sscanf(line, "testbed %255s", m->name);
	}
	free(line);
	fclose(f);
	return 0;
}

static void
tb_manifest_free(struct tb_manifest *m)
{
	strv_free(m->netns, m->nnetns);
	strv_free(m->veth, m->nveth);
	strv_free(m->bridge, m->nbridge);
	strv_free(m->cgroup, m->ncgroup);
	strv_free(m->node, m->nnode);
	strv_free(m->latency, m->nlatency);
	strv_free(m->delay, m->ndelay);
	strv_free(m->cpu, m->ncpu);
	strv_free(m->slurm, m->nslurm);
	strv_free(m->proc, m->nproc);
	free(m->pid);
	free(m->start);
}

/* The processes of the testbed now: recorded ones, its namespaces', its cgroups'. */
static size_t
tb_victims(const struct tb_manifest *m, long **out)
{
	struct stat *ns = xcalloc(m->nnetns + 1, sizeof *ns);
	int *have = xcalloc(m->nnetns + 1, sizeof *have);
	long *v = NULL, pid;
	size_t n = 0, i;
	struct dirent *de;
	DIR *d;
	char path[4200];
	FILE *f;

	for (i = 0; i < m->npid; i++) {
		if (tb_proc_start(m->pid[i]) == m->start[i] && m->start[i] >= 0) {
			v = xreallocarray(v, n + 1, sizeof *v);
			v[n++] = m->pid[i];
		}
	}
	for (i = 0; i < m->nnetns; i++) {
		snprintf(path, sizeof path, "/run/netns/%s", m->netns[i]);
		have[i] = stat(path, &ns[i]) == 0;
	}
	if ((d = opendir("/proc")) != NULL) {
		while ((de = readdir(d)) != NULL) {
			struct stat sb;

			if ((pid = strtol(de->d_name, NULL, 10)) <= 0 || pid == getpid())
				continue;
			snprintf(path, sizeof path, "/proc/%ld/ns/net", pid);
			if (stat(path, &sb) == -1)
				continue;
			for (i = 0; i < m->nnetns; i++) {
				if (have[i] && sb.st_ino == ns[i].st_ino &&
				    sb.st_dev == ns[i].st_dev && tb_proc_start(pid) >= 0) {
					v = xreallocarray(v, n + 1, sizeof *v);
					v[n++] = pid;
					break;
				}
			}
		}
		closedir(d);
	}
	for (i = 0; i < m->ncgroup; i++) {
		snprintf(path, sizeof path, "%s/cgroup.procs", m->cgroup[i]);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		while (fscanf(f, "%ld", &pid) == 1) {
			if (pid == getpid() || tb_proc_start(pid) < 0)
				continue;
			v = xreallocarray(v, n + 1, sizeof *v);
			v[n++] = pid;
		}
		fclose(f);
	}
	free(ns);
	free(have);
	*out = v;
	return n;
}

/* SIGTERM, then SIGKILL after a second, until none is left (at most ~10 s). */
static int
tb_kill_all(const struct tb_manifest *m, int verbose)
{
	struct timespec ts = { 0, 100000000L };
	long *v;
	size_t n, i;
	int round;

	for (round = 0; round < 100; round++) {
		n = tb_victims(m, &v);
		if (n == 0)
			return 0;
		if (verbose && round == 0)
			printf("gridsubmit testbed: stopping %zu process%s\n", n,
			    n == 1 ? "" : "es");
		for (i = 0; i < n; i++)
			kill((pid_t)v[i], round < 10 ? SIGTERM : SIGKILL);
		free(v);
		nanosleep(&ts, NULL);
	}
	n = tb_victims(m, &v);
	for (i = 0; i < n; i++)
		fprintf(stderr, "gridsubmit testbed: process %ld does not die\n", v[i]);
	free(v);
	return n == 0 ? 0 : -1;
}

static int
tb_link_exists(const char *name)
{
	char path[300];

	snprintf(path, sizeof path, "/sys/class/net/%s", name);
	return access(path, F_OK) == 0;
}

static int tb_down_pass(const char *dir, int verbose, int quiet_errors);

/*
 * Twice when the first pass fails: after a crash of `up`, a tool it started (ip, tc,
 * ssh-keygen) may still be finishing what the manifest announced.
 */
int
tb_down(const char *dir, int verbose)
{
	struct timespec ts = { 0, 500000000L };

	if (tb_down_pass(dir, verbose, 1) == 0)
		return 0;
	nanosleep(&ts, NULL);
	return tb_down_pass(dir, verbose, 0);
}

static int
tb_down_pass(const char *dir, int verbose, int quiet_errors)
{
	struct tb_manifest m;
	char path[4200];
	size_t i;
	int bad = 0;

	if (tb_manifest_read(dir, &m) == -1) {
		if (access(dir, F_OK) == 0 && fstree_remove(dir) == -1)
			fprintf(stderr, "gridsubmit testbed: cannot remove %s: %s\n", dir,
			    strerror(errno));
		if (verbose)
			printf("gridsubmit testbed: not up (no %s/manifest)\n", dir);
		return 0;
	}
	if (tb_kill_all(&m, verbose) == -1)
		bad = 1;
	for (i = 0; i < m.nnetns; i++) {
		snprintf(path, sizeof path, "/run/netns/%s", m.netns[i]);
		if (access(path, F_OK) == 0 && (quiet_errors ? tb_run_quiet("ip", "netns", "del",
		    m.netns[i], NULL) : tb_run("ip", "netns", "del", m.netns[i], NULL)) == -1)
			bad = 1;
	}
	/* deleting a namespace deletes its end of a veth pair, and so the pair */
	for (i = 0; i < m.nveth; i++)
		if (tb_link_exists(m.veth[i]) && (quiet_errors ? tb_run_quiet("ip", "link", "del",
		    m.veth[i], NULL) : tb_run("ip", "link", "del", m.veth[i], NULL)) == -1)
			bad = 1;
	for (i = 0; i < m.nbridge; i++)
		if (tb_link_exists(m.bridge[i]) && (quiet_errors ? tb_run_quiet("ip", "link", "del",
		    m.bridge[i], NULL) : tb_run("ip", "link", "del", m.bridge[i], NULL)) == -1)
			bad = 1;
	/* once its bridge is gone: its share is no longer counted by anyone */
	if (m.limits[0] != '\0' && tb_limits_release(m.limits, verbose) == -1)
		bad = 1;
	/* children before their parent: the manifest lists the parent first */
	for (i = m.ncgroup; i-- > 0; ) {
		if (rmdir(m.cgroup[i]) == -1 && errno != ENOENT) {
			if (!quiet_errors)
				fprintf(stderr, "gridsubmit testbed: cannot remove cgroup "
				    "%s: %s\n", m.cgroup[i], strerror(errno));
			bad = 1;
		}
	}
	if (!bad) {
		if (fstree_remove(dir) == -1) {
			fprintf(stderr, "gridsubmit testbed: cannot remove %s: %s\n", dir,
			    strerror(errno));
			bad = 1;
		}
	}
	if (verbose && !(bad && quiet_errors)) {
		if (bad)
			printf("gridsubmit testbed: %s: not everything could be removed; its "
			    "manifest stays in %s\n", m.name, dir);
		else
			printf("gridsubmit testbed: %s down: %zu namespaces, %zu links, %zu "
			    "cgroups and %zu processes removed\n", m.name, m.nnetns,
			    m.nveth + m.nbridge, m.ncgroup, m.npid);
	}
	tb_manifest_free(&m);
	return bad ? -1 : 0;
}

/* Connect with a timeout; the socket, or -1. */
static int
tb_connect(const char *addr, int port, int ms)
{
	struct sockaddr_in sin;
	struct pollfd pfd;
	int s, err = 0;
	socklen_t len = sizeof err;

	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((unsigned short)port);
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1)
		return -1;
	if ((s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	if (connect(s, (struct sockaddr *)&sin, sizeof sin) == -1 && errno != EINPROGRESS)
		goto bad;
	pfd.fd = s;
	pfd.events = POLLOUT;
	if (poll(&pfd, 1, ms) != 1 || getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len) == -1 ||
	    err != 0)
		goto bad;
	return s;
bad:
	close(s);
	return -1;
}

/* Read into buf until EOF, full or the time is out; the bytes read. */
static size_t
tb_read_some(int s, char *buf, size_t cap, int ms, const char *until)
{
	double end = clock_mono() + ms / 1000.0;
	struct pollfd pfd = { s, POLLIN, 0 };
	size_t len = 0;
	ssize_t n;

	while (len + 1 < cap) {
		int left = (int)((end - clock_mono()) * 1000);

		if (left <= 0 || poll(&pfd, 1, left) != 1)
			break;
		if ((n = read(s, buf + len, cap - 1 - len)) <= 0)
			break;
		len += (size_t)n;
		buf[len] = '\0';
		if (until != NULL && strstr(buf, until) != NULL)
			break;
	}
	buf[len] = '\0';
	return len;
}

static int
tb_probe_sshd(const char *addr)
{
	char buf[256];
	int s = tb_connect(addr, TB_SSH_PORT, 1000), ok;

	if (s == -1)
		return 0;
	tb_read_some(s, buf, sizeof buf, 2000, "\n");
	ok = strncmp(buf, "SSH-2.0-", 8) == 0;
	close(s);
	return ok;
}

/* node_load1 as the exporter serves it, or NAN-ish -1 when it does not answer. */
static int
tb_probe_exporter(const char *addr, double *load1)
{
	static char buf[1 << 20];
	char req[128], *p;
	int s = tb_connect(addr, TB_EXPORTER_PORT, 1000);

	*load1 = -1;
	if (s == -1)
		return 0;
	snprintf(req, sizeof req, "GET /metrics HTTP/1.0\r\nHost: %s\r\n\r\n", addr);
	if (write(s, req, strlen(req)) != (ssize_t)strlen(req)) {
		close(s);
		return 0;
	}
	tb_read_some(s, buf, sizeof buf, 3000, NULL);
	close(s);
	if (strncmp(buf, "HTTP/1.", 7) != 0 || strstr(buf, " 200") == NULL)
		return 0;
	if ((p = strstr(buf, "\nnode_load1 ")) != NULL)
		*load1 = strtod(p + 12, NULL);
	return 1;
}

/*
 * How the node's latency is emulated (its "latency" line; "none" in manifests written
 * before there was one) and, for a delay line, whether its daemon still runs (-1: none).
 */
static void
tb_node_latency(const struct tb_manifest *m, const char *host, char *how, size_t howlen,
    double *ms, int *alive)
{
	char h[256], w[32];
	long pid;
	long long start;
	double v;
	size_t i;

	snprintf(how, howlen, "none");
	*ms = 0;
	*alive = -1;
	for (i = 0; i < m->nlatency; i++)
		if (sscanf(m->latency[i], "%255s %31s %lf", h, w, &v) == 3 &&
		    strcmp(h, host) == 0 && (strcmp(w, "none") == 0 || strcmp(w, "netem") == 0 ||
		    strcmp(w, "delay-line") == 0)) {
			snprintf(how, howlen, "%s", w);
			*ms = v;
		}
	if (strcmp(how, "delay-line") != 0)
		return;
	*alive = 0;
	for (i = 0; i < m->ndelay; i++)
		if (sscanf(m->delay[i], "%ld %lld %255s", &pid, &start, h) == 3 &&
		    strcmp(h, host) == 0 && start >= 0 && tb_proc_start(pid) == start)
			*alive = 1;
}

/* The node's CPU quota as `up` applied it, or -1 when it has none. */
static double
tb_node_quota(const struct tb_manifest *m, const char *host)
{
	char h[256];
	double v, q = -1;
	size_t i;

	for (i = 0; i < m->ncpu; i++)
		if (sscanf(m->cpu[i], "%255s %lf", h, &v) == 2 && strcmp(h, host) == 0)
			q = v;
	return q;
}

/* 1 when the process recorded as WHAT on HOST runs, 0 when it does not, -1: none recorded. */
static int
tb_proc_alive(const struct tb_manifest *m, const char *what, const char *host)
{
	char w[64], h[256];
	long pid;
	long long start;
	size_t i;
	int alive = -1;

	for (i = 0; i < m->nproc; i++)
		if (sscanf(m->proc[i], "%ld %lld %63s %255s", &pid, &start, w, h) == 4 &&
		    strcmp(w, what) == 0 && strcmp(h, host) == 0)
			alive = start >= 0 && tb_proc_start(pid) == start;
	return alive;
}

/*
 * A Slurm site of the manifest ("SITEINDEX SITE LOGIN ADDR NETNS CONF"): its login host's sshd, its
 * munged and slurmctld, and the slurmd of each node of the site, as a line of text or an
 * element of the JSON array. 1 when all run, else 0.
 */
static int
tb_status_slurm(const struct tb_manifest *m, const char *line, json_t *arr)
{
	char site[256], login[256], addr[64], netns[320], conf[4096], host[256], naddr[64];
	char nns[320];
	int sshd, munged, ctld, d, ok;
	size_t i, s = 0, idx, nidx;
	json_t *o, *slurmd, *v;
	const char *k;

	if (sscanf(line, "%zu %255s %255s %63s %319s %4095s", &idx, site, login, addr, netns,
	    conf) != 6)
		return 0;
	sshd = tb_probe_sshd(addr);
	munged = tb_proc_alive(m, "munged", login) == 1;
	ctld = tb_proc_alive(m, "slurmctld", login) == 1;
	ok = sshd && munged && ctld;
	slurmd = json_object();
	for (i = 0; i < m->nnode; i++)
		if (sscanf(m->node[i], "%255s %63s %319s %zu", host, naddr, nns, &nidx) == 4 &&
		    nidx == idx) {
			d = tb_proc_alive(m, "slurmd", host);
			if (d == -1)
				continue;
			json_object_set_new(slurmd, host, json_boolean(d == 1));
			ok = ok && d == 1;
			s++;
		}
	if (arr != NULL) {
		o = json_pack("{s:s, s:s, s:s, s:s, s:b, s:b, s:b, s:o}", "site", site, "login",
		    login, "address", addr, "slurm_conf", conf, "sshd", sshd, "munged", munged,
		    "slurmctld", ctld, "slurmd", slurmd);
		json_array_append_new(arr, o);
		return ok;
	}
	printf("slurm site %s: login host %s %s, sshd %s, munged %s, slurmctld %s; slurmd:",
	    site, login, addr, sshd ? "up" : "down", munged ? "running" : "not running",
	    ctld ? "running" : "not running");
	i = 0;
	json_object_foreach(slurmd, k, v)
		printf("%s %s %s", i++ ? "," : "", k, json_is_true(v) ? "running" : "not running");
	printf("%s\n  SLURM_CONF=%s\n", s == 0 ? " none" : "", conf);
	json_decref(slurmd);
	return ok;
}

/*
 * status --json's document, with the error object of gridsubmit-json(5) when the testbed
 * is not all up (code, the exit status, is not 0): why says what is missing.
 */
static int
tb_status_print(json_t *doc, int code, const char *why)
{
	if (doc != NULL && code != EXIT_SUCCESS)
		json_object_set_new(doc, "error", jsonout_error(code, why));
	return jsonout_print(doc);
}

int
tb_status(const char *dir, int json)
{
	struct tb_manifest m;
	json_t *doc = NULL, *nodes = NULL;
	char why[PATH_MAX + 64];
	size_t i, nup = 0;
	int code;

	if (tb_manifest_read(dir, &m) == -1) {
		snprintf(why, sizeof why, "not up (no %s/manifest)", dir);
		if (json)
			tb_status_print(json_pack("{s:n, s:b, s:[], s:i}", "name", "complete", 0,
			    "nodes", "up", 0), EXIT_FAILURE, why);
		else
			printf("gridsubmit testbed: %s\n", why);
		return EXIT_FAILURE;
	}
	if (json) {
		nodes = json_array();
		doc = json_pack("{s:s, s:b, s:o}", "name", m.name, "complete", m.up, "nodes",
		    nodes);
	} else {
		printf("testbed %s: %s, %s.0.1/16 on the bridge", m.name, m.up ? "built" :
		    "half built (run down)", m.net);
		if (m.cpu_per_mhz > 0) {
			char scale[32];

			tb_speed_fmt(scale, sizeof scale, m.cpu_per_mhz);
			printf(", CPU speeds emulated at %s CPU/MHz", scale);
		} else if (m.speeds_off)
			printf(", CPU quotas of cpu_scale x cores (--no-speeds)");
		printf("\n%-16s %-14s %-24s %-5s %-8s %-6s %-6s %s\n", "HOST", "ADDRESS",
		    "NETNS", "SSHD", "EXPORTER", "LOAD1", "CPU", "LATENCY");
	}
	for (i = 0; i < m.nnode; i++) {
		char host[256], addr[64], netns[320], how[32], lat[64], cpu[32];
		double load1, ms, quota;
		int sshd, exp, alive;

		if (sscanf(m.node[i], "%255s %63s %319s", host, addr, netns) != 3)
			continue;
		sshd = tb_probe_sshd(addr);
		exp = tb_probe_exporter(addr, &load1);
		tb_node_latency(&m, host, how, sizeof how, &ms, &alive);
		quota = tb_node_quota(&m, host);
		/* a dead delay line drops the node's packets: the node is down */
		if (sshd && exp && alive != 0)
			nup++;
		if (json) {
			json_t *o = json_pack("{s:s, s:s, s:s, s:b, s:b, s:o, s:o, s:s}", "host",
			    host, "address", addr, "netns", netns, "sshd", sshd, "exporter", exp,
			    "load1", jsonout_num(exp ? load1 : NAN), "latency_ms",
			    jsonout_num(ms), "latency", how);

			if (o != NULL && alive != -1)
				json_object_set_new(o, "delay_line", json_boolean(alive));
			if (o != NULL)
				json_object_set_new(o, "cpu_quota", quota >= 0 ?
				    json_real(quota) : json_null());
			json_array_append_new(nodes, o);
		} else {
			if (strcmp(how, "none") == 0)
				snprintf(lat, sizeof lat, "-");
			else if (strcmp(how, "delay-line") == 0)
				snprintf(lat, sizeof lat, "%g ms, delay line%s", ms,
				    alive ? "" : " (not running)");
			else
				snprintf(lat, sizeof lat, "%g ms, netem", ms);
			if (quota >= 0)
				snprintf(cpu, sizeof cpu, "%.3g", quota);
			else
				snprintf(cpu, sizeof cpu, "-");
			printf("%-16s %-14s %-24s %-5s %-8s %-6.2f %-6s %s\n", host, addr, netns,
			    sshd ? "up" : "down", exp ? "up" : "down", load1, cpu, lat);
		}
	}
	code = nup == m.nnode && m.up ? EXIT_SUCCESS : EXIT_FAILURE;
	if (!json)
		printf("%zu of %zu nodes up\n", nup, m.nnode);
	if (m.nslurm > 0) {
		json_t *arr = json ? json_array() : NULL;

		for (i = 0; i < m.nslurm; i++)
			if (!tb_status_slurm(&m, m.slurm[i], arr))
				code = EXIT_FAILURE;
		if (json)
			json_object_set_new(doc, "slurm", arr);
	}
	if (json) {
		json_object_set_new(doc, "up", json_integer((json_int_t)nup));
		snprintf(why, sizeof why, "%zu of %zu nodes up%s", nup, m.nnode,
		    m.up ? "" : ", half built (run down)");
		if (tb_status_print(doc, code, why) == -1)
			code = EXIT_FAILURE;
	}
	tb_manifest_free(&m);
	return code;
}
