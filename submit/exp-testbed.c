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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

char *
exp_testbed_up(const struct exp *e, const char *file, int real, const char *dir,
    int *brought_up)
{
	const char *base = strrchr(file, '/') + 1;
	char *log, *sites;
	int len = (int)strcspn(base, ".");

	*brought_up = 0;
	xasprintf(&log, "%s/testbed.log", dir);
	xasprintf(&sites, "%s/testbed/%.*s/sites.yaml", cmd_home(), len, base);
	if (et_testbed("status", file, log) != 0) {
		if (!real) {
			fprintf(stderr, "gridsubmit experiment: every run is simulated, on %s "
			    "(its testbed is not up and is not brought up for them)\n", file);
			free(log);
			free(sites);
			return xstrdup(file);
		}
		fprintf(stderr, "gridsubmit experiment: bringing up the testbed of %s\n", file);
		if (et_testbed("up", file, log) != 0) {
			log_warnx("experiment %s: 'gridsubmit testbed up %s' failed; see %s",
			    e->name, file, log);
			et_testbed("down", file, log);
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
exp_testbed_down(const struct exp *e, const char *file, const char *dir)
{
	char *log;

	xasprintf(&log, "%s/testbed.log", dir);
	if (et_testbed("down", file, log) != 0)
		log_warnx("experiment %s: 'gridsubmit testbed down %s' failed; see %s", e->name,
		    file, log);
	free(log);
}
