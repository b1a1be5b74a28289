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

void
sched_self_begin(struct grt_sched *s)
{
	uint64_t n2, fl, nn;
	int64_t f, p;

	s->fss_left = 0;
	if (s->conf.scheme != GRT_SCHEME_TSS)
		return;
	p = s->nactive > 0 ? s->nactive : 1;
	f = s->n > 0 ? sched_ceil_div(s->n, 2 * p) : 1;
	/* 2N fits in uint64_t for any int64_t N */
	n2 = 2 * (uint64_t)s->n;
	fl = (uint64_t)f + 1;
	nn = n2 / fl + (n2 % fl != 0);
	s->tss_cur = f;
	s->tss_d = nn > 1 ? (int64_t)(((uint64_t)f - 1) / (nn - 1)) : 0;
}

int64_t
sched_self_size(struct grt_sched *s)
{
	int64_t r = s->n - s->pool_next, p = s->nactive > 0 ? s->nactive : 1, size;

	switch (s->conf.scheme) {
	case GRT_SCHEME_PSS:
		return 1;
	case GRT_SCHEME_CSS:
		return s->conf.k;
	case GRT_SCHEME_FSS:
		if (s->fss_left <= 0) {
			s->fss_size = sched_ceil_div(r, 2 * p);
			s->fss_left = (int)p;
		}
		s->fss_left--;
		return s->fss_size;
	case GRT_SCHEME_TSS:
		size = s->tss_cur;
		s->tss_cur = s->tss_cur - s->tss_d >= 1 ? s->tss_cur - s->tss_d : 1;
		return size;
	default:	/* gss, and the dynamic phase of ngss, angss, pwd */
		return sched_ceil_div(r, p);
	}
}
