/*
 * grt-task-worker.c — a worker of a task run (doc/tasks.md): it holds some tasks, runs their
 * steps (the task with the fewest steps done first, so that a task waiting for a message
 * from another task here never waits for one that cannot run), reports every step to the
 * master, and between two steps of a task packs it for a move, a checkpoint or the end. A
 * move the master asks for while the task's step runs waits until that step returns: the
 * step, with the messages it sends and receives, is the critical section of seed 001.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/task/grt-task.h"


int
wk_tell(struct tk_worker *wk, struct tk_hdr *h, const void *state, size_t slen)
{
	h->gen = wk->gen;
	wk->last_said = MPI_Wtime();
	return tk_send(&wk->sends, 0, h, state, slen);
}

/* Tell the master a callback failed on task; the master ends the run. */
static int
wk_error(struct tk_worker *wk, int task, enum tk_call call, int64_t step)
{
	struct tk_hdr h;

	memset(&h, 0, sizeof h);
	h.kind = TK_ERROR;
	h.task = task;
	h.arg = call;
	h.step = step;
	return wk_tell(wk, &h, NULL, 0);
}

static void
wk_release(struct tk_worker *wk, struct tk_task *t)
{
	if (wk->app->release != NULL && t->state != NULL)
		wk->app->release(wk->app->ctx, t->id, t->state);
	tk_msg_free_list(t->inbox);
	free(t);
}

/* This worker no longer holds task id: a copy on the stack is freed when its step returns. */
static void
wk_drop(struct tk_worker *wk, int id)
{
	struct tk_task *t = wk->held[id];

	if (t == NULL)
		return;
	wk->held[id] = NULL;
	if (t->running)
		t->dead = 1;
	else
		wk_release(wk, t);
}

/* Drop every task (a rollback) and what waits for tasks on their way here. */
static void
wk_drop_all(struct tk_worker *wk)
{
	int i;

	for (i = 0; i < wk->ntasks; i++)
		wk_drop(wk, i);
	tk_msg_free_list(wk->limbo);
	wk->limbo = NULL;
}

/* A task arrives (TK_ASSIGN from the master, TK_STATE from its last holder). */
static int
wk_install(struct tk_worker *wk, const struct tk_view *v, double recv_s)
{
	struct tk_task *t;
	struct tk_hdr h;
	struct tk_msg *m;
	double t0 = MPI_Wtime();
	int id = v->h.task, rc;

	if (v->h.epoch < wk->lepoch[id])
		return GRT_OK;	/* superseded: the master has placed it again since */
	if ((t = calloc(1, sizeof *t)) == NULL)
		return GRT_ENOMEM;
	t->id = id;
	t->done = v->h.step;
	t->epoch = v->h.epoch;
	t->move_to = -1;
	t->inbox = tk_view_msgs(v, &rc);
	if (rc != GRT_OK) {
		free(t);
		return rc == GRT_EPROTO ? wk_error(wk, id, TK_CALL_PROTO, v->h.step) : rc;
	}
	wk_drop(wk, id);	/* an older copy */
	wk->loc[id] = wk->rank;
	wk->lepoch[id] = v->h.epoch;
	/* what came for it before it did */
	if ((m = mail_limbo_take(wk, id)) != NULL) {
		struct tk_msg *last = m;

		while (last->next != NULL)
			last = last->next;
		last->next = t->inbox;
		t->inbox = m;
	}
	if (wk->app->unpack(wk->app->ctx, id, v->state, (size_t)v->h.slen, &t->state) != 0) {
		t->state = NULL;
		wk_release(wk, t);
		return wk_error(wk, id, TK_CALL_UNPACK, v->h.step);
	}
	wk->held[id] = t;
	memset(&h, 0, sizeof h);
	h.kind = TK_ARRIVED;
	h.task = id;
	h.step = t->done;
	h.epoch = t->epoch;
	h.a = v->h.a + recv_s + (MPI_Wtime() - t0);
	h.b = (double)v->h.slen;
	return wk_tell(wk, &h, NULL, 0);
}

/* A TK_MSG: a task message to route. */
static int
wk_mail(struct tk_worker *wk, const struct tk_view *v)
{
	struct tk_msg *m;

	if (v->h.gen != wk->gen)
		return GRT_OK;	/* from before a rollback */
	if ((m = tk_msg_new(v->h.arg, v->h.task, v->h.step, v->state, (size_t)v->h.slen)) == NULL)
		return GRT_ENOMEM;
	return mail_route(wk, m);
}

