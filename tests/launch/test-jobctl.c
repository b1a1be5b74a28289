/*
 * test-jobctl.c — a job's processes on this host (launch/jobctl.h) and the records of its
 * remote nodes that need no node (launch/jobctl-remote.h), with real processes: this
 * program started again as a sleeper stands for a supervisor, a rank, a gridsubmit-rank
 * or a hydra proxy (argv[0] and the environment say which). Whether a supervisor lives (a
 * recycled pid, a zombie, an old state without start time), which processes are the
 * job's (and which are another job's), proof before a pid counts (mpiexec's group only
 * while its leader has the recorded start time; the job's tag), another uid's process
 * never looked at, stopping them (SIGTERM, SIGKILL after the grace),
 * and recording a job whose supervisor died as failed in a store of its own.
 */
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/pstat.h"
#include "common/xmalloc.h"
#include "launch/jobctl-remote.h"
#include "launch/jobctl.h"
#include "store/jobstore.h"
#include "tests/tap.h"

#define SLEEPER_ENV	"GS_TEST_SLEEPER"	/* "term" or "ignore": what SIGTERM does */
#define READY_FD	3			/* a sleeper writes a byte here once set up */
#define MAX_KIDS	32

static char tmp[] = "/tmp/gs-test-jobctl.XXXXXX";
static pid_t kids[MAX_KIDS];	/* every sleeper started, for the cleanup */
static size_t nkids;

/*
 * The sleeper: SIGTERM ignored or not, then ready, then asleep until a signal ends it (or
 * 20 s, should the test die without killing it). "--spawn ARGV0 ARGS..." first starts
 * that as a sleeper of its own (a proxy and its rank), which dies with it; "--orphan
 * ARGV0 ARGS..." first makes a process group of its own, and starts that in it as a
 * sleeper that outlives it (a group whose leader is gone).
 */
static int
sleeper(int argc, char **argv)
{
	pid_t pid;

	if (strcmp(getenv(SLEEPER_ENV), "ignore") == 0)
		signal(SIGTERM, SIG_IGN);
	if (argc > 2 && strcmp(argv[1], "--orphan") == 0) {
		if (setpgid(0, 0) == -1 || (pid = fork()) == -1)
			return 1;
		if (pid == 0) {
			execv("/proc/self/exe", argv + 2);
			_exit(127);
		}
	} else if (argc > 2 && strcmp(argv[1], "--spawn") == 0) {
		if ((pid = fork()) == -1)
			return 1;
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			execv("/proc/self/exe", argv + 2);
			_exit(127);
		}
	} else if (write(READY_FD, "x", 1) != 1)
		return 1;
	close(READY_FD);
	alarm(20);
	for (;;)
		pause();
}

/*
 * Start this program as a sleeper: argv (argv[0] is what the process calls itself), with
 * GRT_EVENTS=events in its environment when events is not NULL (and extra, KEY=VALUE,
 * when not NULL), as user uid (-1: ours).
 * Returns once it is set up (a proxy: once its rank is); its pid, or -1.
 */
static pid_t
spawn_as(char *const argv[], const char *events, const char *extra, int ignore_term,
    long uid)
{
	char *env[4], *ev = NULL, c;
	struct pollfd pfd;
	int p[2], n = 0;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) == -1 || nkids == MAX_KIDS)
		return -1;
	env[n++] = ignore_term ? SLEEPER_ENV "=ignore" : SLEEPER_ENV "=term";
	if (events != NULL)
		xasprintf(&ev, "GRT_EVENTS=%s", events);
	if (ev != NULL)
		env[n++] = ev;
	if (extra != NULL)
		env[n++] = (char *)extra;
	env[n] = NULL;
	if ((pid = fork()) == 0) {
		if (uid >= 0 && (setgid((gid_t)uid) == -1 || setuid((uid_t)uid) == -1))
			_exit(126);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (p[1] == READY_FD)
			fcntl(READY_FD, F_SETFD, 0);
		else
			dup2(p[1], READY_FD);
		execve("/proc/self/exe", argv, env);
		_exit(127);
	}
	free(ev);
	close(p[1]);
	pfd.fd = p[0];
	pfd.events = POLLIN;
	if (pid > 0 && (poll(&pfd, 1, 10000) != 1 || read(p[0], &c, 1) != 1)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(p[0]);
	if (pid > 0)
		kids[nkids++] = pid;
	return pid;
}

