/* model.c — per-rank state and job meters folded from the event stream. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "common/xmalloc.h"
#include "tui/model.h"

static const char *const state_names[] = {
	"waiting", "working", "dropped", "failed", "done", "master", "sub-master"
};

const char *
model_state_name(enum rank_state s)
{
	if ((unsigned)s >= sizeof state_names / sizeof state_names[0])
		return "?";
	return state_names[s];
}

void
model_init(struct model *m)
{
	memset(m, 0, sizeof *m);
	m->rounds = 1;
	m->makespan = NAN;
	m->round_mean = m->round_sd = NAN;
	m->hist_w = 1.0;
	m->track_w = 1.0 / 32;
	m->restarted = -1;
}

void
model_free(struct model *m)
{
	model_track_free(m);
	model_tasks_free(m);
	free(m->ranks);
	free(m->sites);
	free(m->nodes);
	model_init(m);
}

int
model_site_index(struct model *m, const char *name)
{
	int i;

	if (*name == '\0')
		name = "-";
	for (i = 0; i < m->nsites; i++)
		if (strcmp(m->sites[i].name, name) == 0)
			return i;
	m->sites = xreallocarray(m->sites, m->nsites + 1, sizeof *m->sites);
	memset(&m->sites[i], 0, sizeof m->sites[i]);
	snprintf(m->sites[i].name, sizeof m->sites[i].name, "%s", name);
	m->nsites++;
	return i;
}

struct mrank *
model_rank(struct model *m, int id)
{
	struct mrank *r;
	int i, n;

	if (id >= m->nranks) {
		n = id + 1;
		m->ranks = xreallocarray(m->ranks, n, sizeof *m->ranks);
		memset(m->ranks + m->nranks, 0, (n - m->nranks) * sizeof *m->ranks);
		for (i = m->nranks; i < n; i++) {
			m->ranks[i].rank = i;
			m->ranks[i].t_idle = -1;
			m->ranks[i].site_idx = -1;
			m->ranks[i].perf_f = NAN;
			m->ranks[i].group = -1;
			m->ranks[i].gnext = -1;
		}
		m->nranks = n;
	}
	r = &m->ranks[id];
	if (!r->known) {
		r->known = 1;
		snprintf(r->node, sizeof r->node, "?");
		m->placed++;
		snprintf(r->site, sizeof r->site, "-");
		r->site_idx = model_site_index(m, r->site);
		m->sites[r->site_idx].nranks++;
	}
	return r;
}

void
model_log(struct model *m, const struct event *ev, int rank, int other, const char *fmt, ...)
{
	struct mlog *l = &m->log[m->nlog % MODEL_LOG];
	char buf[sizeof l->text];
	va_list ap;

	l->t = ev->t;
	l->kind = ev->kind;
	l->rank = rank;
	l->other = other;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	/* Cleaned again: the cut may have fallen inside a UTF-8 character. */
	text_clean(l->text, sizeof l->text, buf, strlen(buf));
	m->nlog++;
}

const struct mlog *
model_log_get(const struct model *m, long long i)
{
	if (i < 0 || i >= m->nlog || i >= MODEL_LOG)
		return NULL;
	return &m->log[(m->nlog - 1 - i) % MODEL_LOG];
}

int
model_hist_len(const struct model *m)
{
	int n = (int)(m->now / m->hist_w) + 1;

	return n > MODEL_HIST ? MODEL_HIST : n < 1 ? 1 : n;
}

/*
 * Units finished at time t go to bucket t / hist_w. When the job outgrows the buckets,
 * their width doubles and neighbours merge, so the sparkline always spans the whole job.
 */
