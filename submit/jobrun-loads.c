/*
 * jobrun-loads.c — the node feed of every job whose placed nodes have a monitor
 * (doc/runtime.md, "Node loads"): while a launch runs, DIR/nodes holds each placed node's
 * load and CPU busy fraction as its monitor last said them (common/node-stat.h), for
 * status and the console; and, for a job with task migration (doc/tasks.md), DIR/loads
 * holds the node_load1 of every node whose monitor answered this time, for the master's
 * policy. Both are rewritten about every second. On the testbed every node shares one
 * kernel, so /proc/loadavg says nothing per node: the load has to come from each node's
 * monitor, as the ranking reads it (metrics.h).
 *
 * The feed is a child process of the supervisor, not a step of its wait loop nor a thread:
 * one fetch may last its whole timeout (a node that does not answer) while the supervisor
 * must reap mpiexec, accept leases and act on a cancel within 50 ms (launch-proc.c); and a
 * thread would share the site list that a relaunch rewrites. The child fetches from its own
 * copy of the sites (fork), and dies with the launch (jobrun_loads_stop) or with the
 * supervisor (PR_SET_PDEATHSIG).
 */
#include <sys/prctl.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/file.h"
#include "common/log.h"
#include "common/node-stat.h"
#include "common/xmalloc.h"
#include "submit/jobrun.h"

#define LOADS_PERIOD		1.0	/* seconds between two rewrites of DIR/loads */
#define LOADS_CONNECT_TIMEOUT	0.5
#define LOADS_TIMEOUT		0.8	/* a fetch ends within the period */

/* 1 when the job asks for task migration: runtime.migration set and not none. */
static int
loads_wanted(const struct gs_job *job)
{
	const char *m = job_runtime_get(job, "migration");

	return m != NULL && strcmp(m, "none") != 0;
}

/*
 * How many nodes of the placement have a monitor. With only 1 (in the child's copy of the
 * sites), the other nodes' monitors are dropped, so that metrics_fetch asks nobody else.
 */
static size_t
loads_placed(struct gs_sites *sites, const struct gs_placement *pl, int only)
{
	unsigned char *placed = xcalloc(sites->nnodes + 1, 1);
	size_t i, n = 0;
	int r;

	for (r = 0; r < pl->nranks; r++)
		if (pl->ranks[r].node < sites->nnodes)
			placed[pl->ranks[r].node] = 1;
	for (i = 0; i < sites->nnodes; i++) {
		if (!placed[i] && only)
			sites->nodes[i].monitor = NULL;
		else if (sites->nodes[i].monitor != NULL)
			n++;
	}
	free(placed);
	return n;
}

/*
 * DIR/loads replaced at once (file_write_atomic): "NODE LOAD1" per node read. Returns 0,
 * or -1 with errno set.
 */
static int
loads_write(const struct gs_sites *sites, const char *dir)
{
	char *text = xstrdup("# gridsubmit node loads\n"), *t;
	const struct gs_node *n;
	size_t i;
	int rc;

	for (i = 0; i < sites->nnodes; i++) {
		n = &sites->nodes[i];
		if (n->monitor == NULL || !n->have_metrics)
			continue;
		xasprintf(&t, "%s%s %.6g\n", text, n->host, n->load1);
		free(text);
		text = t;
	}
	rc = file_write_atomic(dir, "loads", text, strlen(text), 0644);
	free(text);
	return rc;
}

/*
 * The answers of this fetch folded into st (one per node of sites, st[i].time 0 until its
 * monitor answered): the load and time of every node that answered, and its CPU busy
 * fraction from the CPU seconds since its previous answer (prev: total and idle per node).
 * A node that did not answer keeps what it had.
 */
static void
loads_fold(const struct gs_sites *sites, struct node_stat *st, double (*prev)[2], double now)
{
	const struct gs_node *n;
	double dt, di;
	size_t i;

	for (i = 0; i < sites->nnodes; i++) {
		n = &sites->nodes[i];
		if (n->monitor == NULL || !n->have_metrics)
			continue;
		dt = n->live_cpu_total - prev[i][0];
		di = n->live_cpu_idle - prev[i][1];
		/* a counter that went back (the exporter restarted) gives no figure this time */
		if (st[i].time > 0 && dt > 0 && di >= 0 && di <= dt)
			st[i].cpu_busy = 1 - di / dt;
		else if (st[i].time == 0 || dt < 0)
			st[i].cpu_busy = -1;
		prev[i][0] = n->live_cpu_total;
		prev[i][1] = n->live_cpu_idle;
		snprintf(st[i].node, sizeof st[i].node, "%s", n->host);
		st[i].load1 = n->load1;
		st[i].time = now;
	}
}

