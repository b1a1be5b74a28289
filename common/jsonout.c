/* jsonout.c — the one layout of gridsubmit's JSON documents (jsonout.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonout.h"
#include "common/log.h"

#define JSONOUT_FLAGS	(JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))

/*
 * A new object: schema_version, then doc's keys in their order; doc is released. A
 * schema_version of doc's own is overridden: there is one version for every document.
 */
static json_t *
jsonout_versioned(json_t *doc)
{
	json_t *out;

	if (doc == NULL || !json_is_object(doc)) {
		json_decref(doc);
		return NULL;
	}
	if ((out = json_object()) == NULL ||
	    json_object_set_new(out, "schema_version",
	    json_integer(JSONOUT_SCHEMA_VERSION)) != 0 ||
	    json_object_update(out, doc) != 0 ||
	    json_object_set_new(out, "schema_version",
	    json_integer(JSONOUT_SCHEMA_VERSION)) != 0) {
		json_decref(out);
		out = NULL;
	}
	json_decref(doc);
	return out;
}

char *
jsonout_text(json_t *doc)
{
	json_t *out = jsonout_versioned(doc);
	char *text;

	if (out == NULL)
		return NULL;
	text = json_dumps(out, JSONOUT_FLAGS);
	json_decref(out);
	return text;
}

int
jsonout_write(json_t *doc, FILE *f)
{
	char *text = jsonout_text(doc);
	int rc = 0;

	if (text == NULL) {
		log_warnx("cannot build the JSON document (a value it cannot hold, or out of memory)");
		return -1;
	}
	errno = 0;
	if (fputs(text, f) == EOF || fputc('\n', f) == EOF || fflush(f) == EOF || ferror(f)) {
		log_warn("cannot write the JSON document");
		rc = -1;
	}
	free(text);
	return rc;
}

int
jsonout_print(json_t *doc)
{
	return jsonout_write(doc, stdout);
}

json_t *
jsonout_id(const char *id)
{
	size_t i;

	if (id == NULL || id[0] == '\0' || strlen(id) > 18)
		return json_null();
	for (i = 0; id[i] != '\0'; i++)
		if (!isdigit((unsigned char)id[i]))
			return json_null();
	return json_integer((json_int_t)strtoll(id, NULL, 10));
}

json_t *
jsonout_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *
jsonout_str(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}
