/*
 * progress.h — the one-line progress of a running job on a terminal (`run`, `wait`): units
 * done of the total, rate, ETA, elapsed time and restarts, from the job's events.jsonl
 * (read incrementally, folded in as the console does: tui/model.h), redrawn in place on
 * stderr with \r.
 *
 * Whoever writes another line to stderr calls progress_clear first; the next tick draws
 * the line again below it. Every function takes NULL (no progress) and does nothing.
 */
#ifndef GS_PROGRESS_H
#define GS_PROGRESS_H

struct progress;

/*
 * A progress line for job id in directory dir (its elapsed time counted from state.json's
 * t0, once the job has one). NULL when none is to be drawn: stderr is not a terminal, or
 * TERM is unset, empty or "dumb".
 */
struct progress *progress_open(const char *dir, const char *id);

/*
 * Read what was appended to the events and redraw the line; cheap to call often (it
 * redraws at most five times a second).
 */
void progress_tick(struct progress *p);

/* Erase the line, if shown, leaving the cursor at the start of the empty line. */
void progress_clear(struct progress *p);

/* Erase the line and free p. */
void progress_close(struct progress *p);

#endif
