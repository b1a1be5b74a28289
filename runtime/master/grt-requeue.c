/*
 * grt-requeue.c — the ranges the master took back from failed workers this round, and the
 * gaps of a round resumed from the journal: queued until a worker takes one, outstanding
 * there, then merged. A range merged once is never merged again, whichever of its workers
 * answers first.
 */
#include <stdlib.h>

#include "runtime/master/grt-master.h"

/* Queue range c for the next worker that asks; its index in m->rq, or -1 (no memory). */
static long
master_queue(struct master *m, const struct grt_chunk *c)
{
	if (m->nrq == m->caprq) {
		size_t ncap = m->caprq ? m->caprq * 2 : 16;
		struct requeued *p = realloc(m->rq, ncap * sizeof *p);

		if (p == NULL)
			return -1;
		m->rq = p;
		m->caprq = ncap;
	}
	m->rq[m->nrq].c = *c;
	m->rq[m->nrq].state = RQ_QUEUED;
	m->nqueued++;
	return (long)m->nrq++;
}

/* Take back a worker's chunk o; a chunk already requeued once goes back to the queue. */
int
master_requeue(struct master *m, struct outchunk *o)
{
	if (o->rq >= 0) {
		/* merged already (its first worker answered late): nothing to take back */
		if (m->rq[o->rq].state == RQ_OUT) {
			m->rq[o->rq].state = RQ_QUEUED;
			m->nqueued++;
		}
		return GRT_OK;
	}
	if ((o->rq = master_queue(m, &o->c)) < 0)
		return GRT_ENOMEM;
	return GRT_OK;
}

/* A range that must still be computed (a resumed round's gap): queued like a requeue. */
int
master_queue_range(struct master *m, const struct grt_chunk *c)
{
	return master_queue(m, c) < 0 ? GRT_ENOMEM : GRT_OK;
}

/* A queued requeued range, marked as handed out; -1 when none. */
long
master_dequeue(struct master *m)
{
	size_t i;

	if (m->nqueued == 0)
		return -1;
	for (i = m->nrq; i-- > 0;) {
		if (m->rq[i].state == RQ_QUEUED) {
			m->rq[i].state = RQ_OUT;
			m->nqueued--;
			return (long)i;
		}
	}
	return -1;
}
