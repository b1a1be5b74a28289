/*
 * panel-groups.c — a group's row in the rank table and in the timeline (hierarchy runs,
 * view-groups.c): the sub-master's rank and node, its workers' sums as a node row has
 * them, and in STATE what it is and how many workers it deals to ("sub-master, 7 ranks";
 * the cells: columns-group.c).
 */
#include "common/text.h"
#include "tui/columns.h"
#include "tui/screen.h"

void
panel_group_row(const struct view *v, const struct col_layout *l, const struct mrank *sub,
    int y, int w, int selected, double rmax, int hlen)
{
	const struct model *m = v->m;
	struct mnode_sum s;
	char buf[512];
	attr_t a = selected ? crt_attr(C_SEL) : crt_attr(C_SITE);
	int i;

	model_group_sum(m, sub, &s);
	if (selected)
		screen_fill(y, 0, w, a);
	for (i = 0; i < l->n; i++) {
		if (panel_sum_column(m, l, i, &s, y, w, a, selected, rmax, hlen))
			continue;
		columns_group_cell(buf, sizeof buf, m, sub, &s, view_group_folded(v, sub->rank),
		    l->cols[i], columns_group_width(l, i), crt_utf8);
		screen_put(y, l->x[i], w - l->x[i], a, buf);
	}
}

void
panel_group_timeline(const struct view *v, const struct mrank *sub, int y, int w, int rankw,
    int nodew, int busyw, int selected, double span)
{
	struct mnode_sum s;
	char n[48];
	attr_t a = selected ? crt_attr(C_SEL) : crt_attr(C_SITE);
	int tx = rankw + 1 + nodew + 1;

	model_group_sum(v->m, sub, &s);
	if (selected)
		screen_fill(y, 0, w, a);
	screen_putf(y, 0, rankw, a, "%*d", rankw, sub->rank);
	screen_name(y, rankw + 1, nodew, a, sub->node);
	screen_textf(y, tx, w - tx - busyw, a, "[%c] %s of %s, busy together:",
	    view_group_folded(v, sub->rank) ? '+' : '-',
	    model_state_name(model_rank_state(v->m, sub)),
	    text_plural(n, sizeof n, s.nranks, "rank", NULL));
	screen_busy(y, w - busyw, busyw, a, s.t_calc + s.t_comm, span);
}
