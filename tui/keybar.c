/*
 * keybar.c — the bottom line: htop's function-key bar, the search/filter prompt, or F9's
 * question. Keys that do not fit whole are left out, the least needed first; a message
 * keeps its room, cut at a word if it must be.
 */
#include <stdio.h>
#include <string.h>

#include "common/text.h"
#include "tui/screen.h"

struct keybar_key {
	const char *key, *label;
	int prio;		/* 0: always; higher ones are left out first */
};

/* The label of a key as it reads now (the refresh interval, table or timeline). */
static const char *
keybar_label(const struct view *v, const struct keybar_key *k, char *buf, size_t sz)
{
	if (strcmp(k->key, "+-") == 0)
		snprintf(buf, sz, "%gs", v->interval);
	else if (strcmp(k->key, "t") == 0)
		snprintf(buf, sz, "%s", v->timeline ? "Table" : "Timeline");
	else
		snprintf(buf, sz, "%s", k->label);
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
	static const struct keybar_key keys[] = {
		{ "F1", "Help", 0 }, { "F3", "Search", 2 }, { "F4", "Filter", 4 },
		{ "F5", "Fold", 5 }, { "F6", "Sort", 3 }, { "t", "Timeline", 1 },
		{ "Spc", "Pause", 2 }, { "n", "Step", 6 }, { "+-", "", 7 },
		{ "F9", "Cancel", 1 }, { "F10", "Quit", 0 },
	};
	enum { NKEYS = sizeof keys / sizeof keys[0] };
	char label[32], note[96];
	int on[NKEYS] = { 0 }, kw[NKEYS], used = 0, room, x = 0, i, p, mw, nw;

	if (v->prompt != PROMPT_NONE) {
		keybar_prompt(v, y, w);
		return;
	}
	note[0] = '\0';
	if (*v->filter != '\0')
		snprintf(note, sizeof note, " filter: %s", v->filter);
	for (i = 0; i < NKEYS; i++) {
		kw[i] = text_width(keys[i].key) + text_width(keybar_label(v, &keys[i], label,
		    sizeof label)) + 1;
		if (keys[i].prio == 0)
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
	for (p = 0; p <= 7; p++)
		for (i = 0; i < NKEYS; i++) {
			/* F9 only where it can do something: a live job */
			if (keys[i].prio != p || (strcmp(keys[i].key, "F9") == 0 &&
			    (v->job_id == NULL || v->replay)))
				continue;
			if (used + kw[i] <= room) {
				on[i] = 1;
				used += kw[i];
			}
		}
	for (i = 0; i < NKEYS; i++) {
		if (!on[i])
			continue;
		x += screen_put(y, x, w - x, crt_attr(C_KEY), keys[i].key);
		x += screen_put(y, x, w - x, crt_attr(C_KEYLABEL), keybar_label(v, &keys[i],
		    label, sizeof label));
		x += screen_put(y, x, w - x, A_NORMAL, " ");
	}
	if (nw > 0)
		screen_text(y, x, nw, crt_attr(C_WARN), note);
	if (mw > 0)
		screen_text(y, w - mw + 1, mw - 1, crt_attr(C_VALUE), v->message);
}
