/*
 * model-track.c — the ranks' tracks (track.h) as events come: one bucket width for every
 * rank, doubled (each track's buckets merged in pairs) when the job outgrows it.
 */
#include <math.h>
#include <stdlib.h>

#include "tui/model.h"

/* Widen the buckets until t falls in one; a time beyond 1e9 s is taken as garbage. */
static int
model_track_fit(struct model *m, double t)
{
	int i;

	if (!(t < 1e9))
		return -1;
	while (t >= TRACK_BUCKETS * m->track_w) {
		for (i = 0; i < m->nranks; i++)
			if (m->ranks[i].track != NULL)
				track_halve(m->ranks[i].track);
		m->track_w *= 2;
	}
	return 0;
}

void
model_track_add(struct model *m, struct mrank *r, const struct event *ev)
{
	if (model_track_fit(m, ev->t) == -1)
		return;
	if (r->track == NULL)
		r->track = track_new();
	if (ev->kind == EV_CHUNK)
		track_chunk(r->track, m->track_w, ev);
	else
		track_event(r->track, m->track_w, ev, r->rank);
}

void
model_track_free(struct model *m)
{
	int i;

	for (i = 0; i < m->nranks; i++) {
		track_free(m->ranks[i].track);
		m->ranks[i].track = NULL;
	}
}

void
model_track_row(const struct model *m, const struct mrank *r, double span, int cols,
    char *dst)
{
	enum rank_state s = model_rank_state(m, r);

	track_row(dst, r->track, m->track_w, span, cols,
	    s == RS_DROPPED || s == RS_FAILED ? r->t_stop : INFINITY,
	    s == RS_WORKING ? r->last_t : INFINITY);
}
