/*
 * exp-store.c — the SQLite store of an experiment (exp-store.h). Statements are prepared
 * per call: a run changes state a few times in seconds, so their cost does not matter,
 * and every text is bound, never pasted into SQL.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>
#include <sqlite3.h>

#include "common/xmalloc.h"
#include "experiment/exp-store.h"
#include "store/db.h"

#define ES_SCHEMA_VERSION	1

struct exp_store {
	sqlite3 *db;
	char *path;
};

static const char *const es_state_names[] = {
	"pending", "running", "done", "failed", "interrupted"
};

static const char es_schema[] =
	"PRAGMA foreign_keys = ON;"
	"CREATE TABLE IF NOT EXISTS experiment ("
	"  id INTEGER PRIMARY KEY CHECK (id = 1),"
	"  name TEXT NOT NULL, file TEXT NOT NULL, hash TEXT NOT NULL,"
	"  seed INTEGER NOT NULL, random_order INTEGER NOT NULL, repeat INTEGER NOT NULL,"
	"  created REAL NOT NULL, schema_version INTEGER NOT NULL);"
	"CREATE TABLE IF NOT EXISTS point ("
	"  id INTEGER PRIMARY KEY, label TEXT NOT NULL, params TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS run ("
	"  id INTEGER PRIMARY KEY, point INTEGER NOT NULL REFERENCES point(id),"
	"  rep INTEGER NOT NULL, seq INTEGER NOT NULL UNIQUE, seed INTEGER NOT NULL,"
	"  state TEXT NOT NULL CHECK (state IN"
	"    ('pending', 'running', 'done', 'failed', 'interrupted')),"
	"  job_id TEXT, started REAL, ended REAL, exit_code INTEGER, reason TEXT,"
	"  attempts INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE IF NOT EXISTS metric ("
	"  run INTEGER NOT NULL REFERENCES run(id), name TEXT NOT NULL, value REAL NOT NULL,"
	"  PRIMARY KEY (run, name));";

const char *
exp_run_state_name(enum exp_run_state st)
{
	return es_state_names[st];
}

static int
es_fail(struct exp_store *s, char *why, size_t whylen)
{
	return db_fail(s->db, s->path, why, whylen);
}

static int
es_exec(struct exp_store *s, const char *sql, char *why, size_t whylen)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return es_fail(s, why, whylen);
	return 0;
}

struct exp_store *
exp_store_open(const char *path, char *why, size_t whylen)
{
	struct exp_store *s = xcalloc(1, sizeof *s);

	s->path = xstrdup(path);
	if ((s->db = db_open(path, es_schema, 10000, why, whylen)) == NULL) {
		exp_store_close(s);
		return NULL;
	}
	return s;
}

void
exp_store_close(struct exp_store *s)
{
	if (s == NULL)
		return;
	sqlite3_close(s->db);
	free(s->path);
	free(s);
}

int
exp_store_meta(struct exp_store *s, char hash[17], uint64_t *seed, char **file, char *why,
    size_t whylen)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, "SELECT hash, seed, file FROM experiment WHERE id = 1",
	    -1, &st, NULL) != SQLITE_OK)
		return es_fail(s, why, whylen);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(hash, 17, "%s", (const char *)sqlite3_column_text(st, 0));
		*seed = (uint64_t)sqlite3_column_int64(st, 1);
		if (file != NULL)
			*file = xstrdup((const char *)sqlite3_column_text(st, 2));
		rc = 1;
	} else if (rc == SQLITE_DONE)
		rc = 0;
	else
		rc = es_fail(s, why, whylen);
	sqlite3_finalize(st);
	return rc;
}

static char *
es_params_json(const struct exp *e, size_t point)
{
	json_t *o = json_object();
	size_t i;
	char *s;

	for (i = 0; i < e->nparams; i++)
		json_object_set_new(o, e->params[i].name,
		    json_string(exp_point_text(e, point, i)));
	s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	return s;
}

static int
es_insert_points(struct exp_store *s, const struct exp *e, char *why, size_t whylen)
{
	sqlite3_stmt *st;
	size_t p;
	int rc = 0;

	if (sqlite3_prepare_v2(s->db, "INSERT INTO point (id, label, params) VALUES (?, ?, ?)",
	    -1, &st, NULL) != SQLITE_OK)
		return es_fail(s, why, whylen);
	for (p = 0; p < e->npoints && rc == 0; p++) {
		char *label = exp_point_label(e, p), *params = es_params_json(e, p);

		sqlite3_bind_int64(st, 1, (sqlite3_int64)p + 1);
		sqlite3_bind_text(st, 2, label, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 3, params, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = es_fail(s, why, whylen);
		sqlite3_reset(st);
		free(label);
		free(params);
	}
	sqlite3_finalize(st);
	return rc;
}

static int
es_insert_runs(struct exp_store *s, const struct exp *e, uint64_t seed, char *why,
    size_t whylen)
{
	size_t n = e->nruns, i, point, *order = xcalloc(n + 1, sizeof *order);
	uint64_t *seeds = xcalloc(n + 1, sizeof *seeds);
	sqlite3_stmt *st;
	int rc = 0, rep;

	exp_run_order(e, seed, order, seeds);
	if (sqlite3_prepare_v2(s->db, "INSERT INTO run (id, point, rep, seq, seed, state) "
	    "VALUES (?, ?, ?, ?, ?, 'pending')", -1, &st, NULL) != SQLITE_OK) {
		free(order);
		free(seeds);
		return es_fail(s, why, whylen);
	}
	for (i = 0; i < n && rc == 0; i++) {
		size_t r = order[i];

		exp_run_point(e, r, &point, &rep);
		sqlite3_bind_int64(st, 1, (sqlite3_int64)r + 1);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)point + 1);
		sqlite3_bind_int(st, 3, rep);
		sqlite3_bind_int64(st, 4, (sqlite3_int64)i + 1);
		sqlite3_bind_int64(st, 5, (sqlite3_int64)seeds[i]);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = es_fail(s, why, whylen);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	free(order);
	free(seeds);
	return rc;
}

int
exp_store_init(struct exp_store *s, const struct exp *e, uint64_t seed, char *why,
    size_t whylen)
{
	sqlite3_stmt *st;
	int rc;

	if (es_exec(s, "BEGIN IMMEDIATE", why, whylen) == -1)
		return -1;
	if (sqlite3_prepare_v2(s->db, "INSERT INTO experiment (id, name, file, hash, seed, "
	    "random_order, repeat, created, schema_version) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)",
	    -1, &st, NULL) != SQLITE_OK) {
		rc = es_fail(s, why, whylen);
		goto out;
	}
	sqlite3_bind_text(st, 1, e->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, e->path, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, e->hash, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)seed);
	sqlite3_bind_int(st, 5, e->random_order);
	sqlite3_bind_int(st, 6, e->repeat);
	sqlite3_bind_double(st, 7, (double)time(NULL));
	sqlite3_bind_int(st, 8, ES_SCHEMA_VERSION);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : es_fail(s, why, whylen);
	sqlite3_finalize(st);
	if (rc == 0)
		rc = es_insert_points(s, e, why, whylen);
	if (rc == 0)
		rc = es_insert_runs(s, e, seed, why, whylen);
out:
	if (rc == 0)
		return es_exec(s, "COMMIT", why, whylen);
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

static double
es_col_double(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? 0 : sqlite3_column_double(st, i);
}

static int
es_load_metrics(struct exp_store *s, const char *const *names, size_t nm,
    struct exp_run *runs, size_t n, char *why, size_t whylen)
{
	sqlite3_stmt *st;
	size_t i, k;
	int rc;

	/* in the runs' order (seq), so that one pass over runs meets every metric */
	if (sqlite3_prepare_v2(s->db, "SELECT m.run, m.name, m.value FROM metric m JOIN run r "
	    "ON r.id = m.run ORDER BY r.seq", -1, &st, NULL) != SQLITE_OK)
		return es_fail(s, why, whylen);
	i = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t run = sqlite3_column_int64(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);

		while (i < n && runs[i].id != run)
			i++;
		if (i == n)
			break;
		for (k = 0; k < nm; k++)
			if (strcmp(names[k], name) == 0)
				runs[i].values[k] = sqlite3_column_double(st, 2);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : es_fail(s, why, whylen);
}

