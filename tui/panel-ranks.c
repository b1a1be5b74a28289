/*
 * panel-ranks.c — the rank table: one row per rank, grouped by site, foldable; the ranks
 * that share a node under a row of their sums, a group's under its sub-master's row.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/xmalloc.h"
#include "tui/columns.h"
#include "tui/meter.h"
#include "tui/screen.h"

/* What a site row says of its ranks, for every site in one pass over the ranks. */
struct site_sum {
	int n;			/* known ranks */
	int bad;		/* failed or dropped */
	long long units;	/* of the workers */
};

/* The sums of every site's row, by site index; the caller frees them. */
static struct site_sum *
ranks_site_sums(const struct model *m)
{
	struct site_sum *ss = xcalloc(m->nsites ? m->nsites : 1, sizeof *ss);
	const struct mrank *r;
	int i;

	for (i = 0; i < m->nranks; i++) {
		r = &m->ranks[i];
		if (!r->known || r->site_idx < 0 || r->site_idx >= m->nsites)
			continue;
		ss[r->site_idx].n++;
		ss[r->site_idx].units += r->master ? 0 : r->units;
		/* a failure or a drop is for good: model_rank_state says what fixed says */
		ss[r->site_idx].bad += r->fixed == RS_FAILED || r->fixed == RS_DROPPED;
	}
	return ss;
}

static void
ranks_title(const struct view *v, const struct col_layout *l, int y, int w)
{
	char buf[128];
	enum col c;
	int i;

	screen_fill(y, 0, w, crt_attr(C_TITLE));
	for (i = 0; i < l->n; i++) {
		c = l->cols[i];
		/* the bar's long name, cut, would read as a word cut in half */
		text_fit(buf, sizeof buf, c == COL_BAR && text_width(col_defs[c].name) > l->w[i] ?
		    "BAR" : col_defs[c].name, l->w[i], col_defs[c].right, 1);
		/* The sort column stands out; its name is the header's "sort" item too. */
		screen_put(y, l->x[i], w - l->x[i], c == v->sort ? crt_attr(C_SEL) :
		    crt_attr(C_TITLE), buf);
	}
}

static void
ranks_site_row(const struct view *v, int site, const struct site_sum *ss, int y, int w,
    int selected)
{
	const struct model *m = v->m;
	char a[48], b[48];

	if (selected)
		screen_fill(y, 0, w, crt_attr(C_SEL));
	text_count(b, sizeof b, ss->units);
	screen_textf(y, 0, w, selected ? crt_attr(C_SEL) : crt_attr(C_SITE),
	    "%s %s  %s  %s unit%s%s", view_site_folded(v, site) ? "[+]" : "[-]",
	    m->sites[site].name, text_plural(a, sizeof a, ss->n, "rank", NULL), b,
	    ss->units == 1 ? "" : "s", ss->bad ? "  (failed/dropped)" : "");
}

int
panel_sum_column(const struct model *m, const struct col_layout *l, int i,
    const struct mnode_sum *s, int y, int w, attr_t a, int selected, double rmax, int hlen)
{
	char buf[512];

	if (l->cols[i] == COL_BAR)
		return 1;
	if (l->cols[i] != COL_RATE)
		return 0;
	meter_spark(buf, sizeof buf, s->hist, hlen, 1.0 / m->hist_w, rmax, l->w[i], crt_utf8);
	screen_put(y, l->x[i], w - l->x[i], selected ? a : crt_attr(C_SPARK), buf);
	return 1;
}

/* A node that holds several ranks: their sums in the columns, and their rate together. */
static void
ranks_node_row(const struct view *v, const struct col_layout *l, const struct mrank *r,
    int y, int w, int selected, double rmax, int hlen)
{
	const struct model *m = v->m;
	struct mnode_sum s;
	char buf[512];
	attr_t a = selected ? crt_attr(C_SEL) : crt_attr(C_SITE);
	enum col c;
	int i;

	model_group_node_sum(m, r, &s);
	if (selected)
		screen_fill(y, 0, w, a);
	for (i = 0; i < l->n; i++) {
		if (panel_sum_column(m, l, i, &s, y, w, a, selected, rmax, hlen))
			continue;
		c = l->cols[i];
		columns_node_cell(buf, sizeof buf, r, &s, c, l->w[i], crt_utf8);
		screen_put(y, l->x[i], w - l->x[i], a, buf);
	}
}

