/* events-read.c — incremental, tolerant reader of events.jsonl. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "common/events-read.h"
#include "common/text.h"
#include "common/xmalloc.h"

#define EV_READ_SIZE	(64 * 1024)

struct evreader {
	int fd;			/* -1: fed by evreader_feed only */
	char *buf;
	size_t cap;
	size_t pos;		/* start of the first unconsumed line */
	size_t scan;		/* bytes before this have no newline */
	size_t len;
	int skipping;		/* inside an over-long line: drop bytes up to its newline */
	struct evreader_stats st;
};

static const char *const ev_names[] = {
	"none", "start", "chunk", "round", "drop", "migrate", "fail", "end", "restart", "resume",
	"tasks", "cancel", "unknown"
};

const char *
event_kind_name(enum ev_kind kind)
{
	if ((unsigned)kind >= sizeof ev_names / sizeof ev_names[0])
		return "unknown";
	return ev_names[kind];
}

void
event_clear(struct event *ev)
{
	free(ev->units);
	free(ev->ranks);
	free(ev->excluded);
	free(ev->at);
	free(ev->spare);
	memset(ev, 0, sizeof *ev);
}

/*
 * Field getters: 0 when the field is absent (the default stays), 1 when read, -1 when it
 * has the wrong type or an impossible value, which makes the whole record garbage.
 */
static int
ev_get_num(json_t *o, const char *key, double *v, double min)
{
	json_t *j = json_object_get(o, key);
	double x;

	if (j == NULL || json_is_null(j))
		return 0;
	if (!json_is_number(j))
		return -1;
	x = json_number_value(j);
	if (!isfinite(x) || x < min)
		return -1;
	*v = x;
	return 1;
}

static int
ev_get_int(json_t *o, const char *key, long long *v, long long min, long long max)
{
	json_t *j = json_object_get(o, key);
	double x;

	if (j == NULL || json_is_null(j))
		return 0;
	if (json_is_integer(j)) {
		if (json_integer_value(j) < min || json_integer_value(j) > max)
			return -1;
		*v = json_integer_value(j);
		return 1;
	}
	/* 32.0 is a whole number too; 32.5 is not. */
	if (!json_is_real(j))
		return -1;
	x = json_real_value(j);
	if (!isfinite(x) || x != floor(x) || x < (double)min || x > (double)max)
		return -1;
	*v = (long long)x;
	return 1;
}

static int
ev_get_rank(json_t *o, const char *key, int *rank)
{
	long long v;
	int rc;

	if ((rc = ev_get_int(o, key, &v, 0, EV_RANK_MAX - 1)) == 1)
		*rank = (int)v;
	return rc;
}

/* Strings are cleaned and cut here, once; a number (e.g. "job":7) is taken as its text. */
static int
ev_get_str(json_t *o, const char *key, char *dst, size_t dstsz)
{
	json_t *j = json_object_get(o, key);
	char tmp[64];

	if (j == NULL || json_is_null(j))
		return 0;
	if (json_is_string(j)) {
		text_clean(dst, dstsz, json_string_value(j), json_string_length(j));
		return 1;
	}
	if (json_is_integer(j)) {
		snprintf(tmp, sizeof tmp, "%lld", (long long)json_integer_value(j));
		text_clean(dst, dstsz, tmp, strlen(tmp));
		return 1;
	}
	return -1;
}

#define GET(call) do { if ((call) < 0) return -1; } while (0)
#define NEED(call) do { if ((call) != 1) return -1; } while (0)

static int
ev_parse_ranks(json_t *o, struct event *ev, int with_totals)
{
	json_t *a = json_object_get(o, "ranks"), *e;
	struct ev_rank *r;
	char role[16];
	size_t i, n;
	long long u;

	if (a == NULL || json_is_null(a))
		return 0;
	if (!json_is_array(a))
		return -1;
	n = json_array_size(a);
	if (n > EV_RANK_MAX)
		return -1;
	ev->ranks = xcalloc(n ? n : 1, sizeof *ev->ranks);
	/* A malformed element is skipped, not the record: losing a whole start is worse. */
	json_array_foreach(a, i, e) {
		r = &ev->ranks[ev->nranks];
		memset(r, 0, sizeof *r);
		r->t_idle = -1;
		if (!json_is_object(e) || ev_get_rank(e, "rank", &r->rank) != 1)
			continue;
		if (ev_get_str(e, "node", r->node, sizeof r->node) < 0 ||
		    ev_get_str(e, "site", r->site, sizeof r->site) < 0 ||
		    ev_get_num(e, "pf", &r->pf, 0) < 0 || ev_get_num(e, "pr", &r->pr, 0) < 0)
			continue;
		role[0] = '\0';
		if (ev_get_str(e, "role", role, sizeof role) < 0)
			continue;
		r->master = strcmp(role, "master") == 0;
		r->submaster = strcmp(role, "sub-master") == 0;
		r->group = -1;
		if (ev_get_rank(e, "group", &r->group) < 0)
			continue;
		if (with_totals) {
			u = 0;
			if (ev_get_int(e, "units", &u, 0, LLONG_MAX) < 0 ||
			    ev_get_num(e, "t_calc", &r->t_calc, 0) < 0 ||
			    ev_get_num(e, "t_comm", &r->t_comm, 0) < 0 ||
			    ev_get_num(e, "t_idle", &r->t_idle, 0) < 0)
				continue;
			r->units = u;
		}
		ev->nranks++;
	}
	return 1;
}

