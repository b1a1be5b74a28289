/*
 * crt.h — the terminal, as htop's CRT: setting curses up, colours (or their monochrome
 * stand-ins), and getting the terminal back on every way out — normal return, exit(),
 * fatal() through log_atfatal, and SIGINT/SIGTERM/SIGHUP/SIGQUIT, which are turned into
 * a byte on a pipe that the main loop polls beside the keyboard.
 */
#ifndef TUI_CRT_H
#define TUI_CRT_H

#include <curses.h>
#include <stdio.h>

enum crt_color {
	C_NORMAL,
	C_LABEL,
	C_VALUE,
	C_TITLE,	/* table column header */
	C_SEL,		/* selected row */
	C_SITE,		/* site group row */
	C_CALC,
	C_COMM,
	C_IDLE,
	C_WORKING,
	C_WAITING,
	C_DROPPED,
	C_FAILED,
	C_DONE,
	C_KEY,
	C_KEYLABEL,
	C_SPARK,
	C_WARN,
	C_N
};

/* Colours are used: a terminal with colours, no NO_COLOR, no --no-color. */
extern int crt_color_on;
/* The locale is UTF-8: block characters and non-ASCII names may be drawn. */
extern int crt_utf8;

/*
 * Take the terminal (stdin/stdout). want_color 0 forces monochrome. Returns 0, or -1 with
 * why when standard input or output is not a terminal (or curses cannot use it), or the
 * signals cannot be caught.
 */
int crt_init(int want_color, char *why, size_t whylen);
/* Curses on an off-screen terminal of h x w (the benchmark): TERM=xterm, output to out. */
int crt_init_offscreen(FILE *out, int h, int w, int want_color);
/* Give the terminal back; safe to call more than once and from log_atfatal/atexit. */
void crt_done(void);
attr_t crt_attr(enum crt_color c);
/* Readable when a terminating signal arrived; crt_signal() says which (0: none). */
int crt_signal_fd(void);
int crt_signal(void);

#endif
