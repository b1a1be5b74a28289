/* track.c — a rank's time line and latest events (track.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "tui/track.h"

struct track *
track_new(void)
{
	return xcalloc(1, sizeof(struct track));
}

void
track_free(struct track *t)
{
	if (t == NULL)
		return;
	free(t->ev);
	free(t->why);
	free(t);
}

/* Add the seconds of [a, b) to the buckets of w seconds they overlap. */
static void
track_spread(float *b, double w, double from, double to)
{
	double lo, hi;
	int i, last;

	if (from < 0)
		from = 0;
	if (!(to > from) || !(w > 0))
		return;
	last = (int)(to / w);
	for (i = (int)(from / w); i <= last && i < TRACK_BUCKETS; i++) {
		lo = i * w > from ? i * w : from;
		hi = (i + 1) * w < to ? (i + 1) * w : to;
		if (hi > lo)
			b[i] += (float)(hi - lo);
	}
}

static struct track_ev *
track_push(struct track *t, const struct event *ev)
{
	struct track_ev *e;

	if (t->nev >= t->evcap && t->evcap < TRACK_EVENTS) {
		t->evcap = t->evcap ? 2 * t->evcap : 16;
		t->ev = xreallocarray(t->ev, t->evcap, sizeof *t->ev);
	}
	e = &t->ev[t->nev % t->evcap];
	memset(e, 0, sizeof *e);
	e->t = ev->t;
	e->kind = (unsigned char)ev->kind;
	t->nev++;
	return e;
}

void
track_chunk(struct track *t, double w, const struct event *ev)
{
	struct track_ev *e;
	double exe, calc, comm, a;

	exe = ev->t_exe > ev->t_calc + ev->t_comm ? ev->t_exe : ev->t_calc + ev->t_comm;
	calc = ev->t_calc < exe ? ev->t_calc : exe;
	comm = exe - calc;
	a = ev->t - exe;
	track_spread(t->comm, w, a, a + comm / 2);
	track_spread(t->calc, w, a + comm / 2, a + comm / 2 + calc);
	track_spread(t->comm, w, a + comm / 2 + calc, ev->t);
	e = track_push(t, ev);
	e->t_calc = (float)ev->t_calc;
	e->t_comm = (float)ev->t_comm;
	e->t_exe = (float)ev->t_exe;
	e->start = ev->start;
	e->count = ev->count;
	e->round = ev->round;
}

void
track_event(struct track *t, double w, const struct event *ev, int rank)
{
	struct track_ev *e;
	int i = w > 0 && ev->t >= 0 ? (int)(ev->t / w) : 0;

	if (i >= TRACK_BUCKETS)
		i = TRACK_BUCKETS - 1;
	e = track_push(t, ev);
	switch (ev->kind) {
	case EV_DROP:
		t->mark[i] |= TRACK_DROP;
		snprintf(t->drop_why, sizeof t->drop_why, "%s", ev->text);
		break;
	case EV_FAIL:
		t->mark[i] |= TRACK_FAIL;
		snprintf(t->fail_why, sizeof t->fail_why, "%s", ev->text);
		e->count = ev->requeued;
		break;
	case EV_MIGRATE:
		t->mark[i] |= TRACK_MIGRATE;
		e->out = ev->from == rank;
		e->other = e->out ? ev->to : ev->from;
		e->start = ev->task;
		e->count = ev->bytes;
		e->t_exe = (float)ev->seconds;
		e->round = -1;
		if (*ev->text == '\0')
			break;
		if (t->why == NULL)
			t->why = xcalloc(TRACK_WHY, sizeof *t->why);
		snprintf(t->why[t->nwhy % TRACK_WHY], sizeof t->why[0], "%s", ev->text);
		e->round = t->nwhy++;
		break;
	default:
		break;
	}
}

void
track_halve(struct track *t)
{
	int i, h = TRACK_BUCKETS / 2;

	for (i = 0; i < h; i++) {
		t->calc[i] = t->calc[2 * i] + t->calc[2 * i + 1];
		t->comm[i] = t->comm[2 * i] + t->comm[2 * i + 1];
		t->mark[i] = t->mark[2 * i] | t->mark[2 * i + 1];
	}
	memset(t->calc + h, 0, h * sizeof *t->calc);
	memset(t->comm + h, 0, h * sizeof *t->comm);
	memset(t->mark + h, 0, h * sizeof *t->mark);
}

const char *
track_why(const struct track *t, const struct track_ev *e)
{
	if (t == NULL || t->why == NULL || e->kind != EV_MIGRATE || e->round < 0 ||
	    e->round < t->nwhy - TRACK_WHY)
		return NULL;
	return t->why[e->round % TRACK_WHY];
}

int
track_kept(const struct track *t)
{
	if (t == NULL)
		return 0;
	return t->nev < t->evcap ? (int)t->nev : t->evcap;
}

const struct track_ev *
track_get(const struct track *t, int i)
{
	int n = track_kept(t);

	if (i < 0 || i >= n)
		return NULL;
	return &t->ev[(t->nev - n + i) % t->evcap];
}

/* The seconds of b in [from, to), buckets taken as uniform inside. */
static double
track_sum(const float *b, double w, double from, double to)
{
	double s = 0, lo, hi;
	int i;

	for (i = (int)(from / w); i < TRACK_BUCKETS && i * w < to; i++) {
		lo = i * w > from ? i * w : from;
		hi = (i + 1) * w < to ? (i + 1) * w : to;
		if (hi > lo)
			s += b[i] * (hi - lo) / w;
	}
	return s;
}

/* The marks of the buckets that start in [from, to): each mark lands in one column. */
static unsigned char
track_marks(const unsigned char *marks, double w, double from, double to)
{
	unsigned char m = 0;
	int i;

	for (i = (int)ceil(from / w); i < TRACK_BUCKETS && i * w < to; i++)
		m |= marks[i];
	return m;
}

void
track_row(char *dst, const struct track *t, double w, double span, int cols, double gone,
    double run_from)
{
	double a, b, calc, comm;
	unsigned char mark;
	int c;

	for (c = 0; c < cols; c++) {
		a = span * c / cols;
		b = span * (c + 1) / cols;
		mark = 0;
		calc = comm = 0;
		if (t != NULL && w > 0 && span > 0) {
			calc = track_sum(t->calc, w, a, b);
			comm = track_sum(t->comm, w, a, b);
			/* the last column also takes a mark at the very end of the span */
			mark = track_marks(t->mark, w, a, c == cols - 1 ? b + w : b);
		}
		if (mark & TRACK_FAIL)
			dst[c] = TRACK_G_FAIL;
		else if (mark & TRACK_DROP)
			dst[c] = TRACK_G_DROP;
		else if (mark & TRACK_MIGRATE)
			dst[c] = TRACK_G_MIGRATE;
		else if (a >= gone || !(span > 0))
			dst[c] = ' ';
		else if (calc + comm >= (b - a) / 2)
			dst[c] = calc >= comm ? TRACK_G_CALC : TRACK_G_COMM;
		else if (b > run_from)
			dst[c] = TRACK_G_RUN;
		else
			dst[c] = TRACK_G_IDLE;
	}
	dst[cols] = '\0';
}
