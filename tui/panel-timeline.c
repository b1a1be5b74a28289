/*
 * panel-timeline.c — the timeline (the screen after the ranks, Tab): one row per rank, its
 * chunks over the job's time scaled to the width, compute and communication in their own
 * glyph and colour, drops, failures and migrations marked, so that imbalance shows at a
 * glance: a rank that worked less has more idle dots, one that finished early ends in dots.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/text.h"
#include "tui/screen.h"
#include "tui/track.h"

#define TL_RANK_W	4
#define TL_BUSY_W	5	/* " 100%" */
#define TL_TICK_MIN	10	/* columns between two labels of the time axis */
#define TL_NODE_MIN	4	/* the node column: "NODE" */

static enum crt_color
timeline_color(char g)
{
	switch (g) {
	case TRACK_G_CALC:
		return C_CALC;
	case TRACK_G_COMM:
		return C_COMM;
	case TRACK_G_IDLE:
		return C_IDLE;
	case TRACK_G_RUN:
		return C_WORKING;
	case TRACK_G_MIGRATE:
		return C_LABEL;
	case TRACK_G_DROP:
		return C_DROPPED;
	case TRACK_G_FAIL:
		return C_FAILED;
	default:
		return C_NORMAL;
	}
}

/* The track s at (y, x), each run of one glyph in its colour (colour only doubles it). */
static void
timeline_track(int y, int x, const char *s, int selected)
{
	int i = 0, j;

	if (selected) {
		screen_put(y, x, (int)strlen(s), crt_attr(C_SEL), s);
		return;
	}
	while (s[i] != '\0') {
		for (j = i; s[j] == s[i]; j++)
			;
		screen_put(y, x + i, j - i, crt_attr(timeline_color(s[i])), s + i);
		i = j;
	}
}

/*
 * The time axis in the title bar over the track (tw columns from tx): a label every
 * round step (1, 2 or 5 times a power of ten, in seconds, or minutes from 10 min on)
 * at least TL_TICK_MIN columns apart.
 */
static void
timeline_axis(int y, int tx, int tw, double span)
{
	double unit = span >= 600 ? 60 : 1, step, p, t;
	const char *u = unit > 1 ? "m" : "s";
	static const double nice[] = { 1, 2, 5 };
	char label[32];
	int k, i, x;

	if (!(span > 0) || tw < TL_TICK_MIN)
		return;
	step = span / unit * TL_TICK_MIN / tw;
	p = pow(10, floor(log10(step)));
	for (i = 0; i < 3 && nice[i] * p < step; i++)
		;
	step = i < 3 ? nice[i] * p : 10 * p;
	for (k = 0;; k++) {
		t = k * step;
		x = tx + (int)lround(t * unit / span * tw);
		if (x >= tx + tw)
			break;
		snprintf(label, sizeof label, "|%.6g%s", t, u);
		/* a label cut short would name another time: the tick alone then */
		screen_put(y, x, tx + tw - x, crt_attr(C_TITLE),
		    x + (int)strlen(label) <= tx + tw ? label : "|");
	}
}

static void
timeline_rank(const struct view *v, const struct mrank *r, int y, int w, int nodew,
    int selected, double span)
{
	const struct model *m = v->m;
	char track[1024];
	attr_t a = selected ? crt_attr(C_SEL) : A_NORMAL;
	int tx = TL_RANK_W + 1 + nodew + 1, tw = w - tx - TL_BUSY_W;

	if (tw > (int)sizeof track - 1)
		tw = sizeof track - 1;
	if (selected)
		screen_fill(y, 0, w, a);
	screen_putf(y, 0, TL_RANK_W, a, "%*d", TL_RANK_W, r->rank);
	screen_name(y, TL_RANK_W + 1, nodew, a, r->node);
	if (tw <= 0)
		return;
	if (r->master && r->track == NULL) {
		screen_put(y, tx, tw, selected ? a : crt_attr(C_LABEL), "master");
		return;
	}
	model_track_row(m, r, span, tw, track);
	timeline_track(y, tx, track, selected);
	screen_busy(y, tx + tw, TL_BUSY_W, a, r->t_calc + r->t_comm, span);
}

