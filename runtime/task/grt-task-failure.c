/*
 * grt-task-failure.c — failed workers in a task run (doc/tasks.md, "Failures").
 *
 * A worker says something at least every second (a step, or a beat), or once a step when
 * one step of its computes longer. A worker silent for a multiple of that (its deadline,
 * runtime/core/grt-deadline.h) is declared failed. Its tasks start again elsewhere (a spare first) from the last packed state the
 * master has of each: the copy of its last move, its last checkpoint, or its initial state.
 * That is enough while tasks never sent each other a message. Once they have, a task
 * started again alone would miss the messages its lost copy already took; so every task
 * goes back to the last checkpoint line (every task's state after the same step, with what
 * each sent in that step), in a new generation whose messages the old ones cannot mix with.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/grt-deadline.h"
#include "runtime/task/grt-task-master.h"

#define SUSPECT_FACTOR	4	/* after hydra's SIGUSR1: 4x a step, plus a beat */
#define SUSPECT_MIN	2.0

/* Line storage: lines[0] is the last complete line; the others are being collected. */
static struct tm_line *
tm_line_new(struct tk_master *m, int64_t step)
{
	struct tm_line *l, *grown;

	if ((grown = realloc(m->lines, (size_t)(m->nlines + 1) * sizeof *m->lines)) == NULL)
		return NULL;
	m->lines = grown;
	l = &m->lines[m->nlines];
	memset(l, 0, sizeof *l);
	if ((l->st = calloc((size_t)m->ntasks, sizeof *l->st)) == NULL)
		return NULL;
	l->step = step;
	m->nlines++;
	return l;
}

static void
tm_line_free(struct tk_master *m, struct tm_line *l)
{
	int i;

	for (i = 0; l->st != NULL && i < m->ntasks; i++)
		tm_state_free(&l->st[i]);
	free(l->st);
	l->st = NULL;
}

void
tm_lines_free(struct tk_master *m)
{
	int i;

	for (i = 0; i < m->nlines; i++)
		tm_line_free(m, &m->lines[i]);
	free(m->lines);
	m->lines = NULL;
	m->nlines = 0;
}

/* Line 0: the initial states (a rollback before any checkpoint starts over). */
int
tm_lines_init(struct tk_master *m)
{
	struct tm_line *l = tm_line_new(m, 0);
	int i;

	if (l == NULL)
		return GRT_ENOMEM;
	for (i = 0; i < m->ntasks; i++) {
		if (grt_buf_append(&l->st[i].b, m->t[i].last.b.data, m->t[i].last.b.len) != GRT_OK)
			return GRT_ENOMEM;
		l->st[i].slen = m->t[i].last.slen;
	}
	l->have = m->ntasks;
	return GRT_OK;
}

int
tm_checkpoint(struct tk_master *m, const struct tk_view *v)
{
	struct tm_task *t = &m->t[v->h.task];
	struct tm_line *l = NULL;
	int i, rc;

	if (t->finished)
		return GRT_OK;
	if (!m->messaging) {
		/* a task alone: its own latest state is all a restart needs */
		if (v->h.step < t->last.step)
			return GRT_OK;
		rc = tm_state_set(&t->last, v);
		t->last.nmsg = 0;	/* what it sent is no one's inbox */
		t->last.b.len = (size_t)t->last.slen;
		t->bytes = (double)t->last.slen;
		return rc;
	}
	if (v->h.step <= m->lines[0].step)
		return GRT_OK;
	for (i = 1; i < m->nlines && l == NULL; i++)
		if (m->lines[i].step == v->h.step)
			l = &m->lines[i];
	if (l == NULL && (l = tm_line_new(m, v->h.step)) == NULL)
		return GRT_ENOMEM;
	if (l->st[v->h.task].step == 0)	/* a line's step is at least 1 */
		l->have++;
	if ((rc = tm_state_set(&l->st[v->h.task], v)) != GRT_OK)
		return rc;
	t->bytes = (double)v->h.slen;
	if (l->have < m->ntasks)
		return GRT_OK;
	/* complete: it replaces line 0, and every older line goes */
	{
		struct tm_line done = *l, *keep;
		int n = 0;

		l->st = NULL;
		keep = m->lines;
		for (i = 0; i < m->nlines; i++) {
			if (m->lines[i].st == NULL)
				continue;
			if (m->lines[i].step <= done.step || i == 0)
				tm_line_free(m, &m->lines[i]);
			else
				keep[++n] = m->lines[i];
		}
		keep[0] = done;
		m->nlines = n + 1;
	}
	return GRT_OK;
}

/*
 * Seconds worker r may stay silent: a multiple of the longest silence expected of it, a
 * beat or one of its steps (grt-deadline.h), once a step of its is measured.
 */
static double
tm_allow(const struct tk_master *m, int r)
{
	const struct tm_worker *w = &m->w[r];
	double quiet = w->calc > TK_BEAT_S ? w->calc : TK_BEAT_S;
	double allow = grt_deadline_allow(m->cfg->deadline, m->cfg->deadline_factor,
	    w->calc > 0 ? quiet : 0);

	if (m->suspect) {
		double s = SUSPECT_FACTOR * (w->calc + TK_BEAT_S);

		s = s > SUSPECT_MIN ? s : SUSPECT_MIN;
		if (s < allow)
			allow = s;
	}
	return allow;
}

