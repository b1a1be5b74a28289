/*
 * bench-bound.c — the divisible-load bound of benchmark runs made outside the job store
 * (bench-examples.sh, bench-race.sh), with the same function as simulate and experiments
 * (experiment/exp-bound.h, through exp_dir_metrics): each EVENTS file with the RANKMAP the
 * runs had is read as a job directory would be.
 *
 * usage: bench-bound RANKMAP EVENTS...
 * Prints "T_LB W N": the smallest bound over the N runs (the runs compute the same loop;
 * the least disturbed one measured the least work, and its bound holds for all) and its
 * W in seconds of the fastest rank; then a "#" line per run with its makespan, bound,
 * efficiency and where its speeds came from. Exits 1 when no run has a bound.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiment/exp-metrics.h"

/* dir/name, a symbolic link to path (made absolute): 0 or -1 */
static int
link_in(const char *dir, const char *name, const char *path)
{
	char abs[PATH_MAX], at[PATH_MAX + 64];

	if (realpath(path, abs) == NULL)
		return -1;
	snprintf(at, sizeof at, "%s/%s", dir, name);
	return symlink(abs, at);
}

/* The bound of one run into *b and its makespan into *t; -1 when it cannot be read. */
static int
run_bound(const char *rankmap, const char *events, struct exp_bound *b, double *t)
{
	char dir[] = "/tmp/bench-bound.XXXXXX", p[sizeof dir + 32];
	double v[EXP_NBUILTIN];
	int rc = -1;

	if (mkdtemp(dir) == NULL)
		return -1;
	if (link_in(dir, "rankmap", rankmap) == 0 && link_in(dir, "events.jsonl", events) == 0) {
		exp_dir_metrics(dir, v, b);
		*t = v[EXP_M_MAKESPAN];
		rc = isnan(b->t_lb) ? -1 : 0;
	}
	snprintf(p, sizeof p, "%s/rankmap", dir);
	unlink(p);
	snprintf(p, sizeof p, "%s/events.jsonl", dir);
	unlink(p);
	rmdir(dir);
	return rc;
}

int
main(int argc, char **argv)
{
	struct exp_bound b, best;
	double t;
	int i, n = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: bench-bound RANKMAP EVENTS...\n");
		return 2;
	}
	memset(&best, 0, sizeof best);
	for (i = 2; i < argc; i++) {
		if (run_bound(argv[1], argv[i], &b, &t) != 0) {
			fprintf(stderr, "bench-bound: %s: no bound (no end or chunk records)\n",
			    argv[i]);
			continue;
		}
		printf("# %s: makespan %.6f s, T_LB %.6f s (W %.6f s, compute %.6f s, port "
		    "%.6f s%s), efficiency %.3f, speeds %s\n", argv[i], t, b.t_lb, b.work,
		    b.compute, b.port, b.port_dropped ? ", a fitted port cost left out" : "",
		    b.t_lb / t, b.speeds);
		if (n++ == 0 || b.t_lb < best.t_lb)
			best = b;
	}
	if (n == 0)
		return 1;
	printf("%.6f %.6f %d\n", best.t_lb, best.work, n);
	return 0;
}
