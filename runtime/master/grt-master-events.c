/*
 * grt-master-events.c — the events the master writes to events.jsonl (doc/runtime.md):
 * start (every rank and its role), resume, chunk, fail, drop, round and end.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "runtime/master/grt-master.h"

static void
master_event_rankref(struct master *m, const char *kind, int rank, double now)
{
	grt_events_begin(&m->ev, now, kind);
	grt_events_int(&m->ev, "rank", rank);
}

void
master_chunk_event(struct master *m, int rank, const struct grt_chunk *c, double t_calc,
    double t_exe, double now)
{
	if (m->cfg->events_chunks)
		grt_events_chunk(&m->ev, now, rank, m->round, c->start, c->count, t_calc, t_exe);
}

void
master_fail_event(struct master *m, int rank, int64_t requeued, const char *reason,
    double now)
{
	master_event_rankref(m, "fail", rank, now);
	grt_events_int(&m->ev, "requeued", requeued);
	grt_events_str(&m->ev, "reason", reason);
	grt_events_end(&m->ev, now);
}

void
master_drop_event(struct master *m, int w, double share, double now)
{
	char why[96];

	snprintf(why, sizeof why, "cannot balance: %.2g units per round", share);
	master_event_rankref(m, "drop", w_rank(m, w), now);
	grt_events_str(&m->ev, "reason", why);
	grt_events_end(&m->ev, now);
}

void
master_round_write(struct master *m, double now, const int64_t *units, const double *exe)
{
	double mean = 0, sd = 0;
	int i, n = 0;

	for (i = 0; i < m->size; i++)
		if (units[i] > 0) {
			mean += exe[i];
			n++;
		}
	if (n > 0)
		mean /= n;
	for (i = 0; i < m->size; i++)
		if (units[i] > 0)
			sd += (exe[i] - mean) * (exe[i] - mean);
	if (n > 0)
		sd = sqrt(sd / n);
	grt_events_begin(&m->ev, now, "round");
	grt_events_int(&m->ev, "j", m->round);
	grt_events_raw(&m->ev, ",\"units\":[");
	for (i = 0; i < m->size; i++) {
		if (i > 0)
			grt_events_raw(&m->ev, ",");
		grt_events_rawint(&m->ev, units[i]);
	}
	grt_events_raw(&m->ev, "]");
	grt_events_dbl(&m->ev, "mean_exe", mean);
	grt_events_dbl(&m->ev, "sd_exe", sd);
	grt_events_end(&m->ev, now);
}

void
master_round_event(struct master *m, double now)
{
	int64_t *units;
	double *exe;
	int i;

	if (m->grp.on) {
		master_group_round_event(m, now);
		return;
	}
	units = calloc((size_t)m->size, sizeof *units);
	exe = calloc((size_t)m->size, sizeof *exe);
	if (units != NULL && exe != NULL) {
		for (i = m->off; i < m->size; i++) {
			units[i] = m->w[i - m->off].r_units;
			exe[i] = m->w[i - m->off].r_exe;
		}
		master_round_write(m, now, units, exe);
	}
	free(units);
	free(exe);
}

const char *
master_role(const struct master *m, int rank)
{
	if (rank == 0)
		return m->off == 0 ? "master+worker" : "master";
	if (m->grp.on && m->grp.rankw[rank] >= 0 && m->w[m->grp.rankw[rank]].group > 0)
		return "sub-master";
	return "worker";
}

void
master_start_event(struct master *m, double now)
{
	int i;

	grt_events_begin(&m->ev, now, "start");
	grt_events_str(&m->ev, "job", m->cfg->job_id != NULL ? m->cfg->job_id : "");
	/* the job's, whatever the master deals its groups with (grt-group.c) */
	grt_events_str(&m->ev, "scheme", grt_scheme_name(m->cfg->sched.scheme));
	grt_events_int(&m->ev, "N", m->app->units);
	grt_events_int(&m->ev, "rounds", m->app->rounds);
	i = 0;
	grt_events_raw(&m->ev, ",\"ranks\":[");
	if (m->grp.on) {
		master_group_ranks(m);
		i = m->size;
	}
	for (; i < m->size; i++) {
		const struct grt_rankinfo *ri = i < m->nri ? &m->ri[i] : NULL;
		int w = i - m->off;
		char name[32];

		snprintf(name, sizeof name, "rank%d", i);
		grt_events_rank(&m->ev, i == 0, i, ri != NULL ? ri->node : name,
		    ri != NULL ? ri->site : "", ri != NULL ? ri->pf : 0,
		    w >= 0 && m->pr != NULL ? m->pr[w] : w >= 0 ? 1.0 / m->nw : 0,
		    master_role(m, i), -1);
	}
	grt_events_raw(&m->ev, "]");
	grt_events_end(&m->ev, now);
}

