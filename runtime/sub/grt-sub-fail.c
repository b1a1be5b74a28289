/*
 * grt-sub-fail.c — a sub-master's failed workers (doc/runtime.md, "The hierarchy"): as the
 * master does for its own (runtime/master/grt-failure.c), every piece has a deadline from
 * the times measured so far (runtime/core/grt-deadline.h); a worker that misses it is
 * failed for the rest of the run, its pieces requeued in the group, and the master told
 * with the next result (a GRT_PART_FAILED part). Its late answers are dropped: every unit
 * is answered once, by the worker that holds it.
 */
#include <stdlib.h>

#include "runtime/core/grt-deadline.h"
#include "runtime/sub/grt-sub.h"

#define SUB_CHECK_PERIOD	0.01	/* seconds between deadline scans */
#define SUB_SUSPECT_MIN		2.0	/* after hydra's SIGUSR1: 4x expected, at least this */

int
sub_requeue(struct sub_chunk *ch, const struct grt_chunk *local)
{
	if (ch->nrq == ch->caprq) {
		size_t ncap = ch->caprq ? ch->caprq * 2 : 8;
		struct grt_chunk *p = realloc(ch->rq, ncap * sizeof *p);

		if (p == NULL)
			return GRT_ENOMEM;
		ch->rq = p;
		ch->caprq = ncap;
	}
	ch->rq[ch->nrq++] = *local;
	return GRT_OK;
}

static int
sub_fail(struct sub *s, int i, double now)
{
	struct sub_worker *wk = &s->w[i];
	struct grt_msg_part note = { 0 };
	int j, k, rc;

	wk->failed = 1;
	s->failed++;
	grt_failure_seen = 1;
	for (j = 0; j < wk->nout; j++) {
		struct sub_piece *p = &wk->out[(wk->head + j) % SUB_DEPTH];

		for (k = 0; k < s->ch.n; k++) {
			struct sub_chunk *ch = sub_chunk_at(s, k);

			if (ch->w.seq != p->gseq)
				continue;
			if ((rc = sub_requeue(ch, &p->local)) != GRT_OK)
				return rc;
			note.count += p->c.count;
		}
	}
	wk->nout = 0;
	for (k = 0; k < s->ch.n; k++)
		grt_sched_remove_worker(sub_chunk_at(s, k)->sched, i);
	note.rank = wk->rank;
	note.kind = GRT_PART_FAILED;
	if ((rc = grt_buf_append(&s->notes, &note, sizeof note)) != GRT_OK)
		return rc;
	return sub_assign_all(s, now);
}

/* Every SUB_CHECK_PERIOD: the workers whose head piece is past its deadline are failed. */
int
sub_check_deadlines(struct sub *s, double now)
{
	int i, rc, now_usr1 = grt_usr1_seen;

	if (now < s->next_check && !now_usr1)
		return GRT_OK;
	grt_usr1_seen = 0;
	s->suspect |= now_usr1;
	s->next_check = now + SUB_CHECK_PERIOD;
	for (i = 0; i < s->nw; i++) {
		struct sub_worker *wk = &s->w[i];
		int64_t count;
		double mean, expected, limit;

		if (wk->failed || wk->nout == 0)
			continue;
		count = wk->out[wk->head].c.count;
		mean = wk->units > 0 ? wk->t_exe / (double)wk->units : 0;
		expected = grt_deadline_rate(wk->unit_exe, mean, s->unit_exe_max) *
		    (double)count;
		limit = wk->t_head + grt_deadline_allow(s->cfg->deadline,
		    s->cfg->deadline_factor, wk->blind ? 0 : expected);
		if (s->suspect && expected > 0) {
			double t = GRT_DEADLINE_FACTOR * expected;

			if (t < SUB_SUSPECT_MIN)
				t = SUB_SUSPECT_MIN;
			if (wk->t_head + t < limit)
				limit = wk->t_head + t;
		}
		if (now >= limit && (rc = sub_fail(s, i, now)) != GRT_OK)
			return rc;
	}
	return GRT_OK;
}