static pid_t
spawn(char *const argv[], const char *events, const char *extra, int ignore_term)
{
	return spawn_as(argv, events, extra, ignore_term, -1);
}

/* A sleeper that calls itself name, nothing else in its arguments. */
static pid_t
spawn_named(const char *name, const char *events, int ignore_term)
{
	char *argv[] = { (char *)name, NULL };

	return spawn(argv, events, NULL, ignore_term);
}

/* Reap pid (once), forget it; its wait status, or -1. */
static int
reap(pid_t pid)
{
	size_t i;
	int status;

	for (i = 0; i < nkids && kids[i] != pid; i++)
		;
	if (i == nkids || waitpid(pid, &status, 0) != pid)
		return -1;
	kids[i] = kids[--nkids];
	return status;
}

/* Kill and reap pid: it exists no more when this returns. */
static void
end(pid_t pid)
{
	kill(pid, SIGKILL);
	reap(pid);
}

/* 1 when pid is a zombie within 5 s (killed, not reaped). */
static int
wait_zombie(pid_t pid)
{
	struct timespec nap = { 0, 10000000L };
	struct pstat ps;
	int i;

	for (i = 0; i < 500; i++) {
		if (pstat_read(pid, &ps) == 0 && ps.state == 'Z')
			return 1;
		nanosleep(&nap, NULL);
	}
	return 0;
}

/* The entry of pid in p, or NULL. */
static const struct jobctl_proc *
entry(const struct jobctl_proc *p, size_t n, pid_t pid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i].pid == pid)
			return &p[i];
	return NULL;
}

static int
listed(const struct jobctl_proc *p, size_t n, pid_t pid)
{
	return entry(p, n, pid) != NULL;
}

/* The job's processes once none is left (a proxy's rank dies just after it), within 5 s. */
static size_t
processes_settled(const struct job_state *st, struct jobctl_proc **p)
{
	struct timespec nap = { 0, 10000000L };
	size_t n;
	int i;

	for (i = 0; (n = jobctl_processes(st, p)) > 0 && i < 500; i++) {
		free(*p);
		nanosleep(&nap, NULL);
	}
	return n;
}

static char *
in_tmp(const char *name)
{
	char *p;

	xasprintf(&p, "%s/%s", tmp, name);
	return p;
}

/*
 * The job store (store/jobstore.h), its calls kept here: a new job of the store in
 * $GRIDSUBMIT_HOME in phase, whose supervisor is pid (start time start); its state written
 * again; read back.
 */
static int
job_make(struct job_state *st, enum job_phase phase, pid_t pid, unsigned long long start)
{
	char why[1024];

	memset(st, 0, sizeof *st);
	st->phase = phase;
	st->supervisor_pid = pid;
	st->supervisor_start = start;
	st->exit_code = -1;
	return jobstore_create(st, why, sizeof why);
}

static int
job_save(const struct job_state *st)
{
	return jobstore_write_state(st);
}

static int
job_load(const char *dir, struct job_state *st)
{
	char why[1024];

	return jobstore_read_state(dir, st, why, sizeof why) == JOBSTORE_OK ? 0 : -1;
}

static void
job_drop(struct job_state *st)
{
	job_state_free(st);
}