int
exp_store_runs(struct exp_store *s, const char *const *names, size_t nmetrics,
    struct exp_run **runs, size_t *nruns, char *why, size_t whylen)
{
	sqlite3_stmt *st;
	struct exp_run *r = NULL;
	size_t n = 0, k;
	int rc, i;

	*runs = NULL;
	*nruns = 0;
	if (sqlite3_prepare_v2(s->db, "SELECT id, point, rep, seq, seed, state, job_id, "
	    "started, ended, exit_code, reason, attempts FROM run ORDER BY seq", -1, &st,
	    NULL) != SQLITE_OK)
		return es_fail(s, why, whylen);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct exp_run *x;
		const char *state = (const char *)sqlite3_column_text(st, 5);

		r = xreallocarray(r, n + 1, sizeof *r);
		x = &r[n++];
		memset(x, 0, sizeof *x);
		x->id = sqlite3_column_int64(st, 0);
		x->point = (size_t)sqlite3_column_int64(st, 1) - 1;
		x->rep = sqlite3_column_int(st, 2);
		x->seq = sqlite3_column_int(st, 3);
		x->seed = (uint64_t)sqlite3_column_int64(st, 4);
		for (i = 0; i < 5; i++)
			if (strcmp(state, es_state_names[i]) == 0)
				x->state = (enum exp_run_state)i;
		if (sqlite3_column_type(st, 6) != SQLITE_NULL)
			snprintf(x->job_id, sizeof x->job_id, "%s",
			    (const char *)sqlite3_column_text(st, 6));
		x->started = es_col_double(st, 7);
		x->ended = es_col_double(st, 8);
		x->exit_code = sqlite3_column_type(st, 9) == SQLITE_NULL ? -1 :
		    sqlite3_column_int(st, 9);
		if (sqlite3_column_type(st, 10) != SQLITE_NULL)
			x->reason = xstrdup((const char *)sqlite3_column_text(st, 10));
		x->attempts = sqlite3_column_int(st, 11);
		x->values = xcalloc(nmetrics + 1, sizeof *x->values);
		for (k = 0; k < nmetrics; k++)
			x->values[k] = NAN;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE || es_load_metrics(s, names, nmetrics, r, n, why, whylen) != 0) {
		if (rc != SQLITE_DONE)
			es_fail(s, why, whylen);
		exp_runs_free(r, n);
		return -1;
	}
	*runs = r;
	*nruns = n;
	return 0;
}