static void
model_hist_add(struct model *m, struct mrank *r, double t, long long units)
{
	int i, k, idx;

	if (t > 1e9)
		return;
	while ((idx = (int)(t / m->hist_w)) >= MODEL_HIST) {
		m->hist_peak = 0;
		for (k = 0; k < m->nranks; k++) {
			float *h = m->ranks[k].hist;

			for (i = 0; i < MODEL_HIST / 2; i++) {
				h[i] = h[2 * i] + h[2 * i + 1];
				if (h[i] > m->hist_peak)
					m->hist_peak = h[i];
			}
			memset(h + MODEL_HIST / 2, 0, MODEL_HIST / 2 * sizeof *h);
		}
		m->hist_w *= 2;
	}
	r->hist[idx] += (float)units;
	/* kept here, as the buckets fill, rather than searched at every draw */
	if (r->hist[idx] > m->hist_peak)
		m->hist_peak = r->hist[idx];
}

double
model_rate_peak(const struct model *m)
{
	return m->hist_peak / m->hist_w;
}

/*
 * A second start is a relaunch (doc/restarts.md): its ranks replace the table, and the
 * counts start again (a resume event then says what the journal held). The job's own
 * counters (events, restarts, migrations) and the log stay.
 */
static void
model_relaunched(struct model *m)
{
	model_track_free(m);
	model_tasks_free(m);
	free(m->ranks);
	free(m->sites);
	m->ranks = NULL;
	m->sites = NULL;
	m->nranks = m->nsites = 0;
	m->hist_peak = 0;
	m->done = m->chunks = 0;
	m->resumed = 0;
	m->exe_sum = 0;
	m->nfailed = m->ndropped = 0;
	m->round_cur = m->round_done = m->cr_round = 0;
	m->cr_n = 0;
	m->cr_mean = m->cr_m2 = 0;
	m->round_mean = m->round_sd = NAN;
	m->ended = 0;
	m->status[0] = '\0';
	m->makespan = NAN;
}

static void
model_start(struct model *m, const struct event *ev)
{
	const struct ev_rank *er;
	struct mrank *r;
	int i, idx;

	if (m->started)
		model_relaunched(m);
	m->started = 1;
	snprintf(m->job, sizeof m->job, "%s", ev->job);
	snprintf(m->scheme, sizeof m->scheme, "%s", ev->scheme);
	m->n = ev->n;
	m->rounds = ev->rounds > 0 ? ev->rounds : 1;
	m->total = m->n * m->rounds;
	if (strcmp(ev->scheme, "tasks") == 0)
		m->task_run = 1;
	m->ntasks = ev->ntasks;
	m->steps = ev->steps;
	snprintf(m->migration, sizeof m->migration, "%s", ev->migration);
	for (i = 0; i < ev->nranks; i++) {
		er = &ev->ranks[i];
		r = model_rank(m, er->rank);
		/* A rank named twice in one start: the later place wins. */
		m->sites[r->site_idx].nranks--;
		snprintf(r->node, sizeof r->node, "%s", *er->node ? er->node : "?");
		snprintf(r->site, sizeof r->site, "%s", *er->site ? er->site : "-");
		idx = model_site_index(m, r->site);
		r->site_idx = idx;
		m->placed++;
		m->sites[idx].nranks++;
		r->pf = er->pf;
		r->pr = er->pr;
		r->master = er->master;
		r->submaster = er->submaster;
		r->group = er->group;
		r->last_t = ev->t;
	}
	model_groups_start(m);
	if (m->ntasks > 0)
		model_log(m, ev, -1, -1, "start: job %s, scheme %s, %d tasks x %lld steps, "
		    "migration %s, %d ranks", *m->job ? m->job : "?", *m->scheme ? m->scheme : "?",
		    m->ntasks, m->steps, *m->migration ? m->migration : "?", ev->nranks);
	else
		model_log(m, ev, -1, -1, "start: job %s, scheme %s, N %lld x %d rounds, %d ranks",
		    *m->job ? m->job : "?", *m->scheme ? m->scheme : "?", m->n, m->rounds,
		    ev->nranks);
}