static void
test_supervisor_alive(void)
{
	struct job_state st;
	pid_t pid;

	memset(&st, 0, sizeof st);
	if ((pid = spawn_named("supervisor", NULL, 0)) == -1) {
		ok(0, "a sleeper starts");
		return;
	}
	st.supervisor_pid = pid;
	st.supervisor_start = pstat_start_time(pid);
	ok(st.supervisor_start != 0, "a process has a start time in /proc");
	ok(jobctl_supervisor_alive(&st), "a running supervisor (same pid, same start time) "
	    "is alive");
	st.supervisor_start++;
	ok(!jobctl_supervisor_alive(&st), "the same pid with another start time (a recycled "
	    "pid) is not the supervisor");
	st.supervisor_start--;
	kill(pid, SIGKILL);
	ok(wait_zombie(pid) && !jobctl_supervisor_alive(&st), "a killed supervisor nobody "
	    "reaped (a zombie) is not alive");
	reap(pid);
	ok(!jobctl_supervisor_alive(&st), "a killed and reaped supervisor is not alive");
	st.supervisor_pid = 0;
	ok(!jobctl_supervisor_alive(&st), "a job that recorded no supervisor has none alive");
}

/* States written before start times were recorded: a gridsubmit command line decides. */
static void
test_supervisor_no_start(void)
{
	struct job_state st;
	pid_t gs, other;

	memset(&st, 0, sizeof st);
	gs = spawn_named("/usr/local/bin/gridsubmit", NULL, 0);
	other = spawn_named("sleep", NULL, 0);
	st.supervisor_pid = gs;
	ok(gs > 0 && jobctl_supervisor_alive(&st), "no start time recorded: a gridsubmit at "
	    "the pid is the supervisor");
	st.supervisor_pid = other;
	ok(other > 0 && !jobctl_supervisor_alive(&st), "no start time recorded: another "
	    "program at the pid is not");
	end(gs);
	end(other);
}

/*
 * Which processes are the job's: a rank by GRT_EVENTS in its environment, a gridsubmit-rank
 * by its --status file, a hydra proxy as a gridsubmit-rank's parent; not another job's
 * (job 1 and job 12: one directory's name a prefix of the other's), not an unrelated one.
 */
static void
test_processes(void)
{
	struct job_state st;
	const struct jobctl_proc *e;
	struct jobctl_proc *p;
	char *dir = in_tmp("jobs/1"), *other = in_tmp("jobs/12"), *ev, *ev12, *status, *link;
	pid_t rank, wrapper, proxy, stray, mine12, plain;
	size_t n;

	xasprintf(&ev, "%s/events.jsonl", dir);
	xasprintf(&ev12, "%s/events.jsonl", other);
	xasprintf(&status, "%s/master.status", dir);
	{
		char *w[] = { "gridsubmit-rank", "--status", status, "--", "prog", NULL };
		char *px[] = { "hydra_pmi_proxy", "--spawn", "gridsubmit-rank", "--status",
		    status, "--", "prog", NULL };
		char *px2[] = { "hydra_pmi_proxy", "--spawn", "prog", NULL };

		rank = spawn_named("prog", ev, 0);
		wrapper = spawn(w, NULL, NULL, 0);
		proxy = spawn(px, NULL, NULL, 0);
		stray = spawn(px2, NULL, NULL, 0);
	}
	mine12 = spawn_named("prog", ev12, 0);
	plain = spawn_named("prog", NULL, 0);
	memset(&st, 0, sizeof st);
	st.dir = dir;
	n = jobctl_processes(&st, &p);
	ok(rank > 0 && listed(p, n, rank), "a process with the job's GRT_EVENTS in its "
	    "environment is the job's");
	ok(wrapper > 0 && listed(p, n, wrapper), "a gridsubmit-rank whose --status is the "
	    "job's is the job's");
	ok(proxy > 0 && listed(p, n, proxy), "a hydra proxy whose child is the job's "
	    "gridsubmit-rank is the job's");
	ok(stray > 0 && !listed(p, n, stray), "a hydra proxy of something else is not");
	ok(mine12 > 0 && !listed(p, n, mine12), "a process of job 12 is not job 1's");
	ok(plain > 0 && !listed(p, n, plain), "an unrelated process is not the job's");
	ok(!listed(p, n, getpid()), "the caller itself is not listed");
	is_int(n, 4, "the job's processes: rank, wrapper, proxy and the proxy's rank");
	e = entry(p, n, rank);
	ok(e != NULL && e->start != 0 && e->start == pstat_start_time(rank),
	    "each with its start time (a recycled pid is not signalled)");
	e = entry(p, n, wrapper);
	{
		char what[120];

		snprintf(what, sizeof what, "%ld gridsubmit-rank --status %s -- prog",
		    (long)wrapper, status);
		is_str(e != NULL ? e->what : NULL, what, "each described as PID and command "
		    "line");
	}
	free(p);

	/* the job directory named through a symbolic link: either spelling matches */
	link = in_tmp("link");
	if (symlink(dir, link) == 0) {
		st.dir = link;
		n = jobctl_processes(&st, &p);
		ok(listed(p, n, rank) && listed(p, n, wrapper), "a job directory reached "
		    "through a symbolic link: its processes are found by either spelling");
		free(p);
		unlink(link);
	} else
		ok(0, "a symbolic link to the job directory: %s", strerror(errno));
	free(link);

	end(rank);
	end(wrapper);
	end(proxy);
	end(stray);
	end(mine12);
	end(plain);
	st.dir = dir;
	n = processes_settled(&st, &p);
	ok(n == 0 && p == NULL, "a job whose processes are gone has none (the proxy's rank "
	    "died with it)");
	free(p);
	free(ev);
	free(ev12);
	free(status);
	free(dir);
	free(other);
}

