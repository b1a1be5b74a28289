/*
 * test-jsonout.c — the one JSON writer (common/jsonout.h): each real as the shortest text
 * that reads back to the same double (and never a real shortened into another value), an
 * integral real kept a real, integers as integers, the layout (indent 2, keys in order,
 * empty {} and []), the escapes JSON requires, schema_version put first, the error object.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tap.h"

#include "common/jsonout.h"

/* v's text and whether it reads back to v. */
static void
real_is(double v, const char *want)
{
	char buf[40];

	jsonout_real_text(v, buf, sizeof buf);
	is_str(buf, want, "%.17g is written %s", v, want);
	ok(strtod(buf, NULL) == v, "%s reads back to the same double", buf);
}

/* The significant digits of a number's text, trailing zeros aside: "0.0120e5" has 2. */
static size_t
digits(const char *s)
{
	size_t n = 0, zeros = 0;
	int lead = 1;

	for (; *s != '\0' && *s != 'e'; s++) {
		if (*s < '0' || *s > '9')
			continue;
		if (*s == '0' && lead)
			continue;
		lead = 0;
		if (*s == '0') {
			zeros++;
			continue;
		}
		n += zeros + 1;
		zeros = 0;
	}
	return n;
}

/* doc's text (the reference is stolen) against want. */
static void
text_is(json_t *doc, const char *want, const char *name)
{
	char *text = jsonout_text(doc);

	is_str(text, want, "%s", name);
	free(text);
}

int
main(void)
{
	double third = 1.0 / 3, v;
	char buf[40], full[40];
	int i, longer = 0, wrong = 0;

	real_is(0.184634121, "0.184634121");
	real_is(0.1, "0.1");
	real_is(third, "0.3333333333333333");
	real_is(0.1 + 0.2, "0.30000000000000004");
	real_is(2, "2.0");
	real_is(-0.5, "-0.5");
	real_is(1e300, "1e+300");
	real_is(5e-324, "5e-324");
	real_is(1.5e-320, "1.5e-320");
	real_is(DBL_MAX, "1.7976931348623157e+308");
	real_is(123456789012345678.0, "1.2345678901234568e+17");

	/* a spread of values: each reads back, none longer than %.17g's */
	srand(7);
	for (i = 0; i < 100000; i++) {
		v = (double)rand() / RAND_MAX * pow(10, rand() % 40 - 20);
		jsonout_real_text(v, buf, sizeof buf);
		wrong += strtod(buf, NULL) != v;
		snprintf(full, sizeof full, "%.17g", v);
		longer += digits(buf) > digits(full);
	}
	is_int(wrong, 0, "100000 random reals all read back");
	is_int(longer, 0, "none with more digits than %%.17g's");
	ok(digits("0.0120e5") == 2 && digits("100") == 1 && digits("-1.05") == 3,
	    "the digit count of this test");

	text_is(json_pack("{s:i, s:f, s:[], s:{}, s:[i, s], s:n, s:b}", "n", 3, "r", 0.5,
	    "l", "o", "a", 1, "x", "z", "b", 0), "{\n  \"schema_version\": "
	    JSONOUT_SCHEMA_TEXT ",\n  \"n\": 3,\n  \"r\": 0.5,\n  \"l\": [],\n  \"o\": {},\n"
	    "  \"a\": [\n    1,\n    \"x\"\n  ],\n  \"z\": null,\n  \"b\": false\n}",
	    "the layout: schema_version first, indent 2, keys in order, empty {} and []");
	text_is(json_pack("{s:i, s:s}", "schema_version", 99, "s", "a\"b\\c\n\t\x01/é"),
	    "{\n  \"schema_version\": " JSONOUT_SCHEMA_TEXT ",\n"
	    "  \"s\": \"a\\\"b\\\\c\\n\\t\\u0001/é\"\n}",
	    "escapes; UTF-8 and '/' as they are; a document's own schema_version overridden");
	text_is(json_pack("{s:I}", "id", (json_int_t)9007199254740993LL),
	    "{\n  \"schema_version\": " JSONOUT_SCHEMA_TEXT ",\n  \"id\": 9007199254740993\n}",
	    "an integer beyond a double's 53 bits exact");
	text_is(json_pack("{s:o}", "error", jsonout_error(2, "job 9: no such job")),
	    "{\n  \"schema_version\": " JSONOUT_SCHEMA_TEXT ",\n  \"error\": {\n"
	    "    \"code\": 2,\n    \"message\": \"job 9: no such job\"\n  }\n}",
	    "the error object");
	text_is(json_pack("{s:o}", "m", jsonout_message("near \xff\xfe x")),
	    "{\n  \"schema_version\": " JSONOUT_SCHEMA_TEXT ",\n  \"m\": \"near ?? x\"\n}",
	    "a message that is not UTF-8 kept, its bytes above ASCII as '?'");
	ok(jsonout_text(json_array()) == NULL, "a document that is not an object refused");
	ok(json_is_null(jsonout_num(NAN)) && json_is_null(jsonout_num(INFINITY)),
	    "NaN and infinity are null");
	return tap_done();
}
