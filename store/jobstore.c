/* jobstore.c — job directories, job ids that are never reused, atomic state files. */
#include <sys/file.h>
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/file.h"
#include "common/home.h"
#include "common/jsonout.h"
#include "common/xmalloc.h"
#include "store/jobstore.h"
#include "store/jobstore-int.h"

static const char *const phase_names[] = {
	[JOB_BROKERING] = "brokering", [JOB_PENDING] = "pending",
	[JOB_STAGING] = "staging",
	[JOB_LAUNCHING] = "launching", [JOB_RUNNING] = "running", [JOB_DONE] = "done",
	[JOB_FAILED] = "failed", [JOB_CANCELLED] = "cancelled", [JOB_TIMEOUT] = "timeout",
};

const char *
job_phase_name(enum job_phase p)
{
	return phase_names[p];
}

int
job_phase_final(enum job_phase p)
{
	return p >= JOB_DONE;
}

/* Job ids in numeric order: shorter first, then as text (ids are canonical). */
static int
jobstore_cmp_id(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t lx = strlen(x), ly = strlen(y);

	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x, y);
}

/* The lock of the ids (jobs/.lock): its descriptor (close it to unlock), or -1 with why. */
static int
jobstore_lock_ids(const char *jobs, char *why, size_t whylen)
{
	char *path;
	int fd;

	xasprintf(&path, "%s/.lock", jobs);
	/* O_NOFOLLOW: a link planted in jobs/ is refused, never opened (doc/security.md) */
	if ((fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600)) == -1 ||
	    flock(fd, LOCK_EX) == -1) {
		snprintf(why, whylen, "%s: cannot lock: %s", path, strerror(errno));
		if (fd != -1)
			close(fd);
		fd = -1;
	}
	free(path);
	return fd;
}

/*
 * The ids of the job directories of jobs (ROOT/jobs), oldest first; 0 (none when jobs is
 * missing), or -1 with why.
 */
static int
jobstore_scan(const char *jobs, char ***ids, size_t *n, char *why, size_t whylen)
{
	size_t cap = 0;
	struct dirent *de;
	char id[32];
	DIR *d;

	*ids = NULL;
	*n = 0;
	if (jobstore_trust(jobs, 1, why, whylen) == -1)
		return -1;
	if ((d = opendir(jobs)) == NULL) {
		if (errno == ENOENT)
			return 0;
		snprintf(why, whylen, "%s: %s", jobs, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		/* only canonical ids: next-id, .lock and strays are not jobs */
		if (jobstore_parse_id(de->d_name, id, sizeof id) != 0 ||
		    strcmp(id, de->d_name) != 0)
			continue;
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			*ids = xreallocarray(*ids, cap, sizeof **ids);
		}
		(*ids)[(*n)++] = xstrdup(id);
	}
	closedir(d);
	if (*n > 0)
		qsort(*ids, *n, sizeof **ids, jobstore_cmp_id);
	return 0;
}

#define JOBSTORE_ID_MAX	999999999999999999LL	/* 18 digits: jobstore_parse_id's bound */

/*
 * The id jobs/next-id says (under the ids' lock), or when it is missing, one more than
 * the highest job directory's: a next-id lost never makes an id that was handed out come
 * back while its directory is there. 0, or -1 with why (a next-id that is no number).
 */
static int
jobstore_next_id(const char *jobs, long long *id, char *why, size_t whylen)
{
	char *path, *buf, *end, **ids;
	size_t len, n;
	int rc = 0;

	xasprintf(&path, "%s/next-id", jobs);
	if (file_read(path, 64, &buf, &len) == 0) {
		errno = 0;
		*id = strtoll(buf, &end, 10);
		if (end == buf || errno != 0 || *id < 1 || *id > JOBSTORE_ID_MAX ||
		    strspn(end, " \t\r\n") != strlen(end)) {
			snprintf(why, whylen, "%s: corrupt (expected a job number); fix or "
			    "remove it", path);
			rc = -1;
		}
		free(buf);
	} else if (errno == ENOENT) {
		if ((rc = jobstore_scan(jobs, &ids, &n, why, whylen)) == 0)
			*id = n > 0 ? strtoll(ids[n - 1], NULL, 10) + 1 : 1;
		jobstore_list_free(ids, n);
	} else {
		snprintf(why, whylen, "%s: %s", path, errno == EFBIG ?
		    "corrupt (expected a job number); fix or remove it" : strerror(errno));
		rc = -1;
	}
	free(path);
	return rc;
}