/* A task of a failed worker starts again from its last state, at target. */
static int
tm_restart_one(struct tk_master *m, int task, int target, int64_t *redo)
{
	struct tm_task *t = &m->t[task];
	int rc;

	*redo += t->done - t->last.step;
	t->done = t->last.step;
	t->at = target;
	t->epoch++;
	t->moving = 0;
	m->w[target].tasks++;
	m->rep->restarted++;
	/* the target too: what comes for the task before it does waits there */
	if ((rc = tm_locate(m, task, -1)) != GRT_OK)
		return rc;
	return tm_assign(m, task, target, &t->last);
}

/* Task i's state in line l, and what every task sent it in the line's step: into st. */
static int
tm_line_state(struct tk_master *m, const struct tm_line *l, int i, struct tm_state *st)
{
	int j, rc;

	memset(st, 0, sizeof *st);
	st->step = l->step;
	st->slen = l->st[i].slen;
	if (grt_buf_append(&st->b, l->st[i].b.data, (size_t)l->st[i].slen) != GRT_OK)
		return GRT_ENOMEM;
	for (j = 0; j < m->ntasks; j++) {
		struct tk_view v;
		struct tk_msg *msgs, *mm;

		memset(&v, 0, sizeof v);
		v.h.nmsg = l->st[j].nmsg;
		v.msgs = l->st[j].b.data + l->st[j].slen;
		v.msgs_len = l->st[j].b.len - (size_t)l->st[j].slen;
		if ((msgs = tk_view_msgs(&v, &rc)) == NULL && rc != GRT_OK)
			return rc;
		for (mm = msgs; mm != NULL && rc == GRT_OK; mm = mm->next) {
			if (mm->to != i)
				continue;
			rc = tk_put_msg(&st->b, mm->from, mm->to, mm->step, mm->data, mm->len);
			st->nmsg++;
		}
		tk_msg_free_list(msgs);
		if (rc != GRT_OK)
			return rc;
	}
	return GRT_OK;
}

/*
 * Every task back to line 0, in a new generation: tasks whose worker lives stay there, the
 * others go to the least busy; every worker learns the whole new table before any task
 * starts again (a task's first step sends to the others).
 */
static int
tm_rollback(struct tk_master *m, int64_t *redo)
{
	struct tm_line *l = &m->lines[0];
	struct tm_state st;
	struct tk_hdr h;
	int i, k, r, rc;

	m->gen++;
	memset(&h, 0, sizeof h);
	h.kind = TK_ROLLBACK;
	for (r = 1; r < m->size; r++) {
		m->w[r].tasks = 0;
		if (m->w[r].alive && (rc = tm_send(m, r, &h, NULL, 0)) != GRT_OK)
			return rc;
	}
	for (i = 1; i < m->nlines; i++)
		tm_line_free(m, &m->lines[i]);
	m->nlines = 1;
	for (k = 0; k < 2 * m->ntasks; k++) {
		struct tm_task *t = &m->t[k % m->ntasks];
		int stays = m->w[t->at].alive;

		if ((k < m->ntasks) != stays)
			continue;
		if (!stays && (t->at = tm_target(m, 0)) < 0)
			return GRT_ENOWORKERS;
		*redo += t->done - l->step;
		if (t->finished) {
			t->finished = 0;
			m->nfinished--;
			tm_state_free(&t->final);
		}
		t->done = l->step;
		t->epoch++;
		t->moving = 0;
		m->w[t->at].tasks++;
	}
	for (i = 0; i < m->ntasks; i++)
		if ((rc = tm_locate(m, i, -1)) != GRT_OK)
			return rc;
	for (i = 0; i < m->ntasks; i++) {
		if ((rc = tm_line_state(m, l, i, &st)) == GRT_OK)
			rc = tm_assign(m, i, m->t[i].at, &st);
		tm_state_free(&st);
		if (rc != GRT_OK)
			return rc;
	}
	m->rep->restarted += m->ntasks;
	return GRT_OK;
}

/* Worker r is failed: its tasks start again, alone or all from the last line. */
static int
tm_fail(struct tk_master *m, int r, const char *reason)
{
	int *lost, n = 0, i, rc = GRT_OK;
	int64_t redo = 0;

	m->w[r].alive = 0;
	m->rep->failed_ranks++;
	if ((lost = malloc(((size_t)m->ntasks + 1) * sizeof *lost)) == NULL)
		return GRT_ENOMEM;
	for (i = 0; i < m->ntasks; i++) {
		struct tm_task *t = &m->t[i];

		if (!t->finished && (t->at == r || (t->moving && t->move_from == r)))
			lost[n++] = i;
	}
	if (tm_target(m, r) < 0 && n > 0) {
		free(lost);
		snprintf(m->rep->why, sizeof m->rep->why,
		    "%s failed (%s) and no worker is left for its tasks", tm_node(m, r), reason);
		return GRT_ENOWORKERS;
	}
	if (n > 0 && m->messaging) {
		rc = tm_rollback(m, &redo);
	} else {
		for (i = 0; i < n && rc == GRT_OK; i++) {
			m->w[m->t[lost[i]].at].tasks--;
			rc = tm_restart_one(m, lost[i], tm_target(m, r), &redo);
		}
	}
	tm_fail_event(m, r, lost, n, redo, reason);
	if (n > 0)
		tm_tasks_event(m, m->messaging ? "rollback" : "restart");
	free(lost);
	return rc;
}

int
tm_check_silence(struct tk_master *m)
{
	char why[96];
	int r, rc;

	for (r = 1; r < m->size; r++) {
		double quiet = m->now - m->w[r].last_heard;

		if (!m->w[r].alive || quiet <= tm_allow(m, r))
			continue;
		snprintf(why, sizeof why, "silent for %.1f s", quiet);
		if ((rc = tm_fail(m, r, why)) != GRT_OK)
			return rc;
	}
	return GRT_OK;
}
