/*
 * grt-sub-deal.c — a sub-master's dealing (grt-sub.h): each chunk of the master's gets a
 * scheme of its own over its units and the group's workers (the job's scheme, as the master
 * runs it over the groups: seed 002's skeleton at each level); a worker that asks takes a
 * requeued range, or the scheme's next piece of the oldest chunk that still has one, so it
 * goes on into the prefetched chunk without waiting. The parts of a chunk come back in
 * one message, when its last piece is answered, in the order the master sent the chunks.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/comm/grt-comm.h"
#include "runtime/sub/grt-sub.h"

/* One of the master's chunks is in hand: its scheme made, its pieces dealt. */
int
sub_chunk_add(struct sub *s, const struct grt_msg_work *w, double now)
{
	struct sub_chunk *ch;
	struct grt_msg_result h;
	int i, err, rc;

	if (s->ch.n == SUB_CHUNKS || w->count <= 0)
		return GRT_EPROTO;
	ch = sub_chunk_at(s, s->ch.n);
	ch->w = *w;
	if ((ch->sched = grt_sched_new(&s->conf, s->nw, w->count, &err)) == NULL)
		return err;
	grt_sched_begin_round(ch->sched);
	for (i = 0; i < s->nw; i++)
		if (s->w[i].failed)
			grt_sched_remove_worker(ch->sched, i);
	ch->nrq = 0;
	ch->left = w->count;
	ch->t_start = 0;
	ch->t_calc = 0;
	ch->res.len = 0;
	memset(&h, 0, sizeof h);
	if ((rc = grt_buf_append(&ch->res, &h, sizeof h)) != GRT_OK)
		return rc;
	s->ch.n++;
	return sub_assign_all(s, now);
}

/* Worker i's next piece: a requeued range, or a scheme's piece; 0 when none. */
static int
sub_take(struct sub *s, int i, int *k, struct grt_chunk *local, int *from_scheme)
{
	for (*k = 0; *k < s->ch.n; (*k)++) {
		struct sub_chunk *ch = sub_chunk_at(s, *k);

		*from_scheme = 0;
		if (ch->nrq > 0) {
			*local = ch->rq[--ch->nrq];
			return 1;
		}
		*from_scheme = 1;
		if (grt_sched_next(ch->sched, i, local) && local->count > 0)
			return 1;
	}
	return 0;
}