/* The first child of pid (/proc/PID/task/PID/children), or -1. */
static pid_t
child_of(pid_t pid)
{
	char path[96];
	long c = -1;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%ld/task/%ld/children", (long)pid, (long)pid);
	if ((f = fopen(path, "r")) != NULL) {
		if (fscanf(f, "%ld", &c) != 1)
			c = -1;
		fclose(f);
	}
	return (pid_t)c;
}

/*
 * A pid left in the state proves nothing by itself: mpiexec's group counts only while
 * its leader is the recorded mpiexec (same start time). A pid recorded with another start
 * time (recycled), or none, brings no group; the leader gone, its group's surviving member
 * is not the job's by the group id, and stop leaves it alone. A process of ours carrying
 * the job's tag (GRIDSUBMIT_JOB, DIR/job-tag) is the job's.
 */
static void
test_group_proof(void)
{
	struct job_state st;
	struct jobctl_proc *p, *left = NULL;
	char *dir = in_tmp("jobs/3"), *tagfile;
	char *lead[] = { "leader", "--orphan", "member", NULL };
	const char *tag = "3-0123456789abcdef0123456789abcdef";
	pid_t leader, member, tagged;
	size_t n, seen = 99;
	FILE *f;

	memset(&st, 0, sizeof st);
	st.dir = dir;
	leader = spawn(lead, NULL, NULL, 0);
	member = leader > 0 ? child_of(leader) : -1;
	st.mpiexec_pid = leader;
	st.mpiexec_start = pstat_start_time(leader);
	n = jobctl_processes(&st, &p);
	ok(member > 0 && listed(p, n, leader) && listed(p, n, member), "the recorded mpiexec "
	    "(same start time) and its group's member are the job's");
	free(p);
	st.mpiexec_start++;
	n = jobctl_processes(&st, &p);
	ok(!listed(p, n, leader) && !listed(p, n, member), "the same pid with another start "
	    "time (a recycled pid): neither it nor its group");
	free(p);
	st.mpiexec_start = 0;
	n = jobctl_processes(&st, &p);
	ok(!listed(p, n, leader) && !listed(p, n, member), "a pid recorded without a start "
	    "time proves nothing");
	free(p);
	st.mpiexec_start = pstat_start_time(leader);
	end(leader);
	n = jobctl_stop(&st, 0.2, 2.0, &left, &seen);
	ok(member > 0 && seen == 0 && kill(member, 0) == 0, "the leader gone: its group's "
	    "member (a stale pgid) is not signalled by stop, and survives");
	free(left);
	if (member > 0)
		kill(member, SIGKILL);
	st.mpiexec_pid = 0;
	st.mpiexec_start = 0;

	xasprintf(&tagfile, "%s/job-tag", dir);
	if ((f = fopen(tagfile, "w")) != NULL) {
		fputs(tag, f);
		fclose(f);
	}
	{
		char *env, *argv[] = { "prog", NULL };

		xasprintf(&env, "GRIDSUBMIT_JOB=%s", tag);
		tagged = spawn(argv, NULL, env, 0);
		free(env);
	}
	n = jobctl_processes(&st, &p);
	ok(tagged > 0 && listed(p, n, tagged), "a process with the job's tag in its "
	    "environment is the job's");
	free(p);
	end(tagged);
	unlink(tagfile);
	free(tagfile);
	free(dir);
}

