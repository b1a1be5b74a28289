/* gate.c — rank 0's start gate (gate.h); the waiting side is in gridsubmit-rank.c. */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "launch/gate.h"

int
gate_open(const struct job_state *st, struct gate *g, char *why, size_t whylen)
{
	xasprintf(&g->path, "%s/.gate", st->dir);
	g->fd = -1;
	/* O_RDWR: opening never waits for a reader, and writing never fails for lack of one */
	if (mkfifo(g->path, 0600) == -1 ||
	    (g->fd = open(g->path, O_RDWR | O_CLOEXEC | O_NONBLOCK)) == -1) {
		snprintf(why, whylen, "%s: %s", g->path, strerror(errno));
		unlink(g->path);
		free(g->path);
		g->path = NULL;
		return -1;
	}
	return 0;
}

void
gate_release(struct gate *g, int go)
{
	char c = go ? 'g' : 's';

	/* one byte into an empty FIFO that we hold open: it cannot block or be short */
	if (g->fd != -1 && write(g->fd, &c, 1) != 1)
		fprintf(stderr, "gridsubmit: %s: %s\n", g->path, strerror(errno));
}

void
gate_close(struct gate *g)
{
	if (g->fd == -1)
		return;
	close(g->fd);
	g->fd = -1;
	unlink(g->path);
	free(g->path);
	g->path = NULL;
}
