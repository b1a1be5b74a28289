/*
 * slots.c — the slot ledger (slots.h) in SQLite: table queue (a job, and whether it holds
 * its slots) and table claim (the ranks a job places on a host). Texts are bound, never
 * pasted into SQL.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "common/home.h"
#include "common/xmalloc.h"
#include "store/db.h"
#include "store/slots.h"

/* most jobs named in a reason's "held by" */
#define SLOTS_HOLDERS_SHOWN	3

struct slots {
	sqlite3 *db;
	char *path;
};

static const char slots_schema[] =
	"CREATE TABLE IF NOT EXISTS queue ("
	"  job INTEGER PRIMARY KEY, holding INTEGER NOT NULL);"
	"CREATE TABLE IF NOT EXISTS claim ("
	"  job INTEGER NOT NULL, host TEXT NOT NULL COLLATE NOCASE, site TEXT NOT NULL,"
	"  want INTEGER NOT NULL, PRIMARY KEY (job, host));";

static int
slots_fail(struct slots *s, char *why, size_t whylen)
{
	return db_fail(s->db, s->path, why, whylen);
}

static int
slots_exec(struct slots *s, const char *sql, char *why, size_t whylen)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return slots_fail(s, why, whylen);
	return 0;
}

/*
 * Prepare sql and bind its parameters, given by the letters of types: 'i' a long, 't' a
 * text. NULL with why on failure.
 */
