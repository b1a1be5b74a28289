/*
 * grt-dispatch.c — what the master sends: each worker's next chunk (an SWR sample, a
 * requeued range, or the scheme's next chunk, in that order) and, at the end or when the
 * scheme drops a worker, STOP.
 */
#include <stdint.h>

#include "grt-master.h"
#include "grt-proto.h"

static int
master_send(struct master *m, int w, const struct grt_chunk *c, int kind, int from_scheme,
    long rq, double now)
{
	struct worker *wk = &m->w[w];
	struct grt_msg_work h;
	int rc;

	if (wk->sreq != MPI_REQUEST_NULL && MPI_Wait(&wk->sreq, MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return GRT_EMPI;
	wk->sbuf.len = 0;
	h.seq = ++m->seq;
	h.start = c->start;
	h.count = c->count;
	h.round = master_work_round(m);
	h.kind = kind;
	if ((rc = grt_buf_append(&wk->sbuf, &h, sizeof h)) != GRT_OK)
		return rc;
	/* a sampled unit gets its input too: compute cannot run, or be timed, without it */
	if (m->app->pack != NULL &&
	    m->app->pack(m->app->ctx, h.round, c->start, c->count, &wk->sbuf) != 0)
		return GRT_EAPP;
	if (wk->sbuf.len > INT32_MAX)
		return GRT_EINVAL;
	if (MPI_Isend(wk->sbuf.data, (int)wk->sbuf.len, MPI_BYTE, w_rank(m, w), GRT_TAG_WORK,
	    m->comm, &wk->sreq) != MPI_SUCCESS)
		return GRT_EMPI;
	wk->state = W_BUSY;
	wk->seq = h.seq;
	wk->c = *c;
	wk->kind = kind;
	wk->from_scheme = from_scheme;
	wk->rq = rq;
	wk->t_send = now;
	wk->deadline = master_deadline(m, wk, now);
	return GRT_OK;
}

/* The next piece of work for worker w: a sample, a requeued range, or the scheme's chunk. */
int
master_take(struct master *m, int w, struct grt_chunk *c, int *kind, int *from_scheme,
    long *rq)
{
	*kind = GRT_WORK_CHUNK;
	*from_scheme = 0;
	*rq = -1;
	if (m->sampling) {
		if (w != m->sampler || m->sample_next >= m->nsamples)
			return 0;
		c->start = m->sample_units[m->sample_next++];
		c->count = 1;
		*kind = GRT_WORK_SAMPLE;
		return 1;
	}
	if ((*rq = master_dequeue(m)) >= 0) {
		*c = m->rq[*rq].c;
		return 1;
	}
	if (grt_sched_next(m->sched, w, c)) {
		*from_scheme = 1;
		return c->count > 0;
	}
	return 0;
}

/* Give worker w its next chunk, or mark it idle for the rest of the round. */
int
master_assign(struct master *m, int w, double now)
{
	struct grt_chunk c;
	int kind, from_scheme;
	long rq;

	if (m->w[w].state != W_IDLE)
		return GRT_OK;
	if (!master_take(m, w, &c, &kind, &from_scheme, &rq))
		return GRT_OK;
	return master_send(m, w, &c, kind, from_scheme, rq, now);
}

/* Requeued units wake the idle workers (and the master's own slot) of this round. */
int
master_wake_idle(struct master *m, double now)
{
	int i, rc;

	for (i = 0; i < m->nw && (m->nqueued > 0 || m->sampling); i++) {
		if (m->w[i].state == W_SELF)
			m->w[i].self_idle = 0;
		else if (m->w[i].state == W_IDLE && (rc = master_assign(m, i, now)) != GRT_OK)
			return rc;
	}
	return GRT_OK;
}

int
master_stop(struct master *m, int w, int reason)
{
	struct grt_msg_stop s = { reason, m->failed_now > 0 };
	struct worker *wk = &m->w[w];

	if (wk->sreq != MPI_REQUEST_NULL && MPI_Wait(&wk->sreq, MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return GRT_EMPI;
	wk->sbuf.len = 0;
	if (grt_buf_append(&wk->sbuf, &s, sizeof s) != GRT_OK)
		return GRT_ENOMEM;
	if (MPI_Isend(wk->sbuf.data, (int)sizeof s, MPI_BYTE, w_rank(m, w), GRT_TAG_STOP, m->comm,
	    &wk->sreq) != MPI_SUCCESS)
		return GRT_EMPI;
	return GRT_OK;
}

/* Every worker still listening gets STOP; a failed one too, in case it is only late. */
void
master_stop_all(struct master *m)
{
	int i, reason = m->rc == GRT_OK ? GRT_STOP_DONE : GRT_STOP_ERROR;

	for (i = 0; i < m->nw; i++) {
		struct worker *wk = &m->w[i];

		if (wk->state == W_SELF || wk->state == W_DROPPED)
			continue;
		if (wk->state == W_FAILED) {
			static struct grt_msg_stop late;
			MPI_Request req;

			late.reason = reason;
			late.failure_seen = 1;
			if (MPI_Isend(&late, (int)sizeof late, MPI_BYTE, w_rank(m, i), GRT_TAG_STOP,
			    m->comm, &req) == MPI_SUCCESS)
				MPI_Request_free(&req);
			continue;
		}
		if (master_stop(m, i, reason) != GRT_OK)
			grt_failure_seen = 1;
	}
	/* the STOPs are small (eager): they complete without the workers' help */
	for (i = 0; i < m->nw; i++)
		if (m->w[i].state != W_FAILED && m->w[i].sreq != MPI_REQUEST_NULL)
			MPI_Wait(&m->w[i].sreq, MPI_STATUS_IGNORE);
}
