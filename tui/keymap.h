/*
 * keymap.h — the console's keys, in one table: what each key does, how the help screen
 * names it and how the key bar shows it, so that the three never disagree. The map
 * follows htop 3 wherever htop has the key (F9/k kill the job, Z pauses, Tab switches
 * screens, F6 and < > sort) and leaves htop's other keys alone; doc/console.md gives
 * the reason for each.
 */
#ifndef TUI_KEYMAP_H
#define TUI_KEYMAP_H

enum key_action {
	KA_NONE,
	KA_HELP,
	KA_SEARCH,
	KA_FILTER,
	KA_SORT_NEXT,
	KA_SORT_PREV,
	KA_SORT_INVERT,
	KA_SORT_RANK,
	KA_SORT_PERF,
	KA_SORT_TIME,
	KA_FOLD,
	KA_SCREEN_NEXT,
	KA_SCREEN_PREV,
	KA_ENTER,
	KA_UP,
	KA_DOWN,
	KA_PGUP,
	KA_PGDN,
	KA_HOME,
	KA_END,
	KA_PAUSE,
	KA_STEP,
	KA_DELAY_UP,
	KA_DELAY_DOWN,
	KA_REDRAW,
	KA_CANCEL,
	KA_QUIT
};

#define KEYMAP_CODES	4

struct keymap_entry {
	int codes[KEYMAP_CODES];	/* curses key codes; 0 ends the list */
	const char *keys;	/* as the help names them ("F1 h ?"); NULL: the row above says it */
	const char *what;	/* what they do, as the help says it */
	const char *bar;	/* the key on the key bar ("F1"); NULL: not on the bar */
	const char *label;	/* its label there ("Help"); NULL: it depends on the view */
	int prio;		/* on the bar: 0 always shown, higher ones left out first */
	enum key_action action;
};

extern const struct keymap_entry keymap[];
extern const int keymap_n;

/* The action of key code ch (KA_NONE: no key of the map). */
enum key_action keymap_action(int ch);
/*
 * Does action a work on the rank rows (search, filter, sort, fold, Enter)? Those keys do
 * nothing on the event log's screen, and its key bar leaves them out.
 */
int keymap_on_rows(enum key_action a);

#endif
