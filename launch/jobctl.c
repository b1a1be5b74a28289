/*
 * jobctl.c — a job's processes on this host through /proc: supervisor, ranks, stopping.
 * Only the user's own processes are looked at (a scan skips other uids before reading
 * anything of theirs), and a pid the store kept counts only while its start time is the
 * one recorded with it (doc/security.md): cancel signals what it can prove is the job's.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/log.h"
#include "common/pstat.h"
#include "common/xmalloc.h"
#include "launch/jobctl.h"
#include "launch/lease.h"

#define ARGS_MAX	(256 << 10)	/* bytes read of a command line or an environment */
#define POLL_NS		100000000L

/* /proc/PID/NAME (NUL-separated strings) into buf; its length, or -1. */
static ssize_t
jobctl_read(pid_t pid, const char *name, char *buf, size_t size)
{
	char path[64];
	ssize_t n, len = 0;
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/%s", (long)pid, name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	while ((size_t)len < size - 1) {
		if ((n = read(fd, buf + len, size - 1 - (size_t)len)) == -1) {
			if (errno == EINTR)
				continue;
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return len;
}

/* Whether the NUL-separated list buf (len bytes) holds the string s. */
static int
jobctl_has(const char *buf, ssize_t len, const char *s)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		if (strcmp(p, s) == 0)
			return 1;
		p += strlen(p) + 1;
	}
	return 0;
}

/*
 * Whether pid is one of the user's own processes: the owner of /proc/PID, looked at
 * before anything of it is read, so that another user's process (one that puts the
 * job's paths in its argv) is never taken for the job's, nor can it slow the scan.
 */
static int
jobctl_own(pid_t pid)
{
	char path[64];
	struct stat sb;

	snprintf(path, sizeof path, "/proc/%ld", (long)pid);
	return stat(path, &sb) == 0 && sb.st_uid == geteuid();
}

static const char *
jobctl_base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

int
jobctl_supervisor_alive(const struct job_state *st)
{
	struct pstat ps;
	pid_t pid = (pid_t)st->supervisor_pid;
	char *buf;
	ssize_t n;
	int alive;

	if (pid <= 1 || (kill(pid, 0) == -1 && errno == ESRCH) || !jobctl_own(pid))
		return 0;
	/* a dead supervisor nobody reaped (init in a container may not) is a zombie */
	if (pstat_read(pid, &ps) == -1 || ps.state == 'Z' || ps.state == 'X')
		return 0;
	if (st->supervisor_start != 0)
		return ps.start == st->supervisor_start;
	buf = xmalloc(ARGS_MAX);
	n = jobctl_read(pid, "cmdline", buf, ARGS_MAX);
	alive = n > 0 && strstr(jobctl_base(buf), "gridsubmit") != NULL;
	free(buf);
	return alive;
}

int
jobctl_supervisor_wait(const struct job_state *st, double secs)
{
	struct timespec ts = { 0, 100000000L };
	double until = clock_mono() + secs;

	while (jobctl_supervisor_alive(st)) {
		if (clock_mono() > until)
			return 0;
		nanosleep(&ts, NULL);
	}
	return 1;
}

int
jobctl_refresh(struct job_state *st, char *why, size_t whylen)
{
	if (job_phase_final(st->phase) || jobctl_supervisor_alive(st))
		return 0;
	/* jobstore_record_end re-reads: a supervisor that wrote its end and exited wins */
	return jobstore_record_end(st, JOB_FAILED, JOBCTL_SUPERVISOR_DIED, why, whylen);
}

/* The job's paths in both spellings (as stored, and resolved), for argument matching. */
struct jobctl_match {
	char *status[2];	/* DIR/master.status: gridsubmit-rank's --status */
	char *hostfile[2];	/* DIR/hostfile: mpiexec's -f */
	char *events[2];	/* GRT_EVENTS=DIR/events.jsonl: every rank's environment */
	char *launcher[2];	/* DIR/ssh-launcher: hydra's launcher script (sh runs it) */
	char *config[2];	/* DIR/ssh_config: the ssh it runs toward each node */
	char *tag[1];		/* GRIDSUBMIT_JOB=TAG (lease.h), NULL before tags */
	int n;
	pid_t pgrp;		/* mpiexec's process group while its leader is proven, else 0 */
	unsigned long long pgrp_start;	/* members must be this young */
};

