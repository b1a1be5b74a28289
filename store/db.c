/* db.c — the one SQLite opener (db.h). */
#include <stdio.h>

#include <sqlite3.h>

#include "store/db.h"

int
db_fail(sqlite3 *db, const char *path, char *why, size_t whylen)
{
	snprintf(why, whylen, "%s: %s", path, db != NULL ? sqlite3_errmsg(db) : "cannot open");
	return -1;
}

sqlite3 *
db_open(const char *path, const char *schema, int busy_ms, char *why, size_t whylen)
{
	sqlite3 *db = NULL;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK || sqlite3_busy_timeout(db, busy_ms) != SQLITE_OK ||
	    sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;", NULL,
	    NULL, NULL) != SQLITE_OK ||
	    (schema != NULL && sqlite3_exec(db, schema, NULL, NULL, NULL) != SQLITE_OK)) {
		db_fail(db, path, why, whylen);
		sqlite3_close(db);
		return NULL;
	}
	return db;
}
