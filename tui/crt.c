/* crt.c — curses setup, colours and a terminal that is always given back. */
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "tui/crt.h"

int crt_color_on;
int crt_utf8;

static int crt_active;
static SCREEN *crt_screen;	/* the off-screen terminal (crt_init_offscreen) */
static SCREEN *crt_live;	/* the user's terminal (crt_init) */
static FILE *crt_in;
static int crt_pipe[2] = { -1, -1 };
static volatile sig_atomic_t crt_sig;
static const int crt_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define CRT_NSIG	(int)(sizeof crt_signals / sizeof crt_signals[0])
static struct sigaction crt_oldact[CRT_NSIG];
static int crt_atexit_done;

static attr_t crt_attrs[C_N];

static void
crt_on_signal(int sig)
{
	int saved = errno;
	char c = (char)sig;

	crt_sig = sig;
	if (write(crt_pipe[1], &c, 1) == -1) {
		/* The pipe is full: a signal is already waiting to be seen. */
	}
	errno = saved;
}

/* 0, or -1 with errno when there is no pipe for the signals (nothing is caught then). */
static int
crt_signals_on(void)
{
	struct sigaction sa;
	int i;

	if (crt_pipe[0] == -1 && pipe2(crt_pipe, O_CLOEXEC | O_NONBLOCK) == -1) {
		crt_pipe[0] = crt_pipe[1] = -1;
		return -1;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = crt_on_signal;
	sigemptyset(&sa.sa_mask);
	/*
	 * Installed before curses starts: ncurses then leaves SIGINT/SIGTERM alone instead of
	 * exiting from inside its own handler.
	 */
	for (i = 0; i < CRT_NSIG; i++)
		sigaction(crt_signals[i], &sa, &crt_oldact[i]);
	return 0;
}

static void
crt_signals_off(void)
{
	int i;

	for (i = 0; i < CRT_NSIG; i++)
		sigaction(crt_signals[i], &crt_oldact[i], NULL);
}

int
crt_signal_fd(void)
{
	return crt_pipe[0];
}

int
crt_signal(void)
{
	return crt_sig;
}

static void
crt_colors(int want_color)
{
	static const struct {
		short fg, bg;
		attr_t extra;
		attr_t mono;
	} def[C_N] = {
		[C_NORMAL] = { -1, -1, A_NORMAL, A_NORMAL },
		[C_LABEL] = { COLOR_CYAN, -1, A_NORMAL, A_NORMAL },
		[C_VALUE] = { -1, -1, A_BOLD, A_BOLD },
		[C_TITLE] = { COLOR_BLACK, COLOR_GREEN, A_NORMAL, A_REVERSE },
		[C_SEL] = { COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE | A_BOLD },
		[C_SITE] = { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
		[C_CALC] = { COLOR_GREEN, -1, A_NORMAL, A_NORMAL },
		[C_COMM] = { COLOR_BLUE, -1, A_BOLD, A_NORMAL },
		[C_IDLE] = { -1, -1, A_DIM, A_NORMAL },
		[C_WORKING] = { COLOR_GREEN, -1, A_NORMAL, A_NORMAL },
		[C_WAITING] = { COLOR_YELLOW, -1, A_NORMAL, A_NORMAL },
		[C_DROPPED] = { COLOR_MAGENTA, -1, A_BOLD, A_BOLD },
		[C_FAILED] = { COLOR_RED, -1, A_BOLD, A_BOLD },
		[C_DONE] = { COLOR_CYAN, -1, A_NORMAL, A_NORMAL },
		[C_KEY] = { -1, -1, A_NORMAL, A_NORMAL },
		[C_KEYLABEL] = { COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE },
		[C_SPARK] = { COLOR_CYAN, -1, A_NORMAL, A_NORMAL },
		[C_WARN] = { COLOR_RED, -1, A_BOLD, A_BOLD },
	};
	const char *nc = getenv("NO_COLOR");
	int i;

	crt_color_on = want_color && (nc == NULL || *nc == '\0') && has_colors();
	if (crt_color_on) {
		start_color();
		use_default_colors();
	}
	for (i = 0; i < C_N; i++) {
		if (!crt_color_on) {
			crt_attrs[i] = def[i].mono;
			continue;
		}
		init_pair(i + 1, def[i].fg, def[i].bg);
		crt_attrs[i] = COLOR_PAIR(i + 1) | def[i].extra;
	}
}

attr_t
crt_attr(enum crt_color c)
{
	return (unsigned)c < C_N ? crt_attrs[c] : A_NORMAL;
}

static void
crt_setup(int want_color)
{
	const char *cs;

	crt_active = 1;
	log_atfatal = crt_done;
	if (!crt_atexit_done) {
		atexit(crt_done);
		crt_atexit_done = 1;
	}
	cs = nl_langinfo(CODESET);
	crt_utf8 = cs != NULL && strcmp(cs, "UTF-8") == 0;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	crt_colors(want_color);
}

int
crt_init(int want_color, char *why, size_t whylen)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(why, whylen, "top needs a terminal (use --once or --json for text)");
		return -1;
	}
	setlocale(LC_ALL, "");
	if (crt_signals_on() == -1) {
		snprintf(why, whylen, "top: a pipe for signals: %s", strerror(errno));
		return -1;
	}
	/* newterm, not initscr: initscr ends the process on a terminal curses cannot use */
	if ((crt_live = newterm(NULL, stdout, stdin)) == NULL) {
		crt_signals_off();
		snprintf(why, whylen, "top: curses cannot use this terminal (TERM=%s; use --once "
		    "or --json for text)", getenv("TERM") != NULL ? getenv("TERM") : "");
		return -1;
	}
	set_term(crt_live);
	crt_setup(want_color);
	return 0;
}

int
crt_init_offscreen(FILE *out, int h, int w, int want_color)
{
	setlocale(LC_ALL, "");
	if ((crt_in = fopen("/dev/null", "r")) == NULL)
		return -1;
	if ((crt_screen = newterm("xterm", out, crt_in)) == NULL)
		return -1;
	set_term(crt_screen);
	crt_setup(want_color);
	resize_term(h, w);
	return 0;
}

void
crt_done(void)
{
	if (!crt_active)
		return;
	crt_active = 0;
	curs_set(1);
	endwin();
	if (crt_screen != NULL) {
		delscreen(crt_screen);
		crt_screen = NULL;
		fclose(crt_in);
		crt_in = NULL;
	} else {
		delscreen(crt_live);
		crt_live = NULL;
		crt_signals_off();
	}
	log_atfatal = NULL;
}
