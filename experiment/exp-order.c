/*
 * exp-order.c — the order of an experiment's runs and each run's {seed}, both from the
 * experiment's seed (doc/experiments.md, "Order and seed"): the store records them at the
 * first run (exp-store.c) and `experiment --dry-run` shows them before it, by this one
 * computation, so that what the dry run shows is what runs.
 */
#include <stddef.h>
#include <stdint.h>

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

void
exp_run_order(const struct exp *e, uint64_t seed, size_t *order, uint64_t *seeds)
{
	size_t n = e->npoints * (size_t)e->repeat, i, j, t;
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
	/* then each run's {seed}: 31 bits of the same stream */
	for (i = 0; i < n; i++)
		seeds[i] = eo_mix(&x) >> 33;
}
