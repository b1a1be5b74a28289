/* launch-proc.c — mpiexec as a process: start, supervision, cancel, abort */
#include <sys/prctl.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/log.h"
#include "common/proc.h"
#include "common/xmalloc.h"
#include "launch/launch-int.h"
#include "launch/launch.h"
#include "launch/lease.h"

#define STRAGGLER_GRACE	10.0	/* seconds ranks may outlive rank 0 */
#define KILL_GRACE	5.0	/* seconds between SIGTERM and SIGKILL */
/*
 * The same after a node was lost (its lease silent, or its proxy dead): mpiexec waits for
 * that node's proxy, which never answers, so the whole grace went by every time (5 of the
 * 17 s from a link cut to the relaunch). Hydra passes SIGTERM on to the other proxies
 * within milliseconds; a second lets their ranks end and write their ends.
 */
#define LOST_GRACE	1.0
#define POLL_NS		50000000L
#define ENDS_DRAIN	2.0	/* seconds for the ranks' ends still on their way on the lease */

static char launch_env_end[] = "GRIDSUBMIT_ENV_END=1";	/* mpiexec's last variable */
static volatile sig_atomic_t launch_cancel_signal;
static volatile pid_t launch_cancel_pid;	/* who sent it: 0 the kernel (the terminal) */
static void (*launch_ticker)(void *, int);
static void *launch_ticker_arg;

/* The first stop signal and its sender are the job's end: a second Ctrl-C changes neither. */
static void
launch_on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (launch_cancel_signal != 0)
		return;
	launch_cancel_pid = si != NULL && si->si_code <= 0 ? si->si_pid : 0;
	launch_cancel_signal = sig;
}