/*
 * Another user's process is never looked at: a sleeper of uid nobody whose argv and
 * environment name the job's files (as a gridsubmit-rank of the job would) is neither
 * listed nor signalled, nor taken for the supervisor at its recorded pid and start.
 */
static void
test_other_uid(void)
{
	struct job_state st;
	struct jobctl_proc *p, *left = NULL;
	char *dir = in_tmp("jobs/4"), *ev, *status;
	pid_t theirs;
	size_t n, seen = 99;

	if (geteuid() != 0) {
		printf("ok - # SKIP another uid's process needs root (setuid to nobody)\n");
		free(dir);
		return;
	}
	xasprintf(&ev, "%s/events.jsonl", dir);
	xasprintf(&status, "%s/master.status", dir);
	{
		char *w[] = { "gridsubmit-rank", "--status", status, "--", "prog", NULL };

		theirs = spawn_as(w, ev, NULL, 0, 65534);
	}
	memset(&st, 0, sizeof st);
	st.dir = dir;
	n = jobctl_processes(&st, &p);
	ok(theirs > 0 && !listed(p, n, theirs) && n == 0, "another uid's process naming the "
	    "job's files is not the job's");
	free(p);
	n = jobctl_stop(&st, 0.2, 2.0, &left, &seen);
	ok(theirs > 0 && seen == 0 && n == 0 && kill(theirs, 0) == 0, "stop sees nothing and "
	    "it survives");
	free(left);
	st.supervisor_pid = theirs;
	st.supervisor_start = pstat_start_time(theirs);
	ok(!jobctl_supervisor_alive(&st), "another uid's process at the supervisor's pid and "
	    "start time is not the supervisor");
	end(theirs);
	free(ev);
	free(status);
	free(dir);
}

/* SIGTERM first; SIGKILL only after the grace, to those that ignore it; none else. */
static void
test_stop(void)
{
	struct job_state st;
	struct jobctl_proc *left = NULL;
	char *dir = in_tmp("jobs/2"), *ev;
	pid_t obeys, ignores, plain;
	size_t n, seen = 99;
	double t0, took;
	int status;

	xasprintf(&ev, "%s/events.jsonl", dir);
	memset(&st, 0, sizeof st);
	st.dir = dir;
	obeys = spawn_named("obeys", ev, 0);
	ignores = spawn_named("ignores-term", ev, 1);
	plain = spawn_named("unrelated", NULL, 1);
	t0 = clock_mono();
	n = jobctl_stop(&st, 0.5, 5.0, &left, &seen);
	took = clock_mono() - t0;
	is_int(seen, 2, "stop: the job had two processes");
	is_int(n, 0, "stop: none is left");
	ok(left == NULL, "stop: the list of those left is empty");
	status = reap(obeys);
	ok(status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
	    "a process that obeys SIGTERM ends by SIGTERM");
	status = reap(ignores);
	ok(status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	    "a process that ignores SIGTERM ends by SIGKILL");
	ok(took >= 0.5 && took < 4.0, "SIGKILL came after the grace of 0.5 s, not much later "
	    "(%.2f s)", took);
	ok(plain > 0 && waitpid(plain, NULL, WNOHANG) == 0 && kill(plain, 0) == 0,
	    "an unrelated process is left alone");
	end(plain);
	free(left);

	t0 = clock_mono();
	n = jobctl_stop(&st, 3.0, 5.0, &left, &seen);
	ok(n == 0 && seen == 0 && left == NULL && clock_mono() - t0 < 2.0,
	    "stopping a job with no process: nothing seen, nothing left, no grace waited");
	free(ev);
	free(dir);
}

