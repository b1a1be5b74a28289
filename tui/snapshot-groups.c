/*
 * snapshot-groups.c — --once of a hierarchy run: the rows as the table first has them
 * (view-groups.c), so that a site of 3 groups of 500 prints as 3 rows, as on the screen:
 * each group's row with its workers' sums, and under it, unless it starts folded, its
 * workers (a shared node's row among them).
 */
#include <stdio.h>

#include "tui/columns.h"
#include "tui/meter.h"
#include "tui/snapshot.h"
#include "tui/view.h"

/* A group's row: its cells as the table's, its state over the bar's room. */
static void
snapshot_group(const struct view *v, const struct mrank *sub, const struct col_layout *l,
    double rmax, FILE *f)
{
	const struct model *m = v->m;
	struct mnode_sum s;
	char line[2048], cell[512];
	size_t o = 0;
	int i;

	model_group_sum(m, sub, &s);
	for (i = 0; i < l->n && o < sizeof line - 1; i++) {
		enum col c = l->cols[i];

		if (c == COL_BAR)
			continue;
		if (c == COL_RATE)
			meter_spark(cell, sizeof cell, s.hist, model_hist_len(m), 1.0 / m->hist_w,
			    rmax, l->w[i], 0);
		else
			columns_group_cell(cell, sizeof cell, m, sub, &s,
			    view_group_folded(v, sub->rank), c, columns_group_width(l, i), 0);
		o += snprintf(line + o, sizeof line - o, "%s%s", i ? " " : "", cell);
	}
	snapshot_line(f, line);
}

void
snapshot_groups(const struct model *m, const struct col_layout *l, double full,
    double rmax, FILE *f)
{
	const struct row *row;
	struct view v;
	int i;

	view_init(&v, m);
	view_build(&v);
	for (i = 0; i < v.nrows; i++) {
		row = &v.rows[i];
		if (row->kind == ROW_SITE)
			snapshot_site(m, row->id, f);
		else if (row->kind == ROW_GROUP)
			snapshot_group(&v, &m->ranks[row->id], l, rmax, f);
		else if (row->kind == ROW_NODE)
			snapshot_node(m, &m->ranks[row->id], l, rmax, f);
		else
			snapshot_rank(m, &m->ranks[row->id], l, full, rmax, f);
	}
	view_free(&v);
}
