/*
 * testbed-util.c — running ip/tc from argument vectors (common/proc.h), the manifest,
 * names, waits.
 */
#include <sys/socket.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/proc.h"
#include "common/pstat.h"
#include "common/xmalloc.h"
#include "testbed/testbed.h"

#define TB_MAXARGS	64
#define TB_CMD_TIMEOUT	30.0

static int
tb_vrun(int quiet, const char *argv0, va_list ap)
{
	char *argv[TB_MAXARGS], line[1024] = "";
	struct proc_task pt;
	size_t n = 0;
	const char *a;
	int rc;

	argv[n++] = (char *)argv0;
	while ((a = va_arg(ap, const char *)) != NULL && n < TB_MAXARGS - 1)
		argv[n++] = (char *)a;
	argv[n] = NULL;
	rc = proc_run(argv, TB_CMD_TIMEOUT, &pt);
	if (rc != 0 && !quiet) {
		size_t i, len = 0;
		char *e;

		for (i = 0; i < n && len < sizeof line - 2; i++)
			len += (size_t)snprintf(line + len, sizeof line - len, "%s%s",
			    i ? " " : "", argv[i]);
		if ((e = strchr(pt.err, '\n')) != NULL)
			*e = '\0';
		fprintf(stderr, "gridsubmit testbed: %s: %s\n", line,
		    rc == PROC_DEADLINE ? "timed out" : *pt.err != '\0' ? pt.err : "failed");
	}
	proc_free(&pt, 1);
	return rc == 0 ? 0 : -1;
}

int
tb_run(const char *argv0, ...)
{
	va_list ap;
	int rc;

	va_start(ap, argv0);
	rc = tb_vrun(0, argv0, ap);
	va_end(ap);
	return rc;
}

int
tb_run_quiet(const char *argv0, ...)
{
	va_list ap;
	int rc;

	va_start(ap, argv0);
	rc = tb_vrun(1, argv0, ap);
	va_end(ap);
	return rc;
}

/*
 * One line of the manifest, made durable before the thing it names is created: after a
 * crash, `down` finds everything that may exist (and ignores what does not). So nothing
 * is created when it fails.
 */
int
tb_manifest_add(struct testbed *tb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(tb->manifest, fmt, ap);
	va_end(ap);
	fputc('\n', tb->manifest);
	if (fflush(tb->manifest) == EOF || fdatasync(fileno(tb->manifest)) == -1)
		return tb_syserr("%s/manifest", tb->dir);
	return 0;
}

int
tb_syserr(const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	fprintf(stderr, "gridsubmit testbed: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(e));
	errno = e;
	return -1;
}

/*
 * FNV-1a of the state directory: the tag that keeps interface names short; two testbeds
 * up at once (another name, another user's) differ in it but for a hash collision, which up
 * refuses (testbed-up.c).
 */
void
tb_names(struct testbed *tb, const char *dir)
{
	unsigned h = 2166136261u;
	const char *p;

	for (p = dir; *p != '\0'; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	snprintf(tb->tag, sizeof tb->tag, "%04x", (h ^ (h >> 16)) & 0xffff);
	snprintf(tb->bridge, sizeof tb->bridge, "gs%sbr", tb->tag);
}

/* The start time of a live process (common/pstat.h), -1 when gone: a zombie is as good as gone. */
long long
tb_proc_start(long pid)
{
	struct pstat ps;

	if (pstat_read((pid_t)pid, &ps) == -1 || ps.state == 'Z')
		return -1;
	return (long long)ps.start;
}

/* 0 when addr:port accepts a TCP connection within the time, else -1. */
int
tb_wait_port(const char *addr, int port, double seconds)
{
	double until = clock_mono() + seconds;
	struct sockaddr_in sin;
	struct timespec ts = { 0, 50000000L };

	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((unsigned short)port);
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1)
		return -1;
	for (;;) {
		int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), ok;

		if (s == -1)
			return -1;
		ok = connect(s, (struct sockaddr *)&sin, sizeof sin) == 0;
		close(s);
		if (ok)
			return 0;
		if (clock_mono() > until)
			return -1;
		nanosleep(&ts, NULL);
	}
}

void
tb_kill_unrecorded(pid_t pid)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) == -1 && errno == EINTR)
		;
}

void
tb_child_enter(const char *nspath)
{
	int nsfd;

	setsid();
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if ((nsfd = open(nspath, O_RDONLY | O_CLOEXEC)) == -1 || setns(nsfd, CLONE_NEWNET) == -1) {
		dprintf(2, "gridsubmit testbed: %s: cannot enter: %s\n", nspath, strerror(errno));
		_exit(127);
	}
}

void
tb_child_output(const char *log)
{
	int nul, logfd;

	if ((nul = open("/dev/null", O_RDONLY)) == -1 ||
	    (logfd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600)) == -1)
		_exit(127);
	dup2(nul, 0);
	dup2(logfd, 1);
	dup2(logfd, 2);
}
