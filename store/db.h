/*
 * db.h — the one way gridsubmit opens its SQLite files (the queue's slot ledger, slots.h;
 * an experiment's store, experiment/exp-store.h): created when missing, a busy timeout so
 * that processes sharing the file take turns, write-ahead logging with synchronous FULL (a
 * committed transaction survives a crash of the machine), then the caller's schema.
 */
#ifndef GS_DB_H
#define GS_DB_H

#include <stddef.h>

#include <sqlite3.h>

/*
 * Open (or create) the database at path, wait up to busy_ms for another process's lock,
 * and run schema (statements that create what is missing; may be NULL). The handle (close
 * it with sqlite3_close), or NULL with why: "PATH: what SQLite said".
 */
sqlite3 *db_open(const char *path, const char *schema, int busy_ms, char *why,
    size_t whylen);

/* SQLite's last error on db into why, as "PATH: message"; returns -1. */
int db_fail(sqlite3 *db, const char *path, char *why, size_t whylen);

#endif