static void
jobctl_match_init(const struct job_state *st, struct jobctl_match *m)
{
	char *real, tag[128];
	const char *dirs[2];
	int i;

	memset(m, 0, sizeof *m);
	dirs[0] = st->dir;
	real = realpath(st->dir, NULL);
	dirs[1] = real != NULL && strcmp(real, st->dir) != 0 ? real : NULL;
	m->n = dirs[1] != NULL ? 2 : 1;
	for (i = 0; i < m->n; i++) {
		xasprintf(&m->status[i], "%s/master.status", dirs[i]);
		xasprintf(&m->hostfile[i], "%s/hostfile", dirs[i]);
		xasprintf(&m->events[i], "GRT_EVENTS=%s/events.jsonl", dirs[i]);
		xasprintf(&m->launcher[i], "%s/ssh-launcher", dirs[i]);
		xasprintf(&m->config[i], "%s/ssh_config", dirs[i]);
	}
	free(real);
	if (lease_tag_read(st->dir, tag, sizeof tag) == 0)
		xasprintf(&m->tag[0], "%s=%s", LEASE_TAG_ENV, tag);
}

static void
jobctl_match_free(struct jobctl_match *m)
{
	int i;

	for (i = 0; i < m->n; i++) {
		free(m->status[i]);
		free(m->hostfile[i]);
		free(m->events[i]);
		free(m->launcher[i]);
		free(m->config[i]);
	}
	free(m->tag[0]);
}

static int
jobctl_has_any(const char *buf, ssize_t len, char *const *s, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (jobctl_has(buf, len, s[i]))
			return 1;
	return 0;
}

/* What a process is, for messages: "PID argv0 argv1 ..." cut to fit. */
static void
jobctl_describe(pid_t pid, const char *args, ssize_t len, char *what, size_t size)
{
	size_t off;
	ssize_t i;

	off = (size_t)snprintf(what, size, "%ld ", (long)pid);
	for (i = 0; i < len && off + 1 < size; i++)
		what[off++] = args[i] == '\0' ? ' ' :
		    isprint((unsigned char)args[i]) ? args[i] : '?';
	while (off > 0 && what[off - 1] == ' ')
		off--;
	what[off < size ? off : size - 1] = '\0';
}

/*
 * mpiexec's process group is the job's only while its leader is proven to be the mpiexec
 * the store recorded: the user's own process, started at the recorded time. Once the
 * leader is gone, or the state recorded no start time, the group proves nothing: a pid
 * (and a group id) left in state.json may be anyone's by now. The members then count by
 * what else they carry (their arguments, the job's tag).
 */
static void
jobctl_match_group(const struct job_state *st, struct jobctl_match *m)
{
	struct pstat ps;
	pid_t pid = (pid_t)st->mpiexec_pid;

	if (pid <= 1 || st->mpiexec_start == 0 || !jobctl_own(pid) ||
	    pstat_read(pid, &ps) == -1 || ps.start != st->mpiexec_start ||
	    ps.state == 'Z' || ps.state == 'X')
		return;
	m->pgrp = pid;
	m->pgrp_start = ps.start;
}

/*
 * Whether pid is in our network namespace. A process in another one is another node for
 * hydra (the testbed's nodes are namespaces of this kernel): it was started over ssh, and
 * cancel reaches it over ssh (jobctl-remote.c), not through our /proc. Unknown: yes.
 */
static int
jobctl_same_net(pid_t pid)
{
	static char self[64];
	char path[64], ns[64];
	ssize_t n;

	if (self[0] == '\0') {
		if ((n = readlink("/proc/self/ns/net", self, sizeof self - 1)) <= 0)
			snprintf(self, sizeof self, "?");
		else
			self[n] = '\0';
	}
	snprintf(path, sizeof path, "/proc/%ld/ns/net", (long)pid);
	if (self[0] == '?' || (n = readlink(path, ns, sizeof ns - 1)) <= 0)
		return 1;
	ns[n] = '\0';
	return strcmp(ns, self) == 0;
}

struct jobctl_cand {
	pid_t pid, ppid;
	unsigned long long start;
	int mine;		/* 1: the job's; 2: a gridsubmit-rank of the job */
	int proxy;		/* argv[0] is hydra_pmi_proxy */
	char what[120];
};

