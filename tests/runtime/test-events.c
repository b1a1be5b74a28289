/*
 * test-events.c — the master's event writer (runtime/core/grt-events.c) as readers see its
 * file: every line is one JSON object that jansson parses; times keep nine decimals
 * (within half a nanosecond, no trailing zeros, no "-0", no exponent below 1e9); integers
 * are exact over all of int64; strings are escaped; the chunk record's fast path writes
 * exactly the bytes of the generic path; a record larger than the buffer stays whole;
 * records reach the file within 100 ms of the writer's clock; a write error is reported.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "grt/grt-error.h"
#include "runtime/core/grt-events.h"
#include "tests/tap.h"

static char dir[] = "/tmp/test-events.XXXXXX";

static char *
path_of(const char *name)
{
	static char p[256];

	snprintf(p, sizeof p, "%s/%s", dir, name);
	return p;
}

/* The whole file, NUL-terminated (NULL when it cannot be read); its size in *len. */
static char *
slurp(const char *path, size_t *len)
{
	struct stat sb;
	char *s;
	int fd;

	if ((fd = open(path, O_RDONLY)) == -1 || fstat(fd, &sb) == -1) {
		if (fd != -1)
			close(fd);
		return NULL;
	}
	s = malloc((size_t)sb.st_size + 1);
	if (s == NULL || read(fd, s, (size_t)sb.st_size) != sb.st_size) {
		free(s);
		close(fd);
		return NULL;
	}
	close(fd);
	s[sb.st_size] = '\0';
	*len = (size_t)sb.st_size;
	return s;
}

/*
 * How a time (is_int 0: d) or an integer (is_int 1: i) is written: the text of field x of
 * a record of its own ("(unreadable)" if the file has none).
 */
static const char *
field_text(int is_int, double d, int64_t i)
{
	static char text[64];
	struct grt_events e;
	char *s, *p;
	size_t n;

	unlink(path_of("one"));
	grt_events_open(&e, path_of("one"), 0);
	grt_events_begin(&e, 0, "x");
	if (is_int)
		grt_events_int(&e, "x", i);
	else
		grt_events_dbl(&e, "x", d);
	grt_events_end(&e, 0);
	grt_events_close(&e);
	if ((s = slurp(path_of("one"), &n)) == NULL || (p = strstr(s, "\"x\":")) == NULL) {
		free(s);
		return "(unreadable)";
	}
	p += 4;
	snprintf(text, sizeof text, "%.*s", (int)strcspn(p, "}"), p);
	free(s);
	return text;
}

#define dbl_text(v)	field_text(0, (v), 0)
#define int_text(v)	field_text(1, 0, (v))

static void
test_fixed_values(void)
{
	static const struct {
		double v;
		const char *text;
	} d[] = {
		{ 0, "0" }, { -0.0, "0" }, { 0.5, "0.5" }, { 1, "1" }, { -2.25, "-2.25" },
		{ 1e-9, "0.000000001" }, { 4e-10, "0" }, { 6e-10, "0.000000001" },
		{ -4e-10, "0" }, { -6e-10, "-0.000000001" }, { 0.9999999996, "1" },
		{ 0.123456789, "0.123456789" }, { 123.000000001, "123.000000001" },
		{ 9.87654321, "9.87654321" }, { 999999999.5, "999999999.5" },
		{ 1e9, "1000000000" }, { 1.5e9, "1500000000" }, { 1e20, "1e+20" },
		{ -3e15, "-3000000000000000" }, { NAN, "null" }, { INFINITY, "null" },
		{ -INFINITY, "null" },
	};
	static const struct {
		int64_t v;
		const char *text;
	} n[] = {
		{ 0, "0" }, { 7, "7" }, { -1, "-1" }, { 65536, "65536" },
		{ INT64_MAX, "9223372036854775807" }, { INT64_MIN, "-9223372036854775808" },
	};
	char want[32];
	uint64_t p10;
	size_t i;
	int k;

	for (i = 0; i < sizeof d / sizeof d[0]; i++)
		is_str(dbl_text(d[i].v), d[i].text, "time %.17g is written %s", d[i].v,
		    d[i].text);
	for (i = 0; i < sizeof n / sizeof n[0]; i++)
		is_str(int_text(n[i].v), n[i].text, "integer %s", n[i].text);
	/* every digit count, at both ends */
	for (k = 1, p10 = 10; k <= 18; k++, p10 *= 10) {
		snprintf(want, sizeof want, "%llu", (unsigned long long)(p10 - 1));
		is_str(int_text((int64_t)(p10 - 1)), want, "integer 10^%d - 1", k);
		snprintf(want, sizeof want, "%llu", (unsigned long long)p10);
		is_str(int_text((int64_t)p10), want, "integer 10^%d", k);
	}
}