int
jobstore_keep_next_id(const char *jobs, char *why, size_t whylen)
{
	char *path, buf[32];
	long long id;
	int lfd, rc = 0;

	xasprintf(&path, "%s/next-id", jobs);
	if ((lfd = jobstore_lock_ids(jobs, why, whylen)) == -1) {
		free(path);
		return -1;
	}
	/* only a missing next-id is written: one that is there already says the next id */
	if (access(path, F_OK) == -1 && errno == ENOENT) {
		if ((rc = jobstore_next_id(jobs, &id, why, whylen)) == 0) {
			snprintf(buf, sizeof buf, "%lld\n", id);
			if ((rc = file_write_atomic(jobs, "next-id", buf, strlen(buf), 0644)) == -1)
				snprintf(why, whylen, "%s: cannot write: %s", path, strerror(errno));
		}
	}
	close(lfd);
	free(path);
	return rc;
}

/*
 * The next id is taken from jobs/next-id under the lock, its directory made, and next-id
 * written back: a crash in between leaves an empty directory that the next job skips
 * (mkdir fails), so an id is never handed out twice. A directory whose state.json cannot
 * be written is removed, and its id stays skipped.
 */
int
jobstore_create(struct job_state *st, char *why, size_t whylen)
{
	char *jobs, *dir = NULL, *path, buf[32];
	const char *root;
	long long id = 1;
	int lfd;

	if ((root = home_root(why, whylen)) == NULL)
		return -1;
	xasprintf(&jobs, "%s/jobs", root);
	if (home_mkdirs(jobs, 0700) == -1) {
		snprintf(why, whylen, "cannot create %s: %s", jobs, strerror(errno));
		free(jobs);
		return -1;
	}
	if (jobstore_trust(jobs, 1, why, whylen) == -1) {
		free(jobs);
		return -1;
	}
	if ((lfd = jobstore_lock_ids(jobs, why, whylen)) == -1 ||
	    jobstore_next_id(jobs, &id, why, whylen) == -1)
		goto fail;
	for (;; id++) {
		xasprintf(&dir, "%s/%lld", jobs, id);
		if (mkdir(dir, 0700) == 0)
			break;
		if (errno != EEXIST || id >= JOBSTORE_ID_MAX) {
			snprintf(why, whylen, "cannot create %s: %s", dir, strerror(errno));
			goto fail;
		}
		free(dir);
	}
	snprintf(buf, sizeof buf, "%lld\n", id + 1);
	if (file_write_atomic(jobs, "next-id", buf, strlen(buf), 0644) == -1) {
		snprintf(why, whylen, "%s/next-id: cannot write: %s", jobs, strerror(errno));
		rmdir(dir);
		goto fail;
	}
	close(lfd);
	lfd = -1;
	snprintf(st->id, sizeof st->id, "%lld", id);
	st->dir = dir;
	if (jobstore_write_state(st) == -1) {
		snprintf(why, whylen, "%s/state.json: cannot write: %s", dir, strerror(errno));
		/* written but its directory not synced: it goes too (file_write_atomic) */
		xasprintf(&path, "%s/state.json", dir);
		unlink(path);
		free(path);
		if (rmdir(dir) == -1)
			snprintf(why + strlen(why), whylen - strlen(why),
			    "; %s could not be removed: %s", dir, strerror(errno));
		st->id[0] = '\0';
		st->dir = NULL;
		goto fail;
	}
	free(jobs);
	return 0;
fail:
	if (lfd != -1)
		close(lfd);
	free(dir);
	free(jobs);
	return -1;
}

void
jobstore_format_time(double t, char *buf, size_t len)
{
	struct tm tm;
	/* rounded to the millisecond: a time read back is written back the same */
	long long ms = llround(t * 1000);
	time_t secs = (time_t)(ms / 1000);
	size_t n;

	if (len == 0)
		return;
	buf[0] = '\0';
	if (t <= 0 || gmtime_r(&secs, &tm) == NULL)
		return;
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%03dZ", (int)(ms % 1000));
}

/* Seconds since the epoch as ISO 8601 UTC with milliseconds; null for 0 (not yet). */
json_t *
jobstore_json_time(double t)
{
	char buf[64];

	jobstore_format_time(t, buf, sizeof buf);
	return buf[0] != '\0' ? json_string(buf) : json_null();
}

