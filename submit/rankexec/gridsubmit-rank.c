/*
 * gridsubmit-rank — what hydra starts for each rank: it runs the program as its child and
 * turns a death by signal into a plain exit.
 *
 * Why (RELIABILITY.md, measured with MPICH 4.0.2): under -disable-auto-cleanup a rank that
 * exits is survived by the others, but a rank killed by a signal takes the whole job down.
 * Seen from hydra, this wrapper always exits: the job goes on and libgrt's master requeues
 * the dead rank's units. It also forwards hydra's signals to the program (SIGUSR1, the
 * "a rank exited" hint, included), makes the program die with it (PR_SET_PDEATHSIG) so no
 * rank is ever left behind, and for rank 0 records how the program ended in --status FILE.
 *
 * usage: gridsubmit-rank [--status FILE] -- PROGRAM [ARGS...]
 * Exit status: the program's, 128+N when it died of signal N, 127 when it cannot be run.
 * Deliberately free of libraries: it is copied to every node as it is.
 */
#include <sys/prctl.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KILL_GRACE 5	/* seconds between forwarding SIGTERM and SIGKILL */

static volatile sig_atomic_t child_pid;
static volatile sig_atomic_t stopping;

static void
on_signal(int sig)
{
	if (child_pid > 0)
		kill(child_pid, sig);
	if (sig != SIGUSR1 && !stopping) {
		stopping = 1;
		alarm(KILL_GRACE);
	}
}

static void
on_alarm(int sig)
{
	(void)sig;
	if (child_pid > 0)
		kill(child_pid, SIGKILL);
}

static void
write_status(const char *path, const char *text)
{
	char tmp[4096];
	int fd;

	if (path == NULL || snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
		return;
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) == -1)
		return;
	if (write(fd, text, strlen(text)) == (ssize_t)strlen(text) && fsync(fd) == 0 &&
	    close(fd) == 0)
		rename(tmp, path);
	else
		unlink(tmp);
}

int
main(int argc, char **argv)
{
	static const int forwarded[] = { SIGUSR1, SIGTERM, SIGINT, SIGHUP, SIGQUIT };
	struct sigaction sa;
	const char *status = NULL, *rank = getenv("PMI_RANK");
	char text[64];
	size_t i;
	pid_t pid;
	int argi = 1, st;

	if (argi + 1 < argc && strcmp(argv[argi], "--status") == 0) {
		status = argv[argi + 1];
		argi += 2;
	}
	if (argi < argc && strcmp(argv[argi], "--") == 0)
		argi++;
	if (argi >= argc) {
		fprintf(stderr, "usage: gridsubmit-rank [--status FILE] -- PROGRAM [ARGS...]\n");
		return 2;
	}
	if (rank == NULL || strcmp(rank, "0") != 0)
		status = NULL;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	for (i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
		sigaction(forwarded[i], &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);

	if ((pid = fork()) == -1) {
		perror("gridsubmit-rank: fork");
		return 127;
	}
	if (pid == 0) {
		sa.sa_handler = SIG_DFL;
		for (i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
			sigaction(forwarded[i], &sa, NULL);
		/* no rank outlives its wrapper, whatever kills the wrapper */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(127);
		execvp(argv[argi], argv + argi);
		fprintf(stderr, "gridsubmit-rank: cannot run %s: %s\n", argv[argi], strerror(errno));
		_exit(127);
	}
	child_pid = pid;
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			return 127;
	if (WIFSIGNALED(st)) {
		char host[256] = "?";

		gethostname(host, sizeof host - 1);
		fprintf(stderr, "gridsubmit-rank: rank %s on %s: %s died of signal %d (%s)\n",
		    rank != NULL ? rank : "?", host, argv[argi], WTERMSIG(st),
		    strsignal(WTERMSIG(st)));
		snprintf(text, sizeof text, "signal %d\n", WTERMSIG(st));
		write_status(status, text);
		return 128 + WTERMSIG(st);
	}
	snprintf(text, sizeof text, "exit %d\n", WEXITSTATUS(st));
	write_status(status, text);
	return WEXITSTATUS(st);
}
