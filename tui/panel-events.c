/*
 * panel-events.c — the event log: migrations (with their reasons), task placements,
 * drops, failures, rounds, restarts, resumes and who cancelled, oldest on top; the newest
 * under the table, or the whole screen's worth scrolled back on the events screen (Tab).
 */
#include <stdio.h>

#include "common/text.h"
#include "tui/screen.h"

static enum crt_color
events_color(enum ev_kind k)
{
	switch (k) {
	case EV_FAIL:
		return C_FAILED;
	case EV_DROP:
		return C_DROPPED;
	case EV_MIGRATE:
	case EV_TASKS:
		return C_LABEL;
	case EV_END:
		return C_DONE;
	case EV_RESTART:
	case EV_CANCEL:
		return C_WARN;
	case EV_RESUME:
		return C_LABEL;
	default:
		return C_NORMAL;
	}
}

void
panel_events_draw(struct view *v, int y, int h, int w, int scroll)
{
	const struct model *m = v->m;
	const struct mlog *l;
	char a[48], b[64], c[48], d[48];
	int i, n = h - 1, x, back;
	long long shown = m->nlog < MODEL_LOG ? m->nlog : MODEL_LOG;

	/* the header counts records read; the log keeps the notable ones among them */
	text_plural(a, sizeof a, m->nlog, "entry", "entries");
	text_plural(c, sizeof c, m->migrations, "migration", NULL);
	if (v->rs != NULL)
		snprintf(b, sizeof b, " of %s read", text_plural(d, sizeof d, v->rs->events,
		    "record", NULL));
	else
		b[0] = '\0';
	if (shown < n)
		n = (int)shown;
	/* the events screen scrolls back; the pane under the table shows the newest */
	back = scroll ? v->log_back : 0;
	if (back > shown - n)
		back = (int)shown - n;
	if (scroll) {
		v->log_back = back;
		v->log_page = n;
	}
	screen_fill(y, 0, w, crt_attr(C_TITLE));
	screen_textf(y, 0, w, crt_attr(C_TITLE), "LOG  %s%s, %s%s", a, b, c, !scroll ||
	    shown <= n ? "" : back > 0 ? "  (older: PgUp, newest: End)" : "  (older: PgUp)");
	for (i = 0; i < n; i++) {
		/* Row i shows the entry n-1-i places back from the newest: newest at the bottom. */
		if ((l = model_log_get(m, back + n - 1 - i)) == NULL)
			continue;
		x = screen_putf(y + 1 + i, 0, w, crt_attr(C_LABEL), "%9.2f ", l->t);
		x += screen_putf(y + 1 + i, x, w - x, crt_attr(events_color(l->kind)), "%-8s ",
		    event_kind_name(l->kind));
		screen_text(y + 1 + i, x, w - x, A_NORMAL, l->text);
	}
}
