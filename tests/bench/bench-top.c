/*
 * bench-top.c — the console's costs on a big job: a stream of 1,000 ranks and 1,000,000
 * chunk events ingested by the reader and the model (events per second, against jansson
 * parsing the same lines alone), and the CPU time of one refresh of a 200x60 screen
 * (curses on /dev/null, TERM=xterm) showing those 1,000 ranks, against an empty refresh.
 * Goal (issue 6): 10 refreshes per second under 10% of one core, i.e. < 10 ms per refresh.
 * Prints rows "| area | what | value | baseline | ratio | goal |" for tests/bench/run-bench.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "common/events-read.h"
#include "common/xmalloc.h"
#include "tui/crt.h"
#include "tui/model.h"
#include "tui/screen.h"
#include "tui/view.h"

#define NRANKS		1000
#define NCHUNKS		1000000
#define NREFRESH	200

static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *
bench_stream(size_t *lenp)
{
	size_t cap = 160 * (size_t)NCHUNKS + 200 * NRANKS, len = 0;
	char *buf = xmalloc(cap);
	int i;

	len += snprintf(buf + len, cap - len, "{\"v\":1,\"t\":0.0,\"ev\":\"start\",\"job\":\"1\","
	    "\"scheme\":\"gss\",\"N\":%d,\"rounds\":1,\"ranks\":[", NCHUNKS * 4);
	for (i = 0; i < NRANKS; i++)
		len += snprintf(buf + len, cap - len, "%s{\"rank\":%d,\"node\":\"node%04d\","
		    "\"site\":\"site%02d\",\"pf\":%.3f,\"pr\":%.4f,\"role\":\"%s\"}", i ? "," : "",
		    i, i, i % 20, 0.5 + (i % 7) / 10.0, 1.0 / NRANKS, i ? "worker" : "master");
	len += snprintf(buf + len, cap - len, "]}\n");
	for (i = 0; i < NCHUNKS; i++) {
		int r = 1 + i % (NRANKS - 1);
		double calc = 0.01 + (r % 13) * 0.003, comm = 0.001 + (r % 5) * 0.0007;

		len += snprintf(buf + len, cap - len, "{\"v\":1,\"t\":%.4f,\"ev\":\"chunk\","
		    "\"rank\":%d,\"round\":1,\"start\":%d,\"count\":4,\"t_calc\":%.4f,"
		    "\"t_comm\":%.4f,\"t_exe\":%.4f}\n", i * 0.0005, r, 4 * i, calc, comm,
		    calc + comm);
		if (i % 50000 == 7)
			len += snprintf(buf + len, cap - len, "{\"v\":1,\"t\":%.4f,\"ev\":\"migrate\","
			    "\"task\":%d,\"from\":%d,\"to\":%d,\"bytes\":4096,\"seconds\":0.01}\n",
			    i * 0.0005, i, r, 1 + (r + 7) % (NRANKS - 1));
	}
	*lenp = len;
	return buf;
}

/* jansson alone on every line: the bound the reader and model are measured against. */
static double
bench_parse_only(const char *buf, size_t len, long long *nlines)
{
	const char *p = buf, *end = buf + len, *nl;
	json_error_t err;
	json_t *o;
	double t0 = cpu_now();

	*nlines = 0;
	while (p < end && (nl = memchr(p, '\n', end - p)) != NULL) {
		if ((o = json_loadb(p, nl - p, 0, &err)) != NULL)
			json_decref(o);
		(*nlines)++;
		p = nl + 1;
	}
	return cpu_now() - t0;
}

static double
bench_ingest(struct model *m, struct evreader *r, const char *buf, size_t len)
{
	struct event ev;
	size_t off = 0, n;
	double t0 = cpu_now();

	memset(&ev, 0, sizeof ev);
	/* In 64 KiB pieces, as reads of a growing file would come. */
	while (off < len) {
		n = len - off < 65536 ? len - off : 65536;
		evreader_feed(r, buf + off, n);
		off += n;
		while (evreader_next(r, &ev) == 1)
			model_apply(m, &ev);
	}
	event_clear(&ev);
	return cpu_now() - t0;
}

/* Refreshes of v, the view of m (which the clock moves: the view only reads it). */
static double
bench_refresh(struct model *m, struct view *v, int empty)
{
	double t0, total = 0;
	int i;

	for (i = 0; i < NREFRESH; i++) {
		/* The clock moves between refreshes, so every screen differs from the last. */
		model_set_clock(m, m->now + 0.1);
		v->sel = (i * 7) % (v->nrows > 0 ? v->nrows : 1);
		v->sel_row.kind = ROW_SITE;
		v->sel_row.id = -1;
		t0 = cpu_now();
		if (empty)
			erase();
		else
			screen_render(v);
		wnoutrefresh(stdscr);
		doupdate();
		total += cpu_now() - t0;
	}
	return total / NREFRESH;
}

int
main(void)
{
	struct model m;
	struct view v;
	struct evreader *r;
	FILE *null;
	char *buf;
	size_t len;
	long long lines;
	double parse_s, ingest_s, empty_s, refresh_s, sorted_s;

	buf = bench_stream(&len);
	parse_s = bench_parse_only(buf, len, &lines);
	model_init(&m);
	r = evreader_new();
	ingest_s = bench_ingest(&m, r, buf, len);
	free(buf);
	if (m.chunks != NCHUNKS || m.nranks != NRANKS) {
		fprintf(stderr, "bench-top: ingested %lld chunks of %d ranks, want %d of %d\n",
		    m.chunks, m.nranks, NCHUNKS, NRANKS);
		return 1;
	}

	if ((null = fopen("/dev/null", "w")) == NULL || crt_init_offscreen(null, 60, 200, 1) != 0) {
		fprintf(stderr, "bench-top: cannot start curses on /dev/null (TERM=xterm)\n");
		return 1;
	}
	view_init(&v, &m);
	v.rs = evreader_stats(r);
	v.replay = 1;
	empty_s = bench_refresh(&m, &v, 1);
	refresh_s = bench_refresh(&m, &v, 0);
	v.sort = COL_IDLE;
	v.invert = 1;
	sorted_s = bench_refresh(&m, &v, 0);
	crt_done();

	printf("# %lld lines (%d ranks, %d chunks), %.1f MB; refresh %dx%d, %d times\n", lines,
	    NRANKS, NCHUNKS, len / 1e6, 200, 60, NREFRESH);
	printf("| top | ingest (reader + model), events/s | %.0f | %.0f (jansson parse only) | %.2f | value >= 100000/s |\n",
	    lines / ingest_s, lines / parse_s, parse_s / ingest_s);
	printf("| top | refresh 1000 ranks 200x60, CPU ms | %.3f | %.3f (empty screen) | %.1f | value < 10 ms |\n",
	    refresh_s * 1e3, empty_s * 1e3, refresh_s / empty_s);
	printf("| top | refresh sorted by IDLE, CPU ms | %.3f | %.3f (empty screen) | %.1f | value < 10 ms |\n",
	    sorted_s * 1e3, empty_s * 1e3, sorted_s / empty_s);
	printf("| top | CPU of one core at 10 refreshes/s, %% | %.2f | 10 (goal) | %.3f | value < 10 %% |\n",
	    sorted_s * 1e3, sorted_s * 1e3 / 10);
	view_free(&v);
	model_free(&m);
	evreader_free(r);
	return 0;
}
