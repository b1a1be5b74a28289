/*
 * tui-cancel.h — F9: the job's cancel command (gridsubmit cancel ID), run beside the
 * console so that it keeps drawing (common/proc.h, without waiting), and what the command
 * said, for the key bar.
 */
#ifndef TUI_CANCEL_H
#define TUI_CANCEL_H

#include <stddef.h>
#include <stdio.h>

#include "common/proc.h"

struct tui_cancel {
	struct proc_task task;	/* the command while it runs */
	FILE *out;		/* its stdout and stderr: a file of its own, already unlinked */
};

/*
 * Start argv (argv[0] is the program) in a session of its own, its output to a file
 * rather than a pipe, so that it finishes whatever happens to the console (q, a signal,
 * the end of run --top, the terminal's). Returns 0, or -1 with errno set.
 */
int tui_cancel_start(struct tui_cancel *c, char *const *argv);

/*
 * Whether the command has finished: 1 with msg set to its first line (or, when it
 * failed, its exit status and last line), 0 while it runs.
 */
int tui_cancel_poll(struct tui_cancel *c, char *msg, size_t len);

/* The console ends: a command still running goes on by itself; what c holds is freed. */
void tui_cancel_leave(struct tui_cancel *c);

#endif
