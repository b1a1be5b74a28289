/*
 * action.c — what each key does (htop's habits; the help screen lists them). Keys only
 * change the view: what touches the outside (reading one more event, cancelling the job)
 * is asked for here and done by the main loop (tui.c, tui-cancel.c).
 */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui/view.h"

#define KEY_ESC		27
#define KEY_CTRL_L	12

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

static void
action_fold(struct view *v)
{
	const struct row *row;
	int site;

	if (v->nrows == 0)
		return;
	row = &v->rows[v->sel];
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

/* Keys that work on every screen. */
static int
action_common(struct view *v, int ch)
{
	switch (ch) {
	case 'q':
	case 'Q':
	case KEY_F(10):
		v->quit = 1;
		return 1;
	case ' ':
	case 'p':
	case 'P':
		v->paused = !v->paused;
		return 1;
	case 'n':
	case '.':
		v->paused = 1;
		v->step = 1;
		return 1;
	case '+':
	case '=':
		action_interval(v, 1);
		return 1;
	case '-':
	case '_':
		action_interval(v, -1);
		return 1;
	case KEY_CTRL_L:
		clearok(curscr, TRUE);
		return 1;
	case KEY_F(9):
		action_cancel(v);
		return 1;
	case KEY_RESIZE:
		return 1;
	}
	return 0;
}

static void
action_detail(struct view *v, int ch)
{
	int i, page = v->detail_page > 1 ? v->detail_page - 1 : 1;

	switch (ch) {
	/* the rank's events: the newest at the bottom, scrolled back from there */
	case KEY_PPAGE:
		v->detail_back += page;
		break;
	case KEY_NPAGE:
		v->detail_back = v->detail_back > page ? v->detail_back - page : 0;
		break;
	case KEY_HOME:
		v->detail_back = TRACK_EVENTS;
		break;
	case KEY_END:
		v->detail_back = 0;
		break;
	case KEY_UP:
	case KEY_DOWN:
		/* Walk the ranks of the table without going back to it. */
		for (i = v->sel + (ch == KEY_UP ? -1 : 1); i >= 0 && i < v->nrows;
		    i += ch == KEY_UP ? -1 : 1)
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

void
view_key(struct view *v, int ch)
{
	v->message[0] = '\0';
	if (v->prompt != PROMPT_NONE) {
		action_prompt(v, ch);
		return;
	}
	if (v->mode == MODE_HELP) {
		/* Any key leaves the help (as in htop); F10 still quits, a resize is no key. */
		if (ch == KEY_F(10))
			v->quit = 1;
		else if (ch != KEY_RESIZE)
			v->mode = MODE_MAIN;
		return;
	}
	if (v->mode == MODE_DETAIL) {
		action_detail(v, ch);
		return;
	}
	if (action_common(v, ch))
		return;
	switch (ch) {
	case KEY_F(1):
	case '?':
	case 'h':
		v->mode = MODE_HELP;
		break;
	case KEY_F(3):
	case '/':
		v->prompt = PROMPT_SEARCH;
		v->input[0] = '\0';
		break;
	case KEY_F(4):
	case '\\':
		v->prompt = PROMPT_FILTER;
		snprintf(v->input, sizeof v->input, "%s", v->filter);
		break;
	case KEY_F(5):
	case 'f':
		action_fold(v);
		view_build(v);
		break;
	case KEY_F(6):
	case '>':
		action_sort(v, 1);
		break;
	case '<':
		action_sort(v, -1);
		break;
	case 'I':
	case 'i':
		v->invert = !v->invert;
		break;
	case 't':
	case 'T':
		v->timeline = !v->timeline;
		break;
	case KEY_UP:
	case 'k':
		action_select(v, v->sel - 1);
		break;
	case KEY_DOWN:
	case 'j':
		action_select(v, v->sel + 1);
		break;
	case KEY_PPAGE:
		action_select(v, v->sel - (v->table_h > 1 ? v->table_h - 1 : 1));
		break;
	case KEY_NPAGE:
		action_select(v, v->sel + (v->table_h > 1 ? v->table_h - 1 : 1));
		break;
	case KEY_HOME:
	case 'g':
		action_select(v, 0);
		break;
	case KEY_END:
	case 'G':
		action_select(v, v->nrows - 1);
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (v->nrows == 0)
			break;
		if (v->rows[v->sel].kind == ROW_SITE) {
			action_fold(v);
			view_build(v);
		} else {
			v->mode = MODE_DETAIL;
			v->detail_rank = v->rows[v->sel].id;
			v->detail_back = 0;
		}
		break;
	}
}
