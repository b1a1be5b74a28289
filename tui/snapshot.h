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

#endif
