/*
 * exp-testbed.c — an experiment on a testbed (testbed: F in its file): the emulated grid
 * of F is brought up for the experiment, its derived site file used by every run, and
 * brought down at the end, unless it was up already (then it is left as it was). The
 * testbed commands run as our own program (/proc/self/exe), their output in the
 * experiment's testbed.log.
 *
 * Simulated runs (mode: simulate) use the derived site file too: it carries the quotas the
 * testbed applied (its cpu_scale), so that both modes model the same speeds. When every
 * point is simulated the testbed is not brought up for them (the simulator needs no node):
 * its derived file is used when it is up already, else F itself (doc/experiments.md).
 */
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "submit/cmd.h"
#include "submit/exp-run.h"

/* gridsubmit testbed VERB FILE, its output appended to log; its exit status, or -1. */
static int
et_testbed(const char *verb, const char *file, const char *log)
{
	char *argv[] = { "gridsubmit", "testbed", (char *)verb, (char *)file, NULL };
	posix_spawn_file_actions_t fa;
	extern char **environ;
	int status, rc;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log, O_WRONLY | O_CREAT |
	    O_APPEND, 0644);
	posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
	rc = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		return -1;
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

char *
exp_testbed_up(const struct exp *e, const char *dir, int *brought_up)
{
	const char *base = strrchr(e->sites, '/') + 1;
	char *log, *sites;
	int len = (int)strcspn(base, ".");

	*brought_up = 0;
	xasprintf(&log, "%s/testbed.log", dir);
	xasprintf(&sites, "%s/testbed/%.*s/sites.yaml", cmd_home(), len, base);
	if (et_testbed("status", e->sites, log) != 0) {
		if (!exp_has_real_points(e)) {
			fprintf(stderr, "gridsubmit experiment: every run is simulated, on %s "
			    "(its testbed is not up and is not brought up for them)\n", e->sites);
			free(log);
			free(sites);
			return xstrdup(e->sites);
		}
		fprintf(stderr, "gridsubmit experiment: bringing up the testbed of %s\n",
		    e->sites);
		if (et_testbed("up", e->sites, log) != 0) {
			log_warnx("experiment %s: 'gridsubmit testbed up %s' failed; see %s",
			    e->name, e->sites, log);
			et_testbed("down", e->sites, log);
			free(log);
			free(sites);
			return NULL;
		}
		*brought_up = 1;
	}
	free(log);
	return sites;
}

void
exp_testbed_down(const struct exp *e, const char *dir)
{
	char *log;

	xasprintf(&log, "%s/testbed.log", dir);
	if (et_testbed("down", e->sites, log) != 0)
		log_warnx("experiment %s: 'gridsubmit testbed down %s' failed; see %s", e->name,
		    e->sites, log);
	free(log);
}