void
exp_runs_free(struct exp_run *runs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(runs[i].reason);
		free(runs[i].values);
	}
	free(runs);
}

/* One UPDATE of a run, its parameters bound by the caller's format: i int64, d double, t text. */
static int
es_update(struct exp_store *s, const char *sql, const char *types, char *why, size_t whylen,
    ...)
{
	sqlite3_stmt *st;
	va_list ap;
	int i, rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return es_fail(s, why, whylen);
	va_start(ap, whylen);
	for (i = 0; types[i] != '\0'; i++) {
		if (types[i] == 'i')
			sqlite3_bind_int64(st, i + 1, va_arg(ap, int64_t));
		else if (types[i] == 'd')
			sqlite3_bind_double(st, i + 1, va_arg(ap, double));
		else {
			const char *t = va_arg(ap, const char *);

			if (t == NULL)
				sqlite3_bind_null(st, i + 1);
			else
				sqlite3_bind_text(st, i + 1, t, -1, SQLITE_TRANSIENT);
		}
	}
	va_end(ap);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : es_fail(s, why, whylen);
	sqlite3_finalize(st);
	return rc;
}

int
exp_store_start(struct exp_store *s, int64_t run, double started, char *why, size_t whylen)
{
	return es_update(s, "UPDATE run SET state = 'running', started = ?, ended = NULL, "
	    "job_id = NULL, exit_code = NULL, reason = NULL, attempts = attempts + 1 "
	    "WHERE id = ?", "di", why, whylen, started, run);
}

int
exp_store_job(struct exp_store *s, int64_t run, const char *job_id, char *why, size_t whylen)
{
	return es_update(s, "UPDATE run SET job_id = ? WHERE id = ?", "ti", why, whylen,
	    job_id, run);
}

int
exp_store_end(struct exp_store *s, int64_t run, enum exp_run_state state, double ended,
    int exit_code, const char *reason, const char *const *names, const double *values,
    size_t n, char *why, size_t whylen)
{
	size_t i;
	int rc;

	if (es_exec(s, "BEGIN IMMEDIATE", why, whylen) == -1)
		return -1;
	rc = es_update(s, "UPDATE run SET state = ?, ended = ?, exit_code = ?, reason = ? "
	    "WHERE id = ?", "tditi", why, whylen, es_state_names[state], ended,
	    (int64_t)exit_code, reason, run);
	if (rc == 0)
		rc = es_update(s, "DELETE FROM metric WHERE run = ?", "i", why, whylen, run);
	for (i = 0; i < n && rc == 0; i++)
		if (!isnan(values[i]))
			rc = es_update(s, "INSERT INTO metric (run, name, value) VALUES (?, ?, ?)",
			    "itd", why, whylen, run, names[i], values[i]);
	if (rc == 0)
		return es_exec(s, "COMMIT", why, whylen);
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}
