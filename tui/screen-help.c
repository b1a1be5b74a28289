/*
 * screen-help.c — F1: what the keys do and what the marks mean, laid out for the width:
 * the keys in two columns where they fit (one otherwise), then as many notes as the
 * height leaves room for, each cut at a word when the terminal is narrow.
 */
#include "tui/screen.h"

static const char *const help_keys[][2] = {
	{ "F1 ? h", "this help" },
	{ "F3 /", "search (F3: next)" },
	{ "F4 \\", "filter (Esc clears)" },
	{ "F5 f", "fold a site" },
	{ "F6 > <", "sort column" },
	{ "I", "invert the sort" },
	{ "t", "timeline or table" },
	{ "Enter", "details of a rank" },
	{ "Up Down", "move (PgUp PgDn g G)" },
	{ "Space p", "pause" },
	{ "n .", "step one event" },
	{ "+ -", "refresh interval" },
	{ "Ctrl-L", "redraw" },
	{ "F9", "cancel the job (y/n)" },
	{ "q F10", "quit" },
};
#define HELP_NKEYS	(int)(sizeof help_keys / sizeof help_keys[0])
#define HELP_KEY_W	8	/* the key column */
#define HELP_COL_W	30	/* one column: key and what it does */

static const char *const help_notes[] = {
	"Bar, timeline: # compute  ~ communication  . idle",
	"Marks: M migration  D dropped  X failed  = running",
	"Imbalance: (max - mean) / max busy time, live workers",
	"working: a result within 3 chunk times, or first chunk",
	"Calc:Comm: sum t_calc / sum t_comm    PERF_F: units / t_exe",
	"RATE: units per second over the job, one scale for all ranks",
	"F9 runs gridsubmit cancel ID; a replay cannot be cancelled",
	"doc/console.md has the formulas",
};
#define HELP_NNOTES	(int)(sizeof help_notes / sizeof help_notes[0])

void
screen_help_draw(struct view *v, int h, int w)
{
	int cols = w >= 2 * HELP_COL_W ? 2 : 1, per = (HELP_NKEYS + cols - 1) / cols;
	int i, y, x, last = h - 1;

	(void)v;
	screen_text(0, 0, w, crt_attr(C_VALUE), "gridsubmit top - the console of a job: keys");
	for (i = 0; i < HELP_NKEYS; i++) {
		y = 1 + i % per;
		x = (i / per) * HELP_COL_W;
		if (y >= last)
			continue;
		screen_put(y, x, HELP_KEY_W, crt_attr(C_KEY), help_keys[i][0]);
		screen_text(y, x + HELP_KEY_W, (cols == 1 ? w : HELP_COL_W) - HELP_KEY_W - 1,
		    A_NORMAL, help_keys[i][1]);
	}
	/* a blank line, then the notes that fit above the last line */
	for (i = 0, y = 2 + per; i < HELP_NNOTES && y < last; i++, y++)
		screen_text(y, 0, w, A_NORMAL, help_notes[i]);
	screen_text(last, 0, w, crt_attr(C_LABEL), "Press any key to return.");
}
