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
 * With site parameters the same holds for each file exp-sites.c lays them over.
 *
 * Experiments may share a testbed (exp-testbed-share.c): one at a time asks its status and
 * brings it up (under its guard lock), each holds the users' lock, shared, while it uses
 * it, and only the last to leave a testbed that an experiment brought up takes it down.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/proc.h"
#include "common/xmalloc.h"
#include "submit/cmd.h"
#include "submit/exp-run.h"

/*
 * gridsubmit testbed VERB FILE, its output appended to log (common/proc.h); its exit
 * status, or -1 (said) when it could not be run. It stays in our process group: a ^C
 * that stops the experiment stops it too.
 */
static int
et_testbed(const char *verb, const char *file, const char *log)
{
	char *argv[] = { "/proc/self/exe", "testbed", (char *)verb, (char *)file, NULL };
	struct proc_task t;
	int rc;

	memset(&t, 0, sizeof t);
	t.argv = argv;
	t.log = log;
	t.flags = PROC_CALLER_GROUP;
	proc_run_all(&t, 1, 0, NULL);
	if (t.error != 0)
		log_warnx("gridsubmit testbed %s: %s", verb, strtok(t.err, "\n"));
	rc = t.error != 0 ? -1 : t.status;
	t.argv = NULL;		/* ours, on the stack */
	proc_free(&t, 1);
	return rc;
}

/* Let go of a testbed's locks (exp-testbed-share.c): *use, its users', and guard. */
static void
et_leave(int *use, int guard)
{
	if (*use >= 0)
		close(*use);
	*use = -1;
	if (guard >= 0)
		close(guard);
}

char *
exp_testbed_up(const struct exp *e, const char *file, int real, int own, const char *dir,
    int *use)
{
	const char *base = strrchr(file, '/') + 1;
	char *log, *sites;
	int len = (int)strcspn(base, "."), guard = exp_share_guard(file);

	*use = exp_share_join(file);
	xasprintf(&log, "%s/testbed.log", dir);
	xasprintf(&sites, "%s/testbed/%.*s/sites.yaml", cmd_home(), len, base);
	if (et_testbed("status", file, log) != 0) {
		if (!real) {
			fprintf(stderr, "gridsubmit experiment: every run is simulated, on %s "
			    "(its testbed is not up and is not brought up for them)\n", file);
			free(log);
			free(sites);
			et_leave(use, guard);
			return xstrdup(file);
		}
		fprintf(stderr, "gridsubmit experiment: bringing up the testbed of %s\n", file);
		if (et_testbed("up", file, log) != 0) {
			log_warnx("experiment %s: 'gridsubmit testbed up %s' failed; see %s",
			    e->name, file, log);
			et_testbed("down", file, log);
			free(log);
			free(sites);
			et_leave(use, guard);
			return NULL;
		}
		own = 1;
	}
	if (own)
		exp_share_mark(file, 1);
	if (guard >= 0)
		close(guard);
	free(log);
	return sites;
}

void
exp_testbed_down(const struct exp *e, const char *file, const char *dir, int use)
{
	char *log;
	int guard;

	if (use < 0)
		return;
	guard = exp_share_guard(file);
	if (!exp_share_marked(file)) {
		et_leave(&use, guard);
		return;
	}
	if (!exp_share_last(use)) {
		fprintf(stderr, "gridsubmit experiment: the testbed of %s stays up: another "
		    "experiment uses it, and the last to end takes it down\n", file);
		et_leave(&use, guard);
		return;
	}
	xasprintf(&log, "%s/testbed.log", dir);
	if (et_testbed("down", file, log) != 0)
		log_warnx("experiment %s: 'gridsubmit testbed down %s' failed; see %s", e->name,
		    file, log);
	else
		exp_share_mark(file, 0);
	free(log);
	et_leave(&use, guard);
}
