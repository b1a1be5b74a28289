/*
 * proc.h — the one way gridsubmit runs a local command and waits for it with a deadline:
 * an ssh or scp per node (remote/, launch/, broker/), ip and tc for the testbed, gnuplot,
 * the console's cancel, a testbed for an experiment. A command runs from its argument
 * vector (execvp, never a shell string) in a process group of its own, so that a kill
 * reaches whatever it started; stdin from /dev/null or a few bytes given; no signal blocked and every caught
 * one, and SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM and SIGCHLD, at their defaults,
 * whatever the caller blocks (for a signalfd) or ignores. Its stdout and stderr are read
 * into memory through pipes, capped: whatever comes after the cap is read and dropped, so
 * a chatty command never blocks.
 *
 * proc_run_all waits for n commands at once, bounded by one deadline and a stop flag;
 * proc_run_wide runs them at most width at a time, each with a bound of its own;
 * proc_run is it for one; proc_start and proc_poll run one beside a loop of the caller's
 * (the console's) without blocking it. They share one start, read and reap.
 */
#ifndef GS_PROC_H
#define GS_PROC_H

#include <sys/types.h>

#include <signal.h>
#include <stddef.h>

#define PROC_OUT_CAP		(1024 * 1024)
#define PROC_ERR_CAP		(64 * 1024)
#define PROC_IN_CAP		4096	/* under any pipe's buffer: written before the fork */
#define PROC_DEADLINE		(-1)	/* status: still running at the deadline, killed */
#define PROC_STOPPED		(-2)	/* status: still running when stop() said so, killed */

/* Options of a task (its flags). */
#define PROC_OUT_NULL		0x1	/* stdout to /dev/null: out stays empty */
/*
 * A session of its own, not only a process group: no controlling terminal, so that
 * nothing that happens to the caller's terminal (a hangup, its end) reaches the command
 * and it cannot wait there for a prompt (the console's cancel, which must finish after
 * the console is gone).
 */
#define PROC_SESSION		0x2
/*
 * In the caller's process group instead: a ^C at the terminal reaches the command as it
 * reaches the caller (a testbed an experiment brings up stops with it). A kill at the
 * deadline or stop then reaches the command only, not what it started.
 */
#define PROC_CALLER_GROUP	0x4

struct proc_task {
	char **argv;		/* in: for execvp (NULL: not run, status and ended untouched) */
	const char *dir;	/* in: its working directory (NULL: the caller's) */
	const char *in;		/* in: its whole stdin, at most PROC_IN_CAP bytes, through a
				 * pipe: a secret never in argv (NULL: /dev/null) */
	const char *log;	/* in: stdout and stderr appended to this file (created 0644)
				 * instead of read: out and err stay empty (NULL: read) */
	int flags;		/* in: PROC_* options above (0: none) */
	int status;		/* exit code, 128+N for signal N, or the two above */
	int error;		/* errno when it could not be started or executed, else 0 */
	double ended;		/* clock_mono() when it ended or was killed */
	char *out;		/* stdout, NUL-terminated (PROC_OUT_CAP bytes at most) */
	char *err;		/* stderr, NUL-terminated (PROC_ERR_CAP bytes at most) */
	/* the runner's while it runs */
	double begun;		/* clock_mono() when it was started */
	pid_t pid;		/* 0: not started, or reaped */
	int fd[2];		/* the stdout and stderr pipes, -1 at their end */
	size_t len[2];
};

/*
 * Run the n tasks in parallel and wait until every one has ended, until deadline
 * (CLOCK_MONOTONIC seconds; <= 0: none) or until stop() (NULL: never) says to give up:
 * then the process groups of those still running are killed. Every task gets out and err
 * (empty for one not run). One that cannot be started or executed ends with status 127
 * and error set, why in err ("cannot run TOOL: ..."); the others go on.
 */
void proc_run_all(struct proc_task *t, size_t n, double deadline, int (*stop)(void));

/*
 * proc_run_all with at most width tasks running at once, started in order as places free
 * up, each killed (PROC_DEADLINE) when it has run each seconds (<= 0: no bound of its
 * own): a fan-out to many nodes that keeps this host's load and each node's wait bounded,
 * whatever their number. At the overall deadline or a stop, the tasks never started end
 * with the same status as the killed ones, out and err empty.
 */
void proc_run_wide(struct proc_task *t, size_t n, size_t width, double each,
    double deadline, int (*stop)(void));

/*
 * argv as the one task of proc_run_all, without options, killed after timeout seconds
 * (<= 0: no limit). t is filled in (t->argv stays NULL: argv is the caller's). Returns
 * t->status.
 */
int proc_run(char *const argv[], double timeout, struct proc_task *t);

/*
 * Without waiting: start task t (its in fields set, the rest zero), then look at it
 * whenever the caller likes. proc_start returns 0, or -1 with errno (and t->error) set
 * when it could not be started or executed: t has then ended, with status 127.
 * proc_poll reads what it wrote so far and returns 1 once it has ended (status, out and
 * err final), 0 while it runs.
 */
int proc_start(struct proc_task *t);
int proc_poll(struct proc_task *t);

/* Free every task's out, err and argv (a vector of allocated words, as remote_argv_free). */
void proc_free(struct proc_task *t, size_t n);

/* The last non-empty line of text (a tool's stderr), control bytes removed. */
void proc_last_line(const char *text, char *out, size_t outlen);

/*
 * Waiting for children without polling: block SIGCHLD (the old mask in *old, to restore
 * with sigprocmask), then nap up to ns nanoseconds or until a child ends. The runner's
 * commands start with no signal blocked; a child forked otherwise while it is blocked
 * would inherit the mask.
 */
void proc_child_block(sigset_t *old);
void proc_child_nap(long ns);

#endif