static void
ranks_row(const struct view *v, const struct col_layout *l, const struct mrank *r, int y,
    int w, int selected, double full, double rmax, int hlen)
{
	const struct model *m = v->m;
	char buf[512];
	attr_t a, sel = crt_attr(C_SEL);
	enum col c;
	int i, seg[3], x;

	if (selected)
		screen_fill(y, 0, w, sel);
	for (i = 0; i < l->n; i++) {
		c = l->cols[i];
		x = l->x[i];
		if (c == COL_BAR) {
			if (r->master)
				continue;
			meter_bar(buf, l->w[i], r->t_calc, r->t_comm, model_rank_idle(m, r), full,
			    seg);
			if (selected) {
				screen_put(y, x, w - x, sel, buf);
				continue;
			}
			/* Colour doubles the characters, never replaces them. */
			screen_put(y, x, seg[0], crt_attr(C_CALC), buf);
			screen_put(y, x + seg[0], seg[1], crt_attr(C_COMM), buf + seg[0]);
			screen_put(y, x + seg[0] + seg[1], seg[2], crt_attr(C_IDLE),
			    buf + seg[0] + seg[1]);
			continue;
		}
		if (c == COL_RATE) {
			if (r->master)
				continue;
			meter_spark(buf, sizeof buf, r->hist, hlen, 1.0 / m->hist_w, rmax, l->w[i],
			    crt_utf8);
			screen_put(y, x, w - x, selected ? sel : crt_attr(C_SPARK), buf);
			continue;
		}
		columns_cell(buf, sizeof buf, m, r, c, l->w[i], crt_utf8);
		if (selected)
			a = sel;
		else if (c == COL_STATE)
			a = crt_attr(screen_state_color(model_rank_state(m, r)));
		else
			a = A_NORMAL;
		screen_put(y, x, w - x, a, buf);
	}
}

void
panel_ranks_draw(struct view *v, const struct model_stats *st, int y, int h, int w)
{
	const struct model *m = v->m;
	struct col_layout l;
	struct site_sum *ss;
	double rmax;
	int i, hlen, rows, hidden;

	columns_layout(&l, w, m->task_run);
	ranks_title(v, &l, y, w);
	if (h - 1 <= 0)
		return;
	rows = view_window(v, h - 1, &hidden);
	hlen = model_hist_len(m);
	rmax = model_rate_peak(m);
	if (v->nrows == 0) {
		screen_put(y + 1, 1, w - 1, crt_attr(C_LABEL), *v->filter ?
		    "no rank matches the filter" : "no ranks yet");
		return;
	}
	ss = ranks_site_sums(m);
	for (i = 0; i < rows && v->top + i < v->nrows; i++) {
		const struct row *row = &v->rows[v->top + i];

		if (row->kind == ROW_SITE)
			ranks_site_row(v, row->id, &ss[row->id], y + 1 + i, w,
			    v->top + i == v->sel);
		else if (row->kind == ROW_NODE)
			ranks_node_row(v, &l, &m->ranks[row->id], y + 1 + i, w,
			    v->top + i == v->sel, rmax, hlen);
		else if (row->kind == ROW_GROUP)
			panel_group_row(v, &l, &m->ranks[row->id], y + 1 + i, w,
			    v->top + i == v->sel, rmax, hlen);
		else
			ranks_row(v, &l, &m->ranks[row->id], y + 1 + i, w, v->top + i == v->sel,
			    st->elapsed, rmax, hlen);
	}
	free(ss);
	screen_more(v, y + h - 1, w, hidden);
}
