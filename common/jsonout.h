/*
 * jsonout.h — the one writer of every JSON document gridsubmit prints or writes (the
 * --json of every command, an experiment's results.json): "schema_version" first, one
 * layout (indented by 2, keys in the order they were set, each real as the shortest text
 * that reads back to the same double, integers as integers), a final newline. Fields,
 * and the error document of a failure: gridsubmit-json(5).
 */
#ifndef GS_JSONOUT_H
#define GS_JSONOUT_H

#include <stdio.h>

#include <jansson.h>

/*
 * The version of every document: raised when a field changes its name, type or meaning
 * (2: job ids are numbers, one name per thing across commands; 3: "id" for every job id,
 * an experiment's parameters typed, the error document; gridsubmit-json(5)).
 * JSONOUT_SCHEMA_TEXT is the same number as a string literal, for help texts.
 */
#define JSONOUT_SCHEMA_VERSION	3
#define JSONOUT_STRINGIFY(x)	#x
#define JSONOUT_XSTRINGIFY(x)	JSONOUT_STRINGIFY(x)
#define JSONOUT_SCHEMA_TEXT	JSONOUT_XSTRINGIFY(JSONOUT_SCHEMA_VERSION)

/*
 * doc (an object; the reference is stolen, NULL is taken as out of memory) to f with
 * "schema_version" put first and a newline after it. Returns 0, or -1 when it could not
 * be built or written (reported on stderr).
 */
int jsonout_write(json_t *doc, FILE *f);

/* jsonout_write to stdout, counted (jsonout_printed). */
int jsonout_print(json_t *doc);

/* How many documents jsonout_print has printed in this process. */
int jsonout_printed(void);

/*
 * An error as every document writes one, {"code": code, "message": message}: under
 * "error" at the top of the document of a command that fails in --json mode (code: its
 * exit status), and in the item of a job that could not be handled (cancel, wait, list).
 */
json_t *jsonout_error(int code, const char *message);

/* The same text, allocated (free it), or NULL when out of memory; steals doc. */
char *jsonout_text(json_t *doc);

/* Any value in the layout above, without schema_version or newline (free it), or NULL. */
char *jsonout_encode(const json_t *v);

/*
 * v as the shortest %.Ng (N up to 17) that strtod reads back as v, with ".0" added to
 * an integral value (it stays a real) and '.' whatever the locale says, into buf (40
 * bytes hold any). Returns its length.
 */
size_t jsonout_real_text(double v, char *buf, size_t len);

/*
 * A message as a JSON string, whatever its bytes: one that is not UTF-8 (it quotes a
 * binary file) gets '?' for every byte above ASCII. NULL only when out of memory.
 */
json_t *jsonout_message(const char *s);

/* A job id ("12") as a JSON integer; null when it is not a decimal number. */
json_t *jsonout_id(const char *id);

/* A number, or null when it is not finite (JSON has no NaN or infinity). */
json_t *jsonout_num(double v);

/* A string, or null for NULL. */
json_t *jsonout_str(const char *s);

#endif
