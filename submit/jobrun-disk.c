/*
 * jobrun-disk.c — a job whose directory's disk is full or read-only (doc/restarts.md, "A
 * full or read-only disk"): told apart from other failures by a page written in its
 * directory, failed with the reason (the master's, naming the file it could not write, when
 * its end record got written) and never relaunched (a relaunch would meet the same disk),
 * resumable once the disk has room.
 *
 * While a job runs, its directory holds a small reserve file: on a full disk the
 * supervisor removes it, and the few kilobytes it frees are enough for state.json to
 * record the failure and its reason. A read-only disk takes nothing: state.json keeps its
 * last state, the supervisor says the reason on stderr and exits, and `status` finds the
 * supervisor gone.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/events-read.h"
#include "common/file.h"
#include "common/xmalloc.h"
#include "submit/jobrun.h"

#define DISK_RESERVE_NAME	".reserve"
#define DISK_RESERVE_BYTES	(64 * 1024)	/* state.json of a job with many restarts */
#define DISK_PROBE_BYTES	4096		/* one page: a write that needs a new block */

void
jobrun_disk_reserve(const struct job_state *st)
{
	char *path;
	int fd;

	/* a reserve a killed supervisor left: made again, never opened through a link */
	xasprintf(&path, "%s/%s", st->dir, DISK_RESERVE_NAME);
	(void)unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	/* no reserve (a disk already full): a failure is then said on stderr only */
	if (fd >= 0 && posix_fallocate(fd, 0, DISK_RESERVE_BYTES) != 0)
		(void)unlink(path);
	if (fd >= 0)
		close(fd);
	free(path);
}

void
jobrun_disk_release(const struct job_state *st)
{
	char *path;

	xasprintf(&path, "%s/%s", st->dir, DISK_RESERVE_NAME);
	(void)unlink(path);
	free(path);
}

/*
 * 0 when a new page can be written and made durable in dir, else the errno that refused
 * it (ENOSPC, EDQUOT, EROFS, EIO; EMFILE when this process has no descriptor left). The
 * probe file is removed whatever happens.
 */
static int
disk_probe(const char *dir)
{
	char *path, page[DISK_PROBE_BYTES];
	int fd, err = 0;

	xasprintf(&path, "%s/.probe-%ld", dir, (long)getpid());
	memset(page, 0, sizeof page);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
	    0600)) == -1) {
		err = errno;
		free(path);
		return err == EEXIST ? 0 : err;
	}
	if (file_write_all(fd, page, sizeof page) == -1 || fdatasync(fd) == -1)
		err = errno != 0 ? errno : EIO;
	close(fd);
	(void)unlink(path);
	free(path);
	return err;
}

/* The errors of a disk; EMFILE or ENOMEM are this process's (jobrun-resource.c). */
static int
disk_error(int err)
{
	return err == ENOSPC || err == EDQUOT || err == EROFS || err == EIO;
}

/*
 * The master's own words when its end record got written (a full disk often leaves room
 * in the events file's last page): "no space left on device writing DIR/journal", the
 * error of the last launch's end; "" when there is none.
 */
static void
disk_master_error(const struct job_state *st, char *dst, size_t len)
{
	struct evreader *r;
	struct event ev;
	char *path;

	dst[0] = '\0';
	xasprintf(&path, "%s/events.jsonl", st->dir);
	r = evreader_open(path);
	free(path);
	memset(&ev, 0, sizeof ev);
	while (r != NULL && evreader_next(r, &ev) == 1) {
		if (ev.kind == EV_START || ev.kind == EV_RESTART)
			dst[0] = '\0';
		else if (ev.kind == EV_END && strstr(ev.error, " writing ") != NULL)
			snprintf(dst, len, "%s", ev.error);
		event_clear(&ev);
	}
	evreader_free(r);
}

int
jobrun_disk_failure(struct jobrun *jr, char *reason, size_t len)
{
	char what[EV_ERROR_MAX + 64];
	int err = disk_probe(jr->st.dir);

	if (!disk_error(err))
		return 0;
	disk_master_error(&jr->st, what, sizeof what);
	if (what[0] == '\0') {
		/* "No space left on device" as messages are written: lowercase */
		snprintf(what, sizeof what, "%s writing in %s (its journal and events cannot "
		    "be written)", strerror(err), jr->st.dir);
		what[0] = (char)tolower((unsigned char)what[0]);
	}
	snprintf(reason, len, "rank 0 stopped: %s; resume it once the disk has room: "
	    "gridsubmit resume %s", what, jr->st.id);
	jobrun_disk_release(&jr->st);
	return 1;
}
