/*
 * scheme-wf.c — weighted factoring (Hummel, Schmidt, Uma, Wein 1996), and the batches that
 * awf-b and awf-d share with it. The pool is cut as fss cuts it: in batches of P chunks
 * (P counted when the batch starts), a batch handing out half of the R_batch units left
 * when it starts. Worker i's chunk in a batch is weighted by its relative speed w_i,
 * normalised so that sum w_i = P over the active workers:
 *   chunk_i = ceil(w_i * R_batch / (2P)),   w_i = P * e_i / S,
 * that is ceil(R_batch * e_i / (2S)), with e_i and S (scheme-speed.c) frozen when the batch
 * starts: the priors (pr, else cpu, else 1) for wf, the speeds measured so far for awf-b
 * and awf-d. Equal weights give fss exactly. N = 1000, P = 4, pr 1:1:2:4: 63,63,125,250,
 * then R_batch = 499: 32,32,63,125, ...
 *
 * A batch is P requests, whoever makes them: with weights that match the speeds every
 * worker asks once per batch, and the batch hands out R_batch/2 (plus the ceilings).
 */
#include <math.h>

#include "runtime/scheme/scheme-int.h"

/* also awf-b..e's: the weights are pr[], or cpu[] when there is no pr[] */
int
sched_wf_check(const struct grt_sched_conf *conf, int nworkers)
{
	return conf->pr != NULL ? sched_positive(conf->pr, nworkers) :
	    sched_positive(conf->cpu, nworkers);
}

/* also awf-b..e's */
void
sched_wf_begin(struct grt_sched *s)
{
	s->dynamic = 1;
	s->pool_next = 0;
	s->wf_left = 0;
	sched_speed_begin(s, 1);
}

/* A new batch: R_batch and the weights, frozen. O(P), once per P chunks. */
static void
sched_wf_batch(struct grt_sched *s)
{
	int i;

	s->wf_r = s->n - s->pool_next;
	s->wf_left = s->nactive > 0 ? s->nactive : 1;
	/* every worker, the removed ones too: one taken back mid-batch needs its weight */
	for (i = 0; i < s->nw; i++)
		s->weight[i] = sched_speed_est(s, i);
	s->wf_sum = sched_speed_sum(s);
}

/* also awf-b's and awf-d's */
int64_t
sched_wf_size(struct grt_sched *s, int w)
{
	int64_t r = s->n - s->pool_next;
	long double x;

	if (s->wf_left <= 0)
		sched_wf_batch(s);
	s->wf_left--;
	if (s->wf_sum > 0 && isfinite(s->wf_sum) && s->weight[w] > 0)
		x = (long double)s->wf_r * s->weight[w] / (2.0L * s->wf_sum);
	else	/* weights that cannot split anything: fss's equal share */
		x = (long double)s->wf_r / (2.0L * (s->nactive > 0 ? s->nactive : 1));
	return sched_chunk_ceil(x, r);
}

/* wf's weights are fixed: no feedback */
const struct sched_ops sched_ops_wf = {
	.name = "wf",
	.check = sched_wf_check,
	.begin_round = sched_wf_begin,
	.pool_size = sched_wf_size,
	.active_changed = sched_speed_active,
};
