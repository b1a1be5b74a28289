/*
 * progress.c — the one-line progress of a running job on a terminal (progress.h).
 *
 * The events are read with the one events reader, kept open so that each tick reads only
 * what was appended, and folded into the console's model (tui/model.h), so the units done
 * (chunks, a relaunch's reset, the journal a resume replayed, the end's totals), the rate
 * and the ETA are the console's. A program that has no events (it never starts libgrt)
 * shows what is known of it instead: running, its ranks, how many have ended and the first
 * that failed (DIR/rank-ends), and its nodes' load and CPU from their monitors (DIR/nodes). The line is cut to the terminal's width: a line that
 * wrapped could not be erased with \r.
 */
#include <sys/ioctl.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/events-read.h"
#include "common/node-stat.h"
#include "common/rank-end.h"
#include "common/xmalloc.h"
#include "store/jobstore.h"
#include "submit/progress.h"
#include "tui/model.h"

#define PROGRESS_EVERY	0.2	/* seconds between redraws */

struct progress {
	char *dir;
	char *path;		/* DIR/events.jsonl */
	char id[32];
	double t0;		/* the job's time origin (GRT_T0), epoch seconds; 0 unknown */
	char pending[256];	/* why the job waits in the queue, "" when it does not */
	int running;		/* state.json says running */
	int ranks;
	struct evreader *r;	/* NULL until the file exists */
	struct model m;
	double next;		/* clock_mono() of the next redraw */
	int shown;		/* the line is on the terminal */
};

/* Everything of buf to stderr: one write in the common case, so the line is not torn. */
static void
progress_write(const char *buf, size_t len)
{
	ssize_t n;

	while (len > 0) {
		if ((n = write(STDERR_FILENO, buf, len)) == -1) {
			if (errno == EINTR)
				continue;
			return;
		}
		buf += n;
		len -= (size_t)n;
	}
}

/* A duration for people: "8.2 s", "3m05s", "2h07m"; "?" when unknown. */
static void
progress_duration(char *buf, size_t len, double s)
{
	long long v;

	if (!isfinite(s) || s < 0)
		snprintf(buf, len, "?");
	else if (s < 60)
		snprintf(buf, len, "%.1f s", s);
	else if ((v = llround(s)) < 3600)
		snprintf(buf, len, "%lldm%02llds", v / 60, v % 60);
	else
		snprintf(buf, len, "%lldh%02lldm", v / 3600, v % 3600 / 60);
}

/* The terminal's width in columns (80 when it does not say). */
static int
progress_columns(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == -1 || ws.ws_col == 0)
		return 80;
	return ws.ws_col;
}

struct progress *
progress_open(const char *dir, const char *id)
{
	struct progress *p;
	const char *term = getenv("TERM");

	if (!isatty(STDERR_FILENO) || term == NULL || *term == '\0' ||
	    strcmp(term, "dumb") == 0)
		return NULL;
	p = xcalloc(1, sizeof *p);
	p->dir = xstrdup(dir);
	xasprintf(&p->path, "%s/events.jsonl", dir);
	snprintf(p->id, sizeof p->id, "%s", id);
	model_init(&p->m);
	return p;
}

/*
 * From the job's state.json: its time origin (set when its first launch is prepared) and
 * whether it waits in the queue, and why.
 */
static void
progress_read_state(struct progress *p)
{
	struct job_state st;
	char why[512];

	if (jobstore_read_state(p->dir, &st, why, sizeof why) != JOBSTORE_OK)
		return;
	p->t0 = st.t0;
	p->running = st.phase == JOB_RUNNING;
	p->ranks = st.ranks;
	snprintf(p->pending, sizeof p->pending, "%s", st.phase == JOB_PENDING &&
	    st.reason != NULL ? st.reason : "");
	job_state_free(&st);
}

/* Fold in the events appended since the last read. */
static void
progress_read(struct progress *p)
{
	struct event ev;

	if (p->r == NULL && (p->r = evreader_open(p->path)) == NULL)
		return;
	memset(&ev, 0, sizeof ev);
	while (evreader_next(p->r, &ev) == 1) {
		model_apply(&p->m, &ev);
		event_clear(&ev);
	}
}

/*
 * ", load 3.50, CPU 29%" of the one node in DIR/nodes, or the range over several ("load
 * 0.10-3.50, CPU 5-97% on 3 nodes"), into buf; "" when no monitor has answered.
 */