void
launch_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = launch_on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGHUP);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void
launch_redirect(int fd, const char *dir, const char *name, int flags)
{
	char *path;
	int nfd;

	xasprintf(&path, "%s/%s", dir, name);
	if ((nfd = open(path, flags | O_CLOEXEC, 0644)) == -1) {
		fprintf(stderr, "gridsubmit: %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	if (dup2(nfd, fd) == -1)
		_exit(127);
	close(nfd);
	free(path);
}

int
launch_cancel_requested(void)
{
	return launch_cancel_signal != 0;
}

int
launch_cancel_origin(pid_t *sender)
{
	*sender = launch_cancel_pid;
	return launch_cancel_signal;
}

pid_t
launch_proc_start(char **argv, char **env, const struct job_state *st)
{
	pid_t pid, parent = getpid();
	char **e;

	launch_ends_reset(st);
	fflush(NULL);
	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		/* its own process group: cancel signals all that mpiexec starts */
		setpgid(0, 0);
		/* a supervisor killed outright takes its job down (mpiexec stops its ranks) */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(127);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		launch_redirect(STDIN_FILENO, "/", "dev/null", O_RDONLY);
		launch_redirect(STDOUT_FILENO, st->dir, "stdout", O_WRONLY | O_CREAT | O_TRUNC);
		launch_redirect(STDERR_FILENO, st->dir, "stderr", O_WRONLY | O_CREAT | O_TRUNC);
		/*
		 * nothing but 0-2 of ours or of who started us: mpiexec's own descriptors,
		 * its control socket among them, are then the low ones its launchers close
		 * (sh/ssh-launcher.sh)
		 */
		if (close_range(STDERR_FILENO + 1, ~0U, 0) == -1) {
			/* a kernel before 5.9: one by one */
			long fd, max = sysconf(_SC_OPEN_MAX);

			for (fd = STDERR_FILENO + 1; fd < (max > 0 ? max : 1024); fd++)
				close((int)fd);
		}
		for (e = env; e != NULL && *e != NULL; e++)
			putenv(*e);
		/* the lease's secret: in the environment, which hydra passes on, not in argv */
		lease_child_env();
		/*
		 * hydra forwards to the proxies on other hosts every variable of mpiexec's
		 * environment but the last one (doc/restarts.md, "The secret"): the last is one
		 * that means nothing, so that the secret and the relay's address reach the nodes
		 */
		putenv(launch_env_end);
		execv(argv[0], argv);
		fprintf(stderr, "gridsubmit: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	return pid;
}

static int
launch_reap(pid_t pid, int *status)
{
	int st;
	pid_t r;

	while ((r = waitpid(pid, &st, WNOHANG)) == -1 && errno == EINTR)
		;
	if (r != pid)
		return 0;
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 1;
}

/* SIGTERM to the group, SIGKILL grace seconds later; returns once mpiexec is reaped. */
static void
launch_stop_group(pid_t pid, int *status, double grace)
{
	double until = clock_mono() + grace;
	struct timespec ts = { 0, POLL_NS };

	kill(-pid, SIGTERM);
	while (!launch_reap(pid, status)) {
		if (clock_mono() > until) {
			kill(-pid, SIGKILL);
			until = clock_mono() + 3600;
		}
		nanosleep(&ts, NULL);
	}
	/* whatever of the group is left (ranks hydra did not reap) */
	kill(-pid, SIGKILL);
}

int
launch_running(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof si);
	/* WNOWAIT: looked at, not reaped (launch_proc_wait or launch_proc_abort reaps it) */
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == -1)
		return 0;
	return si.si_pid == 0;
}

void
launch_proc_abort(pid_t pid)
{
	int status;

	kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
}

int
launch_master_status(const struct job_state *st, struct launch_result *res)
{
	char *path, line[64];
	FILE *f;
	int v, got = 0;

	xasprintf(&path, "%s/master.status", st->dir);
	if ((f = fopen(path, "r")) != NULL) {
		if (fgets(line, sizeof line, f) != NULL) {
			if (sscanf(line, "exit %d", &v) == 1) {
				res->master_exit = v;
				got = 1;
			} else if (sscanf(line, "signal %d", &v) == 1) {
				res->master_signal = v;
				got = 1;
			}
		}
		fclose(f);
	}
	free(path);
	return got;
}

void
launch_set_ticker(void (*fn)(void *arg, int last), void *arg)
{
	launch_ticker = fn;
	launch_ticker_arg = arg;
}

void
launch_proc_wait(struct launch *l)
{
	const struct job_state *st = l->plan.st;
	struct launch_result *res = &l->res;
	pid_t pid = l->pid;
	struct launch_ends ends = { 0 };
	double master_ended = 0, began = clock_mono();
	sigset_t old;
	int stopped = 1;

	memset(res, 0, sizeof *res);
	res->master_exit = -1;
	/* mpiexec's end wakes us at once; the rest (lease, rank 0's status) every POLL_NS */
	proc_child_block(&old);
	lease_watch(l->plan.job->lease_timeout);
	for (;;) {
		if (launch_reap(pid, &res->mpiexec_status)) {
			stopped = 0;
			break;
		}
		lease_read();
		/* a node silent on the lease, or its proxy dead: the launch cannot end well */
		if (lease_lost_count() > 0) {
			res->lease_lost = 1;
			launch_stop_group(pid, &res->mpiexec_status, LOST_GRACE);
			break;
		}
		if (launch_cancel_signal) {
			res->cancelled = 1;
			launch_stop_group(pid, &res->mpiexec_status, KILL_GRACE);
			break;
		}
		/* the time limit stops the job as a cancel does; the launcher's cleanup follows */
		if (l->time_limit > 0 && clock_mono() - began >= l->time_limit) {
			res->timed_out = 1;
			/* what ran counts up to the limit, not the stopping's grace */
			res->ran = clock_mono() - began;
			launch_stop_group(pid, &res->mpiexec_status, KILL_GRACE);
			break;
		}
		if (launch_ends_plain_failed(st, &ends)) {
			res->plain_stopped = 1;
			launch_stop_group(pid, &res->mpiexec_status, KILL_GRACE);
			break;
		}
		if (master_ended == 0 && launch_master_status(st, res)) {
			master_ended = clock_mono();
			/* rank 0 killed: the others cannot end well, a relaunch waits for them */
			if (res->master_signal > 0) {
				launch_stop_group(pid, &res->mpiexec_status, KILL_GRACE);
				break;
			}
		}
		if (master_ended > 0 && clock_mono() - master_ended > STRAGGLER_GRACE) {
			res->killed_stragglers = 1;
			launch_stop_group(pid, &res->mpiexec_status, KILL_GRACE);
			break;
		}
		if (l->watch != NULL)
			l->watch(l, l->watch_arg);
		if (launch_ticker != NULL)
			launch_ticker(launch_ticker_arg, 0);
		proc_child_nap(POLL_NS);
	}
	if (!res->timed_out)
		res->ran = clock_mono() - began;
	if (launch_ticker != NULL)
		launch_ticker(launch_ticker_arg, 1);
	sigprocmask(SIG_SETMASK, &old, NULL);
	/*
	 * what the lease said before mpiexec ended by itself still counts (a proxy's death
	 * ends mpiexec too); once we stop the job, the proxies we stop are no evidence
	 */
	if (!stopped)
		lease_read();
	lease_watch(0);
	/* hydra's own children are in the group: none may outlive the job */
	kill(-pid, SIGKILL);
	launch_master_status(st, res);
	/*
	 * mpiexec ended by itself, after its ranks: their last ends on the lease are close
	 * behind. Stopped, the ranks on nodes end only with the cleanup: no wait for them.
	 */
	if (!stopped)
		lease_drain(ENDS_DRAIN);
}

int
launch_proc_launch(struct launch *l, char *why, size_t whylen)
{
	if ((l->pid = launch_proc_start(l->argv, l->env, l->plan.st)) == -1) {
		snprintf(why, whylen, "cannot start %s: %s", l->argv[0], strerror(errno));
		return LAUNCH_FAILED;
	}
	return LAUNCH_OK;
}

void
launch_proc_call_off(struct launch *l)
{
	if (l->pid > 0 && launch_running(l->pid))
		launch_proc_abort(l->pid);
}
