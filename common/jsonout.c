/*
 * jsonout.c — the one layout of gridsubmit's JSON documents (jsonout.h). jansson builds
 * the values; the text is written here, because jansson prints every real with one
 * precision for the whole document (%.17g gives 0.18463412100000001 for 0.184634121),
 * where a reader wants each real as the shortest text that reads back to the same double.
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonout.h"
#include "common/log.h"

/* Documents printed on stdout so far: a failure's error document comes only without one. */
static int jsonout_nprinted;

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

size_t
jsonout_real_text(double v, char *buf, size_t len)
{
	const char *dp = localeconv()->decimal_point;
	char *p;
	int prec;

	/*
	 * %.17g always reads back; the first precision that does is the shortest text. A
	 * normal double's first try is 15 digits (DBL_DIG): a decimal of up to 15 digits
	 * comes back from its double unchanged, so %.15g, trailing zeros stripped, is already
	 * the shortest when it reads back; a subnormal, with fewer bits, is tried from 1.
	 */
	for (prec = v != 0 && fabs(v) < DBL_MIN ? 1 : DBL_DIG; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	/* the locale's decimal point (the console sets LC_ALL) is JSON's '.' */
	if (dp != NULL && strcmp(dp, ".") != 0 && (p = strstr(buf, dp)) != NULL) {
		*p = '.';
		memmove(p + 1, p + strlen(dp), strlen(p + strlen(dp)) + 1);
	}
	/* a real stays a real when read back: 2 is written 2.0, as jansson does */
	if (strpbrk(buf, ".eE") == NULL && strlen(buf) + 3 <= len)
		strcat(buf, ".0");
	return strlen(buf);
}

/* s as a JSON string: the escapes JSON requires, UTF-8 as it is (jansson's default). */
static void
jsonout_string(FILE *f, const char *s, size_t n)
{
	size_t i;
	unsigned char c;

	fputc('"', f);
	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\r')
			fputs("\\r", f);
		else if (c == '\b')
			fputs("\\b", f);
		else if (c == '\f')
			fputs("\\f", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/*
 * v to f at nesting depth: objects and arrays one item a line, indented by 2 for each
 * level, "key": value, empty ones as {} and [] (jansson's JSON_INDENT(2) layout).
 */
static void
jsonout_value(FILE *f, const json_t *v, int depth)
{
	const char *key;
	json_t *item;
	char num[40];
	size_t i, n;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		if (json_object_size(v) == 0) {
			fputs("{}", f);
			break;
		}
		fputc('{', f);
		n = 0;
		json_object_foreach((json_t *)v, key, item) {
			fprintf(f, "%s\n%*s", n++ ? "," : "", 2 * (depth + 1), "");
			jsonout_string(f, key, strlen(key));
			fputs(": ", f);
			jsonout_value(f, item, depth + 1);
		}
		fprintf(f, "\n%*s}", 2 * depth, "");
		break;
	case JSON_ARRAY:
		if (json_array_size(v) == 0) {
			fputs("[]", f);
			break;
		}
		fputc('[', f);
		json_array_foreach(v, i, item) {
			fprintf(f, "%s\n%*s", i ? "," : "", 2 * (depth + 1), "");
			jsonout_value(f, item, depth + 1);
		}
		fprintf(f, "\n%*s]", 2 * depth, "");
		break;
	case JSON_STRING:
		jsonout_string(f, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		fprintf(f, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		jsonout_real_text(json_real_value(v), num, sizeof num);
		fputs(num, f);
		break;
	case JSON_TRUE:
		fputs("true", f);
		break;
	case JSON_FALSE:
		fputs("false", f);
		break;
	case JSON_NULL:
		fputs("null", f);
		break;
	}
}

char *
jsonout_encode(const json_t *v)
{
	char *text = NULL;
	size_t len;
	FILE *f;

	if (v == NULL || (f = open_memstream(&text, &len)) == NULL)
		return NULL;
	jsonout_value(f, v, 0);
	if (ferror(f)) {
		fclose(f);
		free(text);
		return NULL;
	}
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

char *
jsonout_text(json_t *doc)
{
	json_t *out = jsonout_versioned(doc);
	char *text;

	if (out == NULL)
		return NULL;
	text = jsonout_encode(out);
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
	jsonout_nprinted++;
	return jsonout_write(doc, stdout);
}

int
jsonout_printed(void)
{
	return jsonout_nprinted;
}

json_t *
jsonout_message(const char *s)
{
	json_t *v;
	char *copy;
	size_t i;

	if (s == NULL)
		s = "";
	if ((v = json_string(s)) != NULL || (copy = strdup(s)) == NULL)
		return v;
	/* not UTF-8 (a message quoting a binary file's bytes): what is not ASCII as '?' */
	for (i = 0; copy[i] != '\0'; i++)
		if ((unsigned char)copy[i] >= 0x80)
			copy[i] = '?';
	v = json_string(copy);
	free(copy);
	return v;
}

json_t *
jsonout_error(int code, const char *message)
{
	return json_pack("{s:i, s:o}", "code", code, "message", jsonout_message(message));
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