json_t *
jobstore_state_json(const struct job_state *st)
{
	json_t *o;

	o = json_pack("{s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:i, s:o, s:I, s:i, s:i, s:o}",
	    "id", jsonout_id(st->id),
	    "name", jsonout_str(st->name),
	    "state", job_phase_name(st->phase),
	    "reason", jsonout_str(st->reason),
	    "submitted", jobstore_json_time(st->submitted),
	    "started", jobstore_json_time(st->started),
	    "ended", jobstore_json_time(st->ended),
	    "job_file", jsonout_str(st->job_file),
	    "ranks", st->ranks,
	    "scheme", jsonout_str(st->scheme),
	    "supervisor_pid", (json_int_t)st->supervisor_pid,
	    "restarts", st->restarts,
	    "restarts_max", st->restarts_max,
	    "restart_log", jobstore_restart_log_json(st));
	if (o != NULL && (jobstore_allocs_to_json(st, o) == -1 ||
	    json_object_set_new(o, "libgrt", st->libgrt < 0 ? json_null() :
	    json_boolean(st->libgrt)) == -1 ||
	    json_object_set_new(o, "rank_ends", jobstore_rank_ends_json(st)) == -1)) {
		json_decref(o);
		o = NULL;
	}
	return o;
}

/*
 * state.json: schema_version first, the job's state as status shows it, then what only
 * the store keeps. "exit_code" is mpiexec's here (status calls it "mpiexec_exit").
 */
static char *
jobstore_state_text(const struct job_state *st)
{
	json_t *o, *state, *kept;
	char *text = NULL, *line = NULL;

	o = json_pack("{s:i}", "schema_version", JOBSTORE_SCHEMA_VERSION);
	state = jobstore_state_json(st);
	kept = json_pack("{s:I, s:I, s:I, s:i, s:i, s:I, s:f}",
	    "mpiexec_pid", (json_int_t)st->mpiexec_pid,
	    "supervisor_start", (json_int_t)st->supervisor_start,
	    "mpiexec_start", (json_int_t)st->mpiexec_start,
	    "exit_code", st->exit_code,
	    "failed_ranks", st->failed_ranks,
	    "requeued", (json_int_t)st->requeued,
	    "makespan", st->makespan);
	if (o != NULL && state != NULL && kept != NULL && json_object_update(o, state) == 0 &&
	    json_object_update(o, kept) == 0 && jobstore_resume_to_json(st, o) == 0 &&
	    (text = json_dumps(o, JSON_INDENT(2) | JSON_REAL_PRECISION(9))) != NULL)
		xasprintf(&line, "%s\n", text);
	json_decref(kept);
	json_decref(state);
	json_decref(o);
	free(text);
	return line;
}

int
jobstore_write_state(const struct job_state *st)
{
	char *text;
	int rc;

	if ((text = jobstore_state_text(st)) == NULL) {
		errno = EILSEQ;
		return -1;
	}
	rc = file_write_atomic(st->dir, "state.json", text, strlen(text), 0644);
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
	jobstore_restarts_free(st);
	jobstore_allocs_free(st);
	jobstore_rank_ends_free(st);
	memset(st, 0, sizeof *st);
}

#define STATE_MAX	(1 << 20)	/* a state file is a few hundred bytes */

int
jobstore_parse_id(const char *arg, char *id, size_t idlen)
{
	const char *p;
	int n;

	if (arg == NULL || *arg == '\0' || strlen(arg) > 18)
		return -1;
	for (p = arg; *p != '\0'; p++)
		if (!isdigit((unsigned char)*p))
			return -1;
	while (arg[0] == '0' && arg[1] != '\0')
		arg++;
	if (strcmp(arg, "0") == 0)
		return -1;
	n = snprintf(id, idlen, "%s", arg);
	return n < 0 || (size_t)n >= idlen ? -1 : 0;
}

char *
jobstore_job_dir(const char *id, char *why, size_t whylen)
{
	const char *root;
	char *dir;

	if ((root = home_find(why, whylen)) == NULL)
		return NULL;
	xasprintf(&dir, "%s/jobs", root);
	if (jobstore_trust(dir, 1, why, whylen) == -1) {
		free(dir);
		return NULL;
	}
	free(dir);
	xasprintf(&dir, "%s/jobs/%s", root, id);
	return dir;
}