/* Where every task is: the table is replaced (at the start, a restart, a rollback). */
static void
model_tasks(struct model *m, const struct event *ev)
{
	char spare[96] = "";
	size_t o = 0;
	int i, held = 0;

	m->task_run = 1;
	model_tasks_reset(m);
	/* every rank named first: naming one may move the table */
	for (i = 0; i < ev->nat; i++)
		model_rank(m, ev->at[i]);
	for (i = 0; i < ev->nspare; i++)
		model_rank(m, ev->spare[i]);
	for (i = 0; i < ev->nat; i++)
		model_task_put(m, i, &m->ranks[ev->at[i]]);
	for (i = 0; i < m->nranks; i++)
		held += m->ranks[i].ntasks > 0;
	for (i = 0; i < ev->nspare && o < sizeof spare; i++)
		o += (size_t)snprintf(spare + o, sizeof spare - o, "%s%d", i ? "," : ", spare ",
		    ev->spare[i]);
	model_log(m, ev, -1, -1, "%d task%s on %d rank%s%s (%s)", ev->nat, ev->nat == 1 ? "" :
	    "s", held, held == 1 ? "" : "s", spare, *ev->text ? ev->text : "no reason given");
}

/* A task moved: the ranks' sets and counts, both time lines, the log with its reason. */
static void
model_migrate(struct model *m, const struct event *ev)
{
	struct mrank *from, *to;

	m->mig_t[m->migrations % MODEL_MIG] = ev->t;
	m->migrations++;
	m->mig_bytes += ev->bytes;
	/* both named before either is used: naming a new rank may move the table */
	model_rank(m, ev->from);
	model_rank(m, ev->to);
	from = &m->ranks[ev->from];
	to = &m->ranks[ev->to];
	model_track_add(m, from, ev);
	if (to != from) {
		model_track_add(m, to, ev);
		from->mig_out++;
		to->mig_in++;
	}
	model_task_put(m, (int)ev->task, to);
	if (*ev->text != '\0')
		model_log(m, ev, ev->from, ev->to, "migrate task %lld: rank %d -> %d, %.1f KiB in "
		    "%.3f s (%s)", ev->task, ev->from, ev->to, ev->bytes / 1024.0, ev->seconds,
		    ev->text);
	else
		model_log(m, ev, ev->from, ev->to, "migrate task %lld: rank %d -> %d, %.1f KiB in "
		    "%.3f s", ev->task, ev->from, ev->to, ev->bytes / 1024.0, ev->seconds);
}

static void
model_chunk(struct model *m, const struct event *ev)
{
	struct mrank *r = model_rank(m, ev->rank);
	double d;

	r->units += ev->count;
	r->last_units = ev->count;
	r->chunks++;
	r->t_calc += ev->t_calc;
	r->t_comm += ev->t_comm;
	r->last_t = ev->t;
	r->last_exe = ev->t_exe;
	if (ev->t_exe > 0)
		r->perf_f = ev->count / ev->t_exe;
	if (ev->round != r->round) {
		r->round = ev->round;
		r->round_units = 0;
		r->round_exe = 0;
	}
	r->round_units += ev->count;
	r->round_exe += ev->t_exe;
	m->done += ev->count;
	m->chunks++;
	m->exe_sum += ev->t_exe;
	if (ev->round > m->round_cur)
		m->round_cur = ev->round;
	/* Running spread of t_exe in the newest round (Welford). */
	if (ev->round > m->cr_round) {
		m->cr_round = ev->round;
		m->cr_n = 0;
		m->cr_mean = m->cr_m2 = 0;
	}
	if (ev->round == m->cr_round) {
		m->cr_n++;
		d = ev->t_exe - m->cr_mean;
		m->cr_mean += d / m->cr_n;
		m->cr_m2 += d * (ev->t_exe - m->cr_mean);
	}
	model_hist_add(m, r, ev->t, ev->count);
	model_track_add(m, r, ev);
	/* a step of a task: its rank holds it (one compare when nothing moved) */
	if (ev->task >= 0 && (ev->task >= m->nat || m->task_at[ev->task] != ev->rank))
		model_task_put(m, (int)ev->task, r);
}