static int
ev_parse_units(json_t *o, struct event *ev)
{
	json_t *a = json_object_get(o, "units"), *e;
	size_t i, n;
	double x;

	if (a == NULL || json_is_null(a))
		return 0;
	if (!json_is_array(a) || (n = json_array_size(a)) > EV_RANK_MAX)
		return -1;
	ev->units = xcalloc(n ? n : 1, sizeof *ev->units);
	json_array_foreach(a, i, e) {
		if (json_is_integer(e) && json_integer_value(e) >= 0)
			ev->units[i] = json_integer_value(e);
		else if (json_is_real(e) && (x = json_real_value(e)) >= 0 && x == floor(x) &&
		    x < 9e18)
			ev->units[i] = (long long)x;
		else
			return -1;
	}
	ev->nunits = (int)n;
	return 1;
}

/* restart: "excluded": [hosts]; a malformed element makes the record garbage. */
static int
ev_parse_excluded(json_t *o, struct event *ev)
{
	json_t *a = json_object_get(o, "excluded"), *e;
	size_t i, n;

	if (a == NULL || json_is_null(a))
		return 0;
	if (!json_is_array(a) || (n = json_array_size(a)) > EV_RANK_MAX)
		return -1;
	ev->excluded = xcalloc(n ? n : 1, sizeof *ev->excluded);
	json_array_foreach(a, i, e) {
		if (!json_is_string(e))
			return -1;
		text_clean(ev->excluded[i], sizeof ev->excluded[i], json_string_value(e),
		    json_string_length(e));
	}
	ev->nexcluded = (int)n;
	return 1;
}

/*
 * A list of rank ids (tasks: "at", "spare"), at most max long; an element that is not a
 * rank id makes the record garbage: a table with a hole would put tasks nowhere.
 */
static int
ev_parse_rank_list(json_t *o, const char *key, int **dst, int *np, size_t max)
{
	json_t *a = json_object_get(o, key), *e;
	long long v;
	size_t i, n;
	double x;

	if (a == NULL || json_is_null(a))
		return 0;
	if (!json_is_array(a) || (n = json_array_size(a)) > max)
		return -1;
	*dst = xcalloc(n ? n : 1, sizeof **dst);
	json_array_foreach(a, i, e) {
		x = json_is_real(e) ? json_real_value(e) : -1;
		if (json_is_integer(e))
			v = json_integer_value(e);
		else if (x == floor(x) && x >= 0 && x < EV_RANK_MAX)
			v = (long long)x;
		else
			return -1;
		if (v < 0 || v >= EV_RANK_MAX)
			return -1;
		(*dst)[i] = (int)v;
	}
	*np = (int)n;
	return 1;
}

/* tasks: where every task is, at the start and after a restart or a rollback. */
static int
ev_parse_tasks(json_t *o, struct event *ev)
{
	ev->kind = EV_TASKS;
	NEED(ev_parse_rank_list(o, "at", &ev->at, &ev->nat, EV_TASK_MAX));
	GET(ev_parse_rank_list(o, "spare", &ev->spare, &ev->nspare, EV_RANK_MAX));
	GET(ev_get_str(o, "reason", ev->text, sizeof ev->text));
	return ev->kind;
}

/* The supervisor's restart and the master's resume (doc/restarts.md). */
static int
ev_parse_relaunch(json_t *o, const char *kind, struct event *ev)
{
	long long v;

	if (strcmp(kind, "restart") == 0) {
		ev->kind = EV_RESTART;
		NEED(ev_get_int(o, "n", &v, 0, INT_MAX));
		ev->restart = (int)v;
		GET(ev_get_str(o, "reason", ev->text, sizeof ev->text));
		GET(ev_parse_excluded(o, ev));
	} else {
		ev->kind = EV_RESUME;
		GET(ev_get_int(o, "units", &ev->resumed_units, 0, LLONG_MAX / 4));
		v = 0;
		GET(ev_get_int(o, "rounds_done", &v, 0, INT_MAX));
		ev->rounds_done = (int)v;
		GET(ev_get_int(o, "records", &ev->records, 0, LLONG_MAX));
	}
	return ev->kind;
}

