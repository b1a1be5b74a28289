/*
 * keybar.c — the bottom line: htop's function-key bar (the key map's bar keys,
 * keymap.c), the search/filter prompt, or F9's question. Keys that do not fit whole are
 * left out, the least needed first; a message keeps its room, cut at a word if it must be.
 */
#include <stdio.h>
#include <string.h>

#include "common/text.h"
#include "tui/keymap.h"
#include "tui/screen.h"

#define KEYBAR_PRIO_MAX	7
#define KEYBAR_KEYS	64	/* more than the key map has */

/* The label of a key as it reads now: Tab names the screen it goes to, d the interval. */
static const char *
keybar_label(const struct view *v, const struct keymap_entry *k, char *buf, size_t sz)
{
	if (k->action == KA_SCREEN_NEXT)
		snprintf(buf, sz, "%s", view_screen_name((v->screen + 1) % SCREEN_N));
	else if (k->action == KA_DELAY_UP)
		snprintf(buf, sz, "%gs", v->interval);
	else
		snprintf(buf, sz, "%s", k->label != NULL ? k->label : "");
	return buf;
}

static void
keybar_prompt(struct view *v, int y, int w)
{
	int x;

	if (v->prompt == PROMPT_CANCEL) {
		screen_fill(y, 0, w, A_NORMAL);
		x = screen_putf(y, 0, w, crt_attr(C_WARN), "Cancel job %s?", v->job_id);
		x += screen_put(y, x, w - x, crt_attr(C_KEYLABEL), " y/n ");
		screen_text(y, x, w - x, crt_attr(C_LABEL),
		    "  y stops every process of it; any other key keeps it running");
		return;
	}
	x = screen_put(y, 0, w, crt_attr(C_KEYLABEL),
	    v->prompt == PROMPT_SEARCH ? "Search:" : "Filter:");
	x += screen_put(y, x, w - x, A_NORMAL, " ");
	x += screen_put(y, x, w - x, crt_attr(C_VALUE), v->input);
	x += screen_put(y, x, w - x, A_REVERSE, " ");
	screen_text(y, x, w - x, crt_attr(C_LABEL), v->prompt == PROMPT_SEARCH ?
	    "  Enter done  Esc cancel  F3 next" : "  Enter keep  Esc clear");
	if (*v->message != '\0')
		screen_putf(y, w - (int)strlen(v->message) - 1, (int)strlen(v->message) + 1,
		    crt_attr(C_WARN), "%s", v->message);
}

void
keybar_draw(struct view *v, int y, int w)
{
	char label[32], note[96];
	int on[KEYBAR_KEYS] = { 0 }, kw[KEYBAR_KEYS], used = 0, room, x = 0, i, p, mw, nw;
	const struct keymap_entry *k;

	if (v->prompt != PROMPT_NONE) {
		keybar_prompt(v, y, w);
		return;
	}
	note[0] = '\0';
	if (*v->filter != '\0')
		snprintf(note, sizeof note, " filter: %s", v->filter);
	for (i = 0; i < keymap_n && i < KEYBAR_KEYS; i++) {
		k = &keymap[i];
		kw[i] = k->bar == NULL ? 0 : text_width(k->bar) + text_width(keybar_label(v, k,
		    label, sizeof label)) + 1;
		if (k->bar != NULL && k->prio == 0)
			used += kw[i];
	}
	/* the message and the filter next: they say what the user just did */
	mw = text_width(v->message);
	if (mw > 0)
		mw = mw + 1 > w - used ? w - used : mw + 1;
	nw = text_width(note);
	nw = nw > w / 4 ? w / 4 : nw;
	nw = nw > w - used - mw ? w - used - mw : nw;
	room = w - mw - nw;
	used = 0;
	for (p = 0; p <= KEYBAR_PRIO_MAX; p++)
		for (i = 0; i < keymap_n && i < KEYBAR_KEYS; i++) {
			k = &keymap[i];
			/* F9 only where it can do something: a live job; no row keys on the log */
			if (k->bar == NULL || k->prio != p || (k->action == KA_CANCEL &&
			    (v->job_id == NULL || v->replay)) || (v->screen == SCREEN_EVENTS &&
			    keymap_on_rows(k->action)))
				continue;
			if (used + kw[i] <= room) {
				on[i] = 1;
				used += kw[i];
			}
		}
	for (i = 0; i < keymap_n && i < KEYBAR_KEYS; i++) {
		if (!on[i])
			continue;
		x += screen_put(y, x, w - x, crt_attr(C_KEY), keymap[i].bar);
		x += screen_put(y, x, w - x, crt_attr(C_KEYLABEL), keybar_label(v, &keymap[i],
		    label, sizeof label));
		x += screen_put(y, x, w - x, A_NORMAL, " ");
	}
	if (nw > 0)
		screen_text(y, x, nw, crt_attr(C_WARN), note);
	if (mw > 0)
		screen_text(y, w - mw + 1, mw - 1, crt_attr(C_VALUE), v->message);
}
