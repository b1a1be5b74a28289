/*
 * scheme-static.c — the static schemes: one chunk per worker, decided before any request.
 *   static   ceil(N/P) units to each worker in worker order; the last ones may get fewer
 *            or none (block scheduling, seed 002, 2.2; doc/schemes.md,
 *            "The schemes").
 *   wstatic  N split by the CPU clock ratio: floor, then the leftover units one each by
 *            largest fractional remainder, ties to the lowest index, so all N are given.
 * P counts the active workers only; a removed worker's unclaimed chunk becomes an orphan.
 */
#include "runtime/scheme/scheme-int.h"

static void
sched_static_begin(struct grt_sched *s)
{
	int64_t c, left = s->n;
	int i;

	if (s->nactive == 0)
		return;
	c = sched_ceil_div(s->n, s->nactive);
	for (i = 0; i < s->nw; i++) {
		if (!sched_is_active(s, i))
			continue;
		s->units[i] = c < left ? c : left;
		left -= s->units[i];
	}
	sched_layout(s, NULL, s->units);
}

static int
sched_wstatic_check(const struct grt_sched_conf *conf, int nworkers)
{
	return sched_positive(conf->cpu, nworkers);
}

static void
sched_wstatic_begin(struct grt_sched *s)
{
	sched_split_largest(s, s->n, s->conf.cpu, s->units, NULL);
	sched_layout(s, NULL, s->units);
}

const struct sched_ops sched_ops_static = {
	.name = "static",
	.begin_round = sched_static_begin,
};

const struct sched_ops sched_ops_wstatic = {
	.name = "wstatic",
	.check = sched_wstatic_check,
	.begin_round = sched_wstatic_begin,
};
