/*
 * grt-merge.c — results on the master: received without blocking (MPI_Iprobe), checked
 * against the chunk outstanding at their worker, accounted (totals, the scheme's feedback)
 * and handed to the application's merge, exactly once per unit range.
 */
#include <string.h>

#include "grt-master.h"
#include "grt-proto.h"

/* Account a finished chunk (worker or master), feed the scheme, merge, log. */
int
master_done(struct master *m, int w, const struct grt_chunk *c, int from_scheme,
    double t_calc, double t_exe, const void *res, size_t reslen, double now)
{
	struct worker *wk = &m->w[w];

	wk->units += c->count;
	wk->t_calc += t_calc;
	wk->t_exe += t_exe;
	wk->r_units += c->count;
	wk->r_exe += t_exe;
	if (c->count > 0)
		wk->unit_exe = t_exe / (double)c->count;
	if (from_scheme)
		grt_sched_feedback(m->sched, w, c, t_calc, t_exe);
	if (m->app->merge != NULL &&
	    m->app->merge(m->app->ctx, m->round, c->start, c->count, res, reslen) != 0)
		return GRT_EAPP;
	m->merged += c->count;
	m->rep->units_done += c->count;
	master_chunk_event(m, w_rank(m, w), c, t_calc, t_exe, now);
	return GRT_OK;
}

/* The result of worker w's outstanding chunk. Returns 1 when handled, or an error. */
static int
master_result(struct master *m, int w, const struct grt_msg_result *h, const void *res,
    size_t reslen, double now)
{
	struct worker *wk = &m->w[w];
	struct grt_chunk c;
	double t_exe;
	int rc, from_scheme;

	if (wk->state != W_BUSY || h->seq != wk->seq)
		return GRT_EPROTO;
	if (h->status != 0)
		return GRT_EAPP;
	t_exe = now - wk->t_send;
	c = wk->c;
	from_scheme = wk->from_scheme;
	wk->state = W_IDLE;
	if (wk->rq >= 0) {
		/* a requeued range whose first worker answered late and was merged already */
		int dup = m->rq[wk->rq].state == RQ_MERGED;

		m->rq[wk->rq].state = RQ_MERGED;
		if (dup) {
			rc = master_assign(m, w, now);
			return rc == GRT_OK ? 1 : rc;
		}
	}
	if (wk->kind == GRT_WORK_SAMPLE) {
		master_sampled(m, h->t_calc, now);
		if ((rc = master_assign(m, w, now)) != GRT_OK)
			return rc;
		return 1;
	}
	/* hand out the next chunk before merging: the worker computes while we merge */
	if ((rc = master_assign(m, w, now)) != GRT_OK)
		return rc;
	rc = master_done(m, w, &c, from_scheme, h->t_calc, t_exe, res, reslen, now);
	return rc == GRT_OK ? 1 : rc;
}

/* One result, if one is waiting. Returns 1 when a message was handled, 0, or an error. */
int
master_poll(struct master *m)
{
	struct grt_msg_result h;
	MPI_Status st;
	const void *res;
	size_t reslen;
	double now;
	int flag, n, w, rc;

	if (MPI_Iprobe(MPI_ANY_SOURCE, GRT_TAG_RESULT, m->comm, &flag, &st) != MPI_SUCCESS)
		return GRT_EMPI;
	if (!flag)
		return 0;
	if (MPI_Get_count(&st, MPI_BYTE, &n) != MPI_SUCCESS || n < (int)sizeof h)
		return GRT_EPROTO;
	if ((rc = grt_buf_reserve(&m->rbuf, (size_t)n)) != GRT_OK)
		return rc;
	if (MPI_Recv(m->rbuf.data, n, MPI_BYTE, st.MPI_SOURCE, GRT_TAG_RESULT, m->comm,
	    MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return GRT_EMPI;
	now = MPI_Wtime();
	memcpy(&h, m->rbuf.data, sizeof h);
	w = st.MPI_SOURCE - m->off;
	if (w < 0 || w >= m->nw)
		return GRT_EPROTO;
	res = m->rbuf.data + sizeof h;
	reslen = (size_t)n - sizeof h;
	if (m->w[w].state == W_FAILED)
		return master_late(m, w, &h, res, reslen, now);
	return master_result(m, w, &h, res, reslen, now);
}
