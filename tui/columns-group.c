/*
 * columns-group.c — the cells of a group's row (a hierarchy run's sub-master, view-groups.c)
 * for the table and --once: a node row's sums of its workers, with the sub-master's rank
 * marked folded ("+") or open ("-") as htop's tree, and in STATE what it is and how many
 * workers it deals to ("sub-master, 7 ranks").
 */
#include <stdio.h>

#include "common/fit.h"
#include "common/text.h"
#include "tui/columns.h"

char *
columns_group_cell(char *dst, size_t dstsz, const struct model *m, const struct mrank *sub,
    const struct mnode_sum *s, int folded, enum col c, int width, int utf8)
{
	char raw[64], n[48], cut[256];

	if (c == COL_RANK) {
		snprintf(raw, sizeof raw, "%c%*d", folded ? '+' : '-', width > 1 ? width - 1 : 1,
		    sub->rank);
		return text_fit(dst, dstsz, raw, width, 1, utf8);
	}
	if (c == COL_STATE) {
		snprintf(raw, sizeof raw, "%s, %s", model_state_name(model_rank_state(m, sub)),
		    text_plural(n, sizeof n, s->nranks, "rank", NULL));
		/* prose: cut after a word, never inside one */
		fit_words(cut, sizeof cut, raw, width < 60 ? width : 60, utf8);
		return text_fit(dst, dstsz, cut, width, 0, utf8);
	}
	return columns_node_cell(dst, dstsz, sub, s, c, width, utf8);
}

int
columns_group_width(const struct col_layout *l, int i)
{
	if (l->cols[i] == COL_STATE && i + 1 < l->n && l->cols[i + 1] == COL_BAR)
		return l->x[i + 1] + l->w[i + 1] - l->x[i];
	return l->w[i];
}
