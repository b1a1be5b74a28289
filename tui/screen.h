/*
 * screen.h — drawing the console on stdscr. screen_draw() lays out the parts (header
 * meters, rank table or timeline and the event pane, or the event log alone; the key
 * bar) or a full-screen help or detail view; each part lives in its own file and draws
 * into the rectangle it is given.
 */
#ifndef TUI_SCREEN_H
#define TUI_SCREEN_H

#include "tui/crt.h"
#include "tui/model.h"
#include "tui/view.h"

#define SCREEN_MIN_W	60
#define SCREEN_MIN_H	14
#define HEADER_LINES	4

/* Redraw everything and update the terminal (only what changed goes out: no flicker). */
void screen_draw(struct view *v);
/* Draw without the final doupdate() (the benchmark times both). */
void screen_render(struct view *v);

void header_draw(struct view *v, const struct model_stats *st, int y, int w);
void panel_ranks_draw(struct view *v, const struct model_stats *st, int y, int h, int w);
void panel_timeline_draw(struct view *v, const struct model_stats *st, int y, int h, int w);
/*
 * A group's row (panel-groups.c): in the table (l: its columns; rmax, hlen: the rate
 * scale and history length of panel-ranks.c), and in the timeline (the widths of its rank,
 * node and busy columns; span: the elapsed time the axis spans).
 */
struct col_layout;
void panel_group_row(const struct view *v, const struct col_layout *l,
    const struct mrank *sub, int y, int w, int selected, double rmax, int hlen);
/*
 * What a row of sums (a node's, a group's: panel-ranks.c) draws alike in column i of l:
 * nothing for the bar, the sparkline of its ranks' rates added up for RATE (a: the row's
 * attribute). 1 when column i is one of those, else 0: the caller draws its cell.
 */
struct mnode_sum;
int panel_sum_column(const struct model *m, const struct col_layout *l, int i,
    const struct mnode_sum *s, int y, int w, attr_t a, int selected, double rmax, int hlen);
/* A timeline row's busy share at (y, x), w columns: busy seconds over span ("  45%"). */
void screen_busy(int y, int x, int w, attr_t a, double busy, double span);
void panel_group_timeline(const struct view *v, const struct mrank *sub, int y, int w,
    int rankw, int nodew, int busyw, int selected, double span);
/* The event log in h lines; scroll: the events screen's, scrolled back by v->log_back. */
void panel_events_draw(struct view *v, int y, int h, int w, int scroll);
void keybar_draw(struct view *v, int y, int w);
void screen_help_draw(struct view *v, int h, int w);
void screen_detail_draw(struct view *v, const struct model_stats *st, int h, int w);

/* Text cut to w columns at (y, x) in attribute a; returns the columns used. */
int screen_put(int y, int x, int w, attr_t a, const char *s);
int screen_putf(int y, int x, int w, attr_t a, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Prose in w columns at (y, x): what does not fit is cut at a word, with an ellipsis. */
int screen_text(int y, int x, int w, attr_t a, const char *s);
int screen_textf(int y, int x, int w, attr_t a, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* A name in exactly w columns at (y, x), cut at a part with an ellipsis (fit_name). */
int screen_name(int y, int x, int w, attr_t a, const char *name);
/* The "+N more" line of a table whose hidden rank rows (view_window) are not drawn. */
void screen_more(const struct view *v, int y, int w, int hidden);
/* w spaces in attribute a (a full-width title bar). */
void screen_fill(int y, int x, int w, attr_t a);
/* The colour of a rank state. */
enum crt_color screen_state_color(enum rank_state s);

#endif
