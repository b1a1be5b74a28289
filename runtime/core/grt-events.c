/* grt-events.c — buffered JSON Lines writer of the master's event stream. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "grt/grt-error.h"
#include "runtime/core/grt-events.h"

#define EVENTS_BUFSIZE	(256 * 1024)
#define EVENTS_HIGH	(32 * 1024)	/* write above this: short writes, short stalls */
#define EVENTS_PERIOD	0.1			/* seconds between writes, at most */

/* Off, with its clock; the buffer when on. GRT_OK or GRT_ENOMEM. */
static int
events_init(struct grt_events *e, int on, double t0)
{
	memset(e, 0, sizeof *e);
	e->fd = -1;
	e->t0 = t0;
	e->last_flush = t0;
	if (!on)
		return GRT_OK;
	if ((e->buf = malloc(EVENTS_BUFSIZE)) == NULL)
		return GRT_ENOMEM;
	e->cap = EVENTS_BUFSIZE;
	return GRT_OK;
}

/*
 * A file whose last line a full or read-only disk cut (a launch that ended on a failed
 * write, then resumed): the next record starts on a line of its own, and readers skip
 * only the torn one.
 */
static void
events_end_line(struct grt_events *e)
{
	off_t end = lseek(e->fd, 0, SEEK_END);
	char last;

	if (end > 0 && pread(e->fd, &last, 1, end - 1) == 1 && last != '\n' &&
	    grt_write_all(e->fd, "\n", 1) == -1) {
		e->lost = 1;
		e->err = errno;
	}
}

int
grt_events_open(struct grt_events *e, const char *path, double t0)
{
	int rc, fd;

	if ((rc = events_init(e, path != NULL && *path != '\0', t0)) != GRT_OK ||
	    e->buf == NULL)
		return rc;
	if ((fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644)) == -1) {
		free(e->buf);
		e->buf = NULL;
		return GRT_EIO;
	}
	grt_sink_file(&e->sink, fd);
	e->fd = fd;
	e->own_fd = 1;
	events_end_line(e);
	return GRT_OK;
}

int
grt_events_open_sink(struct grt_events *e, const struct grt_sink *sink, double t0)
{
	int rc;

	if ((rc = events_init(e, 1, t0)) != GRT_OK)
		return rc;
	e->sink = *sink;
	e->fd = sink->fd;
	return GRT_OK;
}

static void
events_write(struct grt_events *e)
{
	errno = 0;
	if (!e->lost && e->len > 0 && e->sink.write(&e->sink, e->buf, e->len) == -1) {
		e->lost = 1;
		e->err = errno != 0 ? errno : EIO;
	}
	e->len = 0;
}

int
grt_events_close(struct grt_events *e)
{
	int lost;

	if (e->fd < 0)
		return GRT_OK;
	if (e->len > 0 && !e->lost)
		events_write(e);
	if (!e->lost && e->sink.sync(&e->sink) == -1)
		e->lost = 1;
	if (e->own_fd && close(e->fd) == -1)
		e->lost = 1;
	lost = e->lost;
	free(e->buf);
	memset(e, 0, sizeof *e);
	e->fd = -1;
	return lost ? GRT_EIO : GRT_OK;
}

/* Append to the buffer; a record larger than the buffer goes out in pieces. */
static inline void
events_put(struct grt_events *e, const char *s, size_t n)
{
	while (e->len + n > e->cap && !e->lost) {
		size_t room = e->cap - e->len;

		memcpy(e->buf + e->len, s, room);
		e->len += room;
		s += room;
		n -= room;
		events_write(e);
	}
	if (e->lost)
		return;
	memcpy(e->buf + e->len, s, n);
	e->len += n;
}

static inline void
events_puts(struct grt_events *e, const char *s)
{
	events_put(e, s, strlen(s));
}

#define CHUNK_MAX	512	/* longest record: 7 numbers of at most 24 characters, keys */
#define PUT_LIT(p, s)	(memcpy((p), (s), sizeof(s) - 1), (p) + sizeof(s) - 1)

static const char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static const uint64_t pow10_u64[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
	10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull
};