double
jobstore_parse_time(const char *s)
{
	struct tm tm;
	const char *p;
	double frac = 0;
	time_t t;

	memset(&tm, 0, sizeof tm);
	if ((p = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm)) == NULL)
		return -1;
	if (*p == '.') {
		char *end;

		frac = strtod(p, &end);
		p = end;
	}
	if (strcmp(p, "Z") != 0 || (t = timegm(&tm)) == (time_t)-1)
		return -1;
	return (double)t + frac;
}

/* One field of the state document; a wrong type makes the whole file bad. */
struct jobstore_field {
	const char *key;
	int type;		/* 's' string or null, 't' time, 'i' integer, 'n' number, 'b' boolean */
	int required;
	void *dst;
};

static int
jobstore_decode(json_t *o, struct job_state *st, const char *path, char *why, size_t whylen)
{
	json_int_t sup = 0, mpi = 0, supst = 0, mpist = 0, ranks = 0, code = -1, failed = 0;
	json_int_t requeued = 0, version;
	char *phase = NULL, id[32];
	const struct jobstore_field fields[] = {
		{ "state", 's', 1, &phase },
		{ "name", 's', 0, &st->name },
		{ "job_file", 's', 0, &st->job_file },
		{ "reason", 's', 0, &st->reason },
		{ "scheme", 's', 0, &st->scheme },
		{ "submitted", 't', 0, &st->submitted },
		{ "started", 't', 0, &st->started },
		{ "ended", 't', 0, &st->ended },
		{ "ranks", 'i', 0, &ranks },
		{ "supervisor_pid", 'i', 0, &sup },
		{ "supervisor_start", 'i', 0, &supst },
		{ "mpiexec_pid", 'i', 0, &mpi },
		{ "mpiexec_start", 'i', 0, &mpist },
		{ "exit_code", 'i', 0, &code },
		{ "failed_ranks", 'i', 0, &failed },
		{ "requeued", 'i', 0, &requeued },
		{ "makespan", 'n', 0, &st->makespan },
		{ "libgrt", 'b', 0, &st->libgrt },
	};
	const struct jobstore_field *f;
	json_t *v;
	size_t i;
	int p;

	if (!json_is_object(o)) {
		snprintf(why, whylen, "%s: corrupt job state: not a JSON object", path);
		return JOBSTORE_BAD;
	}
	v = json_object_get(o, "schema_version");
	if (!json_is_integer(v)) {
		snprintf(why, whylen, "%s: corrupt job state: no integer \"schema_version\"",
		    path);
		return JOBSTORE_BAD;
	}
	if ((version = json_integer_value(v)) < 1 || version > JOBSTORE_SCHEMA_VERSION) {
		snprintf(why, whylen, "%s: job state of schema_version %lld, this gridsubmit "
		    "reads versions 1 to %d%s", path, (long long)version,
		    JOBSTORE_SCHEMA_VERSION, version > JOBSTORE_SCHEMA_VERSION ?
		    " (written by a newer gridsubmit?)" : "");
		return JOBSTORE_BAD;
	}
	/* the id: a string in version 1 ("12"), a number since */
	v = json_object_get(o, "id");
	if (v == NULL || json_is_null(v)) {
		snprintf(why, whylen, "%s: corrupt job state: \"id\" is missing", path);
		return JOBSTORE_BAD;
	}
	if (version == 1 ? !json_is_string(v) : !json_is_integer(v)) {
		snprintf(why, whylen, "%s: corrupt job state: \"id\" has the wrong type", path);
		return JOBSTORE_BAD;
	}
	if (version == 1)
		snprintf(id, sizeof id, "%s", json_string_value(v));
	else
		snprintf(id, sizeof id, "%lld", (long long)json_integer_value(v));
	if (jobstore_parse_id(id, st->id, sizeof st->id) != 0) {
		snprintf(why, whylen, "%s: corrupt job state: bad \"id\"", path);
		return JOBSTORE_BAD;
	}
	for (i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		f = &fields[i];
		v = json_object_get(o, f->key);
		if (v == NULL || json_is_null(v)) {
			if (!f->required)
				continue;
			snprintf(why, whylen, "%s: corrupt job state: \"%s\" is missing", path,
			    f->key);
			goto bad;
		}
		switch (f->type) {
		case 's':
			if (!json_is_string(v))
				goto type;
			*(char **)f->dst = xstrdup(json_string_value(v));
			break;
		case 't':
			if (!json_is_string(v) ||
			    (*(double *)f->dst = jobstore_parse_time(json_string_value(v))) < 0)
				goto type;
			break;
		case 'i':
			if (!json_is_integer(v))
				goto type;
			*(json_int_t *)f->dst = json_integer_value(v);
			break;
		case 'n':
			if (!json_is_number(v))
				goto type;
			*(double *)f->dst = json_number_value(v);
			break;
		case 'b':
			if (!json_is_boolean(v))
				goto type;
			*(int *)f->dst = json_is_true(v);
			break;
		}
	}
	for (p = JOB_BROKERING; p <= JOB_TIMEOUT; p++)
		if (strcmp(phase, phase_names[p]) == 0)
			break;
	if (p > JOB_TIMEOUT) {
		snprintf(why, whylen, "%s: corrupt job state: unknown state '%.40s'", path, phase);
		goto bad;
	}
	/* a pid is signalled by cancel: 0 (none) or a process's, never 1 or a group (< 0) */
	if (sup < 0 || sup == 1 || sup > INT_MAX || mpi < 0 || mpi == 1 || mpi > INT_MAX) {
		snprintf(why, whylen, "%s: corrupt job state: \"%s\" is not a process id "
		    "(above 1, or 0 for none)", path, sup < 0 || sup == 1 || sup > INT_MAX ?
		    "supervisor_pid" : "mpiexec_pid");
		goto bad;
	}
	if (ranks < 0 || ranks > INT_MAX || supst < 0 || mpist < 0 ||
	    failed < 0 || failed > INT_MAX || code < INT_MIN || code > INT_MAX) {
		snprintf(why, whylen, "%s: corrupt job state: a number is out of range", path);
		goto bad;
	}
	st->phase = (enum job_phase)p;
	st->ranks = (int)ranks;
	st->supervisor_pid = (long)sup;
	st->supervisor_start = (unsigned long long)supst;
	st->mpiexec_pid = (long)mpi;
	st->mpiexec_start = (unsigned long long)mpist;
	st->exit_code = (int)code;
	st->failed_ranks = (int)failed;
	st->requeued = requeued;
	free(phase);
	if (jobstore_restarts_from_json(o, st, path, why, whylen) != JOBSTORE_OK)
		return JOBSTORE_BAD;
	if (jobstore_allocs_from_json(o, st, path, why, whylen) != JOBSTORE_OK)
		return JOBSTORE_BAD;
	return jobstore_rank_ends_from_json(o, st, path, why, whylen);
type:
	snprintf(why, whylen, "%s: corrupt job state: \"%s\" has the wrong type", path, f->key);
bad:
	free(phase);
	return JOBSTORE_BAD;
}

