/*
 * model-nodesum.c — the ranks that share a node, taken together: a site file that gives a
 * node several slots places several ranks there, and what the node does is their sum
 * (units, times, share, throughput). Found by site and node name, as the start record
 * places them; O(ranks) each, for the rows on screen and the snapshots.
 */
#include <math.h>
#include <string.h>

#include "tui/model.h"

/* Are a and b placed on one node: the same site and the same node name? */
static int
nodesum_same(const struct mrank *a, const struct mrank *b)
{
	return a->known && b->known && a->site_idx == b->site_idx &&
	    strcmp(a->node, b->node) == 0;
}

void
model_sum_add(struct mnode_sum *s, const struct mrank *o)
{
	int k;

	if (s->nranks++ == 0 || o->rank < s->lowest)
		s->lowest = o->rank;
	s->pr += isfinite(o->pr) ? o->pr : 0;
	if (o->master)
		return;
	s->units += o->units;
	s->t_calc += o->t_calc;
	s->t_comm += o->t_comm;
	s->perf_f += isfinite(o->perf_f) ? o->perf_f : 0;
	for (k = 0; k < MODEL_HIST; k++)
		s->hist[k] += o->hist[k];
}

void
model_node_sum(const struct model *m, const struct mrank *r, struct mnode_sum *s)
{
	int i;

	memset(s, 0, sizeof *s);
	s->lowest = r->rank;
	for (i = 0; i < m->nranks; i++)
		if (nodesum_same(&m->ranks[i], r))
			model_sum_add(s, &m->ranks[i]);
}

int
model_node_shared(const struct model *m, const struct mrank *r)
{
	int i;

	for (i = 0; i < m->nranks; i++)
		if (i != r->rank && nodesum_same(&m->ranks[i], r))
			return 1;
	return 0;
}
