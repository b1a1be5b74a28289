/*
 * test-proc.c — the process runner of common/proc.c driven with local commands: many
 * fast ones at once, with their answers; a failing one's status; one still running at
 * the deadline killed with its whole process group (status -1), also proc_run's timeout;
 * a hanging one ended by the stop flag (-2); huge output capped without a deadlock;
 * stderr captured; when each ended; a command that cannot run. The options: a working
 * directory, stdout discarded, output appended to a file, a session of its own or the
 * caller's group; every child starts with no signal blocked and the usual ones at their
 * defaults whatever the caller blocks or ignores; the non-blocking start and poll; the
 * bounded fan-out (proc_run_wide).
 */
#include <sys/stat.h>

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
#include "common/proc.h"
#include "common/xmalloc.h"
#include "tests/tap.h"

#define NFAST	40

static char dir[] = "/tmp/test-proc.XXXXXX";
static double stop_at;

/* sh -c SCRIPT sh [ARG], allocated as proc_free frees it. */
static char **
sh_argv(const char *script, const char *arg)
{
	char **v = xcalloc(6, sizeof *v);

	v[0] = xstrdup("sh");
	v[1] = xstrdup("-c");
	v[2] = xstrdup(script);
	v[3] = xstrdup("sh");
	if (arg != NULL)
		v[4] = xstrdup(arg);
	return v;
}

/* 1 when pid is gone (or a zombie nobody reaped yet), within a second. */
static int
gone(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	int i;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	for (i = 0; i < 100; i++) {
		if ((f = fopen(path, "r")) == NULL)
			return 1;
		p = fgets(buf, sizeof buf, f);
		fclose(f);
		if (p != NULL && (p = strrchr(buf, ')')) != NULL && p[2] == 'Z')
			return 1;
		usleep(10000);
	}
	return 0;
}

static int
stop_later(void)
{
	return clock_mono() >= stop_at;
}

/* many fast ones, a failing one, stderr, one past the deadline, huge output, not run */
static void
test_mixed(void)
{
	struct proc_task t[NFAST + 6];
	char want[32], pidfile[300], *gpath;
	size_t n = NFAST + 6, i, good = 0;
	double t0, took;
	pid_t grandchild = 0;
	FILE *f;

	memset(t, 0, sizeof t);
	for (i = 0; i < NFAST; i++) {
		snprintf(want, sizeof want, "%zu", i);
		t[i].argv = sh_argv("echo \"fast $1\"", want);
	}
	t[NFAST].argv = sh_argv("echo partial; exit 3", NULL);
	t[NFAST + 1].argv = sh_argv("echo 'on stderr' >&2; echo 'last line' >&2; exit 1",
	    NULL);
	snprintf(pidfile, sizeof pidfile, "%s/grandchild", dir);
	/* the slow one leaves a child of its own: the deadline must kill it too */
	t[NFAST + 2].argv = sh_argv("sleep 60 & echo $! > \"$1\"; echo started; wait",
	    pidfile);
	t[NFAST + 3].argv = sh_argv("yes | head -c 3000000; yes e | head -c 300000 >&2",
	    NULL);
	t[NFAST + 4].argv = sh_argv("sleep 0.3; echo late", NULL);
	t[NFAST + 5].argv = NULL;
	t[NFAST + 5].status = 77;
	t0 = clock_mono();
	proc_run_all(t, n, t0 + 1.5, NULL);
	took = clock_mono() - t0;

	for (i = 0; i < NFAST; i++) {
		char line[32];

		snprintf(line, sizeof line, "fast %zu\n", i);
		if (t[i].status == 0 && strcmp(t[i].out, line) == 0 && *t[i].err == '\0')
			good++;
	}
	is_int(good, NFAST, "%d fast commands at once: each status 0 and its own answer",
	    NFAST);
	is_int(t[NFAST].status, 3, "a failing command's exit status");
	is_str(t[NFAST].out, "partial\n", "its stdout up to the failure");
	is_int(t[NFAST + 1].status, 1, "stderr: status");
	is_str(t[NFAST + 1].err, "on stderr\nlast line\n", "stderr captured apart from stdout");
	is_str(t[NFAST + 1].out, "", "nothing on its stdout");
	is_int(t[NFAST + 2].status, PROC_DEADLINE, "still running at the deadline: -1");
	is_str(t[NFAST + 2].out, "started\n", "what it wrote before the deadline is kept");
	ok(took >= 1.4 && took < 5, "the run ends at the deadline (%.2f s)", took);
	gpath = pidfile;
	if ((f = fopen(gpath, "r")) != NULL) {
		long g;

		if (fscanf(f, "%ld", &g) == 1)
			grandchild = (pid_t)g;
		fclose(f);
	}
	ok(grandchild > 0 && gone(grandchild), "its own child (pid %ld) was killed with "
	    "its process group", (long)grandchild);
	is_int(t[NFAST + 3].status, 0, "huge output: ran to its end (no deadlock)");
	is_int(strlen(t[NFAST + 3].out), PROC_OUT_CAP, "stdout capped at %d bytes",
	    PROC_OUT_CAP);
	is_int(strlen(t[NFAST + 3].err), PROC_ERR_CAP, "stderr capped at %d bytes",
	    PROC_ERR_CAP);
	ok(strncmp(t[NFAST + 3].out, "y\ny\n", 4) == 0, "the cap keeps the beginning");
	is_int(t[NFAST + 4].status, 0, "a slower one: status 0");
	is_str(t[NFAST + 4].out, "late\n", "and its answer");
	ok(t[NFAST + 4].ended - t0 >= 0.29 && t[NFAST + 4].ended < t[NFAST + 2].ended,
	    "it ended after its 0.3 s (%.3f) and before the killed one (%.3f)",
	    t[NFAST + 4].ended - t0, t[NFAST + 2].ended - t0);
	ok(t[0].ended > t0 && t[0].ended < t[NFAST + 4].ended && t[NFAST].ended <
	    t[NFAST + 4].ended, "fast ones ended first (%.3f s)", t[0].ended - t0);
	ok(t[NFAST + 2].ended - t0 >= 1.5, "the killed one ended at the deadline "
	    "(%.3f s)", t[NFAST + 2].ended - t0);
	is_int(t[NFAST + 5].status, 77, "a task without argv is not run: status untouched");
	ok(t[NFAST + 5].out != NULL && *t[NFAST + 5].out == '\0' &&
	    t[NFAST + 5].err != NULL && *t[NFAST + 5].err == '\0', "and its answer is empty");
	proc_free(t, n);
	unlink(pidfile);
}