/*
 * Decimal v at p, two digits a step from the back. The digit count comes from the bit
 * length (log10 2 ~ 1233/4096) and one comparison, not from a loop of divisions.
 */
static inline __attribute__((always_inline)) char *
fmt_u64(char *p, uint64_t v)
{
	char *q;
	int n;

	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	n = ((64 - __builtin_clzll(v)) * 1233) >> 12;
	n += v >= pow10_u64[n];
	q = p + n;
	while (v >= 100) {
		q -= 2;
		memcpy(q, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(q - 2, digit_pairs + 2 * v, 2);
	else
		q[-1] = (char)('0' + v);
	return p + n;
}

static inline __attribute__((always_inline)) char *
fmt_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return fmt_u64(p, (uint64_t)0 - (uint64_t)v);
	}
	return fmt_u64(p, (uint64_t)v);
}

/* As grt_events_rawdbl, byte for byte, in a fraction of its time. */
static inline __attribute__((always_inline)) char *
fmt_dbl(char *p, double v)
{
	double a, x;
	uint64_t ip;
	uint32_t fp, r;

	if (!isfinite(v))
		return PUT_LIT(p, "null");
	a = fabs(v);
	if (a >= 1e9)
		return p + snprintf(p, 32, "%.17g", v);
	ip = (uint64_t)a;
	/* llround for x >= 0, without the call: x + 0.5 can round up only below 0.5 */
	x = (a - (double)ip) * 1e9;
	fp = (uint32_t)(x + 0.5);
	if ((double)fp - x > 0.5)
		fp--;
	if (fp >= 1000000000u) {
		ip++;
		fp -= 1000000000u;
	}
	if (v < 0 && (ip != 0 || fp != 0))
		*p++ = '-';
	p = fmt_u64(p, ip);
	if (fp == 0)
		return p;
	/* nine fraction digits, then drop the trailing zeros */
	p[0] = '.';
	p[1] = (char)('0' + fp / 100000000u);
	r = fp % 100000000u;
	memcpy(p + 2, digit_pairs + 2 * (r / 1000000u), 2);
	memcpy(p + 4, digit_pairs + 2 * (r / 10000u % 100u), 2);
	memcpy(p + 6, digit_pairs + 2 * (r / 100u % 100u), 2);
	memcpy(p + 8, digit_pairs + 2 * (r % 100u), 2);
	p += 9;
	while (*p == '0')
		p--;
	return p + 1;
}

void
grt_events_rawint(struct grt_events *e, int64_t v)
{
	char tmp[24];

	if (grt_events_on(e))
		events_put(e, tmp, (size_t)(fmt_i64(tmp, v) - tmp));
}

/*
 * Seconds and other measurements with 9 decimals when they fit (exact to the nanosecond);
 * other finite values through %.17g; NaN and infinities as null (JSON has none).
 */
void
grt_events_rawdbl(struct grt_events *e, double v)
{
	char tmp[48];

	if (grt_events_on(e))
		events_put(e, tmp, (size_t)(fmt_dbl(tmp, v) - tmp));
}

void
grt_events_rawstr(struct grt_events *e, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;

	if (!grt_events_on(e))
		return;
	events_put(e, "\"", 1);
	for (; *s != '\0' && n < 1024; s++, n++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			char esc[2] = { '\\', (char)c };

			events_put(e, esc, 2);
		} else if (c < 0x20 || c == 0x7f) {
			char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

			events_put(e, esc, 6);
		} else
			events_put(e, (const char *)&c, 1);
	}
	events_put(e, "\"", 1);
}

void
grt_events_raw(struct grt_events *e, const char *text)
{
	if (grt_events_on(e))
		events_puts(e, text);
}

static void
events_key(struct grt_events *e, const char *key)
{
	events_put(e, ",\"", 2);
	events_puts(e, key);
	events_put(e, "\":", 2);
}

void
grt_events_begin(struct grt_events *e, double now, const char *kind)
{
	if (!grt_events_on(e))
		return;
	if (e->len > EVENTS_HIGH)
		events_write(e);
	events_puts(e, "{\"v\":1,\"t\":");
	grt_events_rawdbl(e, now - e->t0);
	events_puts(e, ",\"ev\":\"");
	events_puts(e, kind);
	events_put(e, "\"", 1);
}