/* A TK_LOC: the master's table changed; kept messages follow the task. */
static int
wk_loc(struct tk_worker *wk, const struct tk_view *v)
{
	int id = v->h.task;

	if (v->h.epoch <= wk->lepoch[id])
		return GRT_OK;
	wk->loc[id] = v->h.arg;
	wk->lepoch[id] = v->h.epoch;
	if (v->h.arg == wk->rank)
		return GRT_OK;
	/* a copy here that the master has placed again elsewhere (after a failure) */
	if (wk->held[id] != NULL && wk->held[id]->epoch < v->h.epoch)
		wk_drop(wk, id);
	return mail_limbo_forward(wk, id);
}

/* One message from src. */
static int
wk_handle(struct tk_worker *wk, int src, double recv_s)
{
	struct tk_view v;
	int rc;

	if ((rc = tk_view(wk->rbuf.data, wk->rbuf.len, &v)) != GRT_OK)
		return rc;
	if (v.h.task < 0 || v.h.task >= wk->ntasks)
		return GRT_EPROTO;
	switch (v.h.kind) {
	case TK_MSG:
		return wk_mail(wk, &v);
	case TK_LOC:
		return src == 0 ? wk_loc(wk, &v) : GRT_EPROTO;
	case TK_ASSIGN:
	case TK_STATE:
		if (v.h.gen != wk->gen)
			return GRT_OK;
		return wk_install(wk, &v, recv_s);
	case TK_MOVE:
		if (wk->held[v.h.task] != NULL && v.h.gen == wk->gen) {
			wk->held[v.h.task]->move_to = v.h.arg;
			wk->held[v.h.task]->move_epoch = v.h.epoch;
		}
		return GRT_OK;
	case TK_ROLLBACK:
		wk->gen = v.h.gen;
		wk_drop_all(wk);
		return GRT_OK;
	case TK_STOP:
		wk->stop = 1;
		wk->stop_reason = v.h.arg;
		return GRT_OK;
	default:
		return GRT_EPROTO;
	}
}

int
wk_progress(struct tk_worker *wk)
{
	double recv_s;
	int i, src, rc;

	for (i = 0; i < TK_MSGS_PER_LOOK && !wk->stop; i++) {
		if ((rc = tk_recv_any(wk->comm, &wk->rbuf, &src, &recv_s)) < 0)
			return rc;
		if (rc == 0)
			break;
		if ((rc = wk_handle(wk, src, recv_s)) != GRT_OK)
			return rc;
	}
	tk_sends_test(&wk->sends);
	if (!wk->stop && MPI_Wtime() - wk->last_said > TK_BEAT_S) {
		struct tk_hdr h;

		memset(&h, 0, sizeof h);
		h.kind = TK_BEAT;
		return wk_tell(wk, &h, NULL, 0);
	}
	return GRT_OK;
}

int
wk_wait(struct tk_worker *wk, struct grt_backoff *bo)
{
	double recv_s, clock;
	int src, rc;

	if ((rc = tk_wait(wk->comm, &wk->sends, bo, &wk->rbuf, &src, &recv_s, &clock)) <= 0)
		return rc;
	return wk_handle(wk, src, recv_s);
}

struct tk_task *
wk_pick(struct tk_worker *wk, int64_t below)
{
	struct tk_task *best = NULL;
	int i;

	for (i = 0; i < wk->ntasks; i++) {
		struct tk_task *t = wk->held[i];

		if (t == NULL || t->running || t->broken || t->done >= wk->app->steps ||
		    t->done >= below)
			continue;
		if (best == NULL || t->done < best->done)
			best = t;
	}
	return best;
}

/*
 * Pack t's live state into b after a header h; the seconds it took in h->a. 1 when the
 * pack failed and the master was told (t is broken).
 */
static int
wk_pack(struct tk_worker *wk, struct tk_task *t, struct tk_hdr *h, grt_buf *b)
{
	grt_buf st = { NULL, 0, 0 };
	double t0 = MPI_Wtime();
	int rc;

	if (wk->app->pack(wk->app->ctx, t->id, t->state, &st) != 0) {
		grt_buf_free(&st);
		t->broken = 1;
		return wk_error(wk, t->id, TK_CALL_PACK, t->done) == GRT_OK ? 1 : GRT_ENOMEM;
	}
	h->a = MPI_Wtime() - t0;
	h->gen = wk->gen;
	rc = tk_build(b, h, st.data, st.len);
	grt_buf_free(&st);
	return rc;
}