/* DIR/nodes replaced at once: the line of every node that answered once. 0, or -1. */
static int
loads_write_nodes(const struct gs_sites *sites, const struct node_stat *st, const char *dir)
{
	char *text = xstrdup("# gridsubmit nodes: NODE LOAD1 CPU_BUSY TIME\n"), *t;
	char line[NODE_STAT_NAME_MAX + 96];
	size_t i;
	int rc;

	for (i = 0; i < sites->nnodes; i++) {
		if (st[i].time == 0 || node_stat_format(line, sizeof line, &st[i]) < 0)
			continue;
		xasprintf(&t, "%s%s", text, line);
		free(text);
		text = t;
	}
	rc = file_write_atomic(dir, NODE_STAT_FILE, text, strlen(text), 0644);
	free(text);
	return rc;
}

/*
 * The child: nothing of the supervisor's but the sites and stderr; fetch and write until
 * killed (DIR/loads only when migration wants it). A file that cannot be written (the
 * directory gone, a full disk) ends the feed with one line on stderr: the master then
 * goes on with the loads it last read, and status shows the node values aging.
 */
static noreturn void
loads_feed(struct gs_sites *sites, const char *dir, pid_t parent, int migration)
{
	struct node_stat *st = xcalloc(sites->nnodes + 1, sizeof *st);
	double (*prev)[2] = xcalloc(sites->nnodes + 1, sizeof *prev);
	struct metrics_opts mo = { LOADS_CONNECT_TIMEOUT, LOADS_TIMEOUT, 0, 0 };
	struct timespec ts;
	sigset_t none;
	double start, rest;
	int fd;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1 || getppid() != parent)
		_exit(0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* not the program's output (run's stdout), no lease socket nor pipe of the caller's */
	if ((fd = open("/dev/null", O_RDWR)) != -1) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
	}
	close_range(3, ~0U, 0);
	for (;;) {
		start = clock_mono();
		metrics_fetch(sites, &mo);
		loads_fold(sites, st, prev, clock_wall());
		if (loads_write_nodes(sites, st, dir) != 0) {
			log_warn("%s/%s: the node values stop", dir, NODE_STAT_FILE);
			_exit(1);
		}
		if (migration && loads_write(sites, dir) != 0) {
			log_warn("%s/loads: the node loads stop", dir);
			_exit(1);
		}
		if ((rest = start + LOADS_PERIOD - clock_mono()) > 0) {
			ts.tv_sec = (time_t)rest;
			ts.tv_nsec = (long)((rest - (double)ts.tv_sec) * 1e9);
			while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
				;
		}
	}
}

pid_t
jobrun_loads_start(struct jobrun *jr)
{
	pid_t parent = getpid(), pid;

	if (jr->sim != NULL || !jr->placed || loads_placed(&jr->sites, &jr->place, 0) == 0)
		return 0;
	fflush(NULL);
	if ((pid = fork()) == -1) {
		log_warn("job %s: no node loads from the monitors: fork", jr->st.id);
		return 0;
	}
	if (pid == 0) {
		/* the child's copy of the sites: the supervisor's is not touched */
		loads_placed(&jr->sites, &jr->place, 1);
		loads_feed(&jr->sites, jr->st.dir, parent, loads_wanted(&jr->job));
	}
	return pid;
}

void
jobrun_loads_stop(const struct jobrun *jr, pid_t pid)
{
	int status;

	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	/* killed in the middle of a write, the feed left its temporary file */
	if (file_atomic_sweep(jr->st.dir, "loads") == -1 ||
	    file_atomic_sweep(jr->st.dir, NODE_STAT_FILE) == -1)
		log_warn("%s: the temporary files of loads and %s", jr->st.dir, NODE_STAT_FILE);
}
