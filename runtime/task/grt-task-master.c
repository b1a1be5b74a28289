/*
 * grt-task-master.c — rank 0 of a task run (doc/tasks.md): the first placement, the main
 * loop, and the end. Rank 0 computes no task: it keeps the table of where every task is (a
 * move updates it first, then the holder and every other worker are told), every task's
 * last packed state, and the load signals the policy decides on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/comm/grt-comm.h"
#include "runtime/task/grt-task-master.h"

#define CHECK_PERIOD	0.01	/* seconds between looks for silent workers */

_Static_assert((int)GRT_MIGRATE_LOAD_DIFF == TP_LOAD_DIFF &&
    (int)GRT_MIGRATE_LOAD_ABS == TP_LOAD_ABS && (int)GRT_MIGRATE_ROTATE == TP_ROTATE,
    "grt-task-policy.h mirrors enum grt_migration");

int
tm_state_set(struct tm_state *s, const struct tk_view *v)
{
	s->b.len = 0;
	s->slen = v->h.slen;
	s->nmsg = v->h.nmsg;
	s->step = v->h.step;
	if (grt_buf_append(&s->b, v->state, (size_t)v->h.slen) != GRT_OK ||
	    (v->msgs_len > 0 && grt_buf_append(&s->b, v->msgs, v->msgs_len) != GRT_OK))
		return GRT_ENOMEM;
	return GRT_OK;
}

void
tm_state_free(struct tm_state *s)
{
	grt_buf_free(&s->b);
	s->slen = 0;
	s->nmsg = 0;
}

const char *
tm_node(const struct tk_master *m, int rank)
{
	return m->w[rank].name;
}

/* Every rank's name for reasons and errors, from the rank map when there is one. */
static void
tm_names(struct tk_master *m)
{
	int r;

	for (r = 0; r < m->size; r++) {
		if (r < m->nri && m->ri[r].node[0] != '\0')
			snprintf(m->w[r].name, sizeof m->w[r].name, "%s (rank %d)", m->ri[r].node, r);
		else
			snprintf(m->w[r].name, sizeof m->w[r].name, "rank %d", r);
	}
}

int
tm_send(struct tk_master *m, int rank, struct tk_hdr *h, const void *state, size_t slen)
{
	h->gen = m->gen;
	return tk_send(&m->sends, rank, h, state, slen);
}

/* Give task to rank with state st (its messages included); the table says so already. */
int
tm_assign(struct tk_master *m, int task, int rank, const struct tm_state *st)
{
	struct tk_hdr h;
	grt_buf b = { NULL, 0, 0 };
	int rc;

	memset(&h, 0, sizeof h);
	h.kind = TK_ASSIGN;
	h.task = task;
	h.step = st->step;
	h.epoch = m->t[task].epoch;
	h.gen = m->gen;
	/* st holds the state and its messages as on the wire: the header says where they part */
	if ((rc = tk_build(&b, &h, st->b.data, st->b.len)) == GRT_OK) {
		h.slen = st->slen;
		h.nmsg = st->nmsg;
		memcpy(b.data, &h, sizeof h);
		rc = tk_post(&m->sends, rank, &b, -1, 0, 0);
	}
	grt_buf_free(&b);
	return rc;
}

/* Tell every live worker but except where task is now. */
int
tm_locate(struct tk_master *m, int task, int except)
{
	struct tk_hdr h;
	int r, rc;

	memset(&h, 0, sizeof h);
	h.kind = TK_LOC;
	h.task = task;
	h.arg = m->t[task].at;
	h.epoch = m->t[task].epoch;
	for (r = 1; r < m->size; r++)
		if (m->w[r].alive && r != except && (rc = tm_send(m, r, &h, NULL, 0)) != GRT_OK)
			return rc;
	return GRT_OK;
}

/* Where a task goes that must leave its worker: an idle live worker, else the least busy. */
int
tm_target(const struct tk_master *m, int except)
{
	int r, best = -1;

	for (r = 1; r < m->size; r++) {
		if (!m->w[r].alive || r == except)
			continue;
		if (best < 0 || m->w[r].tasks < m->w[best].tasks ||
		    (m->w[r].tasks == m->w[best].tasks && tm_load(m, r) < tm_load(m, best)))
			best = r;
	}
	return best;
}