static void
model_round(struct model *m, const struct event *ev)
{
	struct mrank *r;
	int i;

	m->round_done = ev->round;
	m->round_mean = ev->mean_exe;
	m->round_sd = ev->sd_exe;
	if (ev->round + 1 <= m->rounds && ev->round + 1 > m->round_cur)
		m->round_cur = ev->round + 1;
	for (i = 0; i < ev->nunits; i++) {
		if (ev->units[i] == 0 && (i >= m->nranks || !m->ranks[i].known))
			continue;
		r = model_rank(m, i);
		if (r->master)
			continue;
		r->last_units = ev->units[i];
		if (r->round == ev->round && r->round_exe > 0)
			r->perf_f = ev->units[i] / r->round_exe;
	}
	if (isfinite(ev->mean_exe) && isfinite(ev->sd_exe))
		model_log(m, ev, -1, -1, "round %d done: mean t_exe %.2f s, sd %.2f s", ev->round,
		    ev->mean_exe, ev->sd_exe);
	else
		model_log(m, ev, -1, -1, "round %d done", ev->round);
}

static void
model_end(struct model *m, const struct event *ev)
{
	const struct ev_rank *er;
	struct mrank *r;
	char tasks[96] = "";
	int i;

	m->ended = 1;
	snprintf(m->status, sizeof m->status, "%s", *ev->text ? ev->text : "?");
	m->makespan = isfinite(ev->makespan) ? ev->makespan : ev->t;
	/* The master's totals are authoritative: they include what no chunk event showed. */
	for (i = 0; i < ev->nranks; i++) {
		er = &ev->ranks[i];
		r = model_rank(m, er->rank);
		m->done += er->units - r->units;
		r->units = er->units;
		r->t_calc = er->t_calc;
		r->t_comm = er->t_comm;
		r->t_idle = er->t_idle;
	}
	if (m->makespan > m->now)
		m->now = m->makespan;
	if (ev->restarted >= 0)
		m->restarted = ev->restarted;
	if (ev->migrations >= 0)
		snprintf(tasks, sizeof tasks, ", %lld migration%s, %lld task%s restarted",
		    ev->migrations, ev->migrations == 1 ? "" : "s",
		    ev->restarted > 0 ? ev->restarted : 0, ev->restarted == 1 ? "" : "s");
	if (isfinite(ev->makespan))
		model_log(m, ev, -1, -1, "end: status %s, makespan %.2f s%s", m->status,
		    ev->makespan, tasks);
	else
		model_log(m, ev, -1, -1, "end: status %s%s", m->status, tasks);
}

/* The supervisor relaunched the job; the next start brings the new ranks. */
static void
model_restart(struct model *m, const struct event *ev)
{
	char hosts[128] = "";
	size_t o = 0;
	int i;

	m->restarts++;
	m->ended = 0;
	m->status[0] = '\0';
	m->makespan = NAN;
	for (i = 0; i < ev->nexcluded && o < sizeof hosts; i++)
		o += (size_t)snprintf(hosts + o, sizeof hosts - o, "%s%s", i ? ", " : " without ",
		    ev->excluded[i]);
	model_log(m, ev, -1, -1, "restart %d%s: %s", ev->restart, hosts,
	    *ev->text ? ev->text : "no reason given");
}

/* The relaunched master replayed its journal: that much is done already. */
static void
model_resume(struct model *m, const struct event *ev)
{
	m->resumed = ev->resumed_units;
	m->done += ev->resumed_units;
	if (ev->rounds_done > m->round_done)
		m->round_done = ev->rounds_done;
	if (ev->rounds_done < m->rounds && ev->rounds_done + 1 > m->round_cur)
		m->round_cur = ev->rounds_done + 1;
	model_log(m, ev, -1, -1, "resume: %lld units from the journal (%d rounds done, %lld "
	    "records)", ev->resumed_units, ev->rounds_done, ev->records);
}

