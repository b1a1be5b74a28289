/* screen-header.c — the meters above the rank table. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/clock.h"
#include "common/text.h"
#include "tui/meter.h"
#include "tui/screen.h"

/* One "Label value" item; items are two spaces apart and stop at the right edge. */
static void
header_item(int y, int *x, int w, const char *label, const char *value, attr_t va)
{
	/* An item that does not fit whole is left out, not cut: "Workers 6 on 3 s" misleads. */
	if (*x + text_width(label) + 1 + text_width(value) > w) {
		*x = w;
		return;
	}
	if (*label != '\0') {
		*x += screen_put(y, *x, w - *x, crt_attr(C_LABEL), label);
		*x += screen_put(y, *x, w - *x, A_NORMAL, " ");
	}
	*x += screen_put(y, *x, w - *x, va, value);
	*x += screen_put(y, *x, w - *x, A_NORMAL, "  ");
}

/* Each placed node's values from its monitor (model-nodes.c), as items from *x on line y. */
static void
header_nodes(const struct model *m, int y, int *x, int w)
{
	double now = clock_wall();
	char a[64];
	size_t i;

	for (i = 0; i < m->nnodes; i++)
		header_item(y, x, w, m->nodes[i].node, model_node_short(&m->nodes[i], now, a,
		    sizeof a), crt_attr(C_VALUE));
}

static const char *
header_state(const struct view *v, char *buf, size_t sz)
{
	const struct model *m = v->m;
	char sp[32];

	snprintf(sp, sizeof sp, "%g", v->speed);
	snprintf(buf, sz, "%s%s%s%s%s%s%s", v->replay ? "replay x" : "live",
	    v->replay ? sp : "",
	    m->ended ? "  ended: " : "", m->ended ? m->status : "",
	    v->cancel == CANCEL_RUNNING ? "  cancelling" : "",
	    v->paused ? "  PAUSED" : "",
	    m->plain ? "  no libgrt events" :
	    m->started || m->events || m->ended ? "" : "  waiting for events");
	return buf;
}

