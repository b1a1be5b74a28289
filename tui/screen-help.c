/*
 * screen-help.c — F1: what the keys do (the key map, keymap.c, the very table the keys
 * and the key bar use) and what the marks mean, laid out for the width: the keys in two
 * columns where they fit (one otherwise), then the notes. A help taller than the terminal
 * says so on its last line ("-- more (↓/PgDn) --") and scrolls; nothing is cut in a word.
 */
#include "tui/keymap.h"
#include "tui/screen.h"

#define HELP_KEY_W	10	/* the key column */
#define HELP_COL_W	30	/* one column: key and what it does */
#define HELP_MAX	64	/* more rows than the key map has */

static const char *const help_notes[] = {
	"Bar, timeline: # compute  ~ communication  . idle",
	"Marks: M migration  D dropped  X failed  = running",
	"A node row sums the ranks placed on that node",
	"Imbalance: (max - mean) / max busy time, live workers",
	"working: a result within 3 chunk times, or first chunk",
	"Calc:Comm: sum t_calc / sum t_comm    PERF_F: units / t_exe",
	"RATE: units per second over the job, one scale for all ranks",
	"F9 runs gridsubmit cancel ID; a replay cannot be cancelled",
	"doc/console.md has the formulas",
};
#define HELP_NNOTES	(int)(sizeof help_notes / sizeof help_notes[0])

/* The entries of the key map that the help names (the others share their row). */
static int
help_keys(int *idx, int max)
{
	int i, n = 0;

	for (i = 0; i < keymap_n && n < max; i++)
		if (keymap[i].keys != NULL)
			idx[n++] = i;
	return n;
}

/* One key row of the help: the keys in their column, what they do after them. */
static void
help_key(int y, int x, int w, const struct keymap_entry *k)
{
	screen_put(y, x, HELP_KEY_W, crt_attr(C_KEY), k->keys);
	screen_text(y, x + HELP_KEY_W, w - HELP_KEY_W - 1, A_NORMAL, k->what);
}

void
screen_help_draw(struct view *v, int h, int w)
{
	int idx[HELP_MAX], n = help_keys(idx, HELP_MAX), cols = w >= 2 * HELP_COL_W ? 2 : 1;
	int per = (n + cols - 1) / cols, lines = per + 1 + HELP_NNOTES, room = h - 2;
	int i, y, line;

	/* lines: the key rows, a blank, the notes; shown from help_top in room lines */
	if (v->help_top > lines - room)
		v->help_top = lines - room > 0 ? lines - room : 0;
	v->help_more = lines - room - v->help_top > 0 ? lines - room - v->help_top : 0;
	screen_text(0, 0, w, crt_attr(C_VALUE), "gridsubmit top - the console of a job: keys");
	for (y = 1; y <= room; y++) {
		line = v->help_top + y - 1;
		if (line < per) {
			for (i = 0; i < cols; i++)
				if (line + i * per < n)
					help_key(y, i * HELP_COL_W, cols == 1 ? w : HELP_COL_W,
					    &keymap[idx[line + i * per]]);
		} else if (line > per && line - per - 1 < HELP_NNOTES)
			screen_text(y, 0, w, A_NORMAL, help_notes[line - per - 1]);
	}
	if (v->help_more > 0)
		screen_textf(h - 1, 0, w, crt_attr(C_WARN), "-- more (%s/PgDn) --",
		    crt_utf8 ? "\xe2\x86\x93" : "Down");
	else
		screen_text(h - 1, 0, w, crt_attr(C_LABEL), "Press any key to return.");
}
