/*
 * grt-task-events.c — the events of a task run (doc/runtime.md, "Events"; doc/tasks.md):
 * start (scheme "tasks"; a unit is one step of one task), tasks (where every task is),
 * chunk (one per step, with its task), migrate, fail and end.
 */
#include <stdio.h>

#include "runtime/task/grt-task-master.h"

void
tm_start_event(struct tk_master *m)
{
	int r;

	grt_events_begin(&m->ev, m->t0, "start");
	grt_events_str(&m->ev, "job", m->cfg->job_id != NULL ? m->cfg->job_id : "");
	grt_events_str(&m->ev, "scheme", "tasks");
	grt_events_int(&m->ev, "N", (int64_t)m->ntasks * m->app->steps);
	grt_events_int(&m->ev, "rounds", 1);
	grt_events_int(&m->ev, "tasks", m->ntasks);
	grt_events_int(&m->ev, "steps", m->app->steps);
	grt_events_str(&m->ev, "migration", grt_migration_name(m->cfg->migration));
	grt_events_raw(&m->ev, ",\"ranks\":[");
	for (r = 0; r < m->size; r++) {
		const struct grt_rankinfo *ri = r < m->nri ? &m->ri[r] : NULL;
		char name[32];

		snprintf(name, sizeof name, "rank%d", r);
		grt_events_rank(&m->ev, r == 0, r, ri != NULL ? ri->node : name,
		    ri != NULL ? ri->site : "", ri != NULL ? ri->pf : 0,
		    ri != NULL ? ri->pr : 0, r == 0 ? "master" : "worker", -1);
	}
	grt_events_raw(&m->ev, "]");
	grt_events_end(&m->ev, m->t0);
}

void
tm_tasks_event(struct tk_master *m, const char *reason)
{
	int i, r, first = 1;

	grt_events_begin(&m->ev, m->now, "tasks");
	grt_events_raw(&m->ev, ",\"at\":[");
	for (i = 0; i < m->ntasks; i++) {
		if (i > 0)
			grt_events_raw(&m->ev, ",");
		grt_events_rawint(&m->ev, m->t[i].at);
	}
	grt_events_raw(&m->ev, "],\"spare\":[");
	for (r = 1; r < m->size; r++) {
		if (!m->w[r].alive || m->w[r].tasks > 0)
			continue;
		grt_events_raw(&m->ev, first ? "" : ",");
		grt_events_rawint(&m->ev, r);
		first = 0;
	}
	grt_events_raw(&m->ev, "]");
	grt_events_str(&m->ev, "reason", reason);
	grt_events_end(&m->ev, m->now);
}

void
tm_step_event(struct tk_master *m, int rank, const struct tk_hdr *h)
{
	if (!m->cfg->events_chunks)
		return;
	grt_events_begin(&m->ev, m->now, "chunk");
	grt_events_int(&m->ev, "rank", rank);
	grt_events_int(&m->ev, "round", 1);
	grt_events_int(&m->ev, "start", (int64_t)h->task * m->app->steps + h->step);
	grt_events_int(&m->ev, "count", 1);
	grt_events_dbl(&m->ev, "t_calc", h->a - h->b);
	grt_events_dbl(&m->ev, "t_comm", h->b);
	grt_events_int(&m->ev, "task", h->task);
	grt_events_int(&m->ev, "step", h->step);
	grt_events_dbl(&m->ev, "cpu", h->c);
	grt_events_end(&m->ev, m->now);
}

void
tm_migrate_event(struct tk_master *m, int task, int from, int to, double bytes,
    double seconds)
{
	grt_events_begin(&m->ev, m->now, "migrate");
	grt_events_int(&m->ev, "task", task);
	grt_events_int(&m->ev, "from", from);
	grt_events_int(&m->ev, "to", to);
	grt_events_int(&m->ev, "bytes", (int64_t)bytes);
	grt_events_dbl(&m->ev, "seconds", seconds);
	grt_events_str(&m->ev, "reason", m->t[task].reason);
	grt_events_end(&m->ev, m->now);
}

void
tm_fail_event(struct tk_master *m, int rank, const int *tasks, int n, int64_t redo,
    const char *reason)
{
	int i;

	grt_events_begin(&m->ev, m->now, "fail");
	grt_events_int(&m->ev, "rank", rank);
	grt_events_int(&m->ev, "requeued", redo);
	grt_events_str(&m->ev, "reason", reason);
	grt_events_raw(&m->ev, ",\"tasks\":[");
	for (i = 0; i < n; i++) {
		if (i > 0)
			grt_events_raw(&m->ev, ",");
		grt_events_rawint(&m->ev, tasks[i]);
	}
	grt_events_raw(&m->ev, "]");
	grt_events_end(&m->ev, m->now);
}

void
tm_end_event(struct tk_master *m)
{
	double span = m->now - m->t0;
	int r;

	grt_events_begin(&m->ev, m->now, "end");
	grt_events_str(&m->ev, "status", m->rc == GRT_OK ? "ok" : "failed");
	if (m->rc != GRT_OK)
		grt_events_str(&m->ev, "error", grt_report_error(m->rc, m->rep));
	grt_events_dbl(&m->ev, "makespan", span);
	grt_events_int(&m->ev, "failed", m->rep->failed_ranks);
	grt_events_int(&m->ev, "dropped", 0);
	grt_events_int(&m->ev, "requeued", 0);
	grt_events_int(&m->ev, "migrations", m->rep->migrations);
	grt_events_int(&m->ev, "restarted", m->rep->restarted);
	grt_events_raw(&m->ev, ",\"ranks\":[");
	for (r = 1; r < m->size; r++) {
		const struct tm_worker *w = &m->w[r];
		double idle = span - w->t_calc - w->t_comm;

		grt_events_raw(&m->ev, r > 1 ? ",{\"rank\":" : "{\"rank\":");
		grt_events_rawint(&m->ev, r);
		grt_events_raw(&m->ev, ",\"units\":");
		grt_events_rawint(&m->ev, w->steps);
		grt_events_raw(&m->ev, ",\"t_calc\":");
		grt_events_rawdbl(&m->ev, w->t_calc);
		grt_events_raw(&m->ev, ",\"t_comm\":");
		grt_events_rawdbl(&m->ev, w->t_comm);
		grt_events_raw(&m->ev, ",\"t_idle\":");
		grt_events_rawdbl(&m->ev, idle > 0 ? idle : 0);
		grt_events_raw(&m->ev, ",\"state\":");
		grt_events_rawstr(&m->ev, w->alive ? "done" : "failed");
		grt_events_raw(&m->ev, "}");
	}
	grt_events_raw(&m->ev, "]");
	grt_events_end(&m->ev, m->now);
}