void
header_draw(struct view *v, const struct model_stats *st, int y, int w)
{
	const struct model *m = v->m;
	const struct evreader_stats *rs = v->rs;
	char a[64], b[64], c[64], d[64], line[512], state[256], meter[64];
	attr_t val = crt_attr(C_VALUE);
	int x, mw, n, w0;

	/* Line 0: what the console is doing on the right (it matters most), the job on the left. */
	header_state(v, state, sizeof state);
	snprintf(line, sizeof line, "sort %s%s  %s", col_names[v->sort], v->invert ? " inv" : "",
	    state);
	if (text_width(line) > w / 2)
		snprintf(line, sizeof line, "%s", state);
	n = text_width(line);
	if (n > w)
		n = w;
	screen_put(y, w - n, n, m->ended ? crt_attr(C_DONE) : v->paused ? crt_attr(C_WARN) :
	    A_NORMAL, line);
	w0 = w - n - 1;
	x = 0;
	if (m->plain) {
		/* no libgrt: no scheme, no units; what is known is its ranks and their ends */
		header_item(y, &x, w0, "Program", "without libgrt", val);
		snprintf(a, sizeof a, "%d on %s", m->nranks, text_plural(b, sizeof b, st->nsites,
		    "site", NULL));
		header_item(y, &x, w0, "Ranks", a, val);
	} else {
		header_item(y, &x, w0, "Job", *m->job ? m->job : "?", val);
		header_item(y, &x, w0, "Scheme", *m->scheme ? m->scheme : "?", val);
		snprintf(a, sizeof a, "%lld x %d", m->n, m->rounds);
		header_item(y, &x, w0, "N", a, val);
		snprintf(a, sizeof a, "%d on %s", st->nworkers, text_plural(b, sizeof b,
		    st->nsites, "site", NULL));
		header_item(y, &x, w0, "Workers", a, val);
	}

	/* Line 1: progress (without libgrt: the ranks that have ended). */
	x = 0;
	text_num(a, sizeof a, st->rate, 1, 9);
	text_clock(b, sizeof b, st->eta);
	if (m->plain)
		snprintf(line, sizeof line, "%d/%d ranks, %d failed", m->nends, m->nranks,
		    m->nfailed);
	else
		snprintf(line, sizeof line, "%s/%s %5.1f%%  rate %s/s  ETA %s",
		    text_count(c, sizeof c, st->done), text_count(d, sizeof d, st->total),
		    isfinite(st->pct) ? st->pct : 0.0, a, b);
	mw = w - 7 - text_width(line);
	mw = mw > 40 ? 40 : mw;
	x += screen_put(y + 1, x, w, crt_attr(C_LABEL), m->plain ? "Ended " : "Units ");
	if (mw >= 5) {
		meter_progress(meter, sizeof meter, m->plain ? (m->nranks > 0 ?
		    100.0 * m->nends / m->nranks : 0) : st->pct, mw);
		x += screen_put(y + 1, x, w - x, crt_attr(C_CALC), meter);
		x += screen_put(y + 1, x, w - x, A_NORMAL, " ");
	}
	screen_put(y + 1, x, w - x, val, line);

	/* Line 2: time, round, balance (without libgrt: time, then its nodes' loads). */
	x = 0;
	header_item(y + 2, &x, w, "Elapsed", text_clock(a, sizeof a, st->elapsed), val);
	if (m->plain)
		header_nodes(m, y + 2, &x, w);
	else {
		snprintf(a, sizeof a, "%d/%d", st->round, st->rounds);
		header_item(y + 2, &x, w, "Round", a, val);
		if (isfinite(st->sd_exe))
			snprintf(a, sizeof a, "%.2f s", st->sd_exe);
		else
			snprintf(a, sizeof a, "-");
		header_item(y + 2, &x, w, "sd(t_exe)", a, val);
		snprintf(a, sizeof a, "%.1f%%", st->imbalance);
		header_item(y + 2, &x, w, "Imbalance", a, val);
		if (isinf(st->ratio))
			snprintf(a, sizeof a, "all calc");
		else if (isfinite(st->ratio))
			snprintf(a, sizeof a, "%s:1", text_num(c, sizeof c, st->ratio, 1, 7));
		else
			snprintf(a, sizeof a, "-");
		header_item(y + 2, &x, w, "Calc:Comm", a, val);
	}

	/* Line 3: movements and trouble, then the nodes' loads when there is room. */
	x = 0;
	snprintf(a, sizeof a, "%lld (%.1f/min)", st->migrations, st->mig_per_min);
	header_item(y + 3, &x, w, "Migrations", a, val);
	snprintf(a, sizeof a, "%d", st->nfailed);
	header_item(y + 3, &x, w, "Failed", a, st->nfailed ? crt_attr(C_FAILED) : val);
	snprintf(a, sizeof a, "%d", st->ndropped);
	header_item(y + 3, &x, w, "Dropped", a, st->ndropped ? crt_attr(C_DROPPED) : val);
	snprintf(a, sizeof a, "%d", st->restarts);
	header_item(y + 3, &x, w, "Restarts", a, st->restarts ? crt_attr(C_WARN) : val);
	if (rs != NULL) {
		/* records read from events.jsonl, as the log pane's title counts them */
		snprintf(a, sizeof a, "%lld", rs->events);
		if (rs->bad || rs->unknown)
			snprintf(a + strlen(a), sizeof a - strlen(a), " (%lld bad, %lld unknown)",
			    rs->bad, rs->unknown);
		header_item(y + 3, &x, w, "Records", a, rs->bad ? crt_attr(C_WARN) : val);
	}
	snprintf(a, sizeof a, "%d/%d", st->nworking, st->nworkers);
	header_item(y + 3, &x, w, "Working", a, val);
	if (!m->plain)
		header_nodes(m, y + 3, &x, w);
}