void
model_apply(struct model *m, const struct event *ev)
{
	struct mrank *r;

	if (ev->t > m->t_last)
		m->t_last = ev->t;
	if (ev->t > m->now)
		m->now = ev->t;
	m->events++;
	m->gen++;
	switch (ev->kind) {
	case EV_START:
		model_start(m, ev);
		break;
	case EV_CHUNK:
		model_chunk(m, ev);
		break;
	case EV_ROUND:
		model_round(m, ev);
		break;
	case EV_DROP:
		r = model_rank(m, ev->rank);
		if (r->fixed != RS_DROPPED && r->fixed != RS_FAILED) {
			r->fixed = RS_DROPPED;
			r->t_stop = ev->t;
			m->ndropped++;
		}
		snprintf(r->reason, sizeof r->reason, "%s", ev->text);
		model_track_add(m, r, ev);
		model_log(m, ev, ev->rank, -1, "rank %d (%s) dropped: %s", ev->rank, r->node,
		    *ev->text ? ev->text : "no reason given");
		break;
	case EV_FAIL:
		r = model_rank(m, ev->rank);
		if (r->fixed == RS_DROPPED)
			m->ndropped--;
		if (r->fixed != RS_FAILED) {
			r->fixed = RS_FAILED;
			r->t_stop = ev->t;
			m->nfailed++;
		}
		snprintf(r->reason, sizeof r->reason, "%s", ev->text);
		model_track_add(m, r, ev);
		model_log(m, ev, ev->rank, -1, "rank %d (%s) failed, %lld units requeued: %s",
		    ev->rank, r->node, ev->requeued, *ev->text ? ev->text : "no reason given");
		break;
	case EV_MIGRATE:
		model_migrate(m, ev);
		break;
	case EV_TASKS:
		model_tasks(m, ev);
		break;
	case EV_END:
		model_end(m, ev);
		break;
	case EV_RESTART:
		model_restart(m, ev);
		break;
	case EV_RESUME:
		model_resume(m, ev);
		break;
	case EV_CANCEL:
		/* who stopped the job; its end is the job's record (model_over) */
		model_log(m, ev, -1, -1, "%s", ev->text);
		break;
	default:
		break;
	}
}

void
model_over(struct model *m, double t, const char *status)
{
	struct event ev;

	if (m->ended)
		return;
	if (!isfinite(t) || t < m->t_last)
		t = m->t_last;
	memset(&ev, 0, sizeof ev);
	ev.kind = EV_END;
	ev.t = t;
	m->ended = 1;
	m->gen++;
	snprintf(m->status, sizeof m->status, "%s", *status ? status : "?");
	m->makespan = t;
	m->now = t;
	model_log(m, &ev, -1, -1, "end: status %s (the job's record; no end event)", m->status);
}

void
model_set_clock(struct model *m, double t)
{
	if (m->ended && isfinite(m->makespan))
		return;
	if (isfinite(t) && t > m->now)
		m->now = t;
}

/*
 * working/waiting is inferred, since events only say when results arrive: a rank is
 * working while less than three of its chunk times (or of the job's mean chunk time; at
 * least 1 s) have passed since its last result. A rank with no result yet is busy with
 * its first chunk (every worker gets one at the start, often the largest: gss, pwd)
 * while units remain to be done.
 */
enum rank_state
model_rank_state(const struct model *m, const struct mrank *r)
{
	double mean = m->chunks > 0 ? m->exe_sum / m->chunks : 0;
	double window = 3 * (r->last_exe > mean ? r->last_exe : mean);

	/* RS_DONE: a rank without libgrt that exited 0 (model-plain.c) */
	if (r->fixed == RS_DROPPED || r->fixed == RS_FAILED || r->fixed == RS_DONE)
		return r->fixed;
	if (r->master)
		return RS_MASTER;
	if (r->submaster)
		return RS_SUBMASTER;
	if (m->ended)
		return RS_DONE;
	if (r->chunks == 0 && (m->total <= 0 || m->done < m->total))
		return RS_WORKING;
	if (window < 1.0)
		window = 1.0;
	return m->now - r->last_t <= window ? RS_WORKING : RS_WAITING;
}

/*
 * Idle time: the end event's t_idle when known; else the time up to the rank's last
 * result (working), its drop or failure, or now (waiting) less its t_calc + t_comm.
 */
