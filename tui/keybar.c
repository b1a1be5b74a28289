/* keybar.c — the bottom line: htop's function-key bar, or the search/filter prompt. */
#include <stdio.h>
#include <string.h>

#include "screen.h"
#include "text.h"

void
keybar_draw(struct view *v, int y, int w)
{
	static const char *const keys[][2] = {
		{ "F1", "Help" }, { "F3", "Search" }, { "F4", "Filter" }, { "F5", "Fold" },
		{ "F6", "Sort" }, { "Spc", "Pause" }, { "n", "Step" }, { "+-", "" },
		{ "F10", "Quit" },
	};
	char label[32];
	int x = 0, i, n;

	if (v->prompt != PROMPT_NONE) {
		x = screen_put(y, 0, w, crt_attr(C_KEYLABEL),
		    v->prompt == PROMPT_SEARCH ? "Search:" : "Filter:");
		x += screen_put(y, x, w - x, A_NORMAL, " ");
		x += screen_put(y, x, w - x, crt_attr(C_VALUE), v->input);
		x += screen_put(y, x, w - x, A_REVERSE, " ");
		screen_put(y, x, w - x, crt_attr(C_LABEL), v->prompt == PROMPT_SEARCH ?
		    "  Enter done  Esc cancel  F3 next" : "  Enter keep  Esc clear");
		if (*v->message != '\0')
			screen_putf(y, w - (int)strlen(v->message) - 1, (int)strlen(v->message) + 1,
			    crt_attr(C_WARN), "%s", v->message);
		return;
	}
	for (i = 0; i < (int)(sizeof keys / sizeof keys[0]) && x < w; i++) {
		x += screen_put(y, x, w - x, crt_attr(C_KEY), keys[i][0]);
		if (strcmp(keys[i][0], "+-") == 0)
			snprintf(label, sizeof label, "%gs", v->interval);
		else
			snprintf(label, sizeof label, "%s", keys[i][1]);
		x += screen_put(y, x, w - x, crt_attr(C_KEYLABEL), label);
		x += screen_put(y, x, w - x, A_NORMAL, " ");
	}
	if (*v->filter != '\0' && x + 12 < w)
		x += screen_putf(y, x, w - x, crt_attr(C_WARN), " filter: %s", v->filter);
	n = text_width(v->message);
	if (n > 0 && x + n + 1 < w)
		screen_put(y, w - n, n, crt_attr(C_VALUE), v->message);
}
