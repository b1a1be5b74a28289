/*
 * exp-order.c — the order of an experiment's runs and each run's {seed}, both from the
 * experiment's seed (doc/experiments.md, "Order and seed"): the store records them at the
 * first run (exp-store.c) and `experiment --dry-run` shows them before it, by this one
 * computation, so that what the dry run shows is what runs.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/xmalloc.h"
#include "experiment/exp.h"

/* splitmix64 (Steele, Lea, Flood 2014): one stream for the shuffle, then the runs' seeds. */
static uint64_t
eo_mix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A run's place in the grouped order: its group's first place, then its own. */
struct eo_key {
	size_t group_at, at, run;
};

static int
eo_cmp(const void *a, const void *b)
{
	const struct eo_key *x = a, *y = b;

	if (x->group_at != y->group_at)
		return x->group_at < y->group_at ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * The runs of points that share their site parameters brought together, stably: each
 * group where its first run is, its runs in the shuffled order among themselves. A
 * testbed is then brought up once per group of values (submit/exp-sites.c), not at every
 * change of the shuffled order.
 */
static void
eo_group(const struct exp *e, size_t *order, size_t n)
{
	struct eo_key *k = xcalloc(n + 1, sizeof *k);
	size_t *first = xcalloc(e->npoints + 1, sizeof *first), i, point;
	int rep;

	for (i = 0; i < e->npoints; i++)
		first[i] = (size_t)-1;
	for (i = 0; i < n; i++) {
		exp_run_point(e, order[i], &point, &rep);
		point = e->site_group[point];
		if (first[point] == (size_t)-1)
			first[point] = i;
		k[i] = (struct eo_key){ first[point], i, order[i] };
	}
	qsort(k, n, sizeof *k, eo_cmp);
	for (i = 0; i < n; i++)
		order[i] = k[i].run;
	free(k);
	free(first);
}

void
exp_run_order(const struct exp *e, uint64_t seed, size_t *order, uint64_t *seeds)
{
	size_t n = e->nruns, i, j, t;
	uint64_t x = seed;

	for (i = 0; i < n; i++)
		order[i] = i;
	/* Fisher-Yates: every order of runs equally likely, the same for the same seed */
	for (i = n; e->random_order && i > 1; i--) {
		j = (size_t)(eo_mix(&x) % i);
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	if (e->site_group != NULL)
		eo_group(e, order, n);
	/* then each run's {seed}: 31 bits of the same stream */
	for (i = 0; i < n; i++)
		seeds[i] = eo_mix(&x) >> 33;
}
