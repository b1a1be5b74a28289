/* fanout.c — n local commands at once, their output in memory (fanout.h). */
#include <sys/signalfd.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "remote/fanout.h"
#include "remote/remote.h"

/* without a signalfd, a child's end is seen this often (ms) */
#define FANOUT_NAP_MS		20
/* the stop flag is looked at this often (ms) even when nothing happens */
#define FANOUT_STOP_MS		100
/* reads of one pipe in a row: a fast writer must not starve the others */
#define FANOUT_READS		16

/* What fanout_run keeps of a running task. */
struct fanout_proc {
	pid_t pid;		/* 0: not started or reaped */
	int fd[2];		/* its stdout and stderr, -1 once at EOF */
	size_t len[2];
};

static void
fanout_exec(char *const argv[], int outfd, int errfd)
{
	int nul;

	setpgid(0, 0);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if ((nul = open("/dev/null", O_RDWR)) == -1)
		_exit(127);
	dup2(nul, STDIN_FILENO);
	dup2(outfd, STDOUT_FILENO);
	dup2(errfd, STDERR_FILENO);
	execvp(argv[0], argv);
	dprintf(STDERR_FILENO, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Start task t; -1 with errno when there are no pipes or no process for it. */
static int
fanout_start(const struct fanout_task *t, struct fanout_proc *p)
{
	int op[2] = { -1, -1 }, ep[2] = { -1, -1 }, saved;

	fflush(NULL);
	if (pipe2(op, O_CLOEXEC) == -1 || pipe2(ep, O_CLOEXEC) == -1 ||
	    (p->pid = fork()) == -1) {
		saved = errno;
		close(op[0]);
		close(op[1]);
		close(ep[0]);
		close(ep[1]);
		p->pid = 0;
		errno = saved;
		return -1;
	}
	if (p->pid == 0)
		fanout_exec(t->argv, op[1], ep[1]);
	/* also here: a kill at the deadline must find the group, whoever runs first */
	setpgid(p->pid, p->pid);
	close(op[1]);
	close(ep[1]);
	p->fd[0] = op[0];
	p->fd[1] = ep[0];
	fcntl(op[0], F_SETFL, O_NONBLOCK);
	fcntl(ep[0], F_SETFL, O_NONBLOCK);
	return 0;
}

/*
 * Read what pipe k of a task has now, keeping up to its cap; closed at EOF. Returns 1 when
 * the pipe has nothing more for now (or is closed), 0 when it may have more.
 */
static int
fanout_read(struct fanout_task *t, struct fanout_proc *p, int k)
{
	size_t cap = k == 0 ? FANOUT_OUT_CAP : FANOUT_ERR_CAP, take;
	char **buf = k == 0 ? &t->out : &t->err, tmp[16384];
	ssize_t n;
	int i;

	for (i = 0; i < FANOUT_READS; i++) {
		if ((n = read(p->fd[k], tmp, sizeof tmp)) == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			return 1;
		if (n <= 0) {
			close(p->fd[k]);
			p->fd[k] = -1;
			return 1;
		}
		if (p->len[k] < cap) {
			take = (size_t)n < cap - p->len[k] ? (size_t)n : cap - p->len[k];
			*buf = xreallocarray(*buf, p->len[k] + take + 1, 1);
			memcpy(*buf + p->len[k], tmp, take);
			p->len[k] += take;
			(*buf)[p->len[k]] = '\0';
		}
	}
	return 0;
}

/*
 * A task's end: what its process wrote is in the pipes by now; a descendant that still
 * holds them is not waited for (nor read from without end).
 */
static void
fanout_end(struct fanout_task *t, struct fanout_proc *p, int status)
{
	int k, round;

	for (k = 0; k < 2; k++) {
		for (round = 0; round < 64 && p->fd[k] != -1; round++)
			if (fanout_read(t, p, k))
				break;
		if (p->fd[k] != -1) {
			close(p->fd[k]);
			p->fd[k] = -1;
		}
	}
	t->status = status;
	t->ended = clock_mono();
	p->pid = 0;
}

/* Reap the tasks that have ended; returns how many still run. */
static size_t
fanout_reap(struct fanout_task *t, struct fanout_proc *p, size_t n)
{
	size_t i, left = 0;
	pid_t r;
	int st;

	for (i = 0; i < n; i++) {
		if (p[i].pid == 0)
			continue;
		while ((r = waitpid(p[i].pid, &st, WNOHANG)) == -1 && errno == EINTR)
			;
		if (r == p[i].pid)
			fanout_end(&t[i], &p[i], WIFEXITED(st) ? WEXITSTATUS(st) :
			    128 + WTERMSIG(st));
		else
			left++;
	}
	return left;
}

/* The deadline or stop: every task still running is killed, its whole process group. */
static void
fanout_kill(struct fanout_task *t, struct fanout_proc *p, size_t n, int why)
{
	size_t i;
	int st;

	for (i = 0; i < n; i++) {
		if (p[i].pid == 0)
			continue;
		kill(-p[i].pid, SIGKILL);
		kill(p[i].pid, SIGKILL);
	}
	for (i = 0; i < n; i++) {
		if (p[i].pid == 0)
			continue;
		while (waitpid(p[i].pid, &st, 0) == -1 && errno == EINTR)
			;
		fanout_end(&t[i], &p[i], why);
	}
}

/* Wait up to ms for output or a child's end (sfd), reading what came. */
static void
fanout_poll(struct fanout_task *t, struct fanout_proc *p, size_t n, struct pollfd *pfd,
    int sfd, int ms)
{
	size_t i, np = 0, *of = xcalloc(2 * n + 1, sizeof *of);
	struct signalfd_siginfo si;
	int k;

	for (i = 0; i < n; i++)
		for (k = 0; k < 2; k++) {
			if (p[i].pid == 0 || p[i].fd[k] == -1)
				continue;
			pfd[np].fd = p[i].fd[k];
			pfd[np].events = POLLIN;
			of[np++] = 2 * i + (size_t)k;
		}
	pfd[np].fd = sfd;
	pfd[np].events = POLLIN;
	if (poll(pfd, np + 1, ms) > 0) {
		for (i = 0; i < np; i++)
			if (pfd[i].revents != 0)
				fanout_read(&t[of[i] / 2], &p[of[i] / 2], (int)(of[i] % 2));
		while (sfd != -1 && read(sfd, &si, sizeof si) > 0)
			;
	}
	free(of);
}

void
fanout_run(struct fanout_task *t, size_t n, double deadline, int (*stop)(void))
{
	struct fanout_proc *p = xcalloc(n + 1, sizeof *p);
	struct pollfd *pfd = xcalloc(2 * n + 1, sizeof *pfd);
	sigset_t old, chld;
	double now;
	size_t i;
	int sfd, ms;

	for (i = 0; i < n; i++) {
		t[i].out = xstrdup("");
		t[i].err = xstrdup("");
		p[i].fd[0] = p[i].fd[1] = -1;
		if (t[i].argv != NULL && fanout_start(&t[i], &p[i]) == -1) {
			/* like a command that cannot be run: the others go on */
			free(t[i].err);
			xasprintf(&t[i].err, "cannot start %s: %s\n", t[i].argv[0],
			    strerror(errno));
			t[i].status = 127;
			t[i].ended = clock_mono();
		}
	}
	/* only now: a child must not start with SIGCHLD blocked; the sweep below sees the
	 * ends that came before */
	remote_child_block(&old);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sfd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
	while (fanout_reap(t, p, n) > 0) {
		now = clock_mono();
		if (deadline > 0 && now >= deadline) {
			fanout_kill(t, p, n, FANOUT_DEADLINE);
			break;
		}
		if (stop != NULL && stop()) {
			fanout_kill(t, p, n, FANOUT_STOPPED);
			break;
		}
		ms = sfd != -1 ? FANOUT_STOP_MS : FANOUT_NAP_MS;
		if (deadline > 0 && (deadline - now) * 1000 < ms)
			ms = (int)((deadline - now) * 1000) + 1;
		fanout_poll(t, p, n, pfd, sfd, ms);
	}
	if (sfd != -1)
		close(sfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(pfd);
	free(p);
}

void
fanout_free(struct fanout_task *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		remote_argv_free(t[i].argv);
		free(t[i].out);
		free(t[i].err);
		t[i].argv = NULL;
		t[i].out = t[i].err = NULL;
	}
}

void
fanout_last_line(const char *text, char *out, size_t outlen)
{
	const char *p = text, *nl;
	size_t len, i, k;

	snprintf(out, outlen, "no message");
	while (*p != '\0') {
		nl = strchr(p, '\n');
		len = nl != NULL ? (size_t)(nl - p) : strlen(p);
		for (i = k = 0; i < len && k + 1 < outlen; i++)
			if ((unsigned char)p[i] >= 0x20 && p[i] != 0x7f)
				k++;
		if (k > 0) {
			for (i = k = 0; i < len && k + 1 < outlen; i++)
				if ((unsigned char)p[i] >= 0x20 && p[i] != 0x7f)
					out[k++] = p[i];
			out[k] = '\0';
		}
		p += len + (nl != NULL);
	}
}
