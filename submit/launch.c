/* launch.c — mpiexec argument vector, start, supervision and cancel of one job. */
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gs-config.h"
#include "launch.h"
#include "log.h"
#include "xmalloc.h"

#define STRAGGLER_GRACE	10.0	/* seconds ranks may outlive rank 0 */
#define KILL_GRACE	5.0	/* seconds between SIGTERM and SIGKILL */
#define POLL_NS		50000000L

static volatile sig_atomic_t launch_cancel;

static void
launch_on_signal(int sig)
{
	launch_cancel = sig;
}

void
launch_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = launch_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

struct argv_builder {
	char **v;
	size_t n;
	size_t cap;
};

static void
argv_add(struct argv_builder *b, const char *s)
{
	if (b->n + 2 > b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->v = xreallocarray(b->v, b->cap, sizeof *b->v);
	}
	b->v[b->n++] = xstrdup(s);
	b->v[b->n] = NULL;
}

static void
argv_genv(struct argv_builder *b, const char *key, const char *value)
{
	argv_add(b, "-genv");
	argv_add(b, key);
	argv_add(b, value);
}

/* A host this machine answers for without ssh: the fork launcher can start it. */
static int
launch_host_is_local(const char *host)
{
	char me[HOST_NAME_MAX + 1];

	if (strcmp(host, "localhost") == 0 || strncmp(host, "127.", 4) == 0 ||
	    strcmp(host, "::1") == 0)
		return 1;
	return gethostname(me, sizeof me) == 0 && strcmp(me, host) == 0;
}

/* gridsubmit-rank lives next to the gridsubmit binary (build dir, or the install's bin). */
static char *
launch_rank_wrapper(void)
{
	char self[PATH_MAX], *slash, *path;
	ssize_t n;

	if ((n = readlink("/proc/self/exe", self, sizeof self - 1)) < 0)
		fatal("cannot find the gridsubmit binary");
	self[n] = '\0';
	if ((slash = strrchr(self, '/')) != NULL)
		*slash = '\0';
	xasprintf(&path, "%s/gridsubmit-rank", self);
	if (access(path, X_OK) != 0)
		fatal("%s", path);
	return path;
}

char **
launch_argv(const struct gs_sites *sites, const struct gs_job *job, const struct gs_placement *p,
    const struct job_state *st, char *why, size_t whylen)
{
	struct argv_builder b = { NULL, 0, 0 };
	char *path, *wrapper, nbuf[32], *key;
	size_t i;
	int r;

	for (r = 0; r < p->nranks; r++) {
		const char *host = p->ranks[r].node == BROKER_NODE_NONE ? sites->master :
		    sites->nodes[p->ranks[r].node].host;

		if (host != NULL && !launch_host_is_local(host)) {
			snprintf(why, whylen, "rank %d would run on %s: launching on other hosts "
			    "over ssh is not available yet; use sites on this host", r, host);
			return NULL;
		}
	}
	argv_add(&b, GS_MPIEXEC);
	/* a rank that exits must not take the job down: libgrt requeues its units */
	argv_add(&b, "-disable-auto-cleanup");
	argv_add(&b, "-launcher");
	argv_add(&b, "fork");
	xasprintf(&path, "%s/hostfile", st->dir);
	argv_add(&b, "-f");
	argv_add(&b, path);
	free(path);
	snprintf(nbuf, sizeof nbuf, "%d", p->nranks);
	argv_add(&b, "-n");
	argv_add(&b, nbuf);
	argv_add(&b, "-wdir");
	argv_add(&b, st->dir);

	/* the runtime's parameters (grt.h): GRT_<KEY> for every runtime: key of the job */
	for (i = 0; i < job->nruntime; i++) {
		char *k;

		xasprintf(&key, "GRT_%s", job->runtime[i].key);
		for (k = key; *k != '\0'; k++)
			if (*k >= 'a' && *k <= 'z')
				*k = (char)(*k - 'a' + 'A');
		argv_genv(&b, key, job->runtime[i].value);
		free(key);
	}
	xasprintf(&path, "%s/events.jsonl", st->dir);
	argv_genv(&b, "GRT_EVENTS", path);
	free(path);
	xasprintf(&path, "%s/rankmap", st->dir);
	argv_genv(&b, "GRT_RANKMAP", path);
	free(path);
	argv_genv(&b, "GRT_JOB", st->id);
	for (i = 0; i < job->nenv; i++)
		argv_genv(&b, job->env[i].key, job->env[i].value);

	wrapper = launch_rank_wrapper();
	argv_add(&b, wrapper);
	free(wrapper);
	argv_add(&b, "--status");
	xasprintf(&path, "%s/master.status", st->dir);
	argv_add(&b, path);
	free(path);
	argv_add(&b, "--");
	argv_add(&b, job->program);
	for (i = 0; i < job->nargs; i++)
		argv_add(&b, job->args[i]);
	return b.v;
}

void
launch_argv_free(char **argv)
{
	char **a;

	for (a = argv; a != NULL && *a != NULL; a++)
		free(*a);
	free(argv);
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

pid_t
launch_start(char **argv, const struct job_state *st)
{
	pid_t pid;

	fflush(NULL);
	if ((pid = fork()) == -1)
		fatal("fork");
	if (pid == 0) {
		/* its own process group: cancel signals all that mpiexec starts */
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		launch_redirect(STDIN_FILENO, "/", "dev/null", O_RDONLY);
		launch_redirect(STDOUT_FILENO, st->dir, "stdout", O_WRONLY | O_CREAT | O_TRUNC);
		launch_redirect(STDERR_FILENO, st->dir, "stderr", O_WRONLY | O_CREAT | O_TRUNC);
		execv(argv[0], argv);
		fprintf(stderr, "gridsubmit: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	return pid;
}

static double
launch_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
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

/* SIGTERM to the group, SIGKILL after the grace period; returns once mpiexec is reaped. */
static void
launch_stop_group(pid_t pid, int *status)
{
	double until = launch_now() + KILL_GRACE;
	struct timespec ts = { 0, POLL_NS };

	kill(-pid, SIGTERM);
	while (!launch_reap(pid, status)) {
		if (launch_now() > until) {
			kill(-pid, SIGKILL);
			until = launch_now() + 3600;
		}
		nanosleep(&ts, NULL);
	}
	/* whatever of the group is left (ranks hydra did not reap) */
	kill(-pid, SIGKILL);
}

/* rank 0's end as gridsubmit-rank wrote it: "exit N" or "signal N"; 0 when not yet. */
static int
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
launch_wait(pid_t pid, const struct job_state *st, struct launch_result *res)
{
	struct timespec ts = { 0, POLL_NS };
	double master_ended = 0;

	memset(res, 0, sizeof *res);
	res->master_exit = -1;
	for (;;) {
		if (launch_reap(pid, &res->mpiexec_status))
			break;
		if (launch_cancel) {
			res->cancelled = 1;
			launch_stop_group(pid, &res->mpiexec_status);
			break;
		}
		if (master_ended == 0 && launch_master_status(st, res))
			master_ended = launch_now();
		if (master_ended > 0 && launch_now() - master_ended > STRAGGLER_GRACE) {
			res->killed_stragglers = 1;
			launch_stop_group(pid, &res->mpiexec_status);
			break;
		}
		nanosleep(&ts, NULL);
	}
	/* hydra's own children are in the group: none may outlive the job */
	kill(-pid, SIGKILL);
	launch_master_status(st, res);
}
