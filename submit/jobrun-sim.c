/*
 * jobrun-sim.c — what a simulated job needs before it takes an id (doc/simulate.md): a site
 * file the simulator can represent, the SMPI build of its program, and room for its ranks
 * in this host's memory maps. Each failure is said plainly and creates nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broker/errlist.h"
#include "common/sysctl.h"
#include "submit/jobrun.h"

int
jobrun_sim_check(const struct jobrun *jr)
{
	struct gs_errlist errs;
	char why[2048], *program;
	long have, need;

	errlist_init(&errs, jr->sites.path);
	if (sim_check_sites(&jr->sites, &errs) > 0) {
		errlist_print(&errs, stderr);
		return EXIT_INPUT;
	}
	if ((program = sim_program(jr->job.program, why, sizeof why)) == NULL) {
		fprintf(stderr, "%s: program: %s\n", jr->job.path, why);
		return EXIT_INPUT;
	}
	free(program);
	/* SMPI loads the program once per rank: each copy takes memory maps of its own */
	need = (long)jr->place.nranks * SIM_MAPS_PER_RANK + SIM_MAPS_BASE;
	if (sysctl_read("vm.max_map_count", &have) == 0 && have > 0 && need > have) {
		fprintf(stderr, "gridsubmit: simulating %d ranks needs about %ld memory maps, and "
		    "vm.max_map_count is %ld: raise it, as root: sysctl -w vm.max_map_count=%ld\n",
		    jr->place.nranks, need, have, need);
		return EXIT_LAUNCH;
	}
	return EXIT_OK;
}

void
jobrun_sim_args(struct jobrun_args *a, struct sim_opts *o)
{
	memset(o, 0, sizeof *o);
	o->links = SIM_LINKS_NODE;
	o->seed = 1;
	o->first_contact_ms = -1;
	a->sim = o;
	a->restarts = 0;	/* a simulated run loses no node: nothing to relaunch */
	a->now = 1;		/* and takes no real slots */
	a->metrics = 0;		/* the site file's values, as they were written */
	a->speculate = 0;
}
