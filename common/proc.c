/*
 * proc.c — local commands with a deadline, their output in memory (proc.h). One start
 * (proc_start: fork, the child's set-up, exec), one read of a pipe (proc_read) and one
 * reap (proc_reap, proc_end) under both ways of waiting: all at once (proc_run_all) and
 * a look now and then (proc_poll).
 */
#include <sys/signalfd.h>
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
#include "common/proc.h"
#include "common/xmalloc.h"

/* without a signalfd, a child's end is seen this often (ms) */
#define PROC_NAP_MS		20
/* the stop flag is looked at this often (ms) even when nothing happens */
#define PROC_STOP_MS		100
/* reads of one pipe in a row: a fast writer must not starve the others */
#define PROC_READS		16

/* What a child that did not get to exec tells its parent, on a close-on-exec pipe. */
struct proc_fail {
	int step;		/* PROC_STEP_* */
	int error;		/* its errno */
};
enum { PROC_STEP_SETUP, PROC_STEP_DIR, PROC_STEP_EXEC };

/* set to their defaults in every child, also when the caller ignores them */
static const int proc_dfl_signals[] = { SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGCHLD };

/*
 * In the child, before its mask is cleared: a caller's handler must not run here before
 * exec (which resets only caught signals, and keeps the mask and what is ignored).
 */