/* A job whose supervisor died is recorded failed, once; an ended one is left as it is. */
static void
test_refresh(void)
{
	struct job_state st, disk;
	char why[1024] = "";
	pid_t dead, live;
	unsigned long long dead_start;

	dead = spawn_named("supervisor", NULL, 0);
	dead_start = pstat_start_time(dead);
	end(dead);
	live = spawn_named("supervisor", NULL, 0);

	if (job_make(&st, JOB_RUNNING, dead, dead_start) != 0) {
		ok(0, "a job is made in the store: %s", strerror(errno));
		return;
	}
	is_int(jobctl_refresh(&st, why, sizeof why), 1, "a running job whose supervisor died "
	    "is recorded (%s)", why);
	ok(st.phase == JOB_FAILED && st.reason != NULL &&
	    strcmp(st.reason, JOBCTL_SUPERVISOR_DIED) == 0, "as failed: \"supervisor died\"");
	ok(job_load(st.dir, &disk) == 0 && disk.phase == JOB_FAILED && disk.reason != NULL &&
	    strcmp(disk.reason, JOBCTL_SUPERVISOR_DIED) == 0 && disk.ended > 0,
	    "state.json says so, with the end time: status, wait and list agree");
	job_drop(&disk);
	is_int(jobctl_refresh(&st, why, sizeof why), 0, "a second look records nothing more");
	job_drop(&st);

	if (job_make(&st, JOB_RUNNING, live, pstat_start_time(live)) == 0) {
		is_int(jobctl_refresh(&st, why, sizeof why), 0, "a running job whose "
		    "supervisor lives is left as it is");
		ok(job_load(st.dir, &disk) == 0 && disk.phase == JOB_RUNNING,
		    "state.json still says running");
		job_drop(&disk);
	}
	job_drop(&st);

	if (job_make(&st, JOB_RUNNING, live, pstat_start_time(live) + 1) == 0) {
		is_int(jobctl_refresh(&st, why, sizeof why), 1, "a job whose supervisor's pid "
		    "now runs another process is recorded as failed");
	}
	job_drop(&st);

	if (job_make(&st, JOB_DONE, dead, dead_start) == 0) {
		is_int(jobctl_refresh(&st, why, sizeof why), 0, "a done job is never changed");
		ok(job_load(st.dir, &disk) == 0 && disk.phase == JOB_DONE &&
		    disk.reason == NULL, "state.json still says done, without a reason");
		job_drop(&disk);
	}
	job_drop(&st);

	/* the supervisor wrote its end and exited between our read and our look */
	if (job_make(&st, JOB_DONE, dead, dead_start) == 0) {
		st.phase = JOB_RUNNING;
		is_int(jobctl_refresh(&st, why, sizeof why), 0, "a job that its supervisor "
		    "recorded as done meanwhile is not overwritten");
		ok(st.phase == JOB_DONE, "the caller's state becomes the recorded one");
		ok(job_load(st.dir, &disk) == 0 && disk.phase == JOB_DONE,
		    "state.json still says done");
		job_drop(&disk);
		st.phase = JOB_PENDING;
		if (job_save(&st) == 0)
			is_int(jobctl_refresh(&st, why, sizeof why), 1, "a job waiting for its "
			    "slots whose supervisor died is recorded as failed too");
	}
	job_drop(&st);
	end(live);
}

