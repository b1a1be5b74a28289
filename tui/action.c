/*
 * action.c — what each key does: the key map's actions (keymap.c, which follows htop 3)
 * on the view. Keys only change the view: what touches the outside (reading one more
 * event, cancelling the job) is asked for here and done by the main loop (tui.c,
 * tui-cancel.c).
 */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui/keymap.h"
#include "tui/view.h"

#define KEY_ESC		27

static const double intervals[] = { 0.1, 0.2, 0.5, 1, 2, 5, 10 };
#define NINTERVALS	(int)(sizeof intervals / sizeof intervals[0])

static void
action_interval(struct view *v, int dir)
{
	int i;

	if (dir > 0) {
		for (i = 0; i < NINTERVALS - 1 && intervals[i] <= v->interval + 1e-9; i++)
			;
	} else {
		for (i = NINTERVALS - 1; i > 0 && intervals[i] >= v->interval - 1e-9; i--)
			;
	}
	v->interval = intervals[i];
	snprintf(v->message, sizeof v->message, "refresh every %g s", v->interval);
}

static void
action_select(struct view *v, int row)
{
	if (row >= v->nrows)
		row = v->nrows - 1;
	if (row < 0)
		row = 0;
	v->sel = row;
	if (v->nrows > 0)
		v->sel_row = v->rows[row];
}

static void
action_sort(struct view *v, int dir)
{
	v->sort = (v->sort + dir + COL_SORTABLE) % COL_SORTABLE;
	snprintf(v->message, sizeof v->message, "sort by %s", col_names[v->sort]);
}

/* htop's N, P and T: one column at once (P and T with the largest first, as there). */
static void
action_sort_by(struct view *v, enum col c, int invert)
{
	v->sort = c;
	v->invert = invert;
	snprintf(v->message, sizeof v->message, "sort by %s%s", col_names[c],
	    invert ? ", largest first" : "");
}

static void
action_fold(struct view *v)
{
	const struct row *row;
	int site;

	if (v->nrows == 0)
		return;
	row = &v->rows[v->sel];
	/* in a hierarchy run, the group of the row folds first (view-groups.c) */
	if (view_fold_group(v, row))
		return;
	/* a node row's id is one of its ranks: the site is that rank's */
	site = row->kind == ROW_SITE ? row->id : v->m->ranks[row->id].site_idx;
	view_toggle_fold(v, site);
	/* The selected rank may disappear into the fold: select its site instead. */
	v->sel_row.kind = ROW_SITE;
	v->sel_row.id = site;
}

/* F9: ask first, and only where there is a job to cancel. */
static void
action_cancel(struct view *v)
{
	if (v->replay || v->job_id == NULL)
		snprintf(v->message, sizeof v->message, "F9 cancel: %s", v->replay ?
		    "not available in a replay" : "no job to cancel here");
	else if (v->cancel == CANCEL_WANTED || v->cancel == CANCEL_RUNNING)
		snprintf(v->message, sizeof v->message, "job %s: cancel under way", v->job_id);
	else
		v->prompt = PROMPT_CANCEL;
}

/* The answer to F9's question: y cancels, any other key leaves the job alone. */
static void
action_cancel_answer(struct view *v, int ch)
{
	if (ch == KEY_RESIZE)
		return;
	v->prompt = PROMPT_NONE;
	if (ch == 'y' || ch == 'Y') {
		v->cancel = CANCEL_WANTED;
		snprintf(v->message, sizeof v->message, "cancelling job %s", v->job_id);
	} else
		snprintf(v->message, sizeof v->message, "job %s not cancelled", v->job_id);
}

