/*
 * grt-resume.c — the master and its journal (grt-journal.h, doc/runtime.md, "The
 * journal"): the journal opened and replayed at start, the rounds it finished skipped,
 * and in the round it left unfinished only the units it lacks handed out. The scheme
 * cuts its chunks as usual; what of a chunk the journal holds is left out, a chunk with
 * several gaps goes out as its first gap and queues the others.
 */
#include "runtime/master/grt-master.h"

int
master_resume_open(struct master *m)
{
	int rc;

	if (m->cfg->journal_path == NULL) {
		grt_journal_none(&m->jn);
		return GRT_OK;
	}
	rc = grt_journal_open(&m->jn, m->cfg->journal_path, m->app, &m->replay, m->rep->why,
	    sizeof m->rep->why);
	m->rep->resumed = m->replay.total;
	m->rep->units_done = m->replay.total;
	return rc;
}

/*
 * Chunk c of the scheme less the units the journal holds: 1 with c its first gap (the
 * others queued), 0 when the journal holds all of it (or no memory: m->rc is set).
 */
int
master_resume_clip(struct master *m, struct grt_chunk *c)
{
	int64_t s = c->start, e = c->start + c->count, gap_end;
	const struct grt_span *d;
	struct grt_chunk first = { 0, 0 }, gap;

	while (s < e) {
		d = grt_replay_find(&m->replay, s, e - s);
		gap_end = d == NULL ? e : d->start > s ? d->start : s;
		if (gap_end > s) {
			gap.start = s;
			gap.count = gap_end - s;
			if (first.count == 0)
				first = gap;
			else if ((m->rc = master_queue_range(m, &gap)) != GRT_OK)
				return 0;
		}
		if (d == NULL)
			break;
		s = d->end;
	}
	*c = first;
	return first.count > 0;
}

/* A round begins: the one the journal left unfinished starts with its merged units. */
void
master_resume_round(struct master *m)
{
	if (m->round == m->replay.rounds_done + 1) {
		m->merged = m->replay.merged;
		return;
	}
	m->replay.ndone = 0;
	m->replay.merged = 0;
}