/* a hanging command ended by the stop flag; one that cannot be run */
static void
test_stop(void)
{
	struct proc_task t[3];
	double t0;

	memset(t, 0, sizeof t);
	t[0].argv = sh_argv("echo waiting; exec sleep 60", NULL);
	t[1].argv = sh_argv("exit 0", NULL);
	t[2].argv = xcalloc(2, sizeof *t[2].argv);
	t[2].argv[0] = xstrdup("/nonexistent/gridsubmit-no-such-tool");
	t0 = clock_mono();
	stop_at = t0 + 0.4;
	proc_run_all(t, 3, t0 + 30, stop_later);
	is_int(t[0].status, PROC_STOPPED, "a hanging command ended by the stop flag: -2");
	ok(t[0].ended - t0 >= 0.4 && t[0].ended - t0 < 2, "soon after stop said so "
	    "(%.3f s)", t[0].ended - t0);
	is_str(t[0].out, "waiting\n", "its output so far");
	is_int(t[1].status, 0, "a quick one beside it ended normally");
	is_int(t[2].status, 127, "a command that cannot be run: 127");
	ok(strstr(t[2].err, "cannot run /nonexistent/gridsubmit-no-such-tool") != NULL,
	    "with why on its stderr");
	is_int(t[2].error, ENOENT, "and the errno of its exec");
	is_int(t[1].error, 0, "no errno for one that ran");
	proc_free(t, 3);
}


/* the pid in a /proc/PID/stat text, and its process group and session */
static int
stat_ids(const char *text, long *pid, long *pgrp, long *sid)
{
	const char *p = strrchr(text, ')');
	char state;
	long ppid;

	return sscanf(text, "%ld", pid) == 1 && p != NULL &&
	    sscanf(p + 1, " %c %ld %ld %ld", &state, &ppid, pgrp, sid) == 4;
}