/* A node that holds several ranks: its name, how many, and their busy shares summed. */
static void
timeline_node(const struct view *v, const struct mrank *r, int y, int w, int nodew,
    int selected, double span)
{
	struct mnode_sum s;
	char n[48];
	attr_t a = selected ? crt_attr(C_SEL) : crt_attr(C_SITE);
	int tx = TL_RANK_W + 1 + nodew + 1;

	model_group_node_sum(v->m, r, &s);
	if (selected)
		screen_fill(y, 0, w, a);
	screen_name(y, TL_RANK_W + 1, nodew, a, r->node);
	screen_textf(y, tx, w - tx - TL_BUSY_W, a, "%s on this node, busy together:",
	    text_plural(n, sizeof n, s.nranks, "rank", NULL));
	screen_busy(y, w - TL_BUSY_W, TL_BUSY_W, a, s.t_calc + s.t_comm, span);
}

/*
 * The node column: as wide as the longest name of a rank shown, so that names stay
 * whole, within a fifth of the width (longer names are cut at a part, marked).
 */
static int
timeline_nodew(const struct view *v, int w)
{
	int i, n, max = w / 5, nodew = TL_NODE_MIN;

	for (i = 0; i < v->nrows; i++)
		if (v->rows[i].kind != ROW_SITE &&
		    (n = text_width(v->m->ranks[v->rows[i].id].node)) > nodew)
			nodew = n;
	return nodew < max ? nodew : max > TL_NODE_MIN ? max : TL_NODE_MIN;
}

void
panel_timeline_draw(struct view *v, const struct model_stats *st, int y, int h, int w)
{
	const struct model *m = v->m;
	const struct row *row;
	char a[48];
	int nodew = timeline_nodew(v, w), tx, tw, i, rows, hidden;

	tx = TL_RANK_W + 1 + nodew + 1;
	tw = w - tx - TL_BUSY_W;
	screen_fill(y, 0, w, crt_attr(C_TITLE));
	screen_put(y, 0, tx, crt_attr(C_TITLE), "RANK NODE");
	timeline_axis(y, tx, tw, st->elapsed);
	screen_put(y, w - TL_BUSY_W + 1, TL_BUSY_W - 1, crt_attr(C_TITLE), "BUSY");
	if (h - 1 <= 0)
		return;
	rows = view_window(v, h - 1, &hidden);
	if (v->nrows == 0) {
		screen_put(y + 1, 1, w - 1, crt_attr(C_LABEL), *v->filter ?
		    "no rank matches the filter" : "no ranks yet");
		return;
	}
	for (i = 0; i < rows && v->top + i < v->nrows; i++) {
		row = &v->rows[v->top + i];
		if (row->kind == ROW_SITE) {
			if (v->top + i == v->sel)
				screen_fill(y + 1 + i, 0, w, crt_attr(C_SEL));
			screen_textf(y + 1 + i, 0, w, v->top + i == v->sel ? crt_attr(C_SEL) :
			    crt_attr(C_SITE), "%s %s  %s", view_site_folded(v, row->id) ?
			    "[+]" : "[-]", m->sites[row->id].name, text_plural(a, sizeof a,
			    m->sites[row->id].nranks, "rank", NULL));
		} else if (row->kind == ROW_NODE)
			timeline_node(v, &m->ranks[row->id], y + 1 + i, w, nodew,
			    v->top + i == v->sel, st->elapsed);
		else if (row->kind == ROW_GROUP)
			panel_group_timeline(v, &m->ranks[row->id], y + 1 + i, w, TL_RANK_W,
			    nodew, TL_BUSY_W, v->top + i == v->sel, st->elapsed);
		else
			timeline_rank(v, &m->ranks[row->id], y + 1 + i, w, nodew,
			    v->top + i == v->sel, st->elapsed);
	}
	screen_more(v, y + h - 1, w, hidden);
	/* the legend where a line is left over */
	if (hidden == 0 && v->nrows + 1 < h - 1)
		screen_textf(y + h - 1, 0, w, crt_attr(C_LABEL), "%c compute  %c communication  "
		    "%c idle  %c running  %c migration  %c dropped  %c failed  (1 column = %.3g s)",
		    TRACK_G_CALC, TRACK_G_COMM, TRACK_G_IDLE, TRACK_G_RUN, TRACK_G_MIGRATE,
		    TRACK_G_DROP, TRACK_G_FAIL, tw > 0 ? st->elapsed / tw : 0.0);
}