/* DIR/hostfile's hosts that are not this one, each once, in order. */
static void
test_remote_nodes(void)
{
	struct jobctl_node *nodes;
	struct job_state st;
	char host[256] = "", *text;
	size_t n;
	FILE *f;

	memset(&st, 0, sizeof st);
	st.dir = in_tmp("jobs/3");
	n = jobctl_remote_nodes(&st, &nodes);
	ok(n == 0 && nodes == NULL, "a job without a hostfile has no remote node");
	gethostname(host, sizeof host - 1);
	xasprintf(&text, "%s/hostfile", st.dir);
	if ((f = fopen(text, "w")) != NULL) {
		fprintf(f, "localhost:1\n%s:2\nnode-b:2 user=alice\n127.0.0.1:1\n"
		    "node-a:1\nnode-b:1\nbad;host:1\n-oProxyCommand=x:1\n\n", host);
		fclose(f);
	}
	free(text);
	n = jobctl_remote_nodes(&st, &nodes);
	is_int(n, 2, "the hostfile's remote nodes: node-b and node-a");
	ok(n == 2 && strcmp(nodes[0].host, "node-b") == 0 && strcmp(nodes[1].host, "node-a")
	    == 0, "in the hostfile's order, each once; this host and invalid names left out");
	ok(n == 2 && nodes[0].state == JOBCTL_NODE_UNCHECKED &&
	    nodes[1].state == JOBCTL_NODE_UNCHECKED, "none checked yet");
	free(nodes);
	free(st.dir);
}

static void
test_node_state_names(void)
{
	is_str(jobctl_node_state_name(JOBCTL_NODE_UNCHECKED), "unchecked",
	    "state name: unchecked");
	is_str(jobctl_node_state_name(JOBCTL_NODE_CLEAN), "clean", "state name: clean");
	is_str(jobctl_node_state_name(JOBCTL_NODE_LEFT), "left", "state name: left");
	is_str(jobctl_node_state_name(JOBCTL_NODE_UNREACHABLE), "unreachable",
	    "state name: unreachable");
}

/*
 * A check of nodes that cannot be reached (ssh's ProxyCommand fails at once): each
 * unreachable, with ssh's reason, written to DIR/remote-check and read back as status
 * shows it.
 */
static void
test_remote_stop_unreachable(void)
{
	struct jobctl_node nodes[2], *back = NULL;
	struct job_state st;
	char *path;
	size_t n = 0, bad;
	double t0 = clock_wall(), when;
	FILE *f;

	memset(&st, 0, sizeof st);
	st.dir = in_tmp("jobs/4");
	is_int(jobctl_remote_read(&st, &back, &n, &when), -1, "no check yet: nothing to read");
	xasprintf(&path, "%s/ssh_config", st.dir);
	if ((f = fopen(path, "w")) != NULL) {
		fprintf(f, "Host *\n\tProxyCommand false\n\tUserKnownHostsFile /dev/null\n");
		fclose(f);
	}
	free(path);
	memset(nodes, 0, sizeof nodes);
	snprintf(nodes[0].host, sizeof nodes[0].host, "node-down");
	snprintf(nodes[1].host, sizeof nodes[1].host, "node-gone");
	bad = jobctl_remote_stop(&st, nodes, 2, 0.5, 10.0);
	is_int(bad, 2, "two nodes that cannot be reached: neither is clean");
	ok(nodes[0].state == JOBCTL_NODE_UNREACHABLE && nodes[0].detail[0] != '\0' &&
	    nodes[1].state == JOBCTL_NODE_UNREACHABLE, "a node ssh cannot reach is "
	    "unreachable, with ssh's reason (%s)", nodes[0].detail);
	ok(jobctl_remote_read(&st, &back, &n, &when) == 0 && n == 2, "DIR/remote-check "
	    "records both");
	ok(n == 2 && strcmp(back[0].host, "node-down") == 0 &&
	    back[0].state == JOBCTL_NODE_UNREACHABLE &&
	    strcmp(back[0].detail, nodes[0].detail) == 0 && strcmp(back[1].host,
	    "node-gone") == 0, "read back: host, state and reason, in order");
	ok(when >= t0 - 1 && when <= clock_wall() + 1, "with the time of the check");
	free(back);
	free(st.dir);
}

