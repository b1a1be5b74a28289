/*
 * view-groups.c — the groups of a hierarchy run in the rank table and the timeline: under
 * its site, a group's workers come together under its sub-master's row, as the ranks of
 * a node come under a node row, and the group folds as a site does. A site of 3 groups of
 * 500 reads as 3 rows: groups of more than VIEW_GROUP_OPEN workers start folded.
 */
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "tui/view.h"

/* The group a rank's row goes under: its sub-master's id (its own for one); -1: none. */
static int
groups_key(const struct mrank *r)
{
	return r->submaster ? r->rank : r->group;
}

/* The ranks of one group together, the sub-master first, the others in the view's order. */
static int
groups_cmp(const void *pa, const void *pb, void *arg)
{
	const struct view *v = arg;
	const struct mrank *a = &v->m->ranks[*(const int *)pa];
	const struct mrank *b = &v->m->ranks[*(const int *)pb];

	if (groups_key(a) != groups_key(b))
		return groups_key(a) - groups_key(b);
	if (a->submaster != b->submaster)
		return b->submaster - a->submaster;
	return v->pos[a->rank] - v->pos[b->rank];
}

void
view_group_rows(struct view *v, const int *idx, int n)
{
	const struct model *m = v->m;
	unsigned char *seen;
	int *grp, *first, nout = 0, nin, i, j, k, g;

	grp = xreallocarray(NULL, n ? n : 1, sizeof *grp);
	first = xreallocarray(NULL, m->nranks ? m->nranks : 1, sizeof *first);
	seen = xcalloc(m->nranks ? m->nranks : 1, 1);
	/* the ranks outside a group (the master, a lone worker) keep the view's order */
	for (i = 0; i < n; i++)
		if (groups_key(&m->ranks[idx[i]]) < 0)
			grp[nout++] = idx[i];
	view_node_rows(v, grp, nout);
	/* only an open group's ranks are sorted: a folded one shows its row alone */
	for (i = 0, nin = 0; i < n; i++)
		if ((g = groups_key(&m->ranks[idx[i]])) >= 0 && !view_group_folded(v, g))
			grp[nin++] = idx[i];
	qsort_r(grp, nin, sizeof *grp, groups_cmp, v);
	for (i = 0; i < nin; i = j) {
		g = groups_key(&m->ranks[grp[i]]);
		for (j = i + 1; j < nin && groups_key(&m->ranks[grp[j]]) == g; j++)
			;
		first[g] = i;
	}
	/*
	 * Each group where its first rank comes in the view's order (the group of a
	 * sub-master the filter leaves out still has its row, for its workers).
	 */
	for (i = 0; i < n; i++) {
		g = groups_key(&m->ranks[idx[i]]);
		if (g < 0 || seen[g])
			continue;
		seen[g] = 1;
		view_add(v, ROW_GROUP, g);
		if (view_group_folded(v, g))
			continue;
		k = first[g];
		if (m->ranks[grp[k]].submaster)
			k++;
		for (j = k; j < nin && groups_key(&m->ranks[grp[j]]) == g; j++)
			;
		view_node_rows(v, grp + k, j - k);
	}
	free(seen);
	free(first);
	free(grp);
}

int
view_group_folded(const struct view *v, int sub)
{
	int st = sub >= 0 && sub < v->ngfolded ? v->gfolded[sub] : 0;

	if (st == 0)
		return sub >= 0 && sub < v->m->nranks && v->m->ranks[sub].gsize > VIEW_GROUP_OPEN;
	return st == 1;
}

int
view_fold_group(struct view *v, const struct row *row)
{
	const struct mrank *r;
	int g, folded;

	if (row->kind == ROW_SITE || row->id < 0 || row->id >= v->m->nranks)
		return 0;
	r = &v->m->ranks[row->id];
	if ((g = groups_key(r)) < 0)
		return 0;
	folded = view_group_folded(v, g);
	if (g >= v->ngfolded) {
		v->gfolded = xreallocarray(v->gfolded, g + 1, 1);
		memset(v->gfolded + v->ngfolded, 0, g + 1 - v->ngfolded);
		v->ngfolded = g + 1;
	}
	v->gfolded[g] = folded ? 2 : 1;
	/* the selected worker may disappear into the fold: select its group's row */
	v->sel_row.kind = ROW_GROUP;
	v->sel_row.id = g;
	return 1;
}