/* proc_run: the one-task form, its timeout killing the command's whole process group */
static void
test_run(void)
{
	char *argv[] = { "sh", "-c", "echo out; echo err >&2; exit 4", NULL };
	char *slow[] = { "sh", "-c", "sleep 60 & echo $!; wait", NULL };
	struct proc_task t;
	double t0;
	long g = 0;
	int found;

	is_int(proc_run(argv, 10, &t), 4, "proc_run: the status");
	is_str(t.out, "out\n", "proc_run: stdout");
	is_str(t.err, "err\n", "proc_run: stderr");
	ok(t.argv == NULL, "proc_run: argv stays the caller's");
	proc_free(&t, 1);
	t0 = clock_mono();
	is_int(proc_run(slow, 0.5, &t), PROC_DEADLINE, "proc_run: killed at its timeout");
	ok(clock_mono() - t0 < 3, "within the timeout (%.2f s)", clock_mono() - t0);
	found = sscanf(t.out, "%ld", &g) == 1 && g > 0;
	ok(found && gone((pid_t)g), "the timeout killed its whole process group: its child "
	    "%ld too", g);
	proc_free(&t, 1);
}

/* a working directory; one that does not exist */
static void
test_dir(void)
{
	char real[PATH_MAX], want[PATH_MAX + 2], missing[300];
	struct proc_task t;

	memset(&t, 0, sizeof t);
	t.argv = sh_argv("pwd -P", NULL);
	t.dir = dir;
	proc_run_all(&t, 1, clock_mono() + 10, NULL);
	snprintf(want, sizeof want, "%s\n", realpath(dir, real) != NULL ? real : dir);
	is_str(t.out, want, "dir: the command runs in it");
	proc_free(&t, 1);

	memset(&t, 0, sizeof t);
	snprintf(missing, sizeof missing, "%s/no-such-dir", dir);
	t.argv = sh_argv("echo ran", NULL);
	t.dir = missing;
	proc_run_all(&t, 1, clock_mono() + 10, NULL);
	is_int(t.status, 127, "dir that does not exist: not run, 127");
	is_int(t.error, ENOENT, "dir that does not exist: its errno");
	ok(strstr(t.err, missing) != NULL && *t.out == '\0', "dir that does not exist: "
	    "named in err (%.*s)", (int)strcspn(t.err, "\n"), t.err);
	proc_free(&t, 1);
}

/*
 * A task's input: its whole stdin through a pipe (a secret kept out of argv), stdout to
 * /dev/null beside it; more than PROC_IN_CAP bytes refused before anything runs.
 */
static void
test_input(void)
{
	char big[PROC_IN_CAP + 2];
	struct proc_task t[2];

	memset(t, 0, sizeof t);
	t[0].argv = sh_argv("IFS= read -r k; echo \"got $k\"; cat", NULL);
	t[0].in = "0123abcd\nmore\n";
	t[1].argv = sh_argv("cat >&2; echo out", NULL);
	t[1].in = "to err\n";
	t[1].flags = PROC_OUT_NULL;
	proc_run_all(t, 2, clock_mono() + 10, NULL);
	is_str(t[0].out, "got 0123abcd\nmore\n", "input: the whole of it on stdin, then its end");
	ok(*t[1].out == '\0' && strcmp(t[1].err, "to err\n") == 0,
	    "input: beside stdout to /dev/null (%.*s)", (int)strcspn(t[1].err, "\n"), t[1].err);
	proc_free(t, 2);
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	memset(t, 0, sizeof t);
	t[0].argv = sh_argv("echo ran", NULL);
	t[0].in = big;
	proc_run_all(t, 1, clock_mono() + 10, NULL);
	ok(t[0].status == 127 && t[0].error == EINVAL && *t[0].out == '\0',
	    "input: more than PROC_IN_CAP bytes refused, not run (%.*s)",
	    (int)strcspn(t[0].err, "\n"), t[0].err);
	proc_free(t, 1);
}

static void
on_signal(int sig)
{
	(void)sig;
}

/* The value of FIELD: in a /proc/PID/status text, as a number (hex), or -1. */
static long long
status_mask(const char *text, const char *field)
{
	const char *p = strstr(text, field);

	return p != NULL ? strtoll(p + strlen(field), NULL, 16) : -1;
}

/*
 * Whatever the caller blocks (for a signalfd) or ignores, the command starts with no
 * signal blocked and the usual ones at their defaults; the caller's own are left as they
 * were.
 */