/* The first placement (tk_first_rank), and every task's initial state sent there. */
static int
tm_place(struct tk_master *m)
{
	int i, rc;

	for (i = 0; i < m->ntasks; i++) {
		struct tm_task *t = &m->t[i];

		if (m->app->init(m->app->ctx, i, &t->last.b) != 0) {
			snprintf(m->rep->why, sizeof m->rep->why,
			    "task %d: the application's init failed", i);
			return GRT_EAPP;
		}
		t->last.slen = (int64_t)t->last.b.len;
		t->bytes = (double)t->last.b.len;
		t->at = tk_first_rank(i, m->size, m->cfg->spare);
		t->epoch = 1;
		m->w[t->at].tasks++;
	}
	if ((rc = tm_lines_init(m)) != GRT_OK)
		return rc;
	for (i = 0; i < m->ntasks; i++)
		if ((rc = tm_assign(m, i, m->t[i].at, &m->t[i].last)) != GRT_OK)
			return rc;
	tm_tasks_event(m, "start");
	return GRT_OK;
}

/* Receive what has come, test the sends; the clock in m->now. */
static int
tm_progress(struct tk_master *m)
{
	int i, src, rc;
	double secs;

	for (i = 0; i < TK_MSGS_PER_LOOK; i++) {
		if ((rc = tk_recv_any(m->comm, &m->rbuf, &src, &secs)) < 0)
			return rc;
		if (rc == 0)
			break;
		m->now = MPI_Wtime();
		if ((rc = tm_handle(m, src)) != GRT_OK)
			return rc;
	}
	tk_sends_test(&m->sends);
	return i;
}

/*
 * Nothing came: wait (tk_wait). 1 when a message came and was handled, or when the
 * back-off read the clock (the periodic work is due), 0 when neither, or an error.
 */
static int
tm_idle(struct tk_master *m, struct grt_backoff *bo)
{
	double secs, clock;
	int src, rc;

	if ((rc = tk_wait(m->comm, &m->sends, bo, &m->rbuf, &src, &secs, &clock)) < 0)
		return rc;
	if (rc == 0)
		return clock > 0;
	m->now = clock;
	if ((rc = tm_handle(m, src)) != GRT_OK)
		return rc;
	tk_sends_test(&m->sends);
	return 1;
}

/*
 * Until every task has finished: what came, then the periodic work. Under SMPI the master
 * only waits for the next message, without looking first (a look that finds nothing is a
 * probe, which SimGrid charges simulated time for), and declares no worker failed: an idle
 * worker waits there too and says nothing, and no simulated rank dies.
 */
static void
tm_loop(struct tk_master *m)
{
	struct grt_backoff bo;
	double next_check = 0;
	int got;

	grt_backoff_reset(&bo);
	while (m->rc == GRT_OK && m->nfinished < m->ntasks) {
		if ((got = grt_comm_blocks ? 0 : tm_progress(m)) < 0) {
			m->rc = got;
			break;
		}
		if (m->rc != GRT_OK)
			break;
		if (got > 0) {
			grt_backoff_reset(&bo);
		} else if ((got = tm_idle(m, &bo)) < 0) {
			m->rc = got;
			break;
		} else if (got == 0 && !grt_usr1_seen) {
			continue;
		}
		if (m->rc != GRT_OK)
			break;
		m->now = MPI_Wtime();
		grt_events_tick(&m->ev, m->now);
		if (grt_usr1_seen) {
			grt_usr1_seen = 0;
			m->suspect = 1;
			next_check = 0;
		}
		if (!grt_comm_blocks && m->now >= next_check) {
			next_check = m->now + CHECK_PERIOD;
			if ((m->rc = tm_check_silence(m)) != GRT_OK)
				break;
		}
		if (m->now >= m->next_look)
			m->rc = tm_look(m);
	}
}

/* Every task ended: hand the final states to the application, in the order of the ids. */
static int
tm_finish(struct tk_master *m)
{
	int i;

	for (i = 0; i < m->ntasks && m->app->finish != NULL; i++) {
		const struct tm_state *f = &m->t[i].final;

		if (m->app->finish(m->app->ctx, i, f->b.data, (size_t)f->slen) != 0) {
			snprintf(m->rep->why, sizeof m->rep->why,
			    "task %d: the application's finish failed", i);
			return GRT_EAPP;
		}
	}
	return GRT_OK;
}

/*
 * Stop every worker (one declared failed may only have been slow), and wait (bounded) until
 * each live one has its sends complete.
 */
