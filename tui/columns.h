/*
 * columns.h — the rank table's columns: widths, which ones fit a given width, and the text
 * of each cell. Shared by the screen and the --once snapshot.
 */
#ifndef TUI_COLUMNS_H
#define TUI_COLUMNS_H

#include <stddef.h>

#include "tui/model.h"
#include "tui/view.h"

struct col_def {
	const char *name;
	int width;		/* minimum */
	int right;		/* right-aligned (numbers) */
	int prio;		/* 0: always shown; higher ones go first when space is short */
};

extern const struct col_def col_defs[COL_N];

struct col_layout {
	int n;
	enum col cols[COL_N];
	int x[COL_N];		/* by position in cols */
	int w[COL_N];
};

/*
 * Choose the columns that fit in width and place them (one space apart); TASKS and
 * MIG I/O only for a run of migratable tasks (tasks non-zero).
 */
void columns_layout(struct col_layout *l, int width, int tasks);
/*
 * The text of a cell (not BAR or RATE) in width columns: names cut at a part with an
 * ellipsis ("…" when utf8, else "..."), unit counts in the one form of text_count.
 */
char *columns_cell(char *dst, size_t dstsz, const struct model *m, const struct mrank *r,
    enum col c, int width, int utf8);
/*
 * The cell of a node row (s: the sums of the ranks on r's node, model_node_sum): its
 * name, site, share (PR), units, times and throughput (PERF_F) summed, and its ranks
 * counted under STATE; blank elsewhere.
 */
char *columns_node_cell(char *dst, size_t dstsz, const struct mrank *r,
    const struct mnode_sum *s, enum col c, int width, int utf8);
/*
 * The cell of a group's row (columns-group.c; s: the sums of its workers, model_group_sum):
 * a node row's cell, but the sub-master's rank marked "+" when folded, "-" when open, and
 * STATE "sub-master, 7 ranks" cut after a word (its row has no bar: STATE may take the
 * bar's room too, columns_group_width).
 */
char *columns_group_cell(char *dst, size_t dstsz, const struct model *m,
    const struct mrank *sub, const struct mnode_sum *s, int folded, enum col c, int width,
    int utf8);
/* The width of column i of l in a group's row: STATE takes the room of a bar after it. */
int columns_group_width(const struct col_layout *l, int i);

#endif
