/*
 * grt-master-relay.c — rank 0 on a node that does not share the job directory
 * (grt-relay.h; doc/runtime.md, "The relay"): the rank map and the committed journal come
 * from the supervisor before the master reads them, the events go to it, and so do the
 * journal's records once the journal is replayed.
 */
#include "runtime/master/grt-master.h"

/* grt-master.h: before the rank map is read. */
int
master_relay_open(struct master *m)
{
	if (m->cfg->relay == NULL)
		return GRT_OK;
	return grt_relay_open(&m->relay, m->cfg->relay, m->cfg->rankmap_path,
	    m->cfg->journal_path, m->rep->why, sizeof m->rep->why);
}

/* grt-master.h: the events' sink, the relay or cfg->events_path. */
int
master_relay_events(struct master *m)
{
	struct grt_sink sink;
	double origin = grt_events_origin(m->t0, m->cfg->t_origin);

	if (m->relay.fd < 0)
		return grt_events_open(&m->ev, m->cfg->events_path, origin);
	grt_relay_sink(&m->relay, GRT_RELAY_EVENTS, &sink);
	return grt_events_open_sink(&m->ev, &sink, origin);
}

/* grt-master.h: once the journal is replayed. */
int
master_relay_journal(struct master *m)
{
	if (m->relay.fd < 0)
		return GRT_OK;
	return grt_journal_relay(&m->jn, &m->relay, m->rep->why, sizeof m->rep->why);
}

/* grt-master.h: after the last event. */
void
master_relay_close(struct master *m)
{
	if (m->relay.fd >= 0)
		grt_relay_close(&m->relay);
}