/* The journal was replayed: what it held, and the torn record cut off. */
void
master_resume_event(struct master *m, double now)
{
	grt_events_begin(&m->ev, now, "resume");
	grt_events_int(&m->ev, "units", m->replay.total);
	grt_events_int(&m->ev, "rounds_done", m->replay.rounds_done);
	grt_events_int(&m->ev, "records", m->replay.records);
	grt_events_int(&m->ev, "cut", m->replay.cut);
	grt_events_end(&m->ev, now);
}

void
master_end_event(struct master *m, double now)
{
	int i;

	grt_events_begin(&m->ev, now, "end");
	grt_events_str(&m->ev, "status", m->rc == GRT_OK ? "ok" : m->rc == GRT_ETIMEOUT ?
	    "timeout" : "failed");
	if (m->rc != GRT_OK)
		grt_events_str(&m->ev, "error", grt_report_error(m->rc, m->rep));
	if (m->rep->resumed > 0)
		grt_events_int(&m->ev, "resumed", m->rep->resumed);
	if (m->rep->journal_lost)
		grt_events_str(&m->ev, "journal", "lost");
	grt_events_dbl(&m->ev, "makespan", now - m->t0);
	grt_events_int(&m->ev, "failed", m->rep->failed_ranks);
	grt_events_int(&m->ev, "dropped", m->rep->dropped_ranks);
	grt_events_int(&m->ev, "requeued", m->rep->requeued);
	if (grt_scheme_uses_swr(m->conf.scheme))
		grt_events_dbl(&m->ev, "swr", m->conf.swr);
	if (m->grp.on) {
		master_group_end_event(m, now);
		return;
	}
	grt_events_raw(&m->ev, ",\"ranks\":[");
	for (i = 0; i < m->nw; i++) {
		struct worker *wk = &m->w[i];
		double idle = (now - m->t0) - wk->t_exe;
		static const char *const states[] = {
			[W_IDLE] = "done", [W_BUSY] = "done", [W_FAILED] = "failed",
			[W_DROPPED] = "dropped", [W_SELF] = "done",
		};

		grt_events_raw(&m->ev, i > 0 ? ",{\"rank\":" : "{\"rank\":");
		grt_events_rawint(&m->ev, w_rank(m, i));
		grt_events_raw(&m->ev, ",\"units\":");
		grt_events_rawint(&m->ev, wk->units);
		grt_events_raw(&m->ev, ",\"t_calc\":");
		grt_events_rawdbl(&m->ev, wk->t_calc);
		grt_events_raw(&m->ev, ",\"t_comm\":");
		grt_events_rawdbl(&m->ev, wk->t_exe - wk->t_calc);
		grt_events_raw(&m->ev, ",\"t_idle\":");
		grt_events_rawdbl(&m->ev, idle > 0 ? idle : 0);
		grt_events_raw(&m->ev, ",\"state\":");
		grt_events_rawstr(&m->ev, states[wk->state]);
		grt_events_raw(&m->ev, "}");
	}
	grt_events_raw(&m->ev, "]");
	grt_events_end(&m->ev, now);
}
