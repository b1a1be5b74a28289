/*
 * preflight-session.c — the checks of a speculative launch, run inside mpiexec's own ssh
 * session to each node (preflight.h, doc/architecture.md "Speculative launch"): no ssh of
 * our own before the job starts. The launcher runs the command before it execs the proxy;
 * the node writes its answer into the job directory it shares with us, and we read it.
 */
#include <sys/inotify.h>
#include <sys/signalfd.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/proc.h"
#include "common/xmalloc.h"
#include "launch/launch-int.h"
#include "launch/launch.h"
#include "launch/preflight.h"
#include "remote/remote.h"

#define SESSION_DEADLINE	25.0	/* ssh's ConnectTimeout (10) + the checks */
#define SESSION_NAP_MS		50	/* a file system without inotify (NFS) is read this often */

char *
preflight_session_command(const struct preflight_setup *s, const struct job_state *st,
    const char *addr)
{
	char *words[16], *cmd = xstrdup(""), *q, *more;
	size_t i;

	/* mpiexec's session holds the proxy's stdin: the secret comes from DIR, shared */
	preflight_words(s, st, addr, 0, words);
	for (i = 0; words[i] != NULL; i++) {
		q = remote_quote(words[i]);
		xasprintf(&more, "%s%s%s", cmd, i > 0 ? " " : "", q);
		free(q);
		free(cmd);
		cmd = more;
	}
	return cmd;
}

/* The whole file at DIR/.remote/HOST.SUFFIX, or NULL. */
static char *
session_read(const struct job_state *st, const char *host, const char *suffix)
{
	char *path, *text = NULL;
	size_t cap = 0;
	FILE *f;

	xasprintf(&path, "%s/.remote/%s.%s", st->dir, host, suffix);
	f = fopen(path, "r");
	free(path);
	if (f == NULL)
		return NULL;
	if (getdelim(&text, &cap, '\0', f) == -1) {
		free(text);
		text = xstrdup("");
	}
	fclose(f);
	return text;
}

/* A node's answer is whole once its last line, END, is there. */
static int
session_answer_whole(const char *text)
{
	size_t n = strlen(text);

	return n >= 4 && strcmp(text + n - 4, "END\n") == 0;
}

/*
 * Look at one node: 1 when its answer says it may go, 0 while it has not answered, -1
 * when it may not (why says so).
 */
static int
session_node(const struct job_state *st, const struct preflight_setup *s, const char *host,
    char *why, size_t whylen)
{
	char *answer, *ended, reason[600];
	int rc;

	if ((answer = session_read(st, host, "preflight")) == NULL ||
	    !session_answer_whole(answer)) {
		free(answer);
		if ((ended = session_read(st, host, "ended")) == NULL)
			return 0;
		/* the session wrote its answer before it ended: a late look finds it */
		answer = session_read(st, host, "preflight");
		if (answer == NULL || !session_answer_whole(answer)) {
			snprintf(why, whylen, "%s: its session ended (ssh status %d) without an "
			    "answer in our job directory", host, atoi(ended));
			free(ended);
			free(answer);
			return -1;
		}
		free(ended);
	}
	rc = preflight_answer_ready(s, host, answer, reason, sizeof reason) ? 1 : -1;
	if (rc == -1)
		snprintf(why, whylen, "%s: %s", host, reason);
	free(answer);
	return rc;
}

/* inotify on DIR/.remote and a signalfd for SIGCHLD (blocked meanwhile), or -1 each. */
static void
session_watch(const struct job_state *st, int *ino, int *chld, sigset_t *old)
{
	sigset_t set;
	char *path;

	xasprintf(&path, "%s/.remote", st->dir);
	if ((*ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) != -1 &&
	    inotify_add_watch(*ino, path, IN_CLOSE_WRITE | IN_MOVED_TO) == -1) {
		close(*ino);
		*ino = -1;
	}
	free(path);
	proc_child_block(old);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	*chld = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

static void
session_drain(int fd)
{
	char buf[4096];

	while (fd != -1 && read(fd, buf, sizeof buf) > 0)
		;
}

int
preflight_session_wait(const struct gs_sites *sites, const struct gs_placement *p,
    const struct job_state *st, const struct preflight_setup *s, pid_t mpiexec, char *why,
    size_t whylen)
{
	double deadline = clock_mono() + SESSION_DEADLINE;
	int *done = xcalloc(sites->nnodes + 1, sizeof *done);
	int ino, chld, r, rc = 1, pending;
	struct pollfd pfd[2];
	sigset_t old;

	session_watch(st, &ino, &chld, &old);
	for (;;) {
		pending = 0;
		for (r = 0; r < p->nranks && rc == 1; r++) {
			size_t node = p->ranks[r].node;
			const char *host;

			if (node == BROKER_NODE_NONE || done[node])
				continue;
			host = sites->nodes[node].host;
			if (remote_host_is_local(host))
				continue;
			switch (session_node(st, s, host, why, whylen)) {
			case 1:
				done[node] = 1;
				break;
			case 0:
				pending = 1;
				break;
			default:
				rc = -1;
			}
		}
		if (rc == -1 || !pending)
			break;
		if (launch_cancel_requested()) {
			snprintf(why, whylen, "cancelled during preflight");
			rc = -1;
		} else if (!launch_running(mpiexec)) {
			snprintf(why, whylen, "mpiexec ended before every node answered");
			rc = -1;
		} else if (clock_mono() > deadline) {
			snprintf(why, whylen, "not every node answered within %.0f s",
			    SESSION_DEADLINE);
			rc = -1;
		}
		if (rc == -1)
			break;
		pfd[0].fd = ino;
		pfd[0].events = POLLIN;
		pfd[1].fd = chld;
		pfd[1].events = POLLIN;
		if (poll(pfd, 2, SESSION_NAP_MS) > 0) {
			session_drain(ino);
			session_drain(chld);
		}
	}
	if (ino != -1)
		close(ino);
	if (chld != -1)
		close(chld);
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(done);
	return rc == 1 ? 0 : -1;
}
