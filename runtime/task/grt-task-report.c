/*
 * grt-task-report.c — what workers tell the master in a task run (grt-task-proto.h): steps
 * done (the load signals), tasks arrived (a move's bytes and seconds), checkpoints, the
 * copies of moved states, final states, and failed callbacks. A message from a worker
 * declared failed, or from before a rollback, is dropped.
 */
#include <stdio.h>
#include <string.h>

#include "runtime/task/grt-task-master.h"

#define MEAN_WEIGHT	0.3	/* weight of the newest value in the running means */
#define RATE_MIN_BYTES	65536	/* smaller states tell the fixed cost of a move, not a rate */

static double
tm_mean(double old, double v)
{
	return old > 0 ? (1 - MEAN_WEIGHT) * old + MEAN_WEIGHT * v : v;
}

/* TK_STEP: a step of task done at src: progress, and the worker's load signals. */
static int
tm_step(struct tk_master *m, int src, const struct tk_view *v)
{
	struct tm_task *t = &m->t[v->h.task];
	struct tm_worker *w = &m->w[src];
	double calc = v->h.a - v->h.b;
	int next;

	if (t->finished)
		return GRT_OK;
	if (v->h.step + 1 > t->done)
		t->done = v->h.step + 1;
	t->step_s = tm_mean(t->step_s, v->h.a);
	w->steps++;
	w->t_calc += calc;
	w->t_comm += v->h.b;
	w->calc = tm_mean(w->calc, calc);
	w->look_cpu += v->h.c;
	w->look_calc += calc;
	if (v->h.arg > 0)
		m->messaging = 1;
	tm_step_event(m, src, &v->h);
	if (m->cfg->migration != GRT_MIGRATE_ROTATE || t->moving || t->done >= m->app->steps)
		return GRT_OK;
	/* rotate (tests): every task to the next live worker after every step */
	for (next = t->at % (m->size - 1) + 1; next != t->at; next = next % (m->size - 1) + 1)
		if (m->w[next].alive)
			break;
	return next != t->at ? tm_move(m, v->h.task, next, "rotate: every step") : GRT_OK;
}

/* TK_ARRIVED: the task is installed at src; a move's figures into the migrate event. */
static int
tm_arrived(struct tk_master *m, int src, const struct tk_view *v)
{
	struct tm_task *t = &m->t[v->h.task];
	struct tm_worker *w = &m->w[src];
	double bytes = v->h.b, secs = v->h.a;

	if (v->h.epoch != t->epoch || t->at != src)
		return GRT_OK;
	if (w->lat <= 0 || secs < w->lat)
		w->lat = secs;
	if (bytes >= RATE_MIN_BYTES && secs > w->lat)
		w->rate = tm_mean(w->rate, bytes / (secs - w->lat));
	if (!t->moving)
		return GRT_OK;
	t->moving = 0;
	t->t_moved = m->now;
	m->rep->migrations++;
	tm_migrate_event(m, v->h.task, t->move_from, src, bytes, secs);
	/* the others now: the last holder knows, and forwards what it still gets */
	return tm_locate(m, v->h.task, t->move_from);
}

/* TK_FINAL: the task ended. */
static int
tm_final(struct tk_master *m, const struct tk_view *v)
{
	struct tm_task *t = &m->t[v->h.task];
	int rc;

	if (t->finished)
		return GRT_OK;
	if ((rc = tm_state_set(&t->final, v)) != GRT_OK)
		return rc;
	t->finished = 1;
	t->done = v->h.step;
	m->w[t->at].tasks--;
	m->nfinished++;
	/* its last state is no longer needed: keep the master's memory down */
	tm_state_free(&t->last);
	return GRT_OK;
}

/* TK_ERROR: a callback failed on a worker; the run ends. */
static int
tm_error(struct tk_master *m, int src, const struct tk_view *v)
{
	static const char *const what[] = {
		[TK_CALL_UNPACK] = "its state failed to unpack",
		[TK_CALL_PACK] = "its state failed to pack",
		[TK_CALL_STEP] = "a step failed",
		[TK_CALL_PROTO] = "its state arrived malformed",
	};
	int call = v->h.arg >= 0 && v->h.arg <= TK_CALL_PROTO ? v->h.arg : TK_CALL_PROTO;

	snprintf(m->rep->why, sizeof m->rep->why, "task %d: %s (step %lld, on %s)",
	    v->h.task, what[call], (long long)v->h.step, tm_node(m, src));
	return call == TK_CALL_PROTO ? GRT_EPROTO : GRT_EAPP;
}

/* TK_MSG that reached the master (a worker did not know the task's place yet): forward. */
static int
tm_forward(struct tk_master *m)
{
	struct tk_hdr h;
	int to;

	memcpy(&h, m->rbuf.data, sizeof h);
	to = m->t[h.task].at;
	return tk_post(&m->sends, to, &m->rbuf, -1, 0, 0);
}

int
tm_handle(struct tk_master *m, int src)
{
	struct tk_view v;
	int rc;

	if (src <= 0 || src >= m->size || !m->w[src].alive)
		return GRT_OK;
	m->w[src].last_heard = m->now;
	if ((rc = tk_view(m->rbuf.data, m->rbuf.len, &v)) != GRT_OK)
		return rc;
	if (v.h.task < 0 || v.h.task >= m->ntasks)
		return GRT_EPROTO;
	if (v.h.kind == TK_ERROR)
		return tm_error(m, src, &v);
	if (v.h.gen != m->gen)
		return GRT_OK;
	switch (v.h.kind) {
	case TK_STEP:
		return tm_step(m, src, &v);
	case TK_ARRIVED:
		return tm_arrived(m, src, &v);
	case TK_STATE:
		/* the copy of a moved task: the freshest state the master has of it */
		if (!m->t[v.h.task].finished && v.h.step >= m->t[v.h.task].last.step)
			return tm_state_set(&m->t[v.h.task].last, &v);
		return GRT_OK;
	case TK_CKPT:
		return tm_checkpoint(m, &v);
	case TK_FINAL:
		return tm_final(m, &v);
	case TK_MSG:
		return tm_forward(m);
	case TK_BEAT:
	case TK_BYE:
		return GRT_OK;
	default:
		return GRT_EPROTO;
	}
}
