/*
 * scheme-self.c — the chunk sizes of the self-scheduling schemes, cut from the pool
 * [pool_next, n) whenever a worker asks; O(1) per chunk, integer arithmetic only (no
 * double rounding, no overflow up to N = INT64_MAX). R is what is left in the pool and P
 * the workers still counted (grt_sched_remove_worker lowers it).
 *   pss  1                                   (Kruskal, Weiss [9] of seed 002)
 *   css  k                                   (seed 002, 2.2)
 *   gss  ceil(R/P)                           (Polychronopoulos, Kuck [10])
 *   fss  batches of P chunks of ceil(R_batch / 2P), R_batch = R at the batch's start
 *                                            (Hummel, Schonberg, Flynn [11])
 *   tss  TSS(N/2P, 1): F = ceil(N/2P), L = 1, n = ceil(2N/(F+L)), d = floor((F-L)/(n-1)),
 *        chunk i = F - i*d, never below 1   (Tzen, Ni [12])
 * ngss, angss and pwd cut their dynamic phase with the gss rule.
 * The caller clips every size to R.
 */
#include <stdint.h>

#include "runtime/scheme/scheme-int.h"

/* pss, css, gss, fss: the whole of [0, n) is the pool */
static void
sched_self_begin(struct grt_sched *s)
{
	s->dynamic = 1;
	s->pool_next = 0;
}

static void
sched_tss_begin(struct grt_sched *s)
{
	uint64_t n2, fl, nn;
	int64_t f, p;

	sched_self_begin(s);
	p = s->nactive > 0 ? s->nactive : 1;
	f = s->n > 0 ? sched_ceil_div(s->n, 2 * p) : 1;
	/* 2N fits in uint64_t for any int64_t N */
	n2 = 2 * (uint64_t)s->n;
	fl = (uint64_t)f + 1;
	nn = n2 / fl + (n2 % fl != 0);
	s->tss_cur = f;
	s->tss_d = nn > 1 ? (int64_t)(((uint64_t)f - 1) / (nn - 1)) : 0;
}

static int
sched_css_check(const struct grt_sched_conf *conf, int nworkers)
{
	return conf->k >= 1;
}

static int64_t
sched_pss_size(struct grt_sched *s, int w)
{
	return 1;
}

static int64_t
sched_css_size(struct grt_sched *s, int w)
{
	return s->conf.k;
}

/* also the dynamic phase of ngss, angss and pwd */
int64_t
sched_gss_size(struct grt_sched *s, int w)
{
	int64_t r = s->n - s->pool_next, p = s->nactive > 0 ? s->nactive : 1;

	return sched_ceil_div(r, p);
}

static int64_t
sched_fss_size(struct grt_sched *s, int w)
{
	int64_t r = s->n - s->pool_next, p = s->nactive > 0 ? s->nactive : 1;

	if (s->fss_left <= 0) {
		s->fss_size = sched_ceil_div(r, 2 * p);
		s->fss_left = (int)p;
	}
	s->fss_left--;
	return s->fss_size;
}

static int64_t
sched_tss_size(struct grt_sched *s, int w)
{
	int64_t size = s->tss_cur;

	s->tss_cur = s->tss_cur - s->tss_d >= 1 ? s->tss_cur - s->tss_d : 1;
	return size;
}

const struct sched_ops sched_ops_pss = {
	.name = "pss",
	.begin_round = sched_self_begin,
	.pool_size = sched_pss_size,
};

const struct sched_ops sched_ops_css = {
	.name = "css",
	.check = sched_css_check,
	.begin_round = sched_self_begin,
	.pool_size = sched_css_size,
};

const struct sched_ops sched_ops_gss = {
	.name = "gss",
	.begin_round = sched_self_begin,
	.pool_size = sched_gss_size,
};

const struct sched_ops sched_ops_fss = {
	.name = "fss",
	.begin_round = sched_self_begin,
	.pool_size = sched_fss_size,
};

const struct sched_ops sched_ops_tss = {
	.name = "tss",
	.begin_round = sched_tss_begin,
	.pool_size = sched_tss_size,
};