void
grt_events_int(struct grt_events *e, const char *key, int64_t v)
{
	if (!grt_events_on(e))
		return;
	events_key(e, key);
	grt_events_rawint(e, v);
}

void
grt_events_dbl(struct grt_events *e, const char *key, double v)
{
	if (!grt_events_on(e))
		return;
	events_key(e, key);
	grt_events_rawdbl(e, v);
}

void
grt_events_str(struct grt_events *e, const char *key, const char *v)
{
	if (!grt_events_on(e))
		return;
	events_key(e, key);
	grt_events_rawstr(e, v);
}

/*
 * The chunk record, on the hot path (one per chunk: pss hands out one unit at a time):
 * written straight into the buffer, with no per-field bounds checks or library calls.
 * The bytes are exactly those of the generic begin/int/dbl/end path.
 */
void
grt_events_chunk(struct grt_events *e, double now, int64_t rank, int64_t round,
    int64_t start, int64_t count, double t_calc, double t_exe)
{
	char *p;

	if (!grt_events_on(e))
		return;
	if (e->cap - e->len < CHUNK_MAX)
		events_write(e);
	if (e->lost)
		return;
	p = e->buf + e->len;
	p = PUT_LIT(p, "{\"v\":1,\"t\":");
	p = fmt_dbl(p, now - e->t0);
	p = PUT_LIT(p, ",\"ev\":\"chunk\",\"rank\":");
	p = fmt_i64(p, rank);
	p = PUT_LIT(p, ",\"round\":");
	p = fmt_i64(p, round);
	p = PUT_LIT(p, ",\"start\":");
	p = fmt_i64(p, start);
	p = PUT_LIT(p, ",\"count\":");
	p = fmt_i64(p, count);
	p = PUT_LIT(p, ",\"t_calc\":");
	p = fmt_dbl(p, t_calc);
	p = PUT_LIT(p, ",\"t_comm\":");
	p = fmt_dbl(p, t_exe - t_calc);
	p = PUT_LIT(p, ",\"t_exe\":");
	p = fmt_dbl(p, t_exe);
	p = PUT_LIT(p, "}\n");
	e->len = (size_t)(p - e->buf);
	if (e->len > EVENTS_HIGH)
		events_write(e);
	grt_events_tick(e, now);
}

void
grt_events_end(struct grt_events *e, double now)
{
	if (!grt_events_on(e))
		return;
	events_put(e, "}\n", 2);
	if (e->len > EVENTS_HIGH)
		events_write(e);
	grt_events_tick(e, now);
}

void
grt_events_flush(struct grt_events *e, double now)
{
	if (!grt_events_on(e) || e->len == 0)
		return;
	events_write(e);
	e->last_flush = now;
}

void
grt_events_tick(struct grt_events *e, double now)
{
	if (!grt_events_on(e) || e->len == 0 || now - e->last_flush < EVENTS_PERIOD)
		return;
	events_write(e);
	e->last_flush = now;
}

double
grt_events_origin(double t0, double t_origin)
{
	struct timespec ts;
	double since;

	if (t_origin <= 0 || clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return t0;
	since = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 - t_origin;
	return since > 0 ? t0 - since : t0;
}

void
grt_events_rank(struct grt_events *e, int first, int64_t rank, const char *node,
    const char *site, double pf, double pr, const char *role, int64_t group)
{
	grt_events_raw(e, first ? "{\"rank\":" : ",{\"rank\":");
	grt_events_rawint(e, rank);
	grt_events_raw(e, ",\"node\":");
	grt_events_rawstr(e, node);
	grt_events_raw(e, ",\"site\":");
	grt_events_rawstr(e, site);
	grt_events_raw(e, ",\"pf\":");
	grt_events_rawdbl(e, pf);
	grt_events_raw(e, ",\"pr\":");
	grt_events_rawdbl(e, pr);
	grt_events_raw(e, ",\"role\":");
	grt_events_rawstr(e, role);
	if (group >= 0) {
		grt_events_raw(e, ",\"group\":");
		grt_events_rawint(e, group);
	}
	grt_events_raw(e, "}");
}
