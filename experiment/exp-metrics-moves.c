/*
 * exp-metrics-moves.c — the metrics of seed 001's fig. 4, read from a run's events with
 * the one events reader: what a move of a migratable task cost (the `migrate` records'
 * seconds: the state's pack, transfer and unpack, doc/tasks.md) and the throughput of
 * the moves (their bytes over their seconds), to set against the link's. Only the last
 * launch counts, as for the other metrics.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/events-read.h"
#include "common/xmalloc.h"
#include "experiment/exp-metrics.h"
#include "experiment/stats.h"

struct em_moves {
	double *s;		/* every timed move's seconds */
	size_t n;
	double bytes, seconds;	/* over the moves with both */
};

static void
em_move(struct em_moves *m, const struct event *ev)
{
	switch (ev->kind) {
	case EV_START:
	case EV_RESTART:
		free(m->s);
		memset(m, 0, sizeof *m);
		break;
	case EV_MIGRATE:
		if (!(ev->seconds > 0))
			break;
		m->s = xreallocarray(m->s, m->n + 1, sizeof *m->s);
		m->s[m->n++] = ev->seconds;
		if (ev->bytes > 0) {
			m->bytes += (double)ev->bytes;
			m->seconds += ev->seconds;
		}
		break;
	default:
		break;
	}
}

void
exp_metrics_moves(const char *events, double *values)
{
	struct em_moves m;
	struct stats_summary s;
	struct evreader *rd;
	struct event ev;

	values[EXP_M_MOVE_S] = values[EXP_M_MOVE_MBPS] = NAN;
	if ((rd = evreader_open(events)) == NULL)
		return;
	memset(&m, 0, sizeof m);
	memset(&ev, 0, sizeof ev);
	while (evreader_next(rd, &ev) == 1) {
		em_move(&m, &ev);
		event_clear(&ev);
	}
	evreader_free(rd);
	if (m.n > 0) {
		stats_summarize(m.s, m.n, &s);
		values[EXP_M_MOVE_S] = s.median;
	}
	if (m.seconds > 0)
		values[EXP_M_MOVE_MBPS] = m.bytes / m.seconds / 1e6;
	free(m.s);
}
