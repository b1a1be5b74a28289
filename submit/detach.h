/*
 * detach.h — a job's supervisor started in a child process of its own, with a handshake
 * (detach.c): submit's, which outlives the command in a session of its own, and each run
 * of an experiment, which ends with the experiment. The child's stdout and stderr go to a
 * log file; it tells the parent on a pipe what the parent must know before it goes on (its
 * job recorded, the job's id), then closes the pipe.
 */
#ifndef GS_DETACH_H
#define GS_DETACH_H

#include <sys/types.h>

#include <stddef.h>

struct detach {
	const char *log;	/* the child's stdout and stderr */
	int append;		/* 1: written after what the log has, 0: the log emptied first */
	/*
	 * 1: a session of its own, stdin from /dev/null and no descriptor of ours but the
	 * pipe: it outlives us (submit). 0: it gets SIGTERM when we die (PR_SET_PDEATHSIG),
	 * which cancels its job, so that a killed parent leaves no job behind (experiment).
	 */
	int session;
};

/*
 * Fork the supervisor: in the child, nothing blocked and SIGCHLD, SIGPIPE and SIGQUIT at
 * their defaults (an ignored SIGCHLD would reap mpiexec behind launch_wait's back),
 * SIGINT, SIGTERM and SIGHUP a cancel of its job (launch_catch_signals), its stdio as d
 * says; then child(arg, fd), fd the pipe's end to write on, and the child exits with what
 * child returns (EXIT_LAUNCH when its stdio cannot be set up, EXIT_CANCELLED when we died
 * before it was tied to us). In the parent: what the child wrote before it closed the pipe
 * or ended (said, NUL-terminated, at most saidlen - 1 bytes; empty when nothing), and the
 * child's pid. A pipe or fork that fails is fatal.
 */
pid_t detach_start(const struct detach *d, int (*child)(void *arg, int fd), void *arg,
    char *said, size_t saidlen);

#endif