static int
sub_send(struct sub *s, int i, struct sub_chunk *ch, const struct grt_chunk *local,
    int from_scheme, double now)
{
	struct sub_worker *wk = &s->w[i];
	struct sub_piece *p = &wk->out[(wk->head + wk->nout) % SUB_DEPTH];
	struct grt_msg_work h;
	int rc;

	if (p->sreq != MPI_REQUEST_NULL && MPI_Wait(&p->sreq, MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return GRT_EMPI;
	h = ch->w;
	h.seq = ++s->seq;
	h.start = ch->w.start + local->start;
	h.count = local->count;
	p->sbuf.len = 0;
	if ((rc = grt_buf_append(&p->sbuf, &h, sizeof h)) != GRT_OK)
		return rc;
	if (s->app->pack != NULL &&
	    s->app->pack(s->app->ctx, h.round, h.start, h.count, &p->sbuf) != 0)
		return GRT_EAPP;
	if ((rc = grt_comm_isend(p->sbuf.data, p->sbuf.len, wk->rank, GRT_TAG_WORK, s->comm,
	    &p->sreq)) != GRT_OK)
		return rc;
	p->seq = h.seq;
	p->gseq = ch->w.seq;
	p->c.start = h.start;
	p->c.count = h.count;
	p->local = *local;
	p->from_scheme = from_scheme;
	if (ch->t_start == 0)
		ch->t_start = now;
	if (wk->nout++ == 0) {
		wk->t_head = now;
		wk->blind = s->unit_exe_max <= 0;
	}
	return GRT_OK;
}

/* Worker i's queue filled up to depth pieces, as far as the chunks in hand go. */
static int
sub_fill(struct sub *s, int i, int depth, double now)
{
	struct grt_chunk local;
	int k, from_scheme, rc;

	while (!s->w[i].failed && s->w[i].nout < depth &&
	    sub_take(s, i, &k, &local, &from_scheme))
		if ((rc = sub_send(s, i, sub_chunk_at(s, k), &local, from_scheme, now)) != GRT_OK)
			return rc;
	return GRT_OK;
}

int
sub_assign(struct sub *s, int i, double now)
{
	return sub_fill(s, i, SUB_DEPTH, now);
}

/* Every worker gets a piece before any gets its second: small chunks are spread out. */
int
sub_assign_all(struct sub *s, double now)
{
	int i, d, rc;

	for (d = 1; d <= SUB_DEPTH; d++)
		for (i = 0; i < s->nw; i++)
			if (s->w[i].nout < d && (rc = sub_fill(s, i, d, now)) != GRT_OK)
				return rc;
	return GRT_OK;
}

/*
 * The oldest chunks whose every unit is answered go to the master, each as one RESULT
 * (t_calc: the group's wall time on it, or a sample's compute time), with the failure
 * notices gathered since the last one.
 */
static int
sub_flush(struct sub *s, double now)
{
	while (s->ch.n > 0 && sub_chunk_at(s, 0)->left == 0) {
		struct sub_chunk *ch = sub_chunk_at(s, 0);
		struct grt_msg_result h;
		grt_buf t;
		int rc;

		memset(&h, 0, sizeof h);
		h.seq = ch->w.seq;
		h.start = ch->w.start;
		h.count = ch->w.count;
		h.round = ch->w.round;
		h.t_calc = ch->w.kind == GRT_WORK_SAMPLE ? ch->t_calc : now - ch->t_start;
		memcpy(ch->res.data, &h, sizeof h);
		if (s->notes.len > 0 &&
		    (rc = grt_buf_append(&ch->res, s->notes.data, s->notes.len)) != GRT_OK)
			return rc;
		s->notes.len = 0;
		if (s->oreq != MPI_REQUEST_NULL &&
		    MPI_Wait(&s->oreq, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return GRT_EMPI;
		/* the chunk's buffer goes out as it is; the one sent before takes its place */
		t = s->obuf;
		s->obuf = ch->res;
		ch->res = t;
		if ((rc = grt_comm_isend(s->obuf.data, s->obuf.len, 0, GRT_TAG_RESULT, s->comm,
		    &s->oreq)) != GRT_OK)
			return rc;
		grt_sched_free(ch->sched);
		ch->sched = NULL;
		s->ch.head = (s->ch.head + 1) % SUB_CHUNKS;
		s->ch.n--;
	}
	return GRT_OK;
}

/* The chunk in hand that piece p belongs to, or NULL. */
static struct sub_chunk *
sub_chunk_of(struct sub *s, const struct sub_piece *p)
{
	int k;

	for (k = 0; k < s->ch.n; k++)
		if (sub_chunk_at(s, k)->w.seq == p->gseq)
			return sub_chunk_at(s, k);
	return NULL;
}

/* A worker's failed compute: the master hears of it as a failed chunk, and stops the run. */
static int
sub_app_error(struct sub *s)
{
	struct grt_msg_result h;

	memset(&h, 0, sizeof h);
	h.seq = sub_chunk_at(s, 0)->w.seq;
	h.status = 1;
	s->obuf.len = 0;
	if (s->oreq != MPI_REQUEST_NULL && MPI_Wait(&s->oreq, MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return GRT_EMPI;
	if (grt_buf_append(&s->obuf, &h, sizeof h) != GRT_OK)
		return GRT_ENOMEM;
	return grt_comm_isend(s->obuf.data, s->obuf.len, 0, GRT_TAG_RESULT, s->comm, &s->oreq);
}

/* Worker i's result of its head piece: its part kept, its next piece sent, then flushed. */
int
sub_result(struct sub *s, int i, const grt_buf *in, double now)
{
	struct sub_worker *wk = &s->w[i];
	struct grt_msg_result h;
	struct grt_msg_part part;
	struct sub_piece p;
	struct sub_chunk *ch;
	double t_exe;
	int rc;

	if (in->len < sizeof h)
		return GRT_EPROTO;
	memcpy(&h, in->data, sizeof h);
	if (wk->nout == 0 || h.seq != wk->out[wk->head].seq)
		return GRT_EPROTO;
	if (h.status != 0)
		return s->ch.n > 0 ? sub_app_error(s) : GRT_EPROTO;
	p = wk->out[wk->head];
	if ((ch = sub_chunk_of(s, &p)) == NULL)
		return GRT_EPROTO;
	t_exe = now - wk->t_head;
	if (t_exe < h.t_calc)
		t_exe = h.t_calc;
	wk->head = (wk->head + 1) % SUB_DEPTH;
	if (--wk->nout > 0) {
		wk->t_head = now;
		wk->blind = 0;
	}
	wk->units += p.c.count;
	wk->t_exe += t_exe;
	wk->unit_exe = t_exe / (double)p.c.count;
	if (wk->unit_exe > s->unit_exe_max)
		s->unit_exe_max = wk->unit_exe;
	if (p.from_scheme)
		grt_sched_feedback(ch->sched, i, &p.local, h.t_calc, t_exe);
	/* the worker goes on while the part is kept */
	if ((rc = sub_assign(s, i, now)) != GRT_OK)
		return rc;
	memset(&part, 0, sizeof part);
	part.start = p.c.start;
	part.count = p.c.count;
	part.t_calc = h.t_calc;
	part.t_exe = t_exe;
	part.rank = wk->rank;
	part.kind = GRT_PART_RESULT;
	part.len = in->len - sizeof h;
	if ((rc = grt_buf_append(&ch->res, &part, sizeof part)) != GRT_OK ||
	    (rc = grt_buf_append(&ch->res, in->data + sizeof h, in->len - sizeof h)) != GRT_OK)
		return rc;
	ch->left -= p.c.count;
	ch->t_calc += h.t_calc;
	return sub_flush(s, now);
}

void
sub_chunks_free(struct sub *s)
{
	int k;

	for (k = 0; k < SUB_CHUNKS; k++) {
		grt_sched_free(s->ch.c[k].sched);
		free(s->ch.c[k].rq);
		grt_buf_free(&s->ch.c[k].res);
	}
}