static sqlite3_stmt *
slots_stmt(struct slots *s, char *why, size_t whylen, const char *sql, const char *types, ...)
{
	sqlite3_stmt *st;
	va_list ap;
	int i, rc = SQLITE_OK;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		slots_fail(s, why, whylen);
		return NULL;
	}
	va_start(ap, types);
	for (i = 0; types[i] != '\0' && rc == SQLITE_OK; i++)
		rc = types[i] == 'i' ? sqlite3_bind_int64(st, i + 1, va_arg(ap, long)) :
		    sqlite3_bind_text(st, i + 1, va_arg(ap, const char *), -1, SQLITE_TRANSIENT);
	va_end(ap);
	if (rc != SQLITE_OK) {
		slots_fail(s, why, whylen);
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

/* Run a statement that returns no row. 0, or -1 with why. */
static int
slots_run(struct slots *s, sqlite3_stmt *st, char *why, size_t whylen)
{
	int rc;

	if (st == NULL)
		return -1;
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : slots_fail(s, why, whylen);
}

/* The one integer a query returns (0 for no row or NULL) into *v. 0, or -1 with why. */
static int
slots_long(struct slots *s, sqlite3_stmt *st, long *v, char *why, size_t whylen)
{
	int rc;

	if (st == NULL)
		return -1;
	*v = 0;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*v = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : slots_fail(s, why, whylen);
}

struct slots *
slots_open(char *why, size_t whylen)
{
	const char *root;
	struct slots *s;

	if ((root = home_root(why, whylen)) == NULL)
		return NULL;
	s = xcalloc(1, sizeof *s);
	xasprintf(&s->path, "%s/slots.db", root);
	if ((s->db = db_open(s->path, slots_schema, 30000, why, whylen)) == NULL) {
		slots_close(s);
		return NULL;
	}
	return s;
}

void
slots_close(struct slots *s)
{
	if (s == NULL)
		return;
	sqlite3_close(s->db);
	free(s->path);
	free(s);
}

/* Remove job from both tables. */
static int
slots_forget(struct slots *s, long job, char *why, size_t whylen)
{
	if (slots_run(s, slots_stmt(s, why, whylen, "DELETE FROM claim WHERE job = ?", "i",
	    job), why, whylen) == -1)
		return -1;
	return slots_run(s, slots_stmt(s, why, whylen, "DELETE FROM queue WHERE job = ?", "i",
	    job), why, whylen);
}

/* Drop every other job that alive says is gone. */
static int
slots_purge(struct slots *s, long self, slots_alive_fn alive, void *arg, char *why,
    size_t whylen)
{
	sqlite3_stmt *st;
	long *gone = NULL;
	size_t n = 0, i;
	int rc;

	if ((st = slots_stmt(s, why, whylen, "SELECT job FROM queue WHERE job != ?", "i",
	    self)) == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long job = (long)sqlite3_column_int64(st, 0);

		if (!alive(job, arg)) {
			gone = xreallocarray(gone, n + 1, sizeof *gone);
			gone[n++] = job;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(gone);
		return slots_fail(s, why, whylen);
	}
	for (i = 0, rc = 0; i < n && rc == 0; i++)
		rc = slots_forget(s, gone[i], why, whylen);
	free(gone);
	return rc;
}

/*
 * Record job in the queue, waiting, with claims c; the caller marks it holding when it
 * decides so in the same transaction. A job that enters again (the resume of a job whose
 * supervisor died before anyone dropped its entries) must not inherit the dead
 * supervisor's hold: waiting while marked holding, it would keep slots from the earlier
 * jobs it waits behind, and they wait for those slots.
 */
static int
slots_record(struct slots *s, long job, const struct slots_claim *c, size_t n, char *why,
    size_t whylen)
{
	size_t i;

	if (slots_run(s, slots_stmt(s, why, whylen, "INSERT INTO queue (job, holding) VALUES "
	    "(?, 0) ON CONFLICT (job) DO UPDATE SET holding = 0", "i", job), why, whylen) == -1 ||
	    slots_run(s, slots_stmt(s, why, whylen, "DELETE FROM claim WHERE job = ?", "i",
	    job), why, whylen) == -1)
		return -1;
	for (i = 0; i < n; i++)
		if (slots_run(s, slots_stmt(s, why, whylen, "INSERT INTO claim (job, host, site, "
		    "want) VALUES (?, ?, ?, ?) ON CONFLICT (job, host) DO UPDATE SET want = "
		    "want + excluded.want", "itti", job, c[i].host, c[i].site, (long)c[i].want),
		    why, whylen) == -1)
			return -1;
	return 0;
}

/* Append printf text to buf (len bytes, always terminated). */
static void
slots_cat(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/*
 * How many slots job misses, site by site, into reason ("3 slots on THU, 1 on LZ"), and
 * the jobs holding them. *missing gets the total.
 */
static int
slots_shortage(struct slots *s, long job, const struct slots_claim *c, size_t n,
    long *missing, char *reason, size_t len, char *why, size_t whylen)
{
	long *per_site = xcalloc(n, sizeof *per_site), held, shown = 0;
	sqlite3_stmt *st;
	size_t i, j;
	int rc = 0;

	*missing = 0;
	for (i = 0; i < n && rc == 0; i++) {
		rc = slots_long(s, slots_stmt(s, why, whylen, "SELECT SUM(c.want) FROM claim c "
		    "JOIN queue q ON q.job = c.job WHERE q.holding = 1 AND c.job != ? AND "
		    "c.host = ?", "it", job, c[i].host), &held, why, whylen);
		if (rc == 0 && c[i].want > c[i].capacity - held) {
			/* counted on the first claim of the same site */
			for (j = 0; strcmp(c[j].site, c[i].site) != 0; j++)
				;
			per_site[j] += c[i].want - (c[i].capacity > held ? c[i].capacity - held : 0);
		}
	}
	for (i = 0; i < n && rc == 0; i++) {
		if (per_site[i] == 0)
			continue;
		if (*missing == 0)
			slots_cat(reason, len, "%ld slot%s on %s", per_site[i],
			    per_site[i] == 1 ? "" : "s", c[i].site);
		else
			slots_cat(reason, len, ", %ld on %s", per_site[i], c[i].site);
		*missing += per_site[i];
	}
	free(per_site);
	if (rc != 0 || *missing == 0)
		return rc;
	if ((st = slots_stmt(s, why, whylen, "SELECT DISTINCT q.job FROM queue q JOIN claim c "
	    "ON c.job = q.job WHERE q.holding = 1 AND q.job != ? AND c.host IN (SELECT host "
	    "FROM claim WHERE job = ?) ORDER BY q.job", "ii", job, job)) == NULL)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (shown < SLOTS_HOLDERS_SHOWN)
			slots_cat(reason, len, "%s%lld", shown == 0 ? ", held by job " : ", ",
			    (long long)sqlite3_column_int64(st, 0));
		shown++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return slots_fail(s, why, whylen);
	if (shown > SLOTS_HOLDERS_SHOWN)
		slots_cat(reason, len, " and %ld more", shown - SLOTS_HOLDERS_SHOWN);
	return 0;
}

/*
 * Whether job may hold its claims now, with the reason when not; the caller's transaction
 * is open.
 */
static int
slots_decide(struct slots *s, long job, const struct slots_claim *c, size_t n, char *reason,
    size_t len)
{
	char why[512];
	long missing, ahead;

	reason[0] = '\0';
	snprintf(reason, len, "waiting for ");
	if (slots_shortage(s, job, c, n, &missing, reason, len, why, sizeof why) == -1 ||
	    slots_long(s, slots_stmt(s, why, sizeof why, "SELECT MIN(q.job) FROM queue q JOIN "
	    "claim c ON c.job = q.job WHERE q.holding = 0 AND q.job < ? AND c.host IN "
	    "(SELECT host FROM claim WHERE job = ?)", "ii", job, job), &ahead, why,
	    sizeof why) == -1) {
		snprintf(reason, len, "%s", why);
		return SLOTS_ERROR;
	}
	if (missing == 0 && ahead == 0)
		return SLOTS_HELD;
	if (missing == 0)
		snprintf(reason, len, "waiting behind job %ld, submitted earlier, which needs "
		    "slots on the same nodes", ahead);
	else if (ahead != 0)
		slots_cat(reason, len, "; behind job %ld, submitted earlier", ahead);
	return SLOTS_WAIT;
}

int
slots_claim(struct slots *s, long job, const struct slots_claim *c, size_t n, int now,
    slots_alive_fn alive, void *arg, char *reason, size_t len)
{
	int verdict;

	if (slots_exec(s, "BEGIN IMMEDIATE", reason, len) == -1)
		return SLOTS_ERROR;
	if (slots_purge(s, job, alive, arg, reason, len) == -1 ||
	    slots_record(s, job, c, n, reason, len) == -1)
		verdict = SLOTS_ERROR;
	else
		verdict = now ? SLOTS_HELD : slots_decide(s, job, c, n, reason, len);
	if (verdict == SLOTS_HELD && slots_run(s, slots_stmt(s, reason, len, "UPDATE queue SET "
	    "holding = 1 WHERE job = ?", "i", job), reason, len) == -1)
		verdict = SLOTS_ERROR;
	if (verdict == SLOTS_ERROR) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return SLOTS_ERROR;
	}
	if (slots_exec(s, "COMMIT", reason, len) == -1) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return SLOTS_ERROR;
	}
	return verdict;
}

int
slots_release(struct slots *s, long job, char *why, size_t whylen)
{
	if (slots_exec(s, "BEGIN IMMEDIATE", why, whylen) == -1)
		return -1;
	if (slots_forget(s, job, why, whylen) == -1) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return slots_exec(s, "COMMIT", why, whylen);
}
