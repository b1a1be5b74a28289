/*
 * grt-dispatch.c — what the master sends: each worker's next chunk (an SWR sample, a
 * requeued range, the scheme's next chunk, or part of the master's own unstarted units,
 * in that order), one or two of them at a time (grt-prefetch.c), and, at the end or when
 * the scheme drops a worker, STOP.
 */
#include <stdint.h>

#include "runtime/comm/grt-comm.h"
#include "runtime/master/grt-master.h"

static int
master_send(struct master *m, int w, const struct grt_chunk *c, int kind, int from_scheme,
    long rq, double now)
{
	struct worker *wk = &m->w[w];
	struct outchunk *o = &wk->out[(wk->head + wk->nout) % GRT_DEPTH_MAX];
	struct grt_msg_work h;
	int rc;

	if (o->sreq != MPI_REQUEST_NULL && MPI_Wait(&o->sreq, MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return GRT_EMPI;
	o->sbuf.len = 0;
	h.seq = ++m->seq;
	h.start = c->start;
	h.count = c->count;
	h.round = master_work_round(m);
	h.kind = kind;
	if ((rc = grt_buf_append(&o->sbuf, &h, sizeof h)) != GRT_OK)
		return rc;
	/* a sampled unit gets its input too: compute cannot run, or be timed, without it */
	if (m->app->pack != NULL &&
	    m->app->pack(m->app->ctx, h.round, c->start, c->count, &o->sbuf) != 0)
		return GRT_EAPP;
	if ((rc = grt_comm_isend(o->sbuf.data, o->sbuf.len, w_rank(m, w), GRT_TAG_WORK,
	    m->comm, &o->sreq)) != GRT_OK)
		return rc;
	o->seq = h.seq;
	o->c = *c;
	o->round = h.round;
	o->kind = kind;
	o->from_scheme = from_scheme;
	o->rq = rq;
	o->taken_back = 0;
	o->t_send = now;
	if (wk->nout++ == 0) {
		wk->state = W_BUSY;
		wk->t_head = now;
		wk->blind = m->unit_exe_max <= 0;
	}
	return GRT_OK;
}

/*
 * The next piece of work for worker w: a sample, a requeued range, the scheme's chunk, or
 * (for a worker, not the master itself) the back half of the master's unstarted units;
 * none once the time limit has passed.
 */
int
master_take(struct master *m, int w, struct grt_chunk *c, int *kind, int *from_scheme,
    long *rq)
{
	*kind = GRT_WORK_CHUNK;
	*from_scheme = 0;
	*rq = -1;
	/* past the time limit nothing more is handed out (master_periodic) */
	if (m->timing_out)
		return 0;
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
	while (grt_sched_next(m->sched, w, c)) {
		*from_scheme = 1;
		if (c->count <= 0)
			return 0;
		/* a resumed round: what the journal holds is not computed again */
		if (m->replay.ndone == 0 || master_resume_clip(m, c))
			return 1;
		if (m->rc != GRT_OK)
			return 0;
		/* the gaps of the chunk just clipped, if any */
		if ((*rq = master_dequeue(m)) >= 0) {
			*from_scheme = 0;
			*c = m->rq[*rq].c;
			return 1;
		}
	}
	*from_scheme = 0;
	return m->w[w].state != W_SELF && master_self_share(m, c);
}

/* Give worker w its next chunk, and a second one when prefetching for it. */
int
master_assign(struct master *m, int w, double now)
{
	struct worker *wk = &m->w[w];
	struct grt_chunk c;
	int kind, from_scheme, rc;
	long rq;

	if (wk->state != W_IDLE && wk->state != W_BUSY)
		return GRT_OK;
	/* while pwd samples, one unit at a time: each sample is timed alone */
	while (wk->nout < (m->sampling ? 1 : master_depth(m, wk))) {
		if (!master_take(m, w, &c, &kind, &from_scheme, &rq))
			break;
		if ((rc = master_send(m, w, &c, kind, from_scheme, rq, now)) != GRT_OK)
			return rc;
	}
	return GRT_OK;
}

/* Requeued units wake the idle workers (and the master's own slot) of this round. */
int
master_wake_idle(struct master *m, double now)
{
	int i, rc;

	for (i = 0; i < m->nw && (m->nqueued > 0 || m->sampling); i++) {
		if (m->w[i].state == W_SELF)
			m->self.idle = 0;
		else if (m->w[i].state == W_IDLE && (rc = master_assign(m, i, now)) != GRT_OK)
			return rc;
	}
	return GRT_OK;
}

int
master_stop(struct master *m, int w, int reason)
{
	struct worker *wk = &m->w[w];

	if (wk->stop_req != MPI_REQUEST_NULL &&
	    MPI_Wait(&wk->stop_req, MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return GRT_EMPI;
	wk->stop.reason = reason;
	wk->stop.failure_seen = m->failed_now > 0;
	return grt_comm_isend(&wk->stop, sizeof wk->stop, w_rank(m, w), GRT_TAG_STOP,
	    m->comm, &wk->stop_req);
}

/* Every worker still listening gets STOP; a failed one too, in case it is only late. */
void
master_stop_all(struct master *m)
{
	int i, j, reason = m->rc == GRT_OK ? GRT_STOP_DONE : GRT_STOP_ERROR;

	for (i = 0; i < m->nw; i++) {
		struct worker *wk = &m->w[i];

		if (wk->state == W_SELF || wk->state == W_DROPPED)
			continue;
		if (wk->state == W_FAILED) {
			static struct grt_msg_stop late;
			MPI_Request req;

			late.reason = reason;
			late.failure_seen = 1;
			if (grt_comm_isend(&late, sizeof late, w_rank(m, i), GRT_TAG_STOP,
			    m->comm, &req) == GRT_OK)
				MPI_Request_free(&req);
			continue;
		}
		if (master_stop(m, i, reason) != GRT_OK)
			grt_failure_seen = 1;
	}
	master_group_stop_orphans(m, reason);
	/* the STOPs and the chunks are small (eager) or taken: they complete on their own */
	for (i = 0; i < m->nw; i++) {
		struct worker *wk = &m->w[i];

		if (wk->state == W_FAILED)
			continue;
		if (wk->stop_req != MPI_REQUEST_NULL)
			MPI_Wait(&wk->stop_req, MPI_STATUS_IGNORE);
		for (j = 0; j < GRT_DEPTH_MAX; j++)
			if (wk->out[j].sreq != MPI_REQUEST_NULL)
				MPI_Wait(&wk->out[j].sreq, MPI_STATUS_IGNORE);
	}
}