/* A double spread over the magnitudes times take, and some they never should. */
static double
random_time(void)
{
	double mant = (double)random() / 2147483648.0;
	int e = (int)(random() % 25) - 14;	/* 1e-14 .. 1e10 */

	switch (random() % 40) {
	case 0:
		return NAN;
	case 1:
		return random() % 2 ? INFINITY : -INFINITY;
	case 2:
		return 0;
	case 3:
		return (double)(random() % 100000) / 1000;	/* short decimals: trailing zeros */
	}
	return (random() % 8 == 0 ? -mant : mant) * pow(10, e);
}

static int64_t
random_int(void)
{
	uint64_t u = ((uint64_t)random() << 42) ^ ((uint64_t)random() << 21) ^
	    (uint64_t)random();

	return (int64_t)(u >> (random() % 64));
}

/*
 * The text of time key in line, as written for v: null when v is not finite; below 1e9
 * no exponent, no "-0", at most nine decimals and no trailing zero.
 */
static int
time_text_ok(const char *line, const char *key, double v)
{
	char pat[32], tok[64];
	const char *p, *dot;
	size_t n;

	snprintf(pat, sizeof pat, "\"%s\":", key);
	if ((p = strstr(line, pat)) == NULL)
		return 0;
	p += strlen(pat);
	n = strcspn(p, ",}");
	snprintf(tok, sizeof tok, "%.*s", (int)n, p);
	if (!isfinite(v))
		return strcmp(tok, "null") == 0;
	if (fabs(v) >= 1e9)
		return 1;
	if (strchr(tok, 'e') != NULL || strcmp(tok, "-0") == 0)
		return 0;
	dot = strchr(tok, '.');
	return dot == NULL || (strlen(dot + 1) <= 9 && tok[n - 1] != '0');
}

/*
 * 20,000 random chunk records through the fast path into one file and the generic
 * begin/int/dbl/end path into another: the files must be equal, and each line must parse
 * to the values given, times within half a nanosecond (exact from 1e9 on) and written
 * as time_text_ok says.
 */
