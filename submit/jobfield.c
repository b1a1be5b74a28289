/*
 * jobfield.c — a job's fields for list and status (jobfield.h): what each says, as text
 * and as JSON, in one table so that the two commands and their --json never disagree.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "common/jsonout.h"
#include "common/rank-end.h"
#include "common/rankmap.h"
#include "common/text.h"
#include "common/xmalloc.h"
#include "launch/jobctl.h"
#include "store/jobstore.h"
#include "submit/jobfield.h"

static const struct {
	const char *name;
	int numeric;
} jobfield_table[JF_COUNT] = {
	[JF_ID] = { "id", 0 }, [JF_NAME] = { "name", 0 }, [JF_STATE] = { "state", 0 },
	[JF_REASON] = { "reason", 0 }, [JF_RANKS] = { "ranks", 1 },
	[JF_NODES] = { "nodes", 1 }, [JF_SCHEME] = { "scheme", 0 },
	[JF_SUBMITTED] = { "submitted", 0 }, [JF_STARTED] = { "started", 0 },
	[JF_ENDED] = { "ended", 0 }, [JF_ELAPSED] = { "elapsed", 1 },
	[JF_MAKESPAN] = { "makespan", 1 }, [JF_EXIT] = { "exit", 1 }, [JF_DIR] = { "dir", 0 },
	[JF_RESTARTS] = { "restarts", 1 },
};

const char *
jobfield_name(enum job_field f)
{
	return jobfield_table[f].name;
}

int
jobfield_numeric(enum job_field f)
{
	return jobfield_table[f].numeric;
}

static int
jobfield_cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The distinct nodes of DIR/rankmap (rankmap.h); -1 without one. Counted over the names
 * sorted: comparing each with every earlier one took 0.5 s of CPU for 10,000 ranks.
 */
static int
jobfield_count_nodes(const char *dir)
{
	struct rankmap_row *rows;
	const char **names;
	size_t n, i, distinct = 0;

	if (rankmap_read(dir, &rows, &n) == -1)
		return -1;
	names = xreallocarray(NULL, n ? n : 1, sizeof *names);
	for (i = 0; i < n; i++)
		names[i] = rows[i].node;
	qsort(names, n, sizeof *names, jobfield_cmp_name);
	for (i = 0; i < n; i++)
		distinct += i == 0 || strcmp(names[i - 1], names[i]) != 0;
	free(names);
	free(rows);
	return (int)distinct;
}

void
jobfield_info(const struct job_state *st, struct jobfield_info *ji)
{
	ji->now = clock_wall();
	ji->nodes = st->dir != NULL ? jobfield_count_nodes(st->dir) : -1;
}

double
jobfield_elapsed(const struct job_state *st, const struct jobfield_info *ji)
{
	double end;

	if (st->started <= 0)
		return -1;
	end = job_phase_final(st->phase) ? st->ended : ji->now;
	return end > st->started ? end - st->started : 0;
}

void
jobfield_time(double t, char *buf, size_t len)
{
	char zone[16];
	struct tm tm;
	time_t secs = (time_t)t;
	size_t n;

	if (t <= 0 || localtime_r(&secs, &tm) == NULL ||
	    (n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm)) == 0 ||
	    strftime(zone, sizeof zone, "%z", &tm) != 5) {
		snprintf(buf, len, "-");
		return;
	}
	/* ISO 8601's extended offset, +hh:mm, as date -Iseconds writes it */
	snprintf(buf + n, len - n, "%.3s:%s", zone, zone + 3);
}

