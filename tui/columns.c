/* columns.c — which columns fit, and what their cells say (a rank's, or a node's sums). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/fit.h"
#include "common/text.h"
#include "tui/columns.h"

const struct col_def col_defs[COL_N] = {
	[COL_RANK] = { "RANK", 4, 1, 0 },
	[COL_NODE] = { "NODE", 10, 0, 0 },
	[COL_SITE] = { "SITE", 8, 0, 6 },
	[COL_PF] = { "PF", 4, 1, 5 },
	[COL_PR] = { "PR", 4, 1, 2 },
	[COL_UNITS] = { "UNITS", 7, 1, 0 },
	[COL_LAST] = { "LAST", 5, 1, 1 },
	[COL_CALC] = { "T_CALC", 6, 1, 1 },
	[COL_COMM] = { "T_COMM", 6, 1, 1 },
	[COL_IDLE] = { "IDLE", 6, 1, 1 },
	[COL_PERF] = { "PERF_F", 6, 1, 2 },
	[COL_STATE] = { "STATE", 7, 0, 0 },
	[COL_BAR] = { "CALC~COMM.IDLE", 8, 0, 0 },
	[COL_RATE] = { "RATE", 10, 0, 3 },
	[COL_TASKS] = { "TASKS", 7, 0, 0 },
	[COL_MIGS] = { "MIG I/O", 7, 1, 0 },
};

/* Left to right: the task columns after STATE, before the bar. */
static const enum col col_order[COL_N] = {
	COL_RANK, COL_NODE, COL_SITE, COL_PF, COL_PR, COL_UNITS, COL_LAST, COL_CALC, COL_COMM,
	COL_IDLE, COL_PERF, COL_STATE, COL_TASKS, COL_MIGS, COL_BAR, COL_RATE
};

void
columns_layout(struct col_layout *l, int width, int tasks)
{
	int on[COL_N] = { 0 }, w[COL_N];
	int used = -1, p, c, i, left, add, x;

	for (c = 0; c < COL_N; c++) {
		w[c] = col_defs[c].width;
		if (!tasks && (c == COL_TASKS || c == COL_MIGS))
			w[c] = -1;
		else if (col_defs[c].prio == 0) {
			on[c] = 1;
			used += w[c] + 1;
		}
	}
	for (p = 1; p <= 6; p++)
		for (i = 0; i < COL_N; i++) {
			c = col_order[i];
			if (w[c] >= 0 && col_defs[c].prio == p && used + w[c] + 1 <= width) {
				on[c] = 1;
				used += w[c] + 1;
			}
		}
	/*
	 * Spare room: longer names first (up to 20), then a task list (up to 19), the
	 * sparkline, the rest to the bar.
	 */
	left = width - used;
	if (left > 0) {
		add = left / 3 < 10 ? left / 3 : 10;
		w[COL_NODE] += add;
		left -= add;
	}
	if (left > 0 && on[COL_TASKS]) {
		add = left / 3 < 12 ? left / 3 : 12;
		w[COL_TASKS] += add;
		left -= add;
	}
	if (left > 0 && on[COL_RATE]) {
		add = left / 2 < 20 ? left / 2 : 20;
		w[COL_RATE] += add;
		left -= add;
	}
	if (left > 0)
		w[COL_BAR] += left;
	l->n = 0;
	x = 0;
	for (i = 0; i < COL_N; i++) {
		c = col_order[i];
		if (!on[c])
			continue;
		l->cols[l->n] = c;
		l->x[l->n] = x;
		l->w[l->n] = w[c];
		x += w[c] + 1;
		l->n++;
	}
}

static char *
columns_secs(char *dst, size_t dstsz, double v, int width)
{
	if (!isfinite(v))
		return snprintf(dst, dstsz, "-"), dst;
	return text_num(dst, dstsz, v, v < 100 ? 2 : 1, width);
}

char *
columns_cell(char *dst, size_t dstsz, const struct model *m, const struct mrank *r,
    enum col c, int width, int utf8)
{
	char raw[256];

	raw[0] = '\0';
	switch (c) {
	case COL_RANK:
		snprintf(raw, sizeof raw, "%d", r->rank);
		break;
	case COL_NODE:
		return fit_name(dst, dstsz, r->node, width, 0, utf8);
	case COL_SITE:
		return fit_name(dst, dstsz, r->site, width, 0, utf8);
	case COL_PF:
		text_num(raw, sizeof raw, r->pf, 2, width);
		break;
	case COL_PR:
		text_num(raw, sizeof raw, r->pr, 2, width);
		break;
	case COL_UNITS:
		text_count(raw, sizeof raw, r->units);
		break;
	case COL_LAST:
		text_count(raw, sizeof raw, r->last_units);
		break;
	case COL_CALC:
		columns_secs(raw, sizeof raw, r->t_calc, width);
		break;
	case COL_COMM:
		columns_secs(raw, sizeof raw, r->t_comm, width);
		break;
	case COL_IDLE:
		columns_secs(raw, sizeof raw, model_rank_idle(m, r), width);
		break;
	case COL_PERF:
		if (r->master || !isfinite(r->perf_f))
			snprintf(raw, sizeof raw, "-");
		else
			text_num(raw, sizeof raw, r->perf_f, 1, width);
		break;
	case COL_STATE:
		snprintf(raw, sizeof raw, "%s", model_state_name(model_rank_state(m, r)));
		break;
	case COL_TASKS:
		model_tasks_text(m, r, raw, sizeof raw, width);
		break;
	case COL_MIGS:
		if (r->master)
			snprintf(raw, sizeof raw, "-");
		else
			snprintf(raw, sizeof raw, "%lld/%lld", r->mig_in, r->mig_out);
		break;
	default:
		break;
	}
	if (r->master && (c == COL_UNITS || c == COL_LAST || c == COL_CALC || c == COL_COMM))
		snprintf(raw, sizeof raw, "-");
	return text_fit(dst, dstsz, raw, width, col_defs[c].right, 1);
}

char *
columns_node_cell(char *dst, size_t dstsz, const struct mrank *r, const struct mnode_sum *s,
    enum col c, int width, int utf8)
{
	char raw[256];

	raw[0] = '\0';
	switch (c) {
	case COL_NODE:
		return fit_name(dst, dstsz, r->node, width, 0, utf8);
	case COL_SITE:
		return fit_name(dst, dstsz, r->site, width, 0, utf8);
	case COL_PR:
		text_num(raw, sizeof raw, s->pr, 2, width);
		break;
	case COL_UNITS:
		text_count(raw, sizeof raw, s->units);
		break;
	case COL_CALC:
		columns_secs(raw, sizeof raw, s->t_calc, width);
		break;
	case COL_COMM:
		columns_secs(raw, sizeof raw, s->t_comm, width);
		break;
	case COL_PERF:
		text_num(raw, sizeof raw, s->perf_f, 1, width);
		break;
	case COL_STATE:
		text_plural(raw, sizeof raw, s->nranks, "rank", NULL);
		break;
	default:
		break;
	}
	return text_fit(dst, dstsz, raw, width, col_defs[c].right, 1);
}
