/*
 * grt-merge.c — results on the master: received (grt-comm.h: never blocking under MPICH),
 * checked against the chunk at the head of their worker's queue, accounted (totals, the
 * scheme's feedback) and handed to the application's merge, exactly once per unit range,
 * then journaled.
 */
#include <string.h>

#include "runtime/comm/grt-comm.h"
#include "runtime/master/grt-master.h"

/* The application's merge of a range, counted towards the round's end. */
int
master_merge(struct master *m, const struct grt_chunk *c, const void *res, size_t reslen)
{
	if (m->app->merge != NULL &&
	    m->app->merge(m->app->ctx, m->round, c->start, c->count, res, reslen) != 0)
		return GRT_EAPP;
	if (grt_journal_merge(&m->jn, m->round, c->start, c->count, res, reslen) != GRT_OK)
		m->rep->journal_lost = 1;
	m->merged += c->count;
	m->rep->units_done += c->count;
	return GRT_OK;
}

/* A finished chunk (worker or master) in the totals and the events. */
void
master_account(struct master *m, int w, const struct grt_chunk *c, double t_calc,
    double t_exe, double now)
{
	struct worker *wk = &m->w[w];

	wk->units += c->count;
	wk->t_calc += t_calc;
	wk->t_exe += t_exe;
	wk->r_units += c->count;
	wk->r_exe += t_exe;
	if (c->count > 0) {
		wk->unit_exe = t_exe / (double)c->count;
		if (wk->unit_exe > m->unit_exe_max)
			m->unit_exe_max = wk->unit_exe;
	}
	/* a sub-master's chunk is recorded by its parts, each of its real rank */
	if (wk->group == 0)
		master_chunk_event(m, w_rank(m, w), c, t_calc, t_exe, now);
}

/*
 * The result of chunk o of worker w: a sample's time, or a range merged unless it was
 * merged already (a requeued range whose other worker answered first).
 */
int
master_settle(struct master *m, int w, struct outchunk *o, double t_calc, double t_exe,
    const void *res, size_t reslen, double now)
{
	int rc;

	/* a late answer to a chunk of an earlier round: its requeued copy did that round */
	if (o->round != master_work_round(m))
		return GRT_OK;
	if (o->kind == GRT_WORK_SAMPLE) {
		if (m->sampling)
			master_sampled(m, t_calc, now);
		return GRT_OK;
	}
	if (o->rq >= 0) {
		struct requeued *r = &m->rq[o->rq];

		if (r->state == RQ_MERGED)
			return GRT_OK;
		if (r->state == RQ_QUEUED)
			m->nqueued--;
		r->state = RQ_MERGED;
	}
	/* taken back from w after a missed deadline, and w answered first after all */
	if (o->taken_back)
		m->rep->requeued -= o->c.count;
	if (m->w[w].group > 0)
		return master_group_settle(m, w, o, t_calc, t_exe, res, reslen, now);
	if ((rc = master_merge(m, &o->c, res, reslen)) != GRT_OK)
		return rc;
	master_account(m, w, &o->c, t_calc, t_exe, now);
	return GRT_OK;
}

/* Worker w's head chunk is answered: the next one in its queue starts now. */
void
master_pop(struct master *m, int w, double now)
{
	struct worker *wk = &m->w[w];

	wk->head = (wk->head + 1) % GRT_DEPTH_MAX;
	wk->nout--;
	if (wk->nout > 0) {
		wk->t_head = now;
		wk->blind = m->unit_exe_max <= 0;
	} else if (wk->state == W_BUSY)
		wk->state = W_IDLE;
}

/* The result of worker w's head chunk. Returns 1 when handled, or an error. */
static int
master_result(struct master *m, int w, const struct grt_msg_result *h, const void *res,
    size_t reslen, double now)
{
	struct worker *wk = &m->w[w];
	struct outchunk done;
	double t_exe;
	int rc;

	if (wk->nout == 0 || h->seq != w_head(wk)->seq)
		return GRT_EPROTO;
	if (h->status != 0)
		return GRT_EAPP;
	done = *w_head(wk);
	/*
	 * It started when it was sent, or, prefetched, when the one before it was answered;
	 * a master late to look (sharing a core) may find both results at once: never less
	 * than the compute time the worker measured.
	 */
	t_exe = now - wk->t_head;
	if (t_exe < h->t_calc)
		t_exe = h->t_calc;
	if (done.t_send >= wk->t_head)
		wk->gap = t_exe > h->t_calc ? t_exe - h->t_calc : 0;
	wk->last_calc = h->t_calc;
	master_pop(m, w, now);
	/* the scheme hears of the chunk before it cuts the worker's next one (awf-c, af) */
	if (done.from_scheme)
		grt_sched_feedback(m->sched, w, &done.c, h->t_calc, t_exe);
	/* hand out the next chunk before merging: the worker computes while we merge */
	if ((rc = master_assign(m, w, now)) != GRT_OK)
		return rc;
	rc = master_settle(m, w, &done, h->t_calc, t_exe, res, reslen, now);
	return rc == GRT_OK ? 1 : rc;
}

/*
 * One result: with wait 0 only if one is waiting, else the next one (grt-comm-block.c).
 * Returns 1 when a message was handled, 0 when none was waiting, or an error.
 */
int
master_poll(struct master *m, int wait)
{
	struct grt_msg_result h;
	MPI_Status st;
	const void *res;
	size_t reslen;
	int w, rc;

	if ((rc = grt_comm_recv(m->comm, MPI_ANY_SOURCE, GRT_TAG_RESULT, wait, &m->rbuf,
	    &st)) <= 0)
		return rc;
	if (m->rbuf.len < sizeof h)
		return GRT_EPROTO;
	m->now = MPI_Wtime();
	memcpy(&h, m->rbuf.data, sizeof h);
	w = m->grp.on ? master_group_worker(m, st.MPI_SOURCE) : st.MPI_SOURCE - m->off;
	if (w < 0 || w >= m->nw)
		return GRT_EPROTO;
	res = m->rbuf.data + sizeof h;
	reslen = m->rbuf.len - sizeof h;
	/* a sub-master's notices of its failed workers count whatever becomes of its parts */
	if (m->w[w].group > 0 && (rc = master_group_notes(m, res, reslen, m->now)) != GRT_OK)
		return rc;
	if (m->w[w].state == W_FAILED)
		return master_late(m, w, &h, res, reslen, m->now);
	return master_result(m, w, &h, res, reslen, m->now);
}