void
jobfield_duration(double secs, char *buf, size_t len)
{
	long long s = secs > 0 ? (long long)floor(secs) : 0;

	if (s >= 86400)
		snprintf(buf, len, "%lld-%02lld:%02lld:%02lld", s / 86400, s / 3600 % 24,
		    s / 60 % 60, s % 60);
	else if (s >= 3600)
		snprintf(buf, len, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%lld:%02lld", s / 60, s % 60);
}

/*
 * Whether the makespan is known: only for a job that completed (one cancelled, failed or
 * stopped at its limit has none, as status and run say); a program without libgrt has
 * none (libgrt's master measures it).
 */
static int
jobfield_has_makespan(const struct job_state *st)
{
	return st->libgrt != 0 && st->phase == JOB_DONE;
}

/*
 * The program's exit status once the job has ended, as a shell's $? says it: the first
 * failing rank's (128 + N for a rank killed by signal N), 0 when every rank exited 0, and
 * mpiexec's only when no rank's end is known (its own status says more of mpiexec than of
 * the program: 141 when a rank's exit broke its pipes). -1 before, or when it never ran.
 */
static int
jobfield_exit(const struct job_state *st)
{
	const struct rank_end *f;

	if (!job_phase_final(st->phase))
		return -1;
	if (st->nrank_ends == 0)
		return st->exit_code;
	if ((f = rank_ends_first_failure(st->rank_ends, st->nrank_ends)) == NULL)
		return 0;
	return f->signal != 0 ? 128 + f->signal : f->exit;
}

/* Not known until libgrt's master ends: said so rather than a bare "-" while it runs. */
static void
jobfield_makespan(const struct job_state *st, char *buf, size_t len)
{
	if (jobfield_has_makespan(st))
		snprintf(buf, len, "%.3f", st->makespan);
	else if (st->phase == JOB_RUNNING)
		snprintf(buf, len, "running");
	else if (!job_phase_final(st->phase))
		snprintf(buf, len, "not yet");
	else
		snprintf(buf, len, "-");
}

static void
jobfield_clean(const char *s, char *buf, size_t len)
{
	if (s == NULL || *s == '\0')
		snprintf(buf, len, "-");
	else
		text_clean(buf, len, s, strlen(s));
}

void
jobfield_text(const struct job_state *st, const struct jobfield_info *ji, enum job_field f,
    char *buf, size_t len)
{
	double secs;

	switch (f) {
	case JF_ID:
		snprintf(buf, len, "%s", st->id);
		break;
	case JF_NAME:
		jobfield_clean(st->name, buf, len);
		break;
	case JF_STATE:
		if (st->phase == JOB_FAILED && st->reason != NULL &&
		    strcmp(st->reason, JOBCTL_SUPERVISOR_DIED) == 0)
			snprintf(buf, len, "failed(supervisor)");
		else
			snprintf(buf, len, "%s", job_phase_name(st->phase));
		break;
	case JF_REASON:
		jobfield_clean(st->reason, buf, len);
		break;
	case JF_RANKS:
		snprintf(buf, len, "%d", st->ranks);
		break;
	case JF_NODES:
		if (ji->nodes < 0)
			snprintf(buf, len, "-");
		else
			snprintf(buf, len, "%d", ji->nodes);
		break;
	case JF_SCHEME:
		/* a program without libgrt ran as mpiexec runs it: no scheme */
		jobfield_clean(st->libgrt == 0 ? NULL : st->scheme, buf, len);
		break;
	case JF_SUBMITTED:
		jobfield_time(st->submitted, buf, len);
		break;
	case JF_STARTED:
		jobfield_time(st->started, buf, len);
		break;
	case JF_ENDED:
		jobfield_time(st->ended, buf, len);
		break;
	case JF_ELAPSED:
		if ((secs = jobfield_elapsed(st, ji)) < 0)
			snprintf(buf, len, "-");
		else
			jobfield_duration(secs, buf, len);
		break;
	case JF_MAKESPAN:
		jobfield_makespan(st, buf, len);
		break;
	case JF_EXIT:
		if (jobfield_exit(st) < 0)
			snprintf(buf, len, "-");
		else
			snprintf(buf, len, "%d", jobfield_exit(st));
		break;
	case JF_DIR:
		jobfield_clean(st->dir, buf, len);
		break;
	case JF_RESTARTS:
	case JF_COUNT:
		snprintf(buf, len, "%d", st->restarts);
		break;
	}
}

json_t *
jobfield_json(const struct job_state *st, const struct jobfield_info *ji, enum job_field f)
{
	double secs;

	switch (f) {
	case JF_ID:
		return jsonout_id(st->id);
	case JF_NAME:
		return jsonout_str(st->name);
	case JF_STATE:
		return json_string(job_phase_name(st->phase));
	case JF_REASON:
		return jsonout_str(st->reason);
	case JF_RANKS:
		return json_integer(st->ranks);
	case JF_NODES:
		return ji->nodes < 0 ? json_null() : json_integer(ji->nodes);
	case JF_SCHEME:
		return jsonout_str(st->libgrt == 0 ? NULL : st->scheme);
	case JF_SUBMITTED:
		return jobstore_json_time(st->submitted);
	case JF_STARTED:
		return jobstore_json_time(st->started);
	case JF_ENDED:
		return jobstore_json_time(st->ended);
	case JF_ELAPSED:
		/* whole milliseconds, as the store keeps its times */
		secs = jobfield_elapsed(st, ji);
		return secs < 0 ? json_null() : jsonout_num(round(secs * 1000) / 1000);
	case JF_MAKESPAN:
		return jobfield_has_makespan(st) ? jsonout_num(st->makespan) : json_null();
	case JF_EXIT:
		return jobfield_exit(st) < 0 ? json_null() : json_integer(jobfield_exit(st));
	case JF_DIR:
		return jsonout_str(st->dir);
	case JF_RESTARTS:
	case JF_COUNT:
		break;
	}
	return json_integer(st->restarts);
}