/* After step k of t: the checkpoint, or the final state, to the master. */
static int
wk_after_step(struct tk_worker *wk, struct tk_task *t, struct grt_task_io *io)
{
	int64_t every = wk->cfg->checkpoint_every;
	struct tk_hdr h;
	struct tk_msg *m;
	grt_buf b = { NULL, 0, 0 };
	int final = t->done >= wk->app->steps, rc;

	if (!final && (every <= 0 || t->done % every != 0))
		return GRT_OK;
	memset(&h, 0, sizeof h);
	h.kind = final ? TK_FINAL : TK_CKPT;
	h.task = t->id;
	h.step = t->done;
	h.epoch = t->epoch;
	if ((rc = wk_pack(wk, t, &h, &b)) != GRT_OK) {
		grt_buf_free(&b);
		return rc > 0 ? GRT_OK : rc;
	}
	/* a checkpoint holds what the task sent in this step: a rollback sends it again */
	for (m = io->sent; m != NULL && !final && rc == GRT_OK; m = m->next)
		rc = tk_build_msg(&b, m->from, m->to, m->step, m->data, m->len);
	if (rc == GRT_OK) {
		wk->last_said = MPI_Wtime();
		rc = tk_post(&wk->sends, 0, &b, -1, 0, 0);
	}
	grt_buf_free(&b);
	if (rc == GRT_OK && final) {
		wk->held[t->id] = NULL;
		wk_release(wk, t);
	}
	return rc;
}

int
wk_step(struct tk_worker *wk, struct tk_task *t)
{
	struct grt_task_io io;
	struct tk_hdr h;
	double w0, c0, wall, cpu;
	int r, rc;

	memset(&io, 0, sizeof io);
	io.wk = wk;
	io.t = t;
	io.step = t->done;
	io.outer = wk->io;
	wk->io = &io;
	t->running = 1;
	w0 = MPI_Wtime();
	c0 = tk_cpu_now();
	r = wk->app->step(wk->app->ctx, t->id, t->state, io.step, &io);
	/* the CPU time first: under SMPI the clock's call lets the other ranks run */
	cpu = tk_cpu_now() - c0;
	wall = MPI_Wtime() - w0;
	t->running = 0;
	wk->io = io.outer;
	if (io.outer != NULL) {
		io.outer->nested_wall += wall;
		io.outer->nested_cpu += cpu;
	}
	wall -= io.nested_wall;
	cpu -= io.nested_cpu + io.wait_cpu;
	rc = GRT_OK;
	if (t->dead) {
		wk_release(wk, t);
	} else if (wk->stop) {
		/* the run ends: this step is not reported */
	} else if (r != 0) {
		t->broken = 1;
		rc = wk_error(wk, t->id, TK_CALL_STEP, io.step);
	} else {
		mail_drop_old(t, io.step);
		t->done++;
		wk->rep->units_done++;
		memset(&h, 0, sizeof h);
		h.kind = TK_STEP;
		h.task = t->id;
		h.step = io.step;
		h.arg = io.nsent;
		h.a = wall;
		h.b = io.wait;
		h.c = cpu;
		if ((rc = wk_tell(wk, &h, NULL, 0)) == GRT_OK)
			rc = wk_after_step(wk, t, &io);
	}
	tk_msg_free_list(io.sent);
	return rc;
}

/* Between steps: t goes to the rank the master said, with its waiting messages. */
static int
wk_depart(struct tk_worker *wk, struct tk_task *t)
{
	struct tk_hdr h;
	struct tk_msg *m;
	grt_buf b = { NULL, 0, 0 };
	int rc, to = t->move_to;

	memset(&h, 0, sizeof h);
	h.kind = TK_STATE;
	h.task = t->id;
	h.step = t->done;
	h.epoch = t->move_epoch;
	if ((rc = wk_pack(wk, t, &h, &b)) != GRT_OK) {
		grt_buf_free(&b);
		t->move_to = -1;
		return rc > 0 ? GRT_OK : rc;
	}
	for (m = t->inbox; m != NULL && rc == GRT_OK; m = m->next)
		rc = tk_build_msg(&b, m->from, m->to, m->step, m->data, m->len);
	/* to the new holder first, then the same bytes to the master, which keeps them */
	if (rc == GRT_OK)
		rc = tk_post(&wk->sends, to, &b, 0, TK_STATE, TK_COPY);
	grt_buf_free(&b);
	if (rc != GRT_OK)
		return rc;
	wk->held[t->id] = NULL;
	wk->loc[t->id] = to;
	wk->lepoch[t->id] = h.epoch;
	wk_release(wk, t);
	return GRT_OK;
}