size_t
jobctl_processes(const struct job_state *st, struct jobctl_proc **procs)
{
	struct jobctl_match m;
	struct jobctl_cand *c = NULL;
	struct pstat ps;
	struct dirent *de;
	size_t nc = 0, cap = 0, i, j, n = 0;
	char *buf, *end;
	pid_t self = getpid(), pid;
	ssize_t len;
	long v;
	DIR *d;

	*procs = NULL;
	if (st->dir == NULL || (d = opendir("/proc")) == NULL)
		return 0;
	buf = xmalloc(ARGS_MAX);
	jobctl_match_init(st, &m);
	jobctl_match_group(st, &m);
	while ((de = readdir(d)) != NULL) {
		errno = 0;
		v = strtol(de->d_name, &end, 10);
		if (*end != '\0' || v <= 0 || errno != 0)
			continue;
		pid = (pid_t)v;
		if (pid == self || !jobctl_own(pid) || pstat_read(pid, &ps) == -1 ||
		    ps.state == 'Z' ||
		    ps.state == 'X' || !jobctl_same_net(pid))
			continue;
		if ((len = jobctl_read(pid, "cmdline", buf, ARGS_MAX)) <= 0)
			continue;	/* kernel threads, or gone */
		if (nc == cap) {
			cap = cap ? cap * 2 : 256;
			c = xreallocarray(c, cap, sizeof *c);
		}
		memset(&c[nc], 0, sizeof c[nc]);
		c[nc].pid = pid;
		c[nc].ppid = ps.ppid;
		c[nc].start = ps.start;
		c[nc].proxy = strcmp(jobctl_base(buf), "hydra_pmi_proxy") == 0;
		jobctl_describe(pid, buf, len, c[nc].what, sizeof c[nc].what);
		if (strcmp(jobctl_base(buf), "gridsubmit-rank") == 0 &&
		    jobctl_has_any(buf, len, m.status, m.n))
			c[nc].mine = 2;
		else if (strncmp(jobctl_base(buf), "mpiexec", 7) == 0 &&
		    jobctl_has_any(buf, len, m.hostfile, m.n))
			c[nc].mine = 1;
		else if (m.pgrp > 0 && ps.pgrp == m.pgrp && ps.start >= m.pgrp_start)
			c[nc].mine = 1;
		/* hydra gives each launcher a session of its own: by its arguments */
		else if (jobctl_has_any(buf, len, m.launcher, m.n) ||
		    jobctl_has_any(buf, len, m.config, m.n))
			c[nc].mine = 1;
		else if ((len = jobctl_read(pid, "environ", buf, ARGS_MAX)) > 0 &&
		    (jobctl_has_any(buf, len, m.events, m.n) ||
		    (m.tag[0] != NULL && jobctl_has_any(buf, len, m.tag, 1))))
			c[nc].mine = 1;
		nc++;
	}
	closedir(d);
	/* hydra's proxies sit in sessions of their own: find them as the ranks' parents */
	for (i = 0; i < nc; i++) {
		if (c[i].mine != 2)
			continue;
		for (j = 0; j < nc; j++)
			if (c[j].pid == c[i].ppid && c[j].proxy && !c[j].mine)
				c[j].mine = 1;
	}
	for (i = 0; i < nc; i++) {
		if (!c[i].mine)
			continue;
		*procs = xreallocarray(*procs, n + 1, sizeof **procs);
		(*procs)[n].pid = c[i].pid;
		(*procs)[n].start = c[i].start;
		snprintf((*procs)[n].what, sizeof (*procs)[n].what, "%s", c[i].what);
		n++;
	}
	free(c);
	free(buf);
	jobctl_match_free(&m);
	return n;
}

/* Signal the processes that are still the ones listed (a pid may have been recycled). */
static void
jobctl_signal(const struct jobctl_proc *p, size_t n, int sig)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (pstat_start_time(p[i].pid) == p[i].start)
			kill(p[i].pid, sig);
}

size_t
jobctl_stop(const struct job_state *st, double grace, double limit,
    struct jobctl_proc **left, size_t *seen)
{
	struct timespec ts = { 0, POLL_NS };
	struct jobctl_proc *p;
	double t0 = clock_mono();
	size_t n;
	int killed = 0;

	n = jobctl_processes(st, &p);
	*seen = n;
	/* on SIGTERM mpiexec stops its proxies and ranks; the wrappers forward it too */
	if (n > 0)
		jobctl_signal(p, n, SIGTERM);
	while (n > 0) {
		nanosleep(&ts, NULL);
		free(p);
		n = jobctl_processes(st, &p);
		if (n == 0)
			break;
		if (!killed && clock_mono() - t0 >= grace) {
			jobctl_signal(p, n, SIGKILL);
			killed = 1;
		} else if (killed && clock_mono() - t0 >= limit)
			break;
		else if (killed)
			jobctl_signal(p, n, SIGKILL);	/* newcomers: a proxy's late child */
	}
	*left = p;
	return n;
}
