/*
 * exp-metrics.c — the metrics of a finished run, read from its job directory with the one
 * events reader (doc/experiments.md, "Metrics"): makespan, requeued units and failed
 * ranks from the last launch's end record, migrations counted, the imbalance of the
 * ranks' computing times, the efficiency against the divisible-load bound of the run's
 * work and its nodes' speeds (exp-bound.h), the wall time from state.json, and the experiment's own metrics
 * from the program's standard output.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/events-read.h"
#include "common/file.h"
#include "common/xmalloc.h"
#include "experiment/exp-metrics.h"
#include "store/jobstore.h"

#define EM_STDOUT_MAX	(64 << 20)	/* read at most this much of a run's stdout */

/* What one rank of the last launch did: its chunks, for the work and the port's fit. */
struct em_worker {
	int rank;
	int master;		/* the start record's role "master" */
	double units, t_calc;
	double *count, *t_comm;	/* per chunk */
	size_t n;
};

struct em_launch {
	struct em_worker *w;
	size_t nw;
	int have_end;
	double makespan;
	long long requeued;
	int failed;
	int migrations;
	double busy_max, busy_sum;	/* t_calc of the ranks that computed (end record) */
	int busy_n;
};

static struct em_worker *
em_worker(struct em_launch *l, int rank)
{
	size_t i;

	for (i = 0; i < l->nw; i++)
		if (l->w[i].rank == rank)
			return &l->w[i];
	l->w = xreallocarray(l->w, l->nw + 1, sizeof *l->w);
	memset(&l->w[l->nw], 0, sizeof *l->w);
	l->w[l->nw].rank = rank;
	return &l->w[l->nw++];
}

static void
em_free(struct em_launch *l)
{
	size_t i;

	for (i = 0; i < l->nw; i++) {
		free(l->w[i].count);
		free(l->w[i].t_comm);
	}
	free(l->w);
	memset(l, 0, sizeof *l);
}

/* A chunk of rank's: its units and computing time, and its point for the port's fit. */
static void
em_chunk(struct em_launch *l, const struct event *ev)
{
	struct em_worker *w = em_worker(l, ev->rank);

	w->units += (double)ev->count;
	w->t_calc += ev->t_calc;
	w->count = xreallocarray(w->count, w->n + 1, sizeof *w->count);
	w->t_comm = xreallocarray(w->t_comm, w->n + 1, sizeof *w->t_comm);
	w->count[w->n] = (double)ev->count;
	w->t_comm[w->n] = ev->t_comm;
	w->n++;
}

static void
em_event(struct em_launch *l, const struct event *ev)
{
	int i;

	switch (ev->kind) {
	case EV_START:
	case EV_RESTART:
		/* a new launch: what came before belongs to an earlier one */
		em_free(l);
		/* every rank it started could compute: the bound counts them all */
		for (i = 0; i < ev->nranks; i++)
			em_worker(l, ev->ranks[i].rank)->master = ev->ranks[i].master;
		break;
	case EV_CHUNK:
		em_chunk(l, ev);
		break;
	case EV_MIGRATE:
		l->migrations++;
		break;
	case EV_END:
		l->have_end = 1;
		l->makespan = ev->makespan;
		l->requeued = ev->requeued;
		l->failed = ev->failed;
		for (i = 0; i < ev->nranks; i++) {
			if (ev->ranks[i].units <= 0)
				continue;
			l->busy_n++;
			l->busy_sum += ev->ranks[i].t_calc;
			if (ev->ranks[i].t_calc > l->busy_max)
				l->busy_max = ev->ranks[i].t_calc;
		}
		break;
	default:
		break;
	}
}

/*
 * The run's bound (exp-bound.h): every worker the start record names, and a master that
 * computed units; each with its node's speed (exp_speeds) and the robust slope of its
 * chunks' t_comm over their count as its port cost.
 */
static void
em_bound(const struct em_launch *l, const char *dir, struct exp_bound *b)
{
	struct exp_bound_rank *r = xcalloc(l->nw + 1, sizeof *r);
	double *speed;
	const char *src;
	size_t i, n = 0, top = 0;

	for (i = 0; i < l->nw; i++)
		if ((size_t)l->w[i].rank >= top)
			top = (size_t)l->w[i].rank + 1;
	speed = xcalloc(top + 1, sizeof *speed);
	src = exp_speeds(dir, speed, top);
	for (i = 0; i < l->nw; i++) {
		const struct em_worker *w = &l->w[i];

		if (w->master && w->units <= 0)
			continue;
		r[n].speed = speed[w->rank];
		r[n].t_calc = w->t_calc;
		r[n].units = w->units;
		r[n].master = w->master || w->rank == 0;
		r[n].c = exp_bound_slope(w->count, w->t_comm, w->n);
		n++;
	}
	exp_bound_star(r, n, l->makespan, b);
	b->speeds = b->equal_speeds ? "equal" : src;
	free(speed);
	free(r);
}