/* A remote-check edited by hand or torn: what does not parse is skipped, none trusted. */
static void
test_remote_read_bad(void)
{
	struct jobctl_node *back = NULL;
	struct job_state st;
	char *path;
	size_t n = 0;
	double when;
	FILE *f;

	memset(&st, 0, sizeof st);
	st.dir = in_tmp("jobs/5");
	xasprintf(&path, "%s/remote-check", st.dir);
	if ((f = fopen(path, "w")) != NULL) {
		fprintf(f, "# checked 1700000000.500 by gridsubmit cancel\n"
		    "node-a left 1 2 4242 prog\x1b[31m --x\n"
		    "node-b clean 3 0 -\n"
		    "node-c sleeping 0 0 -\n"
		    "bad;host clean 0 0 -\n"
		    "node-d clean x y -\n"
		    "node-e left 0 1");
		fclose(f);
	}
	free(path);
	ok(jobctl_remote_read(&st, &back, &n, &when) == 0,
	    "a hand-edited remote-check is read");
	is_int(n, 4, "its lines that parse: node-a, node-b, node-c, node-e");
	is_dbl(when, 1700000000.5, 1e-6, "the time of the check");
	ok(n >= 1 && back[0].state == JOBCTL_NODE_LEFT && back[0].stopped == 1 &&
	    back[0].left == 2, "node-a: left, 1 stopped, 2 left");
	ok(n >= 1 && strchr(back[0].detail, '\x1b') == NULL &&
	    strstr(back[0].detail, "4242 prog") == back[0].detail,
	    "a detail's control bytes never reach a terminal (%s)",
	    n >= 1 ? back[0].detail : "");
	ok(n >= 2 && back[1].state == JOBCTL_NODE_CLEAN && back[1].detail[0] == '\0',
	    "node-b: clean, no detail (\"-\")");
	ok(n >= 3 && back[2].state == JOBCTL_NODE_UNCHECKED, "an unknown state reads as "
	    "unchecked, never as clean");
	ok(n >= 4 && back[3].state == JOBCTL_NODE_LEFT && back[3].left == 1 &&
	    back[3].detail[0] == '\0', "a line without its detail: the rest is kept");
	free(back);
	free(st.dir);
}

int
main(int argc, char **argv)
{
	const char *const dirs[] = { "home", "jobs", "jobs/1", "jobs/12", "jobs/2", "jobs/3",
	    "jobs/4", "jobs/5" };
	char *p;
	size_t i;
	pid_t pid;

	if (getenv(SLEEPER_ENV) != NULL)
		return sleeper(argc, argv);
	if (mkdtemp(tmp) == NULL)
		return 2;
	for (i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		p = in_tmp(dirs[i]);
		mkdir(p, 0700);
		free(p);
	}
	p = in_tmp("home");
	setenv("GRIDSUBMIT_HOME", p, 1);
	free(p);
	test_supervisor_alive();
	test_supervisor_no_start();
	test_processes();
	test_stop();
	test_group_proof();
	test_other_uid();
	test_refresh();
	test_node_state_names();
	test_remote_nodes();
	test_remote_stop_unreachable();
	test_remote_read_bad();
	while (nkids > 0)
		end(kids[0]);
	if ((pid = fork()) == 0) {
		execlp("rm", "rm", "-rf", tmp, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return tap_done();
}