static void
progress_nodes(const char *dir, char *buf, size_t len)
{
	double lmin = 0, lmax = 0, cmin = -1, cmax = -1;
	struct node_stat *v;
	size_t i, n;
	int o;

	buf[0] = '\0';
	/* node_stats_read sets v to NULL first: free(v) holds whatever it returned */
	if (node_stats_read(dir, &v, &n) != 0 || n == 0) {
		free(v);
		return;
	}
	for (i = 0; i < n; i++) {
		if (i == 0 || v[i].load1 < lmin)
			lmin = v[i].load1;
		if (i == 0 || v[i].load1 > lmax)
			lmax = v[i].load1;
		if (v[i].cpu_busy >= 0 && (cmin < 0 || v[i].cpu_busy < cmin))
			cmin = v[i].cpu_busy;
		if (v[i].cpu_busy > cmax)
			cmax = v[i].cpu_busy;
	}
	o = n == 1 ? snprintf(buf, len, ", load %.2f", lmax) :
	    snprintf(buf, len, ", load %.2f-%.2f", lmin, lmax);
	if (o > 0 && (size_t)o < len && cmax >= 0)
		o += n == 1 || cmin == cmax ?
		    snprintf(buf + o, len - (size_t)o, ", CPU %.0f%%", 100 * cmax) :
		    snprintf(buf + o, len - (size_t)o, ", CPU %.0f-%.0f%%", 100 * cmin, 100 * cmax);
	if (o > 0 && (size_t)o < len && n > 1)
		snprintf(buf + o, len - (size_t)o, " on %zu nodes", n);
	free(v);
}

/*
 * The line of a running job without events (a program without libgrt, or one not in
 * grt_run yet): its ranks, those ended and the first failure, from DIR/rank-ends, then
 * its nodes' load and CPU (progress_nodes).
 */
static void
progress_format_plain(struct progress *p, const char *el, char *buf, size_t len)
{
	const struct rank_end *f;
	struct rank_end *v;
	char text[160] = "", nodes[96];
	size_t n;

	if (rank_ends_read(p->dir, &v, &n) != 0) {
		v = NULL;
		n = 0;
	}
	if ((f = rank_ends_first_failure(v, n)) != NULL) {
		text[0] = ',';
		text[1] = ' ';
		rank_end_text(f, text + 2, sizeof text - 2);
	}
	progress_nodes(p->dir, nodes, sizeof nodes);
	snprintf(buf, len, "job %s: running, no libgrt events, %zu of %d ranks ended%s, %s "
	    "elapsed%s", p->id, n, p->ranks, text, el, nodes);
	free(v);
}

/* The line's text, without the \r and the erase, into buf. */
static void
progress_format(struct progress *p, char *buf, size_t len)
{
	struct model_stats st;
	char eta[32], el[32];
	int o;

	if (p->t0 <= 0 || !p->m.started)
		progress_read_state(p);
	/* without it (a queued job), the events' own clock */
	if (p->t0 > 0)
		model_set_clock(&p->m, clock_wall() - p->t0);
	model_stats(&p->m, &st);
	progress_duration(el, sizeof el, st.elapsed);
	if (!p->m.started) {
		if (p->pending[0] != '\0')
			snprintf(buf, len, "job %s: pending, %s, %s elapsed", p->id, p->pending,
			    el);
		else if (p->running)
			progress_format_plain(p, el, buf, len);
		else
			snprintf(buf, len, "job %s: starting, %s elapsed", p->id, el);
		return;
	}
	progress_duration(eta, sizeof eta, st.eta);
	o = snprintf(buf, len, "job %s: %lld/%lld units", p->id, st.done, st.total);
	if (o >= 0 && (size_t)o < len && isfinite(st.pct))
		o += snprintf(buf + o, len - (size_t)o, " (%.0f%%)", st.pct);
	/* after the end record, mpiexec and the ranks may take a while to go */
	if (o >= 0 && (size_t)o < len && p->m.ended)
		o += snprintf(buf + o, len - (size_t)o, ", ended %s after %s", p->m.status, el);
	else if (o >= 0 && (size_t)o < len)
		o += snprintf(buf + o, len - (size_t)o, ", %.0f/s, ETA %s, %s elapsed", st.rate,
		    eta, el);
	if (o >= 0 && (size_t)o < len && st.restarts > 0)
		snprintf(buf + o, len - (size_t)o, ", %d restart%s", st.restarts,
		    st.restarts == 1 ? "" : "s");
}

void
progress_tick(struct progress *p)
{
	char line[512], out[600];
	double now;
	size_t w;
	int n;

	if (p == NULL || (now = clock_mono()) < p->next)
		return;
	p->next = now + PROGRESS_EVERY;
	progress_read(p);
	progress_format(p, line, sizeof line);
	/* one column short of the width: a full line would wrap on some terminals */
	w = (size_t)progress_columns() - 1;
	if (strlen(line) > w)
		line[w] = '\0';
	n = snprintf(out, sizeof out, "\r%s\033[K", line);
	if (n > 0)
		progress_write(out, (size_t)n < sizeof out ? (size_t)n : sizeof out - 1);
	p->shown = 1;
}

void
progress_clear(struct progress *p)
{
	if (p == NULL)
		return;
	if (p->shown)
		progress_write("\r\033[K", 4);
	p->shown = 0;
	/* the next tick draws at once, below whatever was written meanwhile */
	p->next = 0;
}

void
progress_close(struct progress *p)
{
	if (p == NULL)
		return;
	progress_clear(p);
	if (p->r != NULL)
		evreader_free(p->r);
	model_free(&p->m);
	free(p->dir);
	free(p->path);
	free(p);
}
