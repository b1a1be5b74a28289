/*
 * snapshot.h — the console's state without a terminal: --once prints it as plain text
 * (no escape codes, for scripts and logs), --json as one JSON document through the one
 * writer (common/jsonout.h; fields in man/gridsubmit-json.5).
 */
#ifndef TUI_SNAPSHOT_H
#define TUI_SNAPSHOT_H

#include <stdio.h>

#include "common/events-read.h"
#include "tui/model.h"

#define SNAPSHOT_WIDTH		120	/* columns of the --once table */
#define SNAPSHOT_EVENTS		10	/* newest events in --once */

/* rs may be NULL. Return 0, or -1 when writing failed. */
int snapshot_text(const struct model *m, const struct evreader_stats *rs, FILE *f);
int snapshot_json(const struct model *m, const struct evreader_stats *rs, FILE *f);

/*
 * The lines of --once (snapshot.c), for snapshot-groups.c: a line without its trailing
 * blanks; a site's line (0, and nothing printed, when it has no rank); a rank's row; the
 * row of the ranks of r's node (in r's group). l: the columns; full: the bar's scale;
 * rmax: the sparkline's.
 */
struct col_layout;
void snapshot_line(FILE *f, char *s);
int snapshot_site(const struct model *m, int site, FILE *f);
void snapshot_rank(const struct model *m, const struct mrank *r, const struct col_layout *l,
    double full, double rmax, FILE *f);
void snapshot_node(const struct model *m, const struct mrank *r, const struct col_layout *l,
    double rmax, FILE *f);
/*
 * --once of a hierarchy run (snapshot-groups.c): the rows as the table first has them,
 * each group's row and, unless it starts folded, its workers.
 */
void snapshot_groups(const struct model *m, const struct col_layout *l, double full,
    double rmax, FILE *f);

#endif