/*
 * The state file into *buf (NUL-terminated); its length, or -1 with errno (EFBIG: not a
 * regular file of at most STATE_MAX bytes).
 */
static ssize_t
jobstore_slurp(const char *path, char **buf)
{
	struct stat sb;
	size_t len;

	if (stat(path, &sb) == -1)
		return -1;
	if (!S_ISREG(sb.st_mode)) {
		errno = EFBIG;
		return -1;
	}
	if (file_read(path, STATE_MAX, buf, &len) == -1)
		return -1;
	return (ssize_t)len;
}

int
jobstore_read_state(const char *id_or_dir, struct job_state *st, char *why, size_t whylen)
{
	char id[32], *dir, *path, *buf = NULL;
	json_error_t jerr;
	struct stat sb;
	ssize_t len;
	json_t *o;
	int rc;

	memset(st, 0, sizeof *st);
	st->exit_code = -1;
	st->libgrt = -1;
	if (strchr(id_or_dir, '/') != NULL)
		dir = xstrdup(id_or_dir);
	else if (jobstore_parse_id(id_or_dir, id, sizeof id) == 0) {
		if ((dir = jobstore_job_dir(id, why, whylen)) == NULL)
			return JOBSTORE_ERROR;
	} else {
		snprintf(why, whylen, "'%.40s' is not a job id (ids are numbers: see gridsubmit "
		    "list)", id_or_dir);
		return JOBSTORE_NOJOB;
	}
	if (stat(dir, &sb) == -1 || !S_ISDIR(sb.st_mode)) {
		snprintf(why, whylen, "job %.40s: no such job (see gridsubmit list)",
		    strchr(id_or_dir, '/') != NULL ? dir : id);
		free(dir);
		return JOBSTORE_NOJOB;
	}
	xasprintf(&path, "%s/state.json", dir);
	if (jobstore_trust(dir, 1, why, whylen) == -1 ||
	    jobstore_trust(path, 0, why, whylen) == -1)
		rc = JOBSTORE_BAD;
	else if ((len = jobstore_slurp(path, &buf)) == -1) {
		if (errno == ENOENT)
			snprintf(why, whylen, "%s: missing: the submit was interrupted before the "
			    "job was recorded (remove the directory)", path);
		else if (errno == EFBIG)
			snprintf(why, whylen, "%s: corrupt job state: not a regular file of at "
			    "most %d bytes", path, STATE_MAX);
		else
			snprintf(why, whylen, "%s: %s", path, strerror(errno));
		rc = JOBSTORE_BAD;
	} else if (len == 0 || strspn(buf, " \t\r\n") == (size_t)len) {
		snprintf(why, whylen, "%s: empty (a torn write?) and there is no earlier copy to "
		    "fall back on; the job's other files are in %s", path, dir);
		rc = JOBSTORE_BAD;
	} else if ((o = json_loadb(buf, (size_t)len, JSON_REJECT_DUPLICATES, &jerr)) == NULL) {
		snprintf(why, whylen, "%s:%d:%d: corrupt job state: %s", path, jerr.line,
		    jerr.column, jerr.text);
		rc = JOBSTORE_BAD;
	} else {
		rc = jobstore_decode(o, st, path, why, whylen);
		json_decref(o);
	}
	free(buf);
	free(path);
	if (rc != JOBSTORE_OK) {
		job_state_free(st);
		free(dir);
		return rc;
	}
	st->dir = dir;
	return JOBSTORE_OK;
}