static void
test_signals(void)
{
	char *argv[] = { "cat", "/proc/self/status", NULL };
	struct sigaction sa, old_int, old_usr2, now;
	sigset_t block, old, after;
	struct proc_task t;
	long long ign;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, &old_int);
	sa.sa_handler = on_signal;
	sigaction(SIGUSR2, &sa, &old_usr2);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &old);

	proc_run(argv, 10, &t);
	is_int(t.status, 0, "signals: the command ran");
	is_int(status_mask(t.out, "SigBlk:"), 0, "signals: nothing blocked in the child "
	    "(the caller blocks TERM, USR1, CHLD)");
	ign = status_mask(t.out, "SigIgn:");
	ok(ign != -1 && (ign & (1LL << (SIGINT - 1))) == 0 &&
	    (ign & (1LL << (SIGPIPE - 1))) == 0, "signals: INT and PIPE at their defaults in "
	    "the child (the caller ignores them)");
	proc_free(&t, 1);
	sigprocmask(SIG_SETMASK, NULL, &after);
	ok(sigismember(&after, SIGTERM) && sigismember(&after, SIGUSR1) &&
	    sigismember(&after, SIGCHLD) && !sigismember(&after, SIGUSR2) &&
	    !sigismember(&after, SIGINT) && !sigismember(&after, SIGALRM),
	    "signals: the caller's mask is as it was (TERM, USR1, CHLD blocked, no other)");
	sigaction(SIGUSR2, NULL, &now);
	ok(now.sa_handler == on_signal, "signals: the caller's handler is as it was");
	sigprocmask(SIG_SETMASK, &old, NULL);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGUSR2, &old_usr2, NULL);
}

/* stdout discarded; output to a file; its own group (default), session, or ours */
static void
test_options(void)
{
	char *ids[] = { "cat", "/proc/self/stat", NULL };
	char log[300], buf[256];
	struct proc_task t;
	long pid = 0, pgrp = 0, sid = 0;
	ssize_t n;
	int fd, got;

	memset(&t, 0, sizeof t);
	t.argv = sh_argv("echo out; echo err >&2", NULL);
	t.flags = PROC_OUT_NULL;
	proc_run_all(&t, 1, clock_mono() + 10, NULL);
	ok(t.status == 0 && *t.out == '\0' && strcmp(t.err, "err\n") == 0,
	    "PROC_OUT_NULL: stdout discarded, stderr read");
	proc_free(&t, 1);

	snprintf(log, sizeof log, "%s/log", dir);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	n = write(fd, "before\n", 7);
	close(fd);
	memset(&t, 0, sizeof t);
	t.argv = sh_argv("echo out; echo err >&2; echo out2", NULL);
	t.log = log;
	proc_run_all(&t, 1, clock_mono() + 10, NULL);
	fd = open(log, O_RDONLY);
	n = fd != -1 ? read(fd, buf, sizeof buf - 1) : -1;
	buf[n > 0 ? n : 0] = '\0';
	if (fd != -1)
		close(fd);
	is_str(buf, "before\nout\nerr\nout2\n", "log: stdout and stderr appended in order");
	ok(t.status == 0 && *t.out == '\0' && *t.err == '\0', "log: nothing read");
	proc_free(&t, 1);
	unlink(log);

	proc_run(ids, 10, &t);
	got = stat_ids(t.out, &pid, &pgrp, &sid);
	ok(got && pgrp == pid && sid == (long)getsid(0),
	    "a process group of its own in our session (pid %ld, group %ld)", pid, pgrp);
	proc_free(&t, 1);
	memset(&t, 0, sizeof t);
	t.argv = ids;
	t.flags = PROC_SESSION;
	proc_run_all(&t, 1, clock_mono() + 10, NULL);
	got = stat_ids(t.out, &pid, &pgrp, &sid);
	ok(got && pgrp == pid && sid == pid,
	    "PROC_SESSION: a session of its own (pid %ld, session %ld)", pid, sid);
	free(t.out);
	free(t.err);
	memset(&t, 0, sizeof t);
	t.argv = ids;
	t.flags = PROC_CALLER_GROUP;
	proc_run_all(&t, 1, clock_mono() + 10, NULL);
	got = stat_ids(t.out, &pid, &pgrp, &sid);
	ok(got && pgrp == (long)getpgrp(),
	    "PROC_CALLER_GROUP: in our process group (%ld)", pgrp);
	free(t.out);
	free(t.err);
}