static int
ev_parse_fields(json_t *o, const char *kind, struct event *ev)
{
	long long v;

	if (strcmp(kind, "chunk") == 0) {
		ev->kind = EV_CHUNK;
		NEED(ev_get_rank(o, "rank", &ev->rank));
		NEED(ev_get_int(o, "count", &ev->count, 0, LLONG_MAX / 4));
		v = 0;
		GET(ev_get_int(o, "round", &v, 0, INT_MAX));
		ev->round = (int)v;
		GET(ev_get_int(o, "start", &ev->start, 0, LLONG_MAX));
		GET(ev_get_num(o, "t_calc", &ev->t_calc, 0));
		GET(ev_get_num(o, "t_comm", &ev->t_comm, 0));
		ev->t_exe = ev->t_calc + ev->t_comm;
		GET(ev_get_num(o, "t_exe", &ev->t_exe, 0));
		/* a step of a migratable task */
		ev->task = ev->step = -1;
		GET(ev_get_int(o, "task", &ev->task, 0, EV_TASK_MAX - 1));
		GET(ev_get_int(o, "step", &ev->step, 0, LLONG_MAX));
	} else if (strcmp(kind, "round") == 0) {
		ev->kind = EV_ROUND;
		NEED(ev_get_int(o, "j", &v, 0, INT_MAX));
		ev->round = (int)v;
		ev->mean_exe = ev->sd_exe = NAN;
		GET(ev_parse_units(o, ev));
		GET(ev_get_num(o, "mean_exe", &ev->mean_exe, 0));
		GET(ev_get_num(o, "sd_exe", &ev->sd_exe, 0));
	} else if (strcmp(kind, "drop") == 0) {
		ev->kind = EV_DROP;
		NEED(ev_get_rank(o, "rank", &ev->rank));
		GET(ev_get_str(o, "reason", ev->text, sizeof ev->text));
	} else if (strcmp(kind, "migrate") == 0) {
		ev->kind = EV_MIGRATE;
		NEED(ev_get_int(o, "task", &ev->task, 0, EV_TASK_MAX - 1));
		NEED(ev_get_rank(o, "from", &ev->from));
		NEED(ev_get_rank(o, "to", &ev->to));
		GET(ev_get_int(o, "bytes", &ev->bytes, 0, LLONG_MAX));
		GET(ev_get_num(o, "seconds", &ev->seconds, 0));
		GET(ev_get_str(o, "reason", ev->text, sizeof ev->text));
	} else if (strcmp(kind, "fail") == 0) {
		ev->kind = EV_FAIL;
		NEED(ev_get_rank(o, "rank", &ev->rank));
		GET(ev_get_int(o, "requeued", &ev->requeued, 0, LLONG_MAX));
		GET(ev_get_str(o, "reason", ev->text, sizeof ev->text));
	} else if (strcmp(kind, "end") == 0) {
		ev->kind = EV_END;
		ev->makespan = NAN;
		GET(ev_get_str(o, "status", ev->text, sizeof ev->text));
		GET(ev_get_str(o, "error", ev->error, sizeof ev->error));
		GET(ev_get_num(o, "makespan", &ev->makespan, 0));
		v = 0;
		GET(ev_get_int(o, "failed", &v, 0, INT_MAX));
		ev->failed = (int)v;
		GET(ev_get_int(o, "requeued", &ev->requeued, 0, LLONG_MAX));
		ev->migrations = ev->restarted = -1;
		GET(ev_get_int(o, "migrations", &ev->migrations, 0, LLONG_MAX));
		GET(ev_get_int(o, "restarted", &ev->restarted, 0, LLONG_MAX));
		GET(ev_parse_ranks(o, ev, 1));
	} else if (strcmp(kind, "start") == 0) {
		ev->kind = EV_START;
		GET(ev_get_str(o, "job", ev->job, sizeof ev->job));
		GET(ev_get_str(o, "scheme", ev->scheme, sizeof ev->scheme));
		GET(ev_get_int(o, "N", &ev->n, 0, LLONG_MAX / 1024));
		v = 1;
		GET(ev_get_int(o, "rounds", &v, 1, 1000000));
		ev->rounds = (int)v;
		v = 0;
		GET(ev_get_int(o, "tasks", &v, 0, EV_TASK_MAX));
		ev->ntasks = (int)v;
		GET(ev_get_int(o, "steps", &ev->steps, 0, LLONG_MAX));
		GET(ev_get_str(o, "migration", ev->migration, sizeof ev->migration));
		GET(ev_parse_ranks(o, ev, 0));
	} else if (strcmp(kind, "tasks") == 0)
		return ev_parse_tasks(o, ev);
	else if (strcmp(kind, "restart") == 0 || strcmp(kind, "resume") == 0)
		return ev_parse_relaunch(o, kind, ev);
	else if (strcmp(kind, "cancel") == 0) {
		/* the supervisor's: who stopped the job (submit/jobrun-cancel.c) */
		ev->kind = EV_CANCEL;
		NEED(ev_get_str(o, "reason", ev->text, sizeof ev->text));
	} else
		ev->kind = EV_UNKNOWN;
	return ev->kind;
}

