/*
 * exp-metrics-rounds.c — the metrics of seed 000's figs. 5 and 7, read from a run's
 * events with the one events reader: how the spread of the workers' t_exe changes over
 * the rounds (the `round` records' sd_exe, the master's own measure of seed 000, 3.1)
 * and the round from which the scheme gave a node no more work (the first `drop`
 * record: seed 000, 5.2, "usually removed P200 MMX processor is in the fourth or fifth
 * iteration"). Only the last launch counts, as for the other metrics.
 */
#include <math.h>
#include <string.h>

#include "common/events-read.h"
#include "experiment/exp-metrics.h"

struct er_rounds {
	int nrounds;		/* round records of the last launch */
	double sd_first, sd_last;
	int drop_round;		/* 0: no drop yet */
};

static void
er_event(struct er_rounds *r, const struct event *ev)
{
	switch (ev->kind) {
	case EV_START:
	case EV_RESTART:
		memset(r, 0, sizeof *r);
		break;
	case EV_ROUND:
		if (r->nrounds == 0)
			r->sd_first = ev->sd_exe;
		r->sd_last = ev->sd_exe;
		r->nrounds++;
		break;
	case EV_DROP:
		/* the master decides a drop as it sizes the next round: the first without it */
		if (r->drop_round == 0)
			r->drop_round = r->nrounds + 1;
		break;
	default:
		break;
	}
}

void
exp_metrics_rounds(const char *events, double *values)
{
	struct er_rounds r;
	struct evreader *rd;
	struct event ev;

	values[EXP_M_SD_EXE_FIRST] = values[EXP_M_SD_EXE_LAST] = NAN;
	values[EXP_M_SD_EXE_FALL] = values[EXP_M_DROP_ROUND] = NAN;
	if ((rd = evreader_open(events)) == NULL)
		return;
	memset(&r, 0, sizeof r);
	memset(&ev, 0, sizeof ev);
	while (evreader_next(rd, &ev) == 1) {
		er_event(&r, &ev);
		event_clear(&ev);
	}
	evreader_free(rd);
	if (r.nrounds > 0) {
		values[EXP_M_SD_EXE_FIRST] = r.sd_first;
		values[EXP_M_SD_EXE_LAST] = r.sd_last;
	}
	/* a fall needs two rounds and a spread to fall from */
	if (r.nrounds > 1 && r.sd_first > 0 && isfinite(r.sd_first) && isfinite(r.sd_last))
		values[EXP_M_SD_EXE_FALL] = r.sd_last / r.sd_first;
	if (r.drop_round > 0)
		values[EXP_M_DROP_ROUND] = r.drop_round;
}
