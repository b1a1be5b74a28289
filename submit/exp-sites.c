/*
 * exp-sites.c — the site file of each run of an experiment with site parameters
 * (experiment/exp-site.c: load, load_interval, cpu_scale, bandwidth_mbps, latency_ms).
 *
 * The points that share the values of those parameters form a group (e->site_group), and
 * the order of runs keeps each group's runs together (exp-order.c). When a run of another
 * group comes, the experiment's site file with the group's values laid over it is written
 * to the results directory, sites/NAME-pP.yaml (NAME the experiment's, P the group's first
 * point), and that is the runs' site file. On a testbed experiment it is brought up as a
 * testbed of its own, once per group, when some point of the group is not simulated
 * (decided by the file, as for the experiment's own testbed), and its derived site file
 * used by the group's runs, simulated ones included; the group before is taken down
 * first, so that one such testbed is up at a time (also one that a killed run of the
 * experiment left up: no one else brings up NAME-pP). Its output goes to testbed.log.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "submit/exp-run.h"

/* 1 when some point of group g is not simulated: its testbed must be up. */
static int
xr_real(const struct exp *e, size_t g)
{
	size_t p;

	for (p = 0; p < e->npoints; p++)
		if (e->site_group[p] == g && exp_point_mode(e, p) != EXP_MODE_SIMULATE)
			return 1;
	return 0;
}

void
exp_sites_leave(struct exp_runner *x)
{
	exp_testbed_down(x->e, x->group_file, x->dir, x->group_use);
	free(x->group_file);
	free(x->group_sites);
	x->group_file = x->group_sites = NULL;
	x->group_use = -1;
	x->group = (size_t)-1;
}

int
exp_sites_enter(struct exp_runner *x, size_t point)
{
	const struct exp *e = x->e;
	char *sub, *name, why[1024];
	size_t g, i;

	if (e->site_group == NULL)
		return 0;
	g = e->site_group[point];
	if (g == x->group && x->group_sites != NULL)
		return 0;
	exp_sites_leave(x);
	xasprintf(&sub, "%s/sites", x->dir);
	if (mkdir(sub, 0700) == -1 && errno != EEXIST)
		fatal("cannot create %s", sub);
	/* the testbed's name is the file's up to its first '.' (exp-testbed.c) */
	xasprintf(&name, "%s-p%zu.yaml", e->name, g + 1);
	for (i = 0; name[i] != '\0' && strcmp(name + i, ".yaml") != 0; i++)
		if (name[i] == '.')
			name[i] = '-';
	if (exp_site_write(e, g, e->sites, sub, name, why, sizeof why) != 0) {
		log_warnx("experiment %s: %s", e->name, why);
		free(sub);
		free(name);
		return -1;
	}
	xasprintf(&x->group_file, "%s/%s", sub, name);
	free(sub);
	free(name);
	x->group = g;
	if (e->testbed) {
		/*
		 * the group's testbed is the experiment's own: one left up by a killed run of
		 * it goes down after its runs too
		 */
		x->group_sites = exp_testbed_up(e, x->group_file, xr_real(e, g), 1, x->dir,
		    &x->group_use);
	} else
		x->group_sites = xstrdup(x->group_file);
	x->sites = x->group_sites;
	return x->group_sites != NULL ? 0 : -1;
}