static void
test_chunk_records(void)
{
	enum { N = 20000 };
	static double vt[N], vc[N], ve[N];
	static int64_t vi[N][4];
	struct grt_events fast, gen;
	char *a, *b, *line, *next;
	size_t na = 0, nb = 0;
	int i, bad_json = 0, bad_value = 0, first_bad = -1;

	srandom(42);
	if (grt_events_open(&fast, path_of("fast"), 100) != GRT_OK ||
	    grt_events_open(&gen, path_of("gen"), 100) != GRT_OK) {
		ok(0, "open two event files");
		return;
	}
	for (i = 0; i < N; i++) {
		vt[i] = 100 + fabs(random_time());
		vc[i] = random_time();
		ve[i] = random_time();
		vi[i][0] = random_int();
		vi[i][1] = random_int();
		vi[i][2] = random_int();
		vi[i][3] = random_int();
		grt_events_chunk(&fast, vt[i], vi[i][0], vi[i][1], vi[i][2], vi[i][3], vc[i],
		    ve[i]);
		grt_events_begin(&gen, vt[i], "chunk");
		grt_events_int(&gen, "rank", vi[i][0]);
		grt_events_int(&gen, "round", vi[i][1]);
		grt_events_int(&gen, "start", vi[i][2]);
		grt_events_int(&gen, "count", vi[i][3]);
		grt_events_dbl(&gen, "t_calc", vc[i]);
		grt_events_dbl(&gen, "t_comm", ve[i] - vc[i]);
		grt_events_dbl(&gen, "t_exe", ve[i]);
		grt_events_end(&gen, vt[i]);
	}
	is_int(grt_events_close(&fast), GRT_OK, "fast path: closed with nothing lost");
	is_int(grt_events_close(&gen), GRT_OK, "generic path: closed with nothing lost");
	a = slurp(path_of("fast"), &na);
	b = slurp(path_of("gen"), &nb);
	ok(a != NULL && b != NULL && na == nb && memcmp(a, b, na) == 0,
	    "the chunk fast path writes the generic path's bytes (%zu and %zu bytes)", na, nb);
	for (i = 0, line = a; line != NULL && *line != '\0' && i < N; i++, line = next) {
		static const char *const keys[] = { "rank", "round", "start", "count" };
		double want[4] = { vt[i] - 100, vc[i], ve[i] - vc[i], ve[i] };
		static const char *const tkeys[] = { "t", "t_calc", "t_comm", "t_exe" };
		json_t *o;
		int k, good = 1;

		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		if ((o = json_loads(line, 0, NULL)) == NULL || !json_is_object(o)) {
			bad_json++;
			json_decref(o);
			continue;
		}
		for (k = 0; k < 4; k++)
			good &= json_integer_value(json_object_get(o, keys[k])) == vi[i][k];
		for (k = 0; k < 4; k++) {
			json_t *x = json_object_get(o, tkeys[k]);
			double got = json_number_value(x), w = want[k];

			good &= time_text_ok(line, tkeys[k], want[k]);
			if (!isfinite(w))
				good &= json_is_null(x);
			else if (fabs(w) >= 1e9)
				good &= got == w;
			else
				good &= fabs(got - w) <= 0.5e-9 + fabs(w) * 4e-16;
		}
		good &= json_integer_value(json_object_get(o, "v")) == 1 &&
		    strcmp(json_string_value(json_object_get(o, "ev")), "chunk") == 0;
		if (!good && first_bad < 0)
			first_bad = i;
		bad_value += !good;
		json_decref(o);
	}
	is_int(i, N, "one line per record");
	is_int(bad_json, 0, "every line is a JSON object");
	if (!is_int(bad_value, 0, "every line holds the values given, in the time format") && first_bad >= 0)
		printf("#   first bad: record %d: t %.17g t_calc %.17g t_exe %.17g\n", first_bad,
		    vt[first_bad], vc[first_bad], ve[first_bad]);
	free(a);
	free(b);
}

static void
test_strings(void)
{
	static const char nasty[] = "a\"b\\c\nd\te\x01\x1f\x7f" "f/\xc3\xa9";
	char big[3000];
	struct grt_events e;
	json_t *o;
	char *s;
	size_t n;

	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	grt_events_open(&e, path_of("str"), 0);
	grt_events_begin(&e, 0, "fail");
	grt_events_str(&e, "reason", nasty);
	grt_events_str(&e, "long", big);
	grt_events_end(&e, 0);
	grt_events_close(&e);
	s = slurp(path_of("str"), &n);
	o = s != NULL ? json_loads(s, 0, NULL) : NULL;
	ok(o != NULL, "a record with quotes, backslashes and control bytes is valid JSON");
	is_str(json_string_value(json_object_get(o, "reason")), nasty,
	    "and the string reads back as given");
	is_int((long long)strlen(json_string_value(json_object_get(o, "long")) ?
	    json_string_value(json_object_get(o, "long")) : ""), 1024,
	    "a string is cut at 1024 bytes");
	json_decref(o);
	free(s);
}

