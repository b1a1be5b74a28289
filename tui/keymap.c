/*
 * keymap.c — the one table of the console's keys (keymap.h): action.c dispatches on it,
 * screen-help.c lists it, keybar.c draws its bar keys. Order: the key bar's, left to right,
 * then the help's.
 */
#include <curses.h>

#include "tui/keymap.h"

#define KEY_TAB		'\t'
#define KEY_CTRL_L	12

const struct keymap_entry keymap[] = {
	{ { KEY_F(1), 'h', '?' }, "F1 h ?", "this help", "F1", "Help", 0, KA_HELP },
	{ { KEY_F(3), '/' }, "F3 /", "search (F3: next)", "F3", "Search", 2, KA_SEARCH },
	{ { KEY_F(4), '\\' }, "F4 \\", "filter (Esc clears)", "F4", "Filter", 4, KA_FILTER },
	{ { KEY_F(6), '>', '.' }, "F6 > .", "sort: next column", "F6", "Sort", 3, KA_SORT_NEXT },
	{ { KEY_TAB }, "Tab", "next screen", "Tab", NULL, 1, KA_SCREEN_NEXT },
	{ { 'Z', 'z' }, "Z z", "pause updates", "Z", "Pause", 2, KA_PAUSE },
	{ { 'n' }, "n", "step one event", "n", "Step", 6, KA_STEP },
	{ { '+', '-', '=' }, "+ - =", "fold site or group", "+-", "Fold", 5, KA_FOLD },
	{ { 'd' }, "d D", "refresh interval", "d", NULL, 7, KA_DELAY_UP },
	{ { 'D' }, NULL, NULL, NULL, NULL, 0, KA_DELAY_DOWN },
	{ { KEY_F(9), 'k' }, "F9 k", "cancel job (y/n)", "F9", "Cancel", 1, KA_CANCEL },
	{ { KEY_F(10), 'q', 'Q' }, "F10 q", "quit", "F10", "Quit", 0, KA_QUIT },
	{ { KEY_BTAB }, "S-Tab", "previous screen", NULL, NULL, 0, KA_SCREEN_PREV },
	{ { '<', ',' }, "< ,", "sort: previous", NULL, NULL, 0, KA_SORT_PREV },
	{ { 'I' }, "I", "invert the sort", NULL, NULL, 0, KA_SORT_INVERT },
	{ { 'N' }, "N", "sort by RANK", NULL, NULL, 0, KA_SORT_RANK },
	{ { 'P' }, "P", "sort by PERF_F", NULL, NULL, 0, KA_SORT_PERF },
	{ { 'T' }, "T", "sort by T_CALC", NULL, NULL, 0, KA_SORT_TIME },
	{ { '\n', '\r', KEY_ENTER }, "Enter", "rank details, fold", NULL, NULL, 0, KA_ENTER },
	{ { KEY_UP }, "Up Down", "move the selection", NULL, NULL, 0, KA_UP },
	{ { KEY_DOWN }, NULL, NULL, NULL, NULL, 0, KA_DOWN },
	{ { KEY_PPAGE }, "PgUp PgDn", "a page up, down", NULL, NULL, 0, KA_PGUP },
	{ { KEY_NPAGE }, NULL, NULL, NULL, NULL, 0, KA_PGDN },
	{ { KEY_HOME }, "Home End", "first, last row", NULL, NULL, 0, KA_HOME },
	{ { KEY_END }, NULL, NULL, NULL, NULL, 0, KA_END },
	{ { KEY_CTRL_L }, "Ctrl-L", "redraw", NULL, NULL, 0, KA_REDRAW },
};
const int keymap_n = sizeof keymap / sizeof keymap[0];

enum key_action
keymap_action(int ch)
{
	int i, k;

	for (i = 0; i < keymap_n; i++)
		for (k = 0; k < KEYMAP_CODES && keymap[i].codes[k] != 0; k++)
			if (keymap[i].codes[k] == ch)
				return keymap[i].action;
	return KA_NONE;
}

int
keymap_on_rows(enum key_action a)
{
	switch (a) {
	case KA_SEARCH:
	case KA_FILTER:
	case KA_SORT_NEXT:
	case KA_SORT_PREV:
	case KA_SORT_INVERT:
	case KA_SORT_RANK:
	case KA_SORT_PERF:
	case KA_SORT_TIME:
	case KA_FOLD:
	case KA_ENTER:
		return 1;
	default:
		return 0;
	}
}
