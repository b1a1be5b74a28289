/*
 * detach.c — a job's supervisor forked with a handshake (detach.h): the same start for
 * submit's supervisor and for an experiment's runs.
 */
#include <sys/prctl.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "common/log.h"
#include "launch/launch.h"
#include "submit/cmd.h"
#include "submit/detach.h"

/* dup2 fd onto to, and close fd unless it is one of the three (it was free, or is to). */
static int
detach_dup(int fd, int to)
{
	if (fd == -1 || dup2(fd, to) == -1)
		return -1;
	if (fd > STDERR_FILENO)
		close(fd);
	return 0;
}

/* The child's stdio and descriptors as d says; keep: the handshake's. 0, or -1. */
static int
detach_stdio(const struct detach *d, int keep)
{
	int fd;

	if (d->session) {
		if (setsid() == -1)
			return -1;
		if (detach_dup(open("/dev/null", O_RDONLY | O_CLOEXEC), STDIN_FILENO) == -1)
			return -1;
	}
	fd = open(d->log, O_WRONLY | O_CREAT | O_CLOEXEC | (d->append ? O_APPEND : O_TRUNC),
	    0644);
	if (fd == -1 || dup2(fd, STDOUT_FILENO) == -1 || detach_dup(fd, STDERR_FILENO) == -1)
		return -1;
	if (d->session) {
		/* whatever else the caller left open (a pipe of $(...)) must not be held by us */
		if (keep > 3)
			close_range(3, (unsigned)keep - 1, 0);
		close_range((unsigned)keep + 1, ~0U, 0);
	}
	return 0;
}

/* The child's signals and stdio (detach_start); it exits when they cannot be had. */
static void
detach_child(const struct detach *d, pid_t parent, int fd)
{
	sigset_t none;

	if (!d->session) {
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		/* the parent died before the line above: nothing would tell us */
		if (getppid() != parent)
			_exit(EXIT_CANCELLED);
	}
	/* what the caller ignored or blocked must not reach the supervisor */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGCHLD, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	launch_catch_signals();
	if (detach_stdio(d, fd) == -1)
		_exit(EXIT_LAUNCH);
}

/* What the child writes on fd until it closes it (said, NUL-terminated). */
static void
detach_read(int fd, char *said, size_t saidlen)
{
	size_t n = 0;
	ssize_t k;

	while (n < saidlen - 1 && (k = read(fd, said + n, saidlen - 1 - n)) != 0) {
		if (k == -1 && errno == EINTR)
			continue;
		if (k == -1)
			break;
		n += (size_t)k;
	}
	said[n] = '\0';
}

pid_t
detach_start(const struct detach *d, int (*child)(void *arg, int fd), void *arg,
    char *said, size_t saidlen)
{
	pid_t pid, parent = getpid();
	int fds[2], code;

	if (pipe2(fds, O_CLOEXEC) == -1)
		fatal("pipe");
	fflush(NULL);
	if ((pid = fork()) == -1)
		fatal("fork");
	if (pid == 0) {
		close(fds[0]);
		detach_child(d, parent, fds[1]);
		code = child(arg, fds[1]);
		fflush(NULL);
		_exit(code);
	}
	close(fds[1]);
	detach_read(fds[0], said, saidlen);
	close(fds[0]);
	return pid;
}