/* proc_start and proc_poll: never blocking, reading as it goes, the same end */
static void
test_poll(void)
{
	struct timespec nap = { 0, 20000000L };
	struct proc_task t;
	int rc, early = 0, polls = 0;
	double t0, took;

	memset(&t, 0, sizeof t);
	t.argv = sh_argv("echo one; sleep 2; echo two >&2; exit 5", NULL);
	t0 = clock_mono();
	rc = proc_start(&t);
	rc |= proc_poll(&t);
	took = clock_mono() - t0;
	ok(rc == 0 && took < 1, "poll: started and looked at without waiting (%.3f s)", took);
	while ((rc = proc_poll(&t)) == 0 && clock_mono() - t0 < 20) {
		if (strcmp(t.out, "one\n") == 0)
			early = 1;
		polls++;
		nanosleep(&nap, NULL);
	}
	is_int(rc, 1, "poll: 1 once it has ended (%d looks)", polls);
	ok(early, "poll: its output read while it ran");
	is_int(t.status, 5, "poll: its exit status");
	is_str(t.err, "two\n", "poll: its stderr");
	ok(t.ended - t0 >= 2, "poll: ended after its 2 s (%.2f)", t.ended - t0);
	is_int(proc_poll(&t), 1, "poll: still 1 after the end");
	proc_free(&t, 1);

	/* more than a pipe holds: looks now and then must drain it, or it never ends */
	memset(&t, 0, sizeof t);
	t.argv = sh_argv("head -c 300000 /dev/zero | tr '\\0' y", NULL);
	t0 = clock_mono();
	rc = proc_start(&t);
	while (rc == 0 && (rc = proc_poll(&t)) == 0 && clock_mono() - t0 < 20)
		nanosleep(&nap, NULL);
	ok(rc == 1 && t.status == 0 && strlen(t.out) == 300000, "poll: 300000 bytes read "
	    "through a pipe of less (%zu)", strlen(t.out));
	proc_free(&t, 1);

	memset(&t, 0, sizeof t);
	t.argv = xcalloc(2, sizeof *t.argv);
	t.argv[0] = xstrdup("gridsubmit-no-such-tool");
	errno = 0;
	rc = proc_start(&t);
	ok(rc == -1 && errno == ENOENT && t.status == 127, "poll: a program not in PATH: "
	    "proc_start -1, ENOENT, status 127");
	is_int(proc_poll(&t), 1, "poll: and it has ended");
	proc_free(&t, 1);
}

/*
 * proc_run_wide: 8 tasks, 3 at a time: each counts the marks of the tasks running when it
 * starts (never more than 3), a task that would run 30 s is killed at its own bound while
 * the next ones still run and end well, and at an overall deadline the ones never
 * started end with its status and no output.
 */
static void
test_wide(void)
{
	struct proc_task t[8], u[4];
	char script[512];
	size_t i;
	int over = 0, ok = 1;

	memset(t, 0, sizeof t);
	snprintf(script, sizeof script, "touch %s/run.$$; ls %s | grep -c '^run\\.'; "
	    "sleep 0.2; rm %s/run.$$", dir, dir, dir);
	for (i = 0; i < 8; i++)
		t[i].argv = sh_argv(i == 1 ? "exec sleep 30" : script, NULL);
	proc_run_wide(t, 8, 3, 2.0, clock_mono() + 60, NULL);
	for (i = 0; i < 8; i++) {
		if (i != 1 && (t[i].status != 0 || atoi(t[i].out) > 3 || atoi(t[i].out) < 1))
			ok = 0;
		over |= i != 1 && atoi(t[i].out) > 3;
	}
	ok(ok && !over, "wide: 8 tasks 3 at a time, never more than 3 running, each ended 0");
	is_int(t[1].status, PROC_DEADLINE, "wide: the task past its own bound killed alone");
	proc_free(t, 8);

	memset(u, 0, sizeof u);
	for (i = 0; i < 4; i++)
		u[i].argv = sh_argv("echo started; exec sleep 30", NULL);
	proc_run_wide(u, 4, 2, 0, clock_mono() + 0.5, NULL);
	is_int(u[0].status, PROC_DEADLINE, "wide: a started one killed at the deadline");
	is_int(u[3].status, PROC_DEADLINE, "wide: one never started ends with the deadline");
	is_str(u[3].out, "", "wide: and has no output");
	proc_free(u, 4);
}

int
main(void)
{
	char line[64];

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	test_mixed();
	test_stop();
	test_run();
	test_dir();
	test_input();
	test_signals();
	test_options();
	test_poll();
	test_wide();
	proc_last_line("first\nsecond\r\n\n\x01\n", line, sizeof line);
	is_str(line, "second", "proc_last_line: the last line with something printable");
	proc_last_line("", line, sizeof line);
	is_str(line, "no message", "proc_last_line: nothing");
	rmdir(dir);
	return tap_done();
}
