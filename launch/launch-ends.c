/*
 * launch-ends.c — the ranks' ends while a launch runs (common/rank-end.h). A program that
 * never started libgrt has no one to take over a failed rank's work, and its other ranks
 * may wait for the failed one in a collective forever (mpiexec runs under
 * -disable-auto-cleanup for libgrt's sake): at its first failed rank the launch is stopped,
 * as mpiexec's own cleanup stops a plain MPI job. Every launch starts with no end: what
 * the ranks of one called off said is not its own.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/events-read.h"
#include "common/log.h"
#include "common/rank-end.h"
#include "common/xmalloc.h"
#include "launch/launch-int.h"
#include "launch/lease.h"

void
launch_ends_reset(const struct job_state *st)
{
	char *path;

	/* what the lease holds now is of a launch called off: read and dropped */
	lease_ends_file(NULL);
	lease_read();
	xasprintf(&path, "%s/%s", st->dir, RANK_ENDS_FILE);
	if (unlink(path) == -1 && errno != ENOENT)
		log_warn("job %s: %s", st->id, path);
	lease_ends_file(path);
	free(path);
}

/* 1 when the launch's events hold a start record: the program runs on libgrt. */
static int
ends_libgrt_started(const struct job_state *st)
{
	struct evreader *r;
	struct event ev;
	char *path;
	int started = 0;

	xasprintf(&path, "%s/events.jsonl", st->dir);
	r = evreader_open(path);
	free(path);
	if (r == NULL)
		return 0;
	memset(&ev, 0, sizeof ev);
	while (evreader_next(r, &ev) == 1) {
		/* a restart record begins a new launch */
		if (ev.kind == EV_START || ev.kind == EV_RESTART)
			started = ev.kind == EV_START;
		event_clear(&ev);
	}
	evreader_free(r);
	return started;
}

int
launch_ends_plain_failed(const struct job_state *st, struct launch_ends *w)
{
	struct rank_end *v;
	struct stat sb;
	char *path;
	size_t n;
	int failed;

	xasprintf(&path, "%s/%s", st->dir, RANK_ENDS_FILE);
	if (stat(path, &sb) == -1 || (long long)sb.st_size == w->size) {
		free(path);
		return 0;
	}
	free(path);
	w->size = (long long)sb.st_size;
	if (rank_ends_read(st->dir, &v, &n) != 0)
		return 0;
	failed = rank_ends_first_failure(v, n) != NULL;
	free(v);
	return failed && !ends_libgrt_started(st);
}
