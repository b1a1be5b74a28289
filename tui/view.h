/*
 * view.h — what the user has chosen to see: sort column, filter, search, folded sites,
 * selection, pause, refresh interval, which screen (ranks, timeline, events) and whether
 * the help or a rank's detail is over it; and what the user asked the job (F9: cancel
 * it). The rows of the rank table are rebuilt from the model at each redraw
 * (view_build), so the model stays display-free.
 */
#ifndef TUI_VIEW_H
#define TUI_VIEW_H

#include "common/events-read.h"
#include "tui/model.h"

enum col {
	COL_RANK,
	COL_NODE,
	COL_SITE,
	COL_PF,
	COL_PR,
	COL_UNITS,
	COL_LAST,
	COL_CALC,
	COL_COMM,
	COL_IDLE,
	COL_PERF,
	COL_STATE,
	COL_BAR,	/* not sortable from here on */
	COL_RATE,
	COL_TASKS,	/* task runs only: the tasks it holds, migrations in/out */
	COL_MIGS,
	COL_N
};
#define COL_SORTABLE	COL_BAR

enum view_mode { MODE_MAIN, MODE_HELP, MODE_DETAIL };
/* The main screens, in the order Tab goes through them. */
enum view_screen { SCREEN_RANKS, SCREEN_TIMELINE, SCREEN_EVENTS, SCREEN_N };
enum view_prompt { PROMPT_NONE, PROMPT_SEARCH, PROMPT_FILTER, PROMPT_CANCEL };
/* F9's cancel: none; wanted (y was answered: the main loop starts it); running; done. */
enum view_cancel { CANCEL_NONE, CANCEL_WANTED, CANCEL_RUNNING, CANCEL_DONE };
/*
 * A site; a node that holds several ranks (its totals); a rank; a group of a hierarchy
 * run (its sub-master's row, with its workers' totals).
 */
enum row_kind { ROW_SITE, ROW_NODE, ROW_RANK, ROW_GROUP };

/* Groups of more workers than this start folded: an 80x24 table shows about this many. */
#define VIEW_GROUP_OPEN	16

struct row {
	enum row_kind kind;
	int id;			/* site index; a node's lowest rank id; rank id; sub-master's id */
};

struct view {
	const struct model *m;
	const struct evreader_stats *rs;	/* may be NULL */
	const char *source;	/* what is shown: the file, for the header */
	int replay;
	double speed;
	int paused;
	double interval;
	int color;
	int utf8;
	int quit;
	int step;		/* the user asked for one more event */
	const char *job_id;	/* live: the job F9 cancels; NULL: F9 is not available */
	enum view_cancel cancel;

	enum view_mode mode;
	enum view_screen screen;	/* ranks, timeline or events (Tab) */
	int help_top;		/* help: the first line shown */
	int help_more;		/* help: lines below the last one shown at the last draw */
	int log_back;		/* events screen: entries scrolled back from the newest */
	int log_page;		/* events screen: entries shown at the last draw */
	int detail_rank;
	int detail_back;	/* detail: events scrolled back from the newest */
	int detail_page;	/* detail: event lines at the last draw, for paging */
	enum view_prompt prompt;
	char input[64];		/* the text being typed at the prompt */
	char search[64];
	char filter[64];
	enum col sort;
	int invert;
	unsigned char *folded;	/* by site index */
	int nfolded;
	unsigned char *gfolded;	/* by sub-master's id: 0 as its size says, 1 folded, 2 open */
	int ngfolded;

	struct row *rows;
	int nrows, rowcap;
	int *pos;		/* by rank id: its place in the view's order (view_build) */
	int shared;		/* some node holds several known ranks: node rows to find */
	int shared_valid;	/* shared is of the model's placement numbered placed_seen */
	unsigned long placed_seen;
	int sel;		/* selected row */
	struct row sel_row;	/* what it was, to find it again after a rebuild */
	int top;		/* first row shown */
	int table_h;		/* rows the table had at the last draw, for paging */
	char message[128];	/* one-shot note on the key bar line */
};

extern const char *const col_names[COL_N];

void view_init(struct view *v, const struct model *m);
void view_free(struct view *v);
/*
 * Rebuild the rows: filter, sort within sites, fold; the ranks of a node that holds
 * several kept together under its node row; keep the selection on its row.
 */
void view_build(struct view *v);
int view_site_folded(const struct view *v, int site);
void view_toggle_fold(struct view *v, int site);
/*
 * Groups (view-groups.c). view_group_rows: the rows of idx (n ranks of one site in the
 * view's order): the ranks outside any group first (view_node_rows), then each group where
 * its first rank comes, its sub-master's row and, unless folded, its workers (with their
 * node rows). view_group_folded: is the group of sub-master sub folded (by the user, or
 * for its size: more than VIEW_GROUP_OPEN workers until unfolded)? view_fold_group: on a
 * group's row or a row of one of its workers, fold or unfold that group and select its
 * row; 0 when row is in no group (the site folds then).
 */
void view_group_rows(struct view *v, const int *idx, int n);
int view_group_folded(const struct view *v, int sub);
int view_fold_group(struct view *v, const struct row *row);
/* For view-groups.c: append a row; the rank and node rows of n ranks (view.c). */
void view_add(struct view *v, enum row_kind kind, int id);
void view_node_rows(struct view *v, const int *idx, int n);
/* Does the rank match the filter or search text (case-insensitive)? */
int view_rank_matches(const struct view *v, const struct mrank *r, const char *text);
/* Move the selection to the next row (after the current one, wrapping) matching text. */
int view_search_next(struct view *v, const char *text, int from_next);
/* Handle a key (ncurses code); sets quit/step/paused/cancel and the rest of the view. */
void view_key(struct view *v, int ch);
/* The name of a screen ("Ranks", "Timeline", "Events"), for the key bar's Tab. */
const char *view_screen_name(enum view_screen s);

/*
 * Place the rows in a panel of lines lines: move v->top so that the selection shows,
 * and when not every row fits keep the last line for a "+N more" marker. Returns the rows
 * to draw (from v->top); *hidden gets the rank rows left out above and below them.
 */
int view_window(struct view *v, int lines, int *hidden);

#endif
