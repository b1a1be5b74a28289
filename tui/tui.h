/*
 * tui.h — the live console of gridsubmit (issue 6), for `gridsubmit top` and `run --top`.
 *
 * It follows a job's events.jsonl as it grows (or replays a recorded one at the pace of its
 * "t" fields) and shows per-rank units, times, states and the job's meters in an htop-like
 * ncurses screen. The terminal is given back on every way out: return, exit, fatal(),
 * SIGINT/SIGTERM/SIGHUP/SIGQUIT.
 */
#ifndef TUI_TUI_H
#define TUI_TUI_H

#include <stddef.h>
#include <stdio.h>

/* The job a live console follows, for F9 and for an end its events do not tell. */
struct tui_job {
	const char *id;		/* named in F9's question */
	const char *dir;	/* the job directory, given to over */
	char *const *cancel_argv;	/* F9's command (gridsubmit cancel ID); argv[0] is run */
	/*
	 * Whether the job is over by its own record though its events may not say so
	 * (cancelled, or failed without an end record): 1 with *t, its end on the events'
	 * clock (NAN when unknown), and its state in status; 0 while it runs or when the
	 * record cannot be read.
	 */
	int (*over)(const char *dir, double *t, char *status, size_t len);
};

struct tui_opts {
	double interval;	/* seconds between redraws; 0: 1 s */
	int replay;		/* a recording: apply events at the pace of their "t" */
	double speed;		/* replay speed factor; 0: 1 (real time) */
	int no_color;		/* never colour (NO_COLOR in the environment does the same) */
	int exit_at_end;	/* return as soon as the end event is on screen */
	const struct tui_job *job;	/* live: the job followed; NULL: none (F9 unavailable) */
};

enum {
	TUI_ENDED = 0,		/* the job ended (and the user left, or exit_at_end) */
	TUI_QUIT = 1,		/* the user quit before the job ended */
	TUI_NO_EVENTS = 2,	/* a replayed file holds no valid event (message printed) */
	TUI_SIGNAL = 128	/* + the signal number: SIGINT, SIGTERM, SIGHUP or SIGQUIT */
};

/*
 * Show the console on the terminal (standard input and output) for events_path until the
 * job ends and the user presses q (or at once with exit_at_end), or the user quits, or a
 * terminating signal arrives. In live mode a file that does not exist yet is waited for.
 * In replay mode a file without a valid event is refused before the terminal is taken.
 * Returns TUI_ENDED, TUI_QUIT, TUI_SIGNAL + signo, TUI_NO_EVENTS, or -1 with a message
 * printed when the terminal or the file cannot be used.
 */
int tui_follow(const char *events_path, const struct tui_opts *opts);

/*
 * Whether a recording holds at least one valid event, read up to the first: 1 when it
 * does; 0 when it holds none, with a message naming the file and what was found in it;
 * -1 with a message when it cannot be read.
 */
int tui_replay_check(const char *events_path);

/*
 * Read events_path as it is now and print one snapshot: plain text (json 0) or the JSON
 * document. job (NULL for a recording): the job's record ends it when its events do not,
 * and a job without events (a program without libgrt: no events_path at all) shows its
 * ranks and their ends from its directory. Returns 0, or -1 with a message printed.
 */
int tui_snapshot(const char *events_path, const struct tui_job *job, int json, FILE *f);

#endif