static void
proc_child_signals(void)
{
	struct sigaction sa, dfl;
	sigset_t none;
	size_t i;
	int sig;

	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	for (sig = 1; sig < NSIG; sig++)
		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler != SIG_DFL &&
		    sa.sa_handler != SIG_IGN)
			sigaction(sig, &dfl, NULL);
	for (i = 0; i < sizeof proc_dfl_signals / sizeof proc_dfl_signals[0]; i++)
		sigaction(proc_dfl_signals[i], &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* A descriptor above stdin, stdout and stderr: a dup2 onto those must not close it. */
static int
proc_fd_high(int fd)
{
	if (fd == -1 || fd > STDERR_FILENO)
		return fd;
	return fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
}

/* The child: its group, signals, descriptors and directory, then the command. */
static void __attribute__((__noreturn__))
proc_exec(const struct proc_task *t, int infd, int outfd, int errfd, int failfd)
{
	struct proc_fail f = { PROC_STEP_SETUP, 0 };
	ssize_t n;
	int fd[3], k, nullfd;

	if (t->flags & PROC_SESSION)
		setsid();
	else if (!(t->flags & PROC_CALLER_GROUP))
		setpgid(0, 0);
	proc_child_signals();
	failfd = proc_fd_high(failfd);
	nullfd = proc_fd_high(open("/dev/null", O_RDWR | O_CLOEXEC));
	fd[0] = infd != -1 ? proc_fd_high(infd) : nullfd;
	fd[1] = t->flags & PROC_OUT_NULL ? nullfd : proc_fd_high(outfd);
	fd[2] = proc_fd_high(errfd);
	for (k = 0; k < 3; k++)
		if (fd[k] == -1 || dup2(fd[k], k) == -1)
			goto fail;
	f.step = PROC_STEP_DIR;
	if (t->dir != NULL && chdir(t->dir) == -1)
		goto fail;
	f.step = PROC_STEP_EXEC;
	execvp(t->argv[0], t->argv);
fail:
	f.error = errno;
	/* when this is lost, the parent sees the status 127 alone */
	n = write(failfd, &f, sizeof f);
	(void)n;
	_exit(127);
}

/* A task that ends before it ran: status 127, why in err, errno and t->error set. */
static int
proc_failed(struct proc_task *t, int error, const char *fmt, const char *arg)
{
	free(t->err);
	if (arg != NULL)
		xasprintf(&t->err, fmt, t->argv[0], arg, strerror(error));
	else
		xasprintf(&t->err, fmt, t->argv[0], strerror(error));
	t->status = 127;
	t->error = error;
	t->ended = clock_mono();
	t->pid = 0;
	errno = error;
	return -1;
}

static void
proc_close(int *fd, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (fd[i] != -1) {
			close(fd[i]);
			fd[i] = -1;
		}
}

/*
 * t->in in a pipe, whole, its write end closed: the read end for the child's stdin (-1
 * without t->in). 0, or -1 with errno (EINVAL: more than PROC_IN_CAP bytes).
 */
static int
proc_input(const struct proc_task *t, int *infd)
{
	int ip[2];
	size_t len;
	ssize_t n;

	*infd = -1;
	if (t->in == NULL)
		return 0;
	if ((len = strlen(t->in)) > PROC_IN_CAP) {
		errno = EINVAL;
		return -1;
	}
	if (pipe2(ip, O_CLOEXEC) == -1)
		return -1;
	while ((n = write(ip[1], t->in, len)) == -1 && errno == EINTR)
		;
	close(ip[1]);
	if (n != (ssize_t)len) {
		close(ip[0]);
		errno = n == -1 ? errno : EIO;
		return -1;
	}
	*infd = ip[0];
	return 0;
}

int
proc_start(struct proc_task *t)
{
	int op[2] = { -1, -1 }, ep[2] = { -1, -1 }, fp[2] = { -1, -1 }, logfd = -1, e, infd;
	struct proc_fail f;
	sigset_t all, old;
	ssize_t n;
	int st;

	t->out = xstrdup("");
	t->err = xstrdup("");
	t->pid = 0;
	t->fd[0] = t->fd[1] = -1;
	t->len[0] = t->len[1] = 0;
	t->error = 0;
	if (t->log != NULL &&
	    (logfd = open(t->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)) == -1)
		return proc_failed(t, errno, "cannot start %s: %s: %s\n", t->log);
	if (proc_input(t, &infd) == -1) {
		e = errno;
		proc_close(&logfd, 1);
		return proc_failed(t, e, "cannot start %s: its input: %s\n", NULL);
	}
	if ((t->log == NULL && (pipe2(op, O_CLOEXEC) == -1 || pipe2(ep, O_CLOEXEC) == -1)) ||
	    pipe2(fp, O_CLOEXEC) == -1) {
		e = errno;
		proc_close(op, 2);
		proc_close(ep, 2);
		proc_close(&logfd, 1);
		proc_close(&infd, 1);
		return proc_failed(t, e, "cannot start %s: %s\n", NULL);
	}
	fflush(NULL);
	/* nothing of ours runs in the child: it sets its own signals up (proc_child_signals) */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	if ((t->pid = fork()) == 0)
		proc_exec(t, infd, logfd != -1 ? logfd : op[1], logfd != -1 ? logfd : ep[1],
		    fp[1]);
	e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	proc_close(&infd, 1);
	proc_close(&op[1], 1);
	proc_close(&ep[1], 1);
	proc_close(&fp[1], 1);
	proc_close(&logfd, 1);
	if (t->pid == -1) {
		proc_close(op, 1);
		proc_close(ep, 1);
		proc_close(fp, 1);
		return proc_failed(t, e, "cannot start %s: %s\n", NULL);
	}
	/*
	 * Until it execs (end of file) or says why it could not: when proc_start returns,
	 * the command runs in its own group, which a kill at the deadline then finds.
	 */
	while ((n = read(fp[0], &f, sizeof f)) == -1 && errno == EINTR)
		;
	proc_close(fp, 1);
	if (n != (ssize_t)sizeof f) {
		t->fd[0] = op[0];
		t->fd[1] = ep[0];
		if (op[0] != -1)
			fcntl(op[0], F_SETFL, O_NONBLOCK);
		if (ep[0] != -1)
			fcntl(ep[0], F_SETFL, O_NONBLOCK);
		return 0;
	}
	while (waitpid(t->pid, &st, 0) == -1 && errno == EINTR)
		;
	proc_close(op, 1);
	proc_close(ep, 1);
	if (f.step == PROC_STEP_DIR)
		return proc_failed(t, f.error, "cannot run %s in %s: %s\n", t->dir);
	return proc_failed(t, f.error, f.step == PROC_STEP_EXEC ? "cannot run %s: %s\n" :
	    "cannot start %s: %s\n", NULL);
}

/*
 * Read what pipe k of a task has now, keeping up to its cap; closed at its end. Returns 1
 * when the pipe has nothing more for now (or is closed), 0 when it may have more.
 */
static int
proc_read(struct proc_task *t, int k)
{
	size_t cap = k == 0 ? PROC_OUT_CAP : PROC_ERR_CAP, take;
	char **buf = k == 0 ? &t->out : &t->err, tmp[16384];
	ssize_t n;
	int i;

	for (i = 0; i < PROC_READS; i++) {
		if ((n = read(t->fd[k], tmp, sizeof tmp)) == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			return 1;
		if (n <= 0) {
			proc_close(&t->fd[k], 1);
			return 1;
		}
		if (t->len[k] < cap) {
			take = (size_t)n < cap - t->len[k] ? (size_t)n : cap - t->len[k];
			*buf = xreallocarray(*buf, t->len[k] + take + 1, 1);
			memcpy(*buf + t->len[k], tmp, take);
			t->len[k] += take;
			(*buf)[t->len[k]] = '\0';
		}
	}
	return 0;
}

/*
 * A task's end: what its process wrote is in the pipes by now; a descendant that still
 * holds them is not waited for (nor read from without end).
 */
static void
proc_end(struct proc_task *t, int status)
{
	int k, round;

	for (k = 0; k < 2; k++) {
		for (round = 0; round < 64 && t->fd[k] != -1; round++)
			if (proc_read(t, k))
				break;
		proc_close(&t->fd[k], 1);
	}
	t->status = status;
	t->ended = clock_mono();
	t->pid = 0;
}

/* 1 while the task runs; its end seen (proc_end) otherwise. */
static int
proc_reap(struct proc_task *t)
{
	pid_t r;
	int st;

	if (t->pid == 0)
		return 0;
	while ((r = waitpid(t->pid, &st, WNOHANG)) == -1 && errno == EINTR)
		;
	if (r == 0)
		return 1;
	if (r == -1) {
		/* reaped by someone else (SIGCHLD ignored): gone, how is not known */
		t->error = errno;
		proc_end(t, 127);
		return 0;
	}
	proc_end(t, WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	return 0;
}

int
proc_poll(struct proc_task *t)
{
	int k;

	for (k = 0; k < 2; k++)
		if (t->pid != 0 && t->fd[k] != -1)
			proc_read(t, k);
	return !proc_reap(t);
}

/* The deadline or stop: every task still running is killed, its whole process group. */
static void
proc_kill(struct proc_task *t, size_t n, int why)
{
	size_t i;
	int st;

	for (i = 0; i < n; i++) {
		if (t[i].pid == 0)
			continue;
		if (!(t[i].flags & PROC_CALLER_GROUP))
			kill(-t[i].pid, SIGKILL);
		kill(t[i].pid, SIGKILL);
	}
	for (i = 0; i < n; i++) {
		if (t[i].pid == 0)
			continue;
		while (waitpid(t[i].pid, &st, 0) == -1 && errno == EINTR)
			;
		proc_end(&t[i], why);
	}
}

/* Wait up to ms for output or a child's end (sfd), reading what came. */
static void
proc_wait(struct proc_task *t, size_t n, struct pollfd *pfd, size_t *of, int sfd, int ms)
{
	struct signalfd_siginfo si;
	size_t i, np = 0;
	int k;

	for (i = 0; i < n; i++)
		for (k = 0; k < 2; k++) {
			if (t[i].pid == 0 || t[i].fd[k] == -1)
				continue;
			pfd[np].fd = t[i].fd[k];
			pfd[np].events = POLLIN;
			of[np++] = 2 * i + (size_t)k;
		}
	pfd[np].fd = sfd;
	pfd[np].events = POLLIN;
	if (poll(pfd, np + 1, ms) > 0) {
		for (i = 0; i < np; i++)
			if (pfd[i].revents != 0)
				proc_read(&t[of[i] / 2], (int)(of[i] % 2));
		while (sfd != -1 && read(sfd, &si, sizeof si) > 0)
			;
	}
}

/* Start task t (or mark one without argv as not run) at now. */
static void
proc_begin(struct proc_task *t, double now)
{
	t->begun = now;
	/* one that cannot start has ended (proc_start): the others go on */
	if (t->argv != NULL) {
		proc_start(t);
		return;
	}
	t->out = xstrdup("");
	t->err = xstrdup("");
	t->pid = 0;
}

/* A task never started by the overall deadline or a stop: ended, as a killed one is. */
static void
proc_never(struct proc_task *t, int why)
{
	t->out = xstrdup("");
	t->err = xstrdup("");
	t->pid = 0;
	if (t->argv == NULL)
		return;
	t->status = why;
	t->ended = clock_mono();
}

/* The tasks from next on, never started: each ended with why. */
static void
proc_never_all(struct proc_task *t, size_t next, size_t n, int why)
{
	for (; next < n; next++)
		proc_never(&t[next], why);
}

void
proc_run_all(struct proc_task *t, size_t n, double deadline, int (*stop)(void))
{
	proc_run_wide(t, n, n, 0, deadline, stop);
}

void
proc_run_wide(struct proc_task *t, size_t n, size_t width, double each, double deadline,
    int (*stop)(void))
{
	struct pollfd *pfd = xcalloc(2 * n + 1, sizeof *pfd);
	size_t *of = xcalloc(2 * n + 1, sizeof *of), i, left, next = 0;
	sigset_t old, chld;
	double now, wake;
	int sfd, ms;

	if (width == 0)
		width = 1;
	/* before the first start (a child clears its mask): the signalfd sees every end */
	proc_child_block(&old);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sfd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
	for (;;) {
		for (i = left = 0; i < next; i++)
			left += (size_t)proc_reap(&t[i]);
		now = clock_mono();
		/* the next ones, as places free up */
		for (; next < n && left < width && (deadline <= 0 || now < deadline); next++) {
			proc_begin(&t[next], now);
			left += t[next].pid != 0;
		}
		if (left == 0 && next == n)
			break;
		if (deadline > 0 && now >= deadline) {
			proc_kill(t, next, PROC_DEADLINE);
			proc_never_all(t, next, n, PROC_DEADLINE);
			break;
		}
		if (stop != NULL && stop()) {
			proc_kill(t, next, PROC_STOPPED);
			proc_never_all(t, next, n, PROC_STOPPED);
			break;
		}
		/* a task past its own time: killed alone, the others go on */
		wake = deadline;
		for (i = 0; each > 0 && i < next; i++) {
			if (t[i].pid == 0)
				continue;
			if (now >= t[i].begun + each)
				proc_kill(&t[i], 1, PROC_DEADLINE);
			else if (wake <= 0 || t[i].begun + each < wake)
				wake = t[i].begun + each;
		}
		ms = sfd != -1 ? PROC_STOP_MS : PROC_NAP_MS;
		if (wake > 0 && (wake - now) * 1000 < ms)
			ms = (int)((wake - now) * 1000) + 1;
		proc_wait(t, next, pfd, of, sfd, ms);
	}
	if (sfd != -1)
		close(sfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(of);
	free(pfd);
}

int
proc_run(char *const argv[], double timeout, struct proc_task *t)
{
	memset(t, 0, sizeof *t);
	t->argv = (char **)argv;
	proc_run_all(t, 1, timeout > 0 ? clock_mono() + timeout : 0, NULL);
	t->argv = NULL;
	return t->status;
}

void
proc_free(struct proc_task *t, size_t n)
{
	size_t i;
	char **a;

	for (i = 0; i < n; i++) {
		for (a = t[i].argv; a != NULL && *a != NULL; a++)
			free(*a);
		free(t[i].argv);
		free(t[i].out);
		free(t[i].err);
		t[i].argv = NULL;
		t[i].out = t[i].err = NULL;
	}
}

void
proc_last_line(const char *text, char *out, size_t outlen)
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

void
proc_child_block(sigset_t *old)
{
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, old);
}

void
proc_child_nap(long ns)
{
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	/* blocked SIGCHLD stays pending (even at SIG_DFL): a child's end wakes us at once */
	sigtimedwait(&chld, NULL, &ts);
}