static void
tm_stop(struct tk_master *m)
{
	struct grt_backoff bo;
	struct tk_hdr h;
	double until;
	int r, left = 0;

	memset(&h, 0, sizeof h);
	h.kind = TK_STOP;
	h.arg = m->rc == GRT_OK ? GRT_STOP_DONE : GRT_STOP_ERROR;
	for (r = 1; r < m->size; r++) {
		tm_send(m, r, &h, NULL, 0);
		left += m->w[r].alive;
	}
	until = MPI_Wtime() + TK_BYE_WAIT_S;
	grt_backoff_reset(&bo);
	while (left > 0 && MPI_Wtime() < until) {
		double secs, clock;
		struct tk_view v;
		int src, got;

		tk_sends_test(&m->sends);
		if ((got = tk_recv_any(m->comm, &m->rbuf, &src, &secs)) == 0)
			got = tk_wait(m->comm, &m->sends, &bo, &m->rbuf, &src, &secs, &clock);
		if (got < 0)
			break;
		if (got > 0 && tk_view(m->rbuf.data, m->rbuf.len, &v) == GRT_OK &&
		    v.h.kind == TK_BYE && m->w[src].alive && !m->w[src].bye) {
			m->w[src].bye = 1;
			left--;
		}
	}
	/* a send to a dead worker never completes: no wait for those */
	while (m->rep->failed_ranks == 0 && tk_sends_pending(&m->sends) && MPI_Wtime() < until) {
		tk_sends_test(&m->sends);
		grt_backoff_wait(&bo);
	}
	if (left > 0 || tk_sends_pending(&m->sends) || m->rep->failed_ranks > 0)
		grt_failure_seen = 1;
}

/* The event stream: to cfg->events_path, or through the relay when there is one. */
static int
tm_events_open(struct tk_master *m)
{
	struct grt_sink sink;
	double origin = grt_events_origin(m->t0, m->cfg->t_origin);

	if (m->relay.fd < 0)
		return grt_events_open(&m->ev, m->cfg->events_path, origin);
	grt_relay_sink(&m->relay, GRT_RELAY_EVENTS, &sink);
	return grt_events_open_sink(&m->ev, &sink, origin);
}

int
grt_task_master(MPI_Comm comm, const struct grt_task_app *app, const struct grt_config *cfg,
    struct grt_report *rep)
{
	struct tk_master m;
	int i, r;

	memset(&m, 0, sizeof m);
	m.comm = comm;
	m.sends.comm = comm;
	m.app = app;
	m.cfg = cfg;
	m.rep = rep;
	m.ntasks = app->tasks;
	MPI_Comm_size(comm, &m.size);
	m.t0 = m.now = MPI_Wtime();
	m.t = calloc((size_t)m.ntasks, sizeof *m.t);
	m.w = calloc((size_t)m.size, sizeof *m.w);
	if (m.t == NULL || m.w == NULL)
		m.rc = GRT_ENOMEM;
	for (r = 1; m.w != NULL && r < m.size; r++) {
		m.w[r].alive = 1;
		m.w[r].last_heard = m.t0;
		m.w[r].node_load = -1;
		m.w[r].competition = -1;
	}
	/* rank 0 without the job directory: the rank map and the events through the relay */
	m.relay.fd = -1;
	if (m.rc == GRT_OK && cfg->relay != NULL)
		m.rc = grt_relay_open(&m.relay, cfg->relay, cfg->rankmap_path, NULL, rep->why,
		    sizeof rep->why);
	if (m.rc == GRT_OK && cfg->rankmap_path != NULL &&
	    grt_rankmap_load(cfg->rankmap_path, &m.ri, &m.nri) != GRT_OK)
		m.rc = GRT_EINVAL;
	if (m.w != NULL)
		tm_names(&m);
	if (m.rc == GRT_OK)
		m.rc = tm_events_open(&m);
	else
		grt_events_open(&m.ev, NULL, m.t0);
	if (m.rc == GRT_OK) {
		tm_start_event(&m);
		m.rc = tm_place(&m);
	}
	grt_usr1_seen = 0;
	if (m.rc == GRT_OK)
		tm_loop(&m);
	if (m.rc == GRT_OK)
		m.rc = tm_finish(&m);
	m.now = MPI_Wtime();
	rep->makespan = m.now - m.t0;
	if (m.w != NULL)
		tm_stop(&m);
	if (m.rc != GRT_OK || rep->failed_ranks > 0)
		grt_failure_seen = 1;
	if (m.w != NULL && m.t != NULL)
		tm_end_event(&m);
	rep->events_lost = grt_events_close(&m.ev) != GRT_OK;
	if (m.relay.fd >= 0)
		grt_relay_close(&m.relay);
	for (i = 0; m.t != NULL && i < m.ntasks; i++) {
		tm_state_free(&m.t[i].last);
		tm_state_free(&m.t[i].final);
	}
	tm_lines_free(&m);
	tk_sends_free(&m.sends);
	grt_buf_free(&m.rbuf);
	free(m.t);
	free(m.w);
	free(m.ri);
	return m.rc;
}
