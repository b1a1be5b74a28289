/*
 * log.h — messages to the user and fatal errors of the programs (never of libgrt).
 * Messages are "gridsubmit: what failed" on stderr, lowercase, no full stop.
 */
#ifndef GS_LOG_H
#define GS_LOG_H

#include <stdnoreturn.h>

/* Program name put before every message; set once by main(). */
extern const char *log_progname;

/* Called by fatal()/fatalx() before exiting, e.g. to restore the terminal. */
extern void (*log_atfatal)(void);

/*
 * Called by fatal()/fatalx() after the message is said, with it (without the program's
 * name), just before exit(1): e.g. to record it as a job's failure (submit/jobrun-fatal.c).
 */
extern void (*log_onfatal)(const char *message);

void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));	/* with strerror(errno) */
void log_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
noreturn void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));	/* exit 1, with strerror(errno) */
noreturn void fatalx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));	/* exit 1 */

#endif