/* The first group of each metric's regex in the run's stdout: the last match counts. */
static void
em_custom(const struct exp *e, const char *dir, double *values)
{
	char *path, *buf, *p, *end;
	regmatch_t m[2];
	size_t len, i;

	xasprintf(&path, "%s/stdout", dir);
	if (file_read(path, EM_STDOUT_MAX, &buf, &len) != 0) {
		free(path);
		return;
	}
	free(path);
	for (i = 0; i < e->nmetrics; i++) {
		p = buf;
		while (regexec(&e->metrics[i].re, p, 2, m, p == buf ? 0 : REG_NOTBOL) == 0 &&
		    m[1].rm_so >= 0) {
			char num[64];
			double v;

			snprintf(num, sizeof num, "%.*s", (int)(m[1].rm_eo - m[1].rm_so),
			    p + m[1].rm_so);
			v = strtod(num, &end);
			if (end != num && *end == '\0' && isfinite(v))
				values[EXP_NBUILTIN + i] = v;
			if (m[0].rm_eo == 0)
				break;
			p += m[0].rm_eo;
		}
	}
	free(buf);
}

void
exp_dir_metrics(const char *dir, double *values, struct exp_bound *b)
{
	struct evreader *r;
	struct em_launch l;
	struct event ev;
	struct exp_bound own;
	char *path;
	size_t i;

	for (i = 0; i < EXP_NBUILTIN; i++)
		values[i] = NAN;
	if (b == NULL)
		b = &own;
	memset(b, 0, sizeof *b);
	b->t_lb = NAN;
	memset(&l, 0, sizeof l);
	xasprintf(&path, "%s/events.jsonl", dir);
	if ((r = evreader_open(path)) != NULL) {
		memset(&ev, 0, sizeof ev);
		while (evreader_next(r, &ev) == 1) {
			em_event(&l, &ev);
			event_clear(&ev);
		}
		evreader_free(r);
	}
	if (l.have_end) {
		exp_metrics_rounds(path, values);
		exp_metrics_moves(path, values);
		values[EXP_M_MAKESPAN] = l.makespan;
		values[EXP_M_REQUEUED] = (double)l.requeued;
		values[EXP_M_FAILED] = l.failed;
		values[EXP_M_MIGRATIONS] = l.migrations;
		if (l.busy_n > 0 && l.busy_sum > 0)
			values[EXP_M_IMBALANCE] = l.busy_max / (l.busy_sum / l.busy_n) - 1;
		em_bound(&l, dir, b);
		if (l.makespan > 0)
			values[EXP_M_EFFICIENCY] = b->t_lb / l.makespan;
	}
	free(path);
	em_free(&l);
}

void
exp_job_metrics(const char *job_id, double *values, struct exp_bound *b)
{
	struct job_state st;
	char why[512];
	size_t i;

	for (i = 0; i < EXP_NBUILTIN; i++)
		values[i] = NAN;
	if (jobstore_read_state(job_id, &st, why, sizeof why) != JOBSTORE_OK)
		return;
	exp_dir_metrics(st.dir, values, b);
	if (st.ended > 0 && st.submitted > 0)
		values[EXP_M_WALL] = st.ended - st.submitted;
	job_state_free(&st);
}

void
exp_run_metrics(const struct exp *e, const char *job_id, double *values)
{
	char *dir, why[1024];
	size_t i;

	exp_job_metrics(job_id, values, NULL);
	for (i = EXP_NBUILTIN; i < EXP_NBUILTIN + e->nmetrics; i++)
		values[i] = NAN;
	/* no store, no job: its own metrics stay unknown, as its built-in ones are */
	if ((dir = jobstore_job_dir(job_id, why, sizeof why)) == NULL)
		return;
	em_custom(e, dir, values);
	free(dir);
}

const char **
exp_metric_names(const struct exp *e, size_t *n)
{
	const char **names = xcalloc(EXP_NBUILTIN + e->nmetrics + 1, sizeof *names);
	size_t i;

	for (i = 0; i < EXP_NBUILTIN; i++)
		names[i] = exp_builtin_metrics[i];
	for (i = 0; i < e->nmetrics; i++)
		names[EXP_NBUILTIN + i] = e->metrics[i].name;
	*n = EXP_NBUILTIN + e->nmetrics;
	return names;
}

int
exp_metric_find(const struct exp *e, const char *name)
{
	size_t i;

	for (i = 0; i < EXP_NBUILTIN; i++)
		if (strcmp(exp_builtin_metrics[i], name) == 0)
			return (int)i;
	for (i = 0; i < e->nmetrics; i++)
		if (strcmp(e->metrics[i].name, name) == 0)
			return (int)(EXP_NBUILTIN + i);
	return -1;
}
