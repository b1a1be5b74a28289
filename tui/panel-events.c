/*
 * panel-events.c — the newest migrations (with their reasons), task placements, drops,
 * failures, rounds, restarts, resumes and who cancelled, oldest on top.
 */
#include <stdio.h>

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
panel_events_draw(struct view *v, int y, int h, int w)
{
	const struct model *m = v->m;
	const struct mlog *l;
	int i, n = h - 1, x;
	long long shown = m->nlog < MODEL_LOG ? m->nlog : MODEL_LOG;

	screen_fill(y, 0, w, crt_attr(C_TITLE));
	screen_putf(y, 0, w, crt_attr(C_TITLE), "EVENTS  %lld logged, %lld migrations",
	    m->nlog, m->migrations);
	if (shown < n)
		n = (int)shown;
	for (i = 0; i < n; i++) {
		/* Row i shows the entry n-1-i places back from the newest: newest at the bottom. */
		if ((l = model_log_get(m, n - 1 - i)) == NULL)
			continue;
		x = screen_putf(y + 1 + i, 0, w, crt_attr(C_LABEL), "%9.2f ", l->t);
		x += screen_putf(y + 1 + i, x, w - x, crt_attr(events_color(l->kind)), "%-8s ",
		    event_kind_name(l->kind));
		screen_text(y + 1 + i, x, w - x, A_NORMAL, l->text);
	}
}