/* The moves asked for, now that no step runs. */
static int
wk_departures(struct tk_worker *wk)
{
	int i, rc;

	for (i = 0; i < wk->ntasks; i++)
		if (wk->held[i] != NULL && wk->held[i]->move_to >= 0 &&
		    (rc = wk_depart(wk, wk->held[i])) != GRT_OK)
			return rc;
	return GRT_OK;
}

/* After TK_STOP: let the sends complete (bounded), then say goodbye. */
static void
wk_finish(struct tk_worker *wk)
{
	struct grt_backoff bo;
	struct tk_hdr h;
	double until = MPI_Wtime() + TK_BYE_WAIT_S;
	double recv_s;
	int src;

	grt_backoff_reset(&bo);
	while (tk_sends_pending(&wk->sends) && MPI_Wtime() < until) {
		/* late task messages are taken off the wire and dropped */
		if (tk_recv_any(wk->comm, &wk->rbuf, &src, &recv_s) < 0)
			break;
		tk_sends_test(&wk->sends);
		grt_backoff_wait(&bo);
	}
	memset(&h, 0, sizeof h);
	h.kind = TK_BYE;
	wk_tell(wk, &h, NULL, 0);
	until = MPI_Wtime() + TK_BYE_WAIT_S;
	while (tk_sends_pending(&wk->sends) && MPI_Wtime() < until) {
		tk_sends_test(&wk->sends);
		grt_backoff_wait(&bo);
	}
	if (tk_sends_pending(&wk->sends) || wk->sends.failed)
		grt_failure_seen = 1;
}

int
grt_task_worker(MPI_Comm comm, const struct grt_task_app *app, const struct grt_config *cfg,
    struct grt_report *rep)
{
	struct tk_worker wk;
	struct grt_backoff bo;
	struct tk_task *t;
	int i;

	memset(&wk, 0, sizeof wk);
	wk.comm = comm;
	wk.sends.comm = comm;
	wk.app = app;
	wk.cfg = cfg;
	wk.rep = rep;
	wk.ntasks = app->tasks;
	MPI_Comm_rank(comm, &wk.rank);
	MPI_Comm_size(comm, &wk.size);
	wk.held = calloc((size_t)wk.ntasks, sizeof *wk.held);
	wk.loc = calloc((size_t)wk.ntasks, sizeof *wk.loc);
	wk.lepoch = calloc((size_t)wk.ntasks, sizeof *wk.lepoch);
	if (wk.held == NULL || wk.loc == NULL || wk.lepoch == NULL)
		wk.rc = GRT_ENOMEM;
	for (i = 0; wk.rc == GRT_OK && i < wk.ntasks; i++) {
		wk.loc[i] = tk_first_rank(i, wk.size, cfg->spare);
		wk.lepoch[i] = 1;
	}
	wk.last_said = MPI_Wtime();
	grt_backoff_reset(&bo);
	while (wk.rc == GRT_OK && !wk.stop) {
		if ((wk.rc = wk_progress(&wk)) != GRT_OK || wk.stop)
			break;
		if ((wk.rc = wk_departures(&wk)) != GRT_OK)
			break;
		if ((t = wk_pick(&wk, INT64_MAX)) != NULL) {
			wk.rc = wk_step(&wk, t);
			grt_backoff_reset(&bo);
			continue;
		}
		wk.rc = wk_wait(&wk, &bo);
	}
	if (wk.rc == GRT_OK && wk.stop_reason == GRT_STOP_ERROR) {
		grt_failure_seen = 1;
		wk.rc = GRT_EMASTER;
	}
	if (wk.stop)
		wk_finish(&wk);
	else
		grt_failure_seen = 1;
	wk_drop_all(&wk);
	tk_sends_free(&wk.sends);
	grt_buf_free(&wk.rbuf);
	free(wk.held);
	free(wk.loc);
	free(wk.lepoch);
	return wk.rc;
}
