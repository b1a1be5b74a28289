/*
 * test-fanout.c — the fan-out of remote/fanout.c driven with local commands: many
 * fast ones at once, with their answers; a failing one's status; one still running at
 * the deadline killed with its whole process group (status -1); a hanging one ended by
 * the stop flag (-2); huge output capped without a deadlock; stderr captured; when each
 * ended; a command that cannot run; remote_run as the fan-out of one. And remote_quote:
 * hostile words come back exactly through a real sh.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/xmalloc.h"
#include "remote/fanout.h"
#include "remote/remote.h"
#include "tests/tap.h"

#define NFAST	40

static char dir[] = "/tmp/test-fanout.XXXXXX";
static double stop_at;

/* sh -c SCRIPT sh [ARG], allocated as fanout_free frees it. */
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
	struct fanout_task t[NFAST + 6];
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
	fanout_run(t, n, t0 + 1.5, NULL);
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
	is_int(t[NFAST + 2].status, FANOUT_DEADLINE, "still running at the deadline: -1");
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
	is_int(strlen(t[NFAST + 3].out), FANOUT_OUT_CAP, "stdout capped at %d bytes",
	    FANOUT_OUT_CAP);
	is_int(strlen(t[NFAST + 3].err), FANOUT_ERR_CAP, "stderr capped at %d bytes",
	    FANOUT_ERR_CAP);
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
	fanout_free(t, n);
	unlink(pidfile);
}

/* a hanging command ended by the stop flag; one that cannot be run */
static void
test_stop(void)
{
	struct fanout_task t[3];
	double t0;

	memset(t, 0, sizeof t);
	t[0].argv = sh_argv("echo waiting; exec sleep 60", NULL);
	t[1].argv = sh_argv("exit 0", NULL);
	t[2].argv = xcalloc(2, sizeof *t[2].argv);
	t[2].argv[0] = xstrdup("/nonexistent/gridsubmit-no-such-tool");
	t0 = clock_mono();
	stop_at = t0 + 0.4;
	fanout_run(t, 3, t0 + 30, stop_later);
	is_int(t[0].status, FANOUT_STOPPED, "a hanging command ended by the stop flag: -2");
	ok(t[0].ended - t0 >= 0.4 && t[0].ended - t0 < 2, "soon after stop said so "
	    "(%.3f s)", t[0].ended - t0);
	is_str(t[0].out, "waiting\n", "its output so far");
	is_int(t[1].status, 0, "a quick one beside it ended normally");
	is_int(t[2].status, 127, "a command that cannot be run: 127");
	ok(strstr(t[2].err, "cannot run /nonexistent/gridsubmit-no-such-tool") != NULL,
	    "with why on its stderr");
	fanout_free(t, 3);
}

static void
test_remote_run(void)
{
	char *argv[] = { "sh", "-c", "echo out; echo err >&2; exit 4", NULL };
	char *slow[] = { "sleep", "30", NULL };
	struct remote_out ro;
	double t0;

	is_int(remote_run(argv, 10, &ro), 4, "remote_run: the status");
	is_str(ro.out, "out\n", "remote_run: stdout");
	is_str(ro.err, "err\n", "remote_run: stderr");
	remote_out_free(&ro);
	t0 = clock_mono();
	is_int(remote_run(slow, 0.3, &ro), -1, "remote_run: killed at its timeout");
	ok(clock_mono() - t0 < 2, "within the timeout (%.2f s)", clock_mono() - t0);
	remote_out_free(&ro);
}

/* Each hostile word, quoted, goes through sh -c "printf %s QUOTED" and comes back whole. */
static void
test_quote(void)
{
	static const char *const words[] = {
		"", "plain", "two words", "it's", "''", "'", "a'b'c", "\"double\"",
		"semi;colon; rm -rf /nonexistent", "$(echo injected)", "`echo injected`",
		"$HOME ${PATH} $1 $@ $*", "line\nbreak\n", "back\\slash\\", "tab\there",
		"glob * ? [a-z]", "-n", "%s %d %%", "&& || | > < >> 2>&1", "!history",
		"'\"'\"'$(x)'\\''", "#comment", "~root", "\x01\x7f\xc3\xa9",
	};
	char *cmd, *q, *argv[4];
	struct remote_out ro;
	size_t i, good = 0;

	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		q = remote_quote(words[i]);
		xasprintf(&cmd, "printf %%s %s", q);
		argv[0] = "sh";
		argv[1] = "-c";
		argv[2] = cmd;
		argv[3] = NULL;
		if (remote_run(argv, 10, &ro) == 0 && strcmp(ro.out, words[i]) == 0)
			good++;
		else
			printf("#   %s came back as \"%s\" (status %d, %s)\n", q, ro.out,
			    ro.status, ro.err);
		remote_out_free(&ro);
		free(cmd);
		free(q);
	}
	is_int(good, sizeof words / sizeof words[0], "remote_quote: %zu hostile words come "
	    "back exactly through sh", sizeof words / sizeof words[0]);
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
	test_remote_run();
	test_quote();
	fanout_last_line("first\nsecond\r\n\n\x01\n", line, sizeof line);
	is_str(line, "second", "fanout_last_line: the last line with something printable");
	fanout_last_line("", line, sizeof line);
	is_str(line, "no message", "fanout_last_line: nothing");
	rmdir(dir);
	return tap_done();
}
