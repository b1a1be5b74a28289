/*
 * jsonout.h — the one writer of every JSON document gridsubmit prints or writes (the
 * --json of every command, an experiment's results.json): "schema_version" first, one
 * layout (indented by 2, keys in the order they were set, reals with the 17 significant
 * digits that read back to the same double), a final newline. Fields: gridsubmit-json(5).
 */
#ifndef GS_JSONOUT_H
#define GS_JSONOUT_H

#include <stdio.h>

#include <jansson.h>

/*
 * The version of every document: raised when a field changes its name, type or meaning
 * (2: job ids are numbers, one name per thing across commands; gridsubmit-json(5)).
 */
#define JSONOUT_SCHEMA_VERSION	2

/*
 * doc (an object; the reference is stolen, NULL is taken as out of memory) to f with
 * "schema_version" put first and a newline after it. Returns 0, or -1 when it could not
 * be built or written (reported on stderr).
 */
int jsonout_write(json_t *doc, FILE *f);

/* jsonout_write to stdout. */
int jsonout_print(json_t *doc);

/* The same text, allocated (free it), or NULL when out of memory; steals doc. */
char *jsonout_text(json_t *doc);

/* A job id ("12") as a JSON integer; null when it is not a decimal number. */
json_t *jsonout_id(const char *id);

/* A number, or null when it is not finite (JSON has no NaN or infinity). */
json_t *jsonout_num(double v);

/* A string, or null for NULL. */
json_t *jsonout_str(const char *s);

#endif