/* Typing at the search or filter prompt; both act as the text changes. */
static void
action_prompt(struct view *v, int ch)
{
	size_t n = strlen(v->input);

	if (v->prompt == PROMPT_CANCEL) {
		action_cancel_answer(v, ch);
		return;
	}
	switch (ch) {
	case KEY_ESC:
		if (v->prompt == PROMPT_FILTER)
			v->filter[0] = '\0';
		v->prompt = PROMPT_NONE;
		return;
	case '\n':
	case '\r':
	case KEY_ENTER:
		v->prompt = PROMPT_NONE;
		return;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		if (n > 0)
			v->input[n - 1] = '\0';
		break;
	case KEY_F(3):
		if (v->prompt == PROMPT_SEARCH && !view_search_next(v, v->input, 1))
			snprintf(v->message, sizeof v->message, "no match");
		return;
	default:
		/* Printable ASCII only: what is typed is matched against cleaned names. */
		if (ch < 0x20 || ch >= 0x7f || n + 1 >= sizeof v->input)
			return;
		v->input[n] = (char)ch;
		v->input[n + 1] = '\0';
		break;
	}
	if (v->prompt == PROMPT_FILTER) {
		snprintf(v->filter, sizeof v->filter, "%s", v->input);
		view_build(v);
	} else {
		snprintf(v->search, sizeof v->search, "%s", v->input);
		if (!view_search_next(v, v->input, 0) && *v->input != '\0')
			snprintf(v->message, sizeof v->message, "no match");
	}
}

/* Keys that work on every screen: the job, the clock, the refresh, leaving. */
static int
action_common(struct view *v, int ch)
{
	if (ch == KEY_RESIZE)
		return 1;
	switch (keymap_action(ch)) {
	case KA_QUIT:
		v->quit = 1;
		return 1;
	case KA_PAUSE:
		v->paused = !v->paused;
		return 1;
	case KA_STEP:
		v->paused = 1;
		v->step = 1;
		return 1;
	case KA_DELAY_UP:
		action_interval(v, 1);
		return 1;
	case KA_DELAY_DOWN:
		action_interval(v, -1);
		return 1;
	case KA_REDRAW:
		clearok(curscr, TRUE);
		return 1;
	case KA_CANCEL:
		action_cancel(v);
		return 1;
	default:
		return 0;
	}
}

static void
action_detail(struct view *v, int ch)
{
	int i, step, page = v->detail_page > 1 ? v->detail_page - 1 : 1;
	enum key_action a = keymap_action(ch);

	switch (a) {
	/* the rank's events: the newest at the bottom, scrolled back from there */
	case KA_PGUP:
		v->detail_back += page;
		break;
	case KA_PGDN:
		v->detail_back = v->detail_back > page ? v->detail_back - page : 0;
		break;
	case KA_HOME:
		v->detail_back = TRACK_EVENTS;
		break;
	case KA_END:
		v->detail_back = 0;
		break;
	case KA_UP:
	case KA_DOWN:
		/* Walk the ranks of the table without going back to it. */
		step = a == KA_UP ? -1 : 1;
		for (i = v->sel + step; i >= 0 && i < v->nrows; i += step)
			if (v->rows[i].kind == ROW_RANK) {
				action_select(v, i);
				v->detail_rank = v->rows[i].id;
				v->detail_back = 0;
				break;
			}
		break;
	default:
		if (!action_common(v, ch))
			v->mode = MODE_MAIN;
	}
}

/* The help: the scroll keys scroll it when it does not fit, F10/q quit, any other returns. */
static void
action_help(struct view *v, int ch)
{
	switch (keymap_action(ch)) {
	case KA_UP:
		v->help_top -= v->help_top > 0;
		break;
	case KA_DOWN:
		v->help_top += v->help_more > 0;
		break;
	case KA_PGUP:
		v->help_top = v->help_top > 10 ? v->help_top - 10 : 0;
		break;
	case KA_PGDN:
		v->help_top += v->help_more < 10 ? v->help_more : 10;
		break;
	case KA_HOME:
		v->help_top = 0;
		break;
	case KA_END:
		v->help_top += v->help_more;
		break;
	case KA_QUIT:
		v->quit = 1;
		break;
	default:
		if (ch != KEY_RESIZE) {
			v->mode = MODE_MAIN;
			v->help_top = 0;
		}
	}
}

