/*
 * grt-group-events.c — the records of a run under a hierarchy (doc/runtime.md, "The
 * hierarchy"): every rank in the start record with its group (the rank of its sub-master),
 * and the round and end records by real rank, so that the console, status and the
 * experiments read them as they read a flat run's.
 */
#include <stdio.h>
#include <stdlib.h>

#include "runtime/master/grt-master.h"

/* The group's leader of rank r (its sub-master, or r itself), -1 for the master. */
static int
group_leader(const struct master *m, int r)
{
	int w = m->grp.group_of[r];

	return w >= 0 ? m->grp.wrank[w] : -1;
}

/* Rank r's totals: its own slot when the master deals to it, else its parts. */
static void
group_totals(const struct master *m, int r, int64_t *units, double *t_calc, double *t_exe,
    int64_t *r_units, double *r_exe)
{
	int w = m->grp.rankw[r];

	if (w >= 0 && m->w[w].group == 0) {
		*units = m->w[w].units;
		*t_calc = m->w[w].t_calc;
		*t_exe = m->w[w].t_exe;
		*r_units = m->w[w].r_units;
		*r_exe = m->w[w].r_exe;
	} else if (w >= 0) {
		*units = *r_units = 0;
		*t_calc = *t_exe = *r_exe = 0;
	} else {
		*units = m->grp.rs[r].units;
		*t_calc = m->grp.rs[r].t_calc;
		*t_exe = m->grp.rs[r].t_exe;
		*r_units = m->grp.rs[r].r_units;
		*r_exe = m->grp.rs[r].r_exe;
	}
}

void
master_group_ranks(struct master *m)
{
	int i;

	for (i = 0; i < m->size; i++) {
		const struct grt_rankinfo *ri = i < m->nri ? &m->ri[i] : NULL;
		char name[32];

		snprintf(name, sizeof name, "rank%d", i);
		grt_events_rank(&m->ev, i == 0, i, ri != NULL ? ri->node : name,
		    ri != NULL ? ri->site : "", ri != NULL ? ri->pf : 0,
		    ri != NULL ? ri->pr : 0, master_role(m, i), group_leader(m, i));
	}
}

void
master_group_round_event(struct master *m, double now)
{
	double t_calc, t_exe, *exe = calloc((size_t)m->size, sizeof *exe);
	int64_t units, *r_units = calloc((size_t)m->size, sizeof *r_units);
	int i;

	if (exe != NULL && r_units != NULL) {
		for (i = 0; i < m->size; i++) {
			group_totals(m, i, &units, &t_calc, &t_exe, &r_units[i], &exe[i]);
			m->grp.rs[i].r_units = 0;
			m->grp.rs[i].r_exe = 0;
		}
		master_round_write(m, now, r_units, exe);
	}
	free(exe);
	free(r_units);
}

/* done, failed (by the master or its sub-master; or its sub-master failed) or dropped */
static const char *
group_state(const struct master *m, int r)
{
	int w = m->grp.rankw[r], lead = m->grp.group_of[r];

	if (w >= 0 && m->w[w].state == W_FAILED)
		return "failed";
	if (w >= 0 && m->w[w].state == W_DROPPED)
		return "dropped";
	if (w < 0 && (m->grp.rs[r].failed || m->w[lead].state == W_FAILED))
		return "failed";
	if (w < 0 && m->w[lead].state == W_DROPPED)
		return "dropped";
	return "done";
}

/* The end record's ranks: every rank but a master that only deals, with its group. */
void
master_group_end_event(struct master *m, double now)
{
	double t_calc, t_exe, r_exe, idle;
	int64_t units, r_units;
	int i;

	grt_events_raw(&m->ev, ",\"ranks\":[");
	for (i = m->off; i < m->size; i++) {
		group_totals(m, i, &units, &t_calc, &t_exe, &r_units, &r_exe);
		idle = (now - m->t0) - t_exe;
		grt_events_raw(&m->ev, i > m->off ? ",{\"rank\":" : "{\"rank\":");
		grt_events_rawint(&m->ev, i);
		grt_events_raw(&m->ev, ",\"units\":");
		grt_events_rawint(&m->ev, units);
		grt_events_raw(&m->ev, ",\"t_calc\":");
		grt_events_rawdbl(&m->ev, t_calc);
		grt_events_raw(&m->ev, ",\"t_comm\":");
		grt_events_rawdbl(&m->ev, t_exe - t_calc);
		grt_events_raw(&m->ev, ",\"t_idle\":");
		grt_events_rawdbl(&m->ev, idle > 0 ? idle : 0);
		grt_events_raw(&m->ev, ",\"state\":");
		grt_events_rawstr(&m->ev, group_state(m, i));
		if (i > 0) {
			grt_events_raw(&m->ev, ",\"group\":");
			grt_events_rawint(&m->ev, group_leader(m, i));
		}
		grt_events_raw(&m->ev, "}");
	}
	grt_events_raw(&m->ev, "]");
	grt_events_end(&m->ev, now);
}
