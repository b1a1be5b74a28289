/*
 * grt-sample.c — pwd with SWR auto (seed 002, sec. 3.3): before round 1 the master times
 * five units, one at a time, on its best worker; SWR is then min/max of their times, and
 * only then is the scheme made and round 1 begun.
 */
#include <stdint.h>

#include "runtime/master/grt-master.h"

/* Five distinct units at random (fixed seed: runs are reproducible), or all when N < 5. */
static void
master_pick_samples(struct master *m)
{
	uint64_t x = 0x9e3779b97f4a7c15u;
	int64_t n = m->app->units;
	int i, j;

	m->nsamples = n < SAMPLE_UNITS ? (int)n : SAMPLE_UNITS;
	for (i = 0; i < m->nsamples; i++) {
		int64_t u;
		int dup;

		do {
			x ^= x >> 12;
			x ^= x << 25;
			x ^= x >> 27;
			u = n <= SAMPLE_UNITS ? i : (int64_t)((x * 0x2545f4914f6cdd1du) % (uint64_t)n);
			for (dup = 0, j = 0; j < i; j++)
				dup |= m->sample_units[j] == u;
		} while (dup);
		m->sample_units[i] = u;
	}
}

/* The sampling worker: the one with the largest PR (the first when equal). */
static int
master_best_worker(const struct master *m)
{
	int i, best = 0;

	for (i = 1; m->conf.pr != NULL && i < m->nw; i++)
		if (m->conf.pr[i] > m->conf.pr[best])
			best = i;
	return best;
}

/* Before round 1 of pwd with SWR auto: five units timed on the best worker first. */
void
master_start_sampling(struct master *m, double now)
{
	master_pick_samples(m);
	if (m->nsamples == 0) {
		master_start_scheme(m, now);
		return;
	}
	m->sampling = 1;
	m->sampler = master_best_worker(m);
	m->rc = master_assign(m, m->sampler, now);
}

/* A sampled unit's time is in; with all five, SWR = min/max (seed 002, eq. 3). */
void
master_sampled(struct master *m, double t_calc, double now)
{
	m->sample_t[m->nsampled++] = t_calc;
	if (m->nsampled < m->nsamples)
		return;
	m->conf.swr = grt_swr_from_samples(m->sample_t, m->nsamples);
	m->sampling = 0;
	master_start_scheme(m, now);
}
