/* screen.c — the layout of the console, and the small drawing helpers of its parts. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/fit.h"
#include "common/text.h"
#include "tui/screen.h"

int
screen_put(int y, int x, int w, attr_t a, const char *s)
{
	char buf[2048];
	int n;

	if (w <= 0)
		return 0;
	n = text_width(s);
	if (n > w)
		n = w;
	if (4 * (size_t)n + 1 > sizeof buf)
		n = (sizeof buf - 1) / 4;
	text_fit(buf, sizeof buf, s, n, 0, crt_utf8);
	attrset(a);
	mvaddstr(y, x, buf);
	attrset(A_NORMAL);
	return n;
}

int
screen_putf(int y, int x, int w, attr_t a, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return screen_put(y, x, w, a, buf);
}

int
screen_text(int y, int x, int w, attr_t a, const char *s)
{
	char buf[1024];

	if (w <= 0)
		return 0;
	if (w > 250)
		w = 250;
	return screen_put(y, x, w, a, fit_words(buf, sizeof buf, s, w, crt_utf8));
}

int
screen_textf(int y, int x, int w, attr_t a, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return screen_text(y, x, w, a, buf);
}

int
screen_name(int y, int x, int w, attr_t a, const char *name)
{
	char buf[1024];

	if (w <= 0)
		return 0;
	if (w > 250)
		w = 250;
	return screen_put(y, x, w, a, fit_name(buf, sizeof buf, name, w, 0, crt_utf8));
}

void
screen_more(const struct view *v, int y, int w, int hidden)
{
	int above = v->top > 0, below = v->top + v->table_h < v->nrows;

	if (hidden <= 0)
		return;
	screen_textf(y, 1, w - 1, crt_attr(C_LABEL), "+%d more rank%s (%s)", hidden,
	    hidden == 1 ? "" : "s", above && below ? "PgUp PgDn" : above ? "PgUp" : "PgDn");
}

void
screen_fill(int y, int x, int w, attr_t a)
{
	attrset(a);
	mvhline(y, x, ' ', w);
	attrset(A_NORMAL);
}

enum crt_color
screen_state_color(enum rank_state s)
{
	switch (s) {
	case RS_WORKING:
		return C_WORKING;
	case RS_WAITING:
		return C_WAITING;
	case RS_DROPPED:
		return C_DROPPED;
	case RS_FAILED:
		return C_FAILED;
	case RS_DONE:
		return C_DONE;
	default:
		return C_NORMAL;
	}
}

static void
screen_too_small(int h, int w)
{
	char line[128];
	int y = h / 2, n;

	snprintf(line, sizeof line, "terminal too small: %dx%d, need %dx%d", w, h,
	    SCREEN_MIN_W, SCREEN_MIN_H);
	n = (int)strlen(line);
	if (n > w) {
		/* Too narrow for the sentence: the size alone, as much as fits. */
		snprintf(line, sizeof line, "need %dx%d", SCREEN_MIN_W, SCREEN_MIN_H);
		n = (int)strlen(line);
	}
	screen_put(y > 0 ? y - 1 : 0, n < w ? (w - n) / 2 : 0, w, crt_attr(C_WARN), line);
	if (h > 2)
		screen_put(y + 1, 0, w, A_NORMAL, "(resize, or q to quit)");
}

void
screen_render(struct view *v)
{
	struct model_stats st;
	int h, w, ev_h, table_h;

	getmaxyx(stdscr, h, w);
	erase();
	if (h < SCREEN_MIN_H || w < SCREEN_MIN_W) {
		screen_too_small(h, w);
		return;
	}
	model_stats(v->m, &st);
	if (v->mode == MODE_HELP) {
		screen_help_draw(v, h, w);
		return;
	}
	view_build(v);
	if (v->mode == MODE_DETAIL) {
		screen_detail_draw(v, &st, h, w);
		/* F9's question is asked on the bottom line of every screen */
		if (v->prompt == PROMPT_CANCEL)
			keybar_draw(v, h - 1, w);
		return;
	}
	header_draw(v, &st, 0, w);
	if (v->screen == SCREEN_EVENTS) {
		/* the event log takes the whole screen and scrolls back (action.c) */
		panel_events_draw(v, HEADER_LINES, h - HEADER_LINES - 1, w, 1);
		keybar_draw(v, h - 1, w);
		return;
	}
	ev_h = h >= 30 ? 8 : h >= 20 ? 5 : 3;
	table_h = h - HEADER_LINES - 1 - ev_h;
	if (v->screen == SCREEN_TIMELINE)
		panel_timeline_draw(v, &st, HEADER_LINES, table_h, w);
	else
		panel_ranks_draw(v, &st, HEADER_LINES, table_h, w);
	panel_events_draw(v, HEADER_LINES + table_h, ev_h, w, 0);
	keybar_draw(v, h - 1, w);
}

void
screen_draw(struct view *v)
{
	screen_render(v);
	wnoutrefresh(stdscr);
	doupdate();
}

void
screen_busy(int y, int x, int w, attr_t a, double busy, double span)
{
	char buf[16];

	if (span > 0)
		snprintf(buf, sizeof buf, "%4.0f%%", 100 * busy / span);
	else
		snprintf(buf, sizeof buf, "%5s", "-");
	screen_put(y, x, w, a, buf);
}
