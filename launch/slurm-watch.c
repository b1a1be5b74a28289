/*
 * slurm-watch.c — the job's allocations watched while mpiexec runs (slurm-site.h,
 * doc/slurm.md, "End, cancel, lost allocations"). A child of the supervisor looks at them
 * through their login hosts every SLURM_WATCH_EVERY seconds and writes "I|STATE|REASON"
 * on a pipe for allocation I the moment Slurm has ended it: a node failure, the time
 * limit, a preemption. Slurm forgets an ended job after MinJobAge (300 s by default), and
 * the runtime may go on for days with the other sites' workers: looked at only after the
 * run, the reason would be gone. The supervisor reads the pipe between its other work
 * (never waiting on a login host) and records the end in state.json at once.
 */
#include <sys/prctl.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "launch/slurm-site.h"
#include "store/jobstore.h"

#define SLURM_WATCH_EVERY	2	/* seconds between looks */

/* The child: looks until every allocation held at the start has ended, or it is stopped. */
static noreturn void
slurm_watch_child(struct job_state *st, const char *config, int fd, pid_t parent)
{
	struct timespec ts = { SLURM_WATCH_EVERY, 0 };
	struct sigaction sa;
	sigset_t none;
	char why[768];
	size_t i, left;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* the supervisor's descriptors (the lease's socket, ...) are not the child's to hold */
	close_range(3, (unsigned)fd - 1, 0);
	close_range((unsigned)fd + 1, ~0U, 0);
	/* never outlives the supervisor */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) == -1 || getppid() != parent)
		_exit(0);
	for (;;) {
		for (i = 0, left = 0; i < st->nallocs; i++) {
			struct job_alloc *a = &st->allocs[i];

			if (a->released != JOB_ALLOC_HELD)
				continue;
			if (slurm_alloc_look(a, config, why, sizeof why) == 0 &&
			    slurm_alloc_over(a)) {
				dprintf(fd, "%zu|%s|%s\n", i, a->state, a->reason != NULL ?
				    a->reason : "");
				a->released = JOB_ALLOC_ENDED;
			} else
				left++;
		}
		if (left == 0)
			_exit(0);
		nanosleep(&ts, NULL);
	}
}

int
slurm_watch_start(struct slurm_watch *w, struct job_state *st, const char *config)
{
	pid_t parent = getpid();
	int p[2];

	memset(w, 0, sizeof *w);
	w->pid = -1;
	w->fd = -1;
	if (pipe2(p, O_CLOEXEC) == -1)
		return -1;
	if ((w->pid = fork()) == -1) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (w->pid == 0) {
		close(p[0]);
		slurm_watch_child(st, config, p[1], parent);
	}
	close(p[1]);
	w->fd = p[0];
	if (fcntl(w->fd, F_SETFL, O_NONBLOCK) == -1) {
		slurm_watch_stop(w);
		return -1;
	}
	return 0;
}

/* One line of the child's, "I|STATE|REASON": allocation I ended. */
static int
slurm_watch_record(struct job_state *st, char *line)
{
	char *state, *reason, *end;
	struct job_alloc *a;
	unsigned long i;

	if ((state = strchr(line, '|')) == NULL || (reason = strchr(state + 1, '|')) == NULL)
		return 0;
	*state++ = '\0';
	*reason++ = '\0';
	errno = 0;
	i = strtoul(line, &end, 10);
	if (errno != 0 || *end != '\0' || i >= st->nallocs)
		return 0;
	a = &st->allocs[i];
	if (a->released != JOB_ALLOC_HELD)
		return 0;
	jobstore_alloc_set_state(a, state, *reason != '\0' ? reason : NULL);
	a->released = JOB_ALLOC_ENDED;
	log_warnx("job %s: Slurm ended job %s on site %s: %s%s%s; its nodes are lost", st->id,
	    a->id, a->site, a->state, a->reason != NULL ? ", " : "",
	    a->reason != NULL ? a->reason : "");
	return 1;
}

size_t
slurm_watch_poll(struct slurm_watch *w, struct job_state *st)
{
	size_t ended = 0;
	char *nl;
	ssize_t r;

	if (w->fd == -1)
		return 0;
	while ((r = read(w->fd, w->buf + w->len, sizeof w->buf - 1 - w->len)) > 0) {
		w->len += (size_t)r;
		w->buf[w->len] = '\0';
		while ((nl = strchr(w->buf, '\n')) != NULL) {
			*nl = '\0';
			ended += slurm_watch_record(st, w->buf);
			w->len -= (size_t)(nl + 1 - w->buf);
			memmove(w->buf, nl + 1, w->len + 1);
		}
		/* a line longer than the buffer is no line of the child's */
		if (w->len == sizeof w->buf - 1)
			w->len = 0;
	}
	if (r == 0 || (r == -1 && errno != EAGAIN && errno != EINTR)) {
		close(w->fd);
		w->fd = -1;
	}
	if (ended > 0 && jobstore_write_state(st) != 0)
		log_warnx("job %s: cannot write %s/state.json", st->id, st->dir);
	return ended;
}

void
slurm_watch_stop(struct slurm_watch *w)
{
	if (w->pid > 0) {
		kill(w->pid, SIGTERM);
		while (waitpid(w->pid, NULL, 0) == -1 && errno == EINTR)
			;
	}
	if (w->fd != -1)
		close(w->fd);
	w->pid = -1;
	w->fd = -1;
	w->len = 0;
}