/* The events screen: the scroll keys go back through the kept log, newest at the bottom. */
static int
action_log(struct view *v, enum key_action a)
{
	int page = v->log_page > 1 ? v->log_page - 1 : 1;

	switch (a) {
	case KA_UP:
		v->log_back++;
		return 1;
	case KA_DOWN:
		v->log_back -= v->log_back > 0;
		return 1;
	case KA_PGUP:
		v->log_back += page;
		return 1;
	case KA_PGDN:
		v->log_back = v->log_back > page ? v->log_back - page : 0;
		return 1;
	case KA_HOME:
		v->log_back = MODEL_LOG;
		return 1;
	case KA_END:
		v->log_back = 0;
		return 1;
	default:
		return 0;
	}
}

/*
 * Enter: a site or group row folds, a rank row opens its detail, a node row does
 * nothing.
 */
static void
action_enter(struct view *v)
{
	if (v->nrows == 0 || v->rows[v->sel].kind == ROW_NODE)
		return;
	if (v->rows[v->sel].kind == ROW_SITE || v->rows[v->sel].kind == ROW_GROUP) {
		action_fold(v);
		view_build(v);
		return;
	}
	v->mode = MODE_DETAIL;
	v->detail_rank = v->rows[v->sel].id;
	v->detail_back = 0;
}

/* The keys of the main screens (ranks, timeline, events). */
static void
action_main(struct view *v, enum key_action a)
{
	int page = v->table_h > 1 ? v->table_h - 1 : 1;

	switch (a) {
	case KA_HELP:
		v->mode = MODE_HELP;
		v->help_top = 0;
		break;
	case KA_SEARCH:
		v->prompt = PROMPT_SEARCH;
		v->input[0] = '\0';
		break;
	case KA_FILTER:
		v->prompt = PROMPT_FILTER;
		snprintf(v->input, sizeof v->input, "%s", v->filter);
		break;
	case KA_FOLD:
		action_fold(v);
		view_build(v);
		break;
	case KA_SORT_NEXT:
	case KA_SORT_PREV:
		action_sort(v, a == KA_SORT_NEXT ? 1 : -1);
		break;
	case KA_SORT_INVERT:
		v->invert = !v->invert;
		break;
	case KA_SORT_RANK:
		action_sort_by(v, COL_RANK, 0);
		break;
	case KA_SORT_PERF:
		action_sort_by(v, COL_PERF, 1);
		break;
	case KA_SORT_TIME:
		action_sort_by(v, COL_CALC, 1);
		break;
	case KA_SCREEN_NEXT:
	case KA_SCREEN_PREV:
		v->screen = (v->screen + (a == KA_SCREEN_NEXT ? 1 : SCREEN_N - 1)) % SCREEN_N;
		v->log_back = 0;
		break;
	case KA_ENTER:
		action_enter(v);
		break;
	case KA_UP:
		action_select(v, v->sel - 1);
		break;
	case KA_DOWN:
		action_select(v, v->sel + 1);
		break;
	case KA_PGUP:
		action_select(v, v->sel - page);
		break;
	case KA_PGDN:
		action_select(v, v->sel + page);
		break;
	case KA_HOME:
		action_select(v, 0);
		break;
	case KA_END:
		action_select(v, v->nrows - 1);
		break;
	default:
		break;
	}
}

void
view_key(struct view *v, int ch)
{
	enum key_action a;

	v->message[0] = '\0';
	if (v->prompt != PROMPT_NONE) {
		action_prompt(v, ch);
		return;
	}
	if (v->mode == MODE_HELP) {
		action_help(v, ch);
		return;
	}
	if (v->mode == MODE_DETAIL) {
		action_detail(v, ch);
		return;
	}
	if (action_common(v, ch))
		return;
	a = keymap_action(ch);
	if (v->screen == SCREEN_EVENTS && (action_log(v, a) || keymap_on_rows(a)))
		return;
	action_main(v, a);
}