/* A record longer than the 256 KiB buffer: written in pieces, read as one line. */
static void
test_huge_record(void)
{
	enum { NV = 100000 };
	struct grt_events e;
	json_t *o, *units;
	char *s;
	size_t n, i;
	int in_order = 1;

	grt_events_open(&e, path_of("huge"), 0);
	grt_events_begin(&e, 0.25, "round");
	grt_events_raw(&e, ",\"units\":[");
	for (i = 0; i < NV; i++) {
		if (i > 0)
			grt_events_raw(&e, ",");
		grt_events_rawint(&e, (int64_t)(i * 1000003));
	}
	grt_events_raw(&e, "]");
	grt_events_end(&e, 0.25);
	is_int(grt_events_close(&e), GRT_OK, "a record larger than the buffer: nothing lost");
	s = slurp(path_of("huge"), &n);
	o = s != NULL ? json_loads(s, 0, NULL) : NULL;
	units = json_object_get(o, "units");
	is_int((long long)json_array_size(units), NV, "it is one line with %d numbers", NV);
	for (i = 0; i < json_array_size(units); i++)
		in_order &= json_integer_value(json_array_get(units, i)) == (json_int_t)(i * 1000003);
	ok(in_order && s != NULL && strchr(s, '\n') == s + n - 1, "in order, ending in one newline");
	json_decref(o);
	free(s);
}

/* Records are buffered, and reach the file once 100 ms of the writer's clock have passed. */
static void
test_flush_period(void)
{
	struct grt_events e;
	struct stat sb;

	grt_events_open(&e, path_of("tick"), 10);
	grt_events_chunk(&e, 10.01, 1, 1, 0, 1, 0.001, 0.002);
	grt_events_tick(&e, 10.05);
	ok(stat(path_of("tick"), &sb) == 0 && sb.st_size == 0,
	    "a record 50 ms old is still in the buffer");
	grt_events_tick(&e, 10.11);
	ok(stat(path_of("tick"), &sb) == 0 && sb.st_size > 0,
	    "at 110 ms it is in the file (%lld bytes)", (long long)sb.st_size);
	grt_events_chunk(&e, 10.15, 1, 1, 1, 1, 0.001, 0.002);
	ok(stat(path_of("tick"), &sb) == 0 && sb.st_size > 0 &&
	    sb.st_size < 200, "the next record waits for the next period");
	grt_events_chunk(&e, 10.22, 1, 1, 2, 1, 0.001, 0.002);
	ok(stat(path_of("tick"), &sb) == 0 && sb.st_size > 200,
	    "a record written 110 ms after the last write goes out with it");
	is_int(grt_events_close(&e), GRT_OK, "closed");
}

static void
test_errors(void)
{
	struct grt_events e;

	is_int(grt_events_open(&e, NULL, 0), GRT_OK, "no path: events are off");
	ok(!grt_events_on(&e), "and every call does nothing");
	grt_events_chunk(&e, 1, 1, 1, 0, 1, 0, 0);
	grt_events_begin(&e, 1, "x");
	grt_events_end(&e, 1);
	is_int(grt_events_close(&e), GRT_OK, "closing events that are off is fine");
	is_int(grt_events_open(&e, path_of("no/such/dir/events.jsonl"), 0), GRT_EIO,
	    "a path that cannot be opened: GRT_EIO");
	is_int(grt_events_open(&e, "/dev/full", 0), GRT_OK, "/dev/full opens");
	grt_events_chunk(&e, 1, 1, 1, 0, 1, 0, 0);
	grt_events_tick(&e, 2);
	ok(!grt_events_on(&e), "a failed write turns events off (the run goes on)");
	is_int(grt_events_close(&e), GRT_EIO, "and closing reports the loss: GRT_EIO");
}

int
main(void)
{
	char cmd[64];

	if (mkdtemp(dir) == NULL) {
		printf("not ok - mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	test_fixed_values();
	test_chunk_records();
	test_strings();
	test_huge_record();
	test_flush_period();
	test_errors();
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	return tap_failures != 0;
}
