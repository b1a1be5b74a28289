/* jobstore.c — job directories, job ids that are never reused, atomic state files. */
#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jobstore.h"
#include "log.h"
#include "xmalloc.h"

static const char *const phase_names[] = {
	[JOB_BROKERING] = "brokering", [JOB_STAGING] = "staging",
	[JOB_LAUNCHING] = "launching", [JOB_RUNNING] = "running", [JOB_DONE] = "done",
	[JOB_FAILED] = "failed", [JOB_CANCELLED] = "cancelled",
};

const char *
job_phase_name(enum job_phase p)
{
	return phase_names[p];
}

/* mkdir -p with mode for the created parts */
static void
jobstore_mkdirs(const char *path, mode_t mode)
{
	char buf[PATH_MAX], *p;

	if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
		fatalx("path too long: %s", path);
	for (p = buf + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, mode) == -1 && errno != EEXIST)
			fatal("cannot create %s", buf);
		*p = '/';
	}
	if (mkdir(buf, mode) == -1 && errno != EEXIST)
		fatal("cannot create %s", buf);
}

const char *
jobstore_root(void)
{
	static char *root;
	const char *home, *xdg;
	struct stat sb;

	if (root != NULL)
		return root;
	if ((home = getenv("GRIDSUBMIT_HOME")) != NULL && *home != '\0')
		root = xstrdup(home);
	else if ((xdg = getenv("XDG_STATE_HOME")) != NULL && *xdg == '/')
		xasprintf(&root, "%s/gridsubmit", xdg);
	else if ((home = getenv("HOME")) != NULL && *home == '/')
		xasprintf(&root, "%s/.local/state/gridsubmit", home);
	else
		fatalx("no place for the job store: set GRIDSUBMIT_HOME or HOME");
	jobstore_mkdirs(root, 0700);
	if (stat(root, &sb) == -1)
		fatal("%s", root);
	if (!S_ISDIR(sb.st_mode))
		fatalx("%s: the job store is not a directory", root);
	/* others could plant or change job state there: refuse (RELIABILITY.md) */
	if (sb.st_mode & S_IWOTH)
		fatalx("%s: the job store is world-writable; chmod o-w it first", root);
	return root;
}

static int
jobstore_fsync_dir(const char *dir)
{
	int fd, rc;

	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

int
jobstore_write_file(const char *dir, const char *name, const void *data, size_t len)
{
	char tmp[PATH_MAX], path[PATH_MAX];
	const char *p = data;
	int fd, saved;
	ssize_t n;

	if (snprintf(tmp, sizeof tmp, "%s/.%s.tmp", dir, name) >= (int)sizeof tmp ||
	    snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) == -1)
		return -1;
	while (len > 0) {
		if ((n = write(fd, p, len)) == -1) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		p += n;
		len -= (size_t)n;
	}
	if (fsync(fd) == -1)
		goto fail;
	if (close(fd) == -1) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) == -1)
		goto fail;
	return jobstore_fsync_dir(dir);
fail:
	saved = errno;
	if (fd != -1)
		close(fd);
	unlink(tmp);
	errno = saved;
	return -1;
}

/*
 * The next id comes from jobs/next-id under an exclusive lock, and is written back before
 * the directory is made: a crash in between skips an id but never hands one out twice.
 */
void
jobstore_create(struct job_state *st)
{
	char *jobs, *lockpath, *dir, buf[32];
	long long id = 1;
	FILE *f;
	int lfd;

	xasprintf(&jobs, "%s/jobs", jobstore_root());
	jobstore_mkdirs(jobs, 0700);
	xasprintf(&lockpath, "%s/.lock", jobs);
	if ((lfd = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) == -1)
		fatal("%s", lockpath);
	if (flock(lfd, LOCK_EX) == -1)
		fatal("cannot lock %s", lockpath);
	xasprintf(&dir, "%s/next-id", jobs);
	if ((f = fopen(dir, "r")) != NULL) {
		if (fscanf(f, "%lld", &id) != 1 || id < 1)
			fatalx("%s: corrupt (expected a job number); fix or remove it", dir);
		fclose(f);
	} else if (errno != ENOENT)
		fatal("%s", dir);
	free(dir);
	for (;; id++) {
		xasprintf(&dir, "%s/%lld", jobs, id);
		if (mkdir(dir, 0700) == 0)
			break;
		if (errno != EEXIST)
			fatal("cannot create %s", dir);
		free(dir);
	}
	snprintf(buf, sizeof buf, "%lld\n", id + 1);
	if (jobstore_write_file(jobs, "next-id", buf, strlen(buf)) == -1)
		fatal("cannot write %s/next-id", jobs);
	flock(lfd, LOCK_UN);
	close(lfd);
	snprintf(st->id, sizeof st->id, "%lld", id);
	st->dir = dir;
	free(lockpath);
	free(jobs);
}

static json_t *
jobstore_str(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

/* Seconds since the epoch as ISO 8601 UTC with milliseconds; null for 0 (not yet). */
static json_t *
jobstore_time(double t)
{
	char buf[64];
	struct tm tm;
	time_t secs = (time_t)t;

	if (t <= 0 || gmtime_r(&secs, &tm) == NULL)
		return json_null();
	strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + strlen(buf), sizeof buf - strlen(buf), ".%03dZ",
	    (int)((t - (double)secs) * 1000));
	return json_string(buf);
}

int
jobstore_write_state(const struct job_state *st)
{
	json_t *o;
	char *text, *line;
	int rc;

	o = json_pack("{s:i, s:s, s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:i, s:o, s:I, s:I, s:i,"
	    " s:i, s:I, s:f}",
	    "schema_version", 1,
	    "id", st->id,
	    "name", jobstore_str(st->name),
	    "job_file", jobstore_str(st->job_file),
	    "state", job_phase_name(st->phase),
	    "reason", jobstore_str(st->reason),
	    "submitted", jobstore_time(st->submitted),
	    "started", jobstore_time(st->started),
	    "ended", jobstore_time(st->ended),
	    "ranks", st->ranks,
	    "scheme", jobstore_str(st->scheme),
	    "supervisor_pid", (json_int_t)st->supervisor_pid,
	    "mpiexec_pid", (json_int_t)st->mpiexec_pid,
	    "exit_code", st->exit_code,
	    "failed_ranks", st->failed_ranks,
	    "requeued", (json_int_t)st->requeued,
	    "makespan", st->makespan);
	if (o == NULL || (text = json_dumps(o, JSON_INDENT(2) | JSON_REAL_PRECISION(9))) == NULL)
		fatalx("cannot build the job state");
	json_decref(o);
	xasprintf(&line, "%s\n", text);
	rc = jobstore_write_file(st->dir, "state.json", line, strlen(line));
	free(line);
	free(text);
	return rc;
}

void
job_state_free(struct job_state *st)
{
	free(st->name);
	free(st->job_file);
	free(st->dir);
	free(st->reason);
	free(st->scheme);
	memset(st, 0, sizeof *st);
}