double
model_rank_idle(const struct model *m, const struct mrank *r)
{
	enum rank_state s = model_rank_state(m, r);
	double until, idle;

	if (r->t_idle >= 0)
		return r->t_idle;
	if (r->master || r->submaster)
		return NAN;
	if (s == RS_DROPPED || s == RS_FAILED)
		until = r->t_stop;
	else if (s == RS_WORKING)
		until = r->last_t;
	else
		until = m->ended && isfinite(m->makespan) ? m->makespan : m->now;
	idle = until - r->t_calc - r->t_comm;
	return idle > 0 ? idle : 0;
}

void
model_stats(const struct model *m, struct model_stats *st)
{
	const struct mrank *r;
	double busy, bmax = 0, bsum = 0, window, idle;
	long long i, n, recent = 0;
	int nb = 0;
	enum rank_state s;

	memset(st, 0, sizeof *st);
	/* after a relaunch the makespan is the last launch's: the job's clock goes on */
	st->elapsed = m->ended && isfinite(m->makespan) && m->restarts == 0 ? m->makespan :
	    m->now;
	st->done = m->done;
	st->total = m->total;
	st->pct = m->total > 0 ? 100.0 * m->done / m->total : NAN;
	if (st->pct > 100)
		st->pct = 100;
	st->rate = st->elapsed > 0 ? m->done / st->elapsed : 0;
	if (m->ended)
		st->eta = 0;
	else if (m->total > 0 && st->rate > 0)
		st->eta = m->total > m->done ? (m->total - m->done) / st->rate : 0;
	else
		st->eta = NAN;
	st->round = m->round_cur > 0 ? m->round_cur : m->started ? 1 : 0;
	st->rounds = m->rounds;
	if (m->cr_n >= 2 && m->cr_round > m->round_done)
		st->sd_exe = sqrt(m->cr_m2 / m->cr_n);
	else if (m->round_done > 0 && isfinite(m->round_sd))
		st->sd_exe = m->round_sd;
	else if (m->cr_n >= 2)
		st->sd_exe = sqrt(m->cr_m2 / m->cr_n);
	else
		st->sd_exe = NAN;

	/* Imbalance over the live workers: (max - mean) / max of busy = t_calc + t_comm. */
	for (i = 0; i < m->nranks; i++) {
		r = &m->ranks[i];
		/* a sub-master deals, it does not work */
		if (!r->known || r->master || r->submaster)
			continue;
		s = model_rank_state(m, r);
		st->nworkers++;
		st->calc += r->t_calc;
		st->comm += r->t_comm;
		idle = model_rank_idle(m, r);
		if (isfinite(idle))
			st->idle += idle;
		switch (s) {
		case RS_WORKING:
			st->nworking++;
			break;
		case RS_WAITING:
			st->nwaiting++;
			break;
		case RS_FAILED:
			st->nfailed++;
			continue;
		case RS_DROPPED:
			st->ndropped++;
			continue;
		default:
			break;
		}
		busy = r->t_calc + r->t_comm;
		if (busy > bmax)
			bmax = busy;
		bsum += busy;
		nb++;
	}
	for (i = 0; i < m->nsites; i++)
		st->nsites += m->sites[i].nranks > 0;
	st->imbalance = bmax > 0 && nb > 0 ? 100.0 * (bmax - bsum / nb) / bmax : 0;
	st->ratio = st->comm > 0 ? st->calc / st->comm : st->calc > 0 ? INFINITY : NAN;

	/* Migrations per minute over the last minute (or the whole job while it is younger). */
	st->migrations = m->migrations;
	st->restarts = m->restarts;
	n = m->migrations < MODEL_MIG ? m->migrations : MODEL_MIG;
	for (i = 0; i < n; i++)
		if (m->mig_t[(m->migrations - 1 - i) % MODEL_MIG] >= st->elapsed - 60)
			recent++;
	window = st->elapsed < 60 ? st->elapsed : 60;
	st->mig_per_min = window > 0 ? recent * 60.0 / window : 0;
}