int
jobstore_list(char ***ids, size_t *n, char *why, size_t whylen)
{
	const char *root;
	char *jobs;
	int rc;

	*ids = NULL;
	*n = 0;
	if ((root = home_find(why, whylen)) == NULL)
		return -1;
	xasprintf(&jobs, "%s/jobs", root);
	rc = jobstore_scan(jobs, ids, n, why, whylen);
	free(jobs);
	return rc;
}

void
jobstore_list_free(char **ids, size_t n)
{
	strv_free(ids, n);
}

int
jobstore_latest_id(char *id, size_t idlen, char *why, size_t whylen)
{
	const char *root;
	char **ids;
	size_t n;
	int rc = JOBSTORE_OK;

	if ((root = home_find(why, whylen)) == NULL ||
	    jobstore_list(&ids, &n, why, whylen) == -1)
		return JOBSTORE_ERROR;
	if (n > 0)
		snprintf(id, idlen, "%s", ids[n - 1]);
	else {
		snprintf(why, whylen, "no job yet in %s/jobs", root);
		rc = JOBSTORE_NOJOB;
	}
	jobstore_list_free(ids, n);
	return rc;
}

int
jobstore_lock(const char *dir, char *why, size_t whylen)
{
	int fd;

	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 ||
	    flock(fd, LOCK_EX) == -1) {
		snprintf(why, whylen, "%s: cannot lock: %s", dir, strerror(errno));
		if (fd != -1)
			close(fd);
		return -1;
	}
	return fd;
}

int
jobstore_record_end(struct job_state *st, enum job_phase phase, const char *reason,
    char *why, size_t whylen)
{
	struct job_state now;
	int fd, rc;

	/* the re-read and the write under the lock: of two recorders, the second sees the end */
	if ((fd = jobstore_lock(st->dir, why, whylen)) == -1)
		return -1;
	if (jobstore_read_state(st->dir, &now, why, whylen) != JOBSTORE_OK) {
		close(fd);
		return -1;
	}
	if (job_phase_final(now.phase)) {
		job_state_free(st);
		*st = now;
		close(fd);
		return 0;
	}
	job_state_free(st);
	*st = now;
	st->phase = phase;
	free(st->reason);
	st->reason = reason != NULL ? xstrdup(reason) : NULL;
	st->ended = clock_wall();
	rc = jobstore_write_state(st);
	if (rc != 0)
		snprintf(why, whylen, "%s/state.json: cannot write: %s", st->dir, strerror(errno));
	close(fd);
	return rc == 0 ? 1 : -1;
}

int
jobstore_set_phase(struct job_state *st, enum job_phase phase, const char *reason)
{
	st->phase = phase;
	free(st->reason);
	st->reason = reason != NULL ? xstrdup(reason) : NULL;
	/* started stays the first launch's: a relaunch continues the same job */
	if (phase == JOB_RUNNING && st->started == 0)
		st->started = clock_wall();
	if (job_phase_final(phase))
		st->ended = clock_wall();
	return jobstore_write_state(st);
}
