/*
 * model-groups.c — the groups of a hierarchy run (doc/runtime.md, "The hierarchy"): the
 * start record names each rank's group by its sub-master's rank, and a sub-master deals
 * its workers' chunks without computing any. What a group does is its workers' sum, as
 * what a node does is its ranks' (model-nodesum.c). The start is O(ranks); a group's sums
 * cost its workers only, listed through gnext: a frame of 20 group rows of 10,000 ranks
 * read every rank 20 times before.
 */
#include <stdio.h>
#include <string.h>

#include "tui/model.h"

/* Is id a known sub-master of m? */
static int
groups_is_sub(const struct model *m, int id)
{
	return id >= 0 && id < m->nranks && m->ranks[id].known && m->ranks[id].submaster;
}

void
model_groups_start(struct model *m)
{
	struct mrank *r;
	int i;

	m->ngroups = 0;
	for (i = 0; i < m->nranks; i++) {
		m->ranks[i].gsize = 0;
		m->ranks[i].gnext = -1;
	}
	/* from the highest id down, so that each list comes out ascending */
	for (i = m->nranks - 1; i >= 0; i--) {
		r = &m->ranks[i];
		if (!r->known)
			continue;
		/* a sub-master heads its own group; a lone rank's group is itself */
		if (r->submaster || r->master || r->group == r->rank ||
		    !groups_is_sub(m, r->group)) {
			r->group = -1;
			m->ngroups += r->submaster;
			continue;
		}
		m->ranks[r->group].gsize++;
		r->gnext = m->ranks[r->group].gnext;
		m->ranks[r->group].gnext = i;
	}
}

void
model_group_sum(const struct model *m, const struct mrank *sub, struct mnode_sum *s)
{
	int i;

	memset(s, 0, sizeof *s);
	if (sub->submaster)
		for (i = sub->gnext; i >= 0; i = m->ranks[i].gnext)
			model_sum_add(s, &m->ranks[i]);
	s->lowest = sub->rank;
}

void
model_group_node_sum(const struct model *m, const struct mrank *r, struct mnode_sum *s)
{
	const struct mrank *o;
	int i;

	memset(s, 0, sizeof *s);
	s->lowest = r->rank;
	for (i = 0; i < m->nranks; i++) {
		o = &m->ranks[i];
		/* a sub-master's row is its group's, never a node's */
		if (o->known && o->site_idx == r->site_idx && strcmp(o->node, r->node) == 0 &&
		    o->group == r->group && !o->submaster)
			model_sum_add(s, o);
	}
}

char *
model_group_text(const struct model *m, const struct mrank *r, char *buf, size_t len)
{
	const struct mrank *sub;

	if (r->submaster)
		snprintf(buf, len, "sub-master of %d rank%s", r->gsize, r->gsize == 1 ? "" : "s");
	else if (r->group >= 0) {
		sub = &m->ranks[r->group];
		snprintf(buf, len, "group of sub-master %d (node %s, %d rank%s)", sub->rank,
		    sub->node, sub->gsize, sub->gsize == 1 ? "" : "s");
	} else
		snprintf(buf, len, "none: %s", r->master ? "the master" :
		    "a worker under the master");
	return buf;
}