int
event_parse(const char *line, size_t len, struct event *ev)
{
	json_error_t err;
	json_t *o, *jv;
	char kind[32];
	int rc = -1;

	event_clear(ev);
	if ((o = json_loadb(line, len, 0, &err)) == NULL)
		return -1;
	if (!json_is_object(o))
		goto out;
	/* "v" is 1 today; a later version adds fields, which are ignored. */
	jv = json_object_get(o, "v");
	if (!json_is_integer(jv) || json_integer_value(jv) < 1)
		goto out;
	if (ev_get_num(o, "t", &ev->t, 0) != 1)
		goto out;
	if (!json_is_string(json_object_get(o, "ev")) ||
	    ev_get_str(o, "ev", kind, sizeof kind) != 1)
		goto out;
	rc = ev_parse_fields(o, kind, ev);
out:
	json_decref(o);
	if (rc < 0) {
		event_clear(ev);
		return -1;
	}
	return rc;
}

struct evreader *
evreader_new(void)
{
	struct evreader *r = xcalloc(1, sizeof *r);

	r->fd = -1;
	r->cap = 4 * EV_READ_SIZE;
	r->buf = xmalloc(r->cap);
	return r;
}

struct evreader *
evreader_open(const char *path)
{
	struct evreader *r;
	int fd;

	/* O_NONBLOCK: a FIFO with no writer must not hang the console. */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1)
		return NULL;
	r = evreader_new();
	r->fd = fd;
	return r;
}

void
evreader_free(struct evreader *r)
{
	if (r == NULL)
		return;
	if (r->fd != -1)
		close(r->fd);
	free(r->buf);
	free(r);
}

const struct evreader_stats *
evreader_stats(const struct evreader *r)
{
	((struct evreader *)r)->st.pending = r->len - r->pos;
	return &r->st;
}

/* Room for n more bytes at the end, moving the unconsumed bytes to the front first. */
static void
evreader_room(struct evreader *r, size_t n)
{
	if (r->pos > 0) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->scan -= r->pos;
		r->pos = 0;
	}
	if (r->cap - r->len < n) {
		while (r->cap - r->len < n)
			r->cap *= 2;
		r->buf = xreallocarray(r->buf, 1, r->cap);
	}
}

void
evreader_feed(struct evreader *r, const char *buf, size_t len)
{
	evreader_room(r, len);
	memcpy(r->buf + r->len, buf, len);
	r->len += len;
	r->st.offset += len;
}

static int
evreader_blank(const char *s, size_t n)
{
	while (n > 0 && (*s == ' ' || *s == '\t' || *s == '\r')) {
		s++;
		n--;
	}
	return n == 0;
}

int
evreader_next(struct evreader *r, struct event *ev)
{
	char *line, *nl;
	size_t len;
	ssize_t n;
	int kind;

	for (;;) {
		nl = memchr(r->buf + r->scan, '\n', r->len - r->scan);
		if (nl != NULL) {
			line = r->buf + r->pos;
			len = nl - line;
			r->pos = r->scan = nl - r->buf + 1;
			if (r->skipping) {
				r->skipping = 0;
				continue;
			}
			if (evreader_blank(line, len))
				continue;
			r->st.lines++;
			kind = event_parse(line, len, ev);
			if (kind < 0) {
				r->st.bad++;
				continue;
			}
			if (kind == EV_UNKNOWN) {
				r->st.unknown++;
				event_clear(ev);
				continue;
			}
			r->st.events++;
			return 1;
		}
		r->scan = r->len;
		if (!r->skipping && r->len - r->pos > EV_LINE_MAX) {
			r->skipping = 1;
			r->st.bad++;
		}
		if (r->skipping)
			r->pos = r->scan = r->len = 0;
		if (r->fd == -1)
			return 0;
		evreader_room(r, EV_READ_SIZE);
		n = read(r->fd, r->buf + r->len, r->cap - r->len);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return 0;
			return -1;
		}
		if (n == 0)
			return 0;
		r->len += n;
		r->st.offset += n;
	}
}
