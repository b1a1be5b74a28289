/*
 * fanout.h — n local commands at once, the one way gridsubmit waits for several of them
 * (an ssh or scp per node for preflight, staging, cleanup and cancel; remote_run is one).
 * Each runs from its argument vector in a process group of its own, with stdin from
 * /dev/null; its stdout and stderr are read into memory through pipes (capped: whatever
 * comes after the cap is read and dropped, so a chatty command never blocks), all of them
 * bounded by one deadline and a stop flag.
 */
#ifndef GS_FANOUT_H
#define GS_FANOUT_H

#include <stddef.h>

#define FANOUT_OUT_CAP		(1024 * 1024)
#define FANOUT_ERR_CAP		(64 * 1024)
#define FANOUT_DEADLINE		(-1)	/* status: still running at the deadline, killed */
#define FANOUT_STOPPED		(-2)	/* status: still running when stop() said so, killed */

struct fanout_task {
	char **argv;		/* in: for execvp (NULL: not run, status and ended untouched) */
	int status;		/* exit code, 128+N for signal N, or the two above */
	double ended;		/* clock_mono() when it ended or was killed */
	char *out;		/* stdout, NUL-terminated (FANOUT_OUT_CAP bytes at most) */
	char *err;		/* stderr, NUL-terminated (FANOUT_ERR_CAP bytes at most) */
};

/*
 * Run the n tasks in parallel and wait until every one has ended, until deadline
 * (CLOCK_MONOTONIC seconds; <= 0: none) or until stop() (NULL: never) says to give up:
 * then the process groups of those still running are killed. Every task gets out and err
 * (empty for one not run). A command that cannot be executed ends with status 127.
 */
void fanout_run(struct fanout_task *t, size_t n, double deadline, int (*stop)(void));

/* Free every task's out, err and argv (as remote_argv_free does). */
void fanout_free(struct fanout_task *t, size_t n);

/* The last non-empty line of text (a tool's stderr), control bytes removed. */
void fanout_last_line(const char *text, char *out, size_t outlen);

#endif
