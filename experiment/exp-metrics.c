/*
 * exp-metrics.c — the metrics of a finished run, read from its job directory with the one
 * events reader (doc/experiments.md, "Metrics"): makespan, requeued units and failed
 * ranks from the last launch's end record, migrations counted, the imbalance of the
 * ranks' computing times, the efficiency against the divisible-load bound of the run's
 * own per-unit times, the wall time from state.json, and the experiment's own metrics
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

/* What one worker of the last launch did: its chunks, for the per-unit times. */
struct em_worker {
	int rank;
	double units, t_calc;
	double n, sx, sy, sxx, sxy;	/* least squares of t_comm on count */
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
em_event(struct em_launch *l, const struct event *ev)
{
	struct em_worker *w;
	int i;

	switch (ev->kind) {
	case EV_START:
	case EV_RESTART:
		/* a new launch: what came before belongs to an earlier one */
		free(l->w);
		memset(l, 0, sizeof *l);
		break;
	case EV_CHUNK:
		w = em_worker(l, ev->rank);
		w->units += (double)ev->count;
		w->t_calc += ev->t_calc;
		w->n++;
		w->sx += (double)ev->count;
		w->sy += ev->t_comm;
		w->sxx += (double)ev->count * (double)ev->count;
		w->sxy += (double)ev->count * ev->t_comm;
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

static int
em_by_port_cost(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (x[1] > y[1]) - (x[1] < y[1]);
}

double
exp_divisible_bound(const struct exp_worker_times *w, size_t n, double units)
{
	double (*t)[2] = xcalloc(n + 1, sizeof *t), port = 1, rho = 0;
	size_t i, m = 0;

	for (i = 0; i < n; i++)
		if (w[i].w > 0) {
			t[m][0] = w[i].w;
			t[m][1] = w[i].c > 0 ? w[i].c : 0;
			m++;
		}
	/* rho* = max sum r_i, r_i <= 1/w_i, sum r_i c_i <= 1: greedy by increasing c_i */
	qsort(t, m, sizeof *t, em_by_port_cost);
	for (i = 0; i < m; i++) {
		double r = 1 / t[i][0];

		if (t[i][1] > 0 && r * t[i][1] > port)
			r = port / t[i][1];
		port -= r * t[i][1];
		rho += r;
	}
	free(t);
	return rho > 0 ? units / rho : NAN;
}

/*
 * The run's own per-unit times: w_i = t_calc_i / units_i; c_i + d_i = the slope of
 * t_comm over the chunk's count (its intercept is a per-chunk cost outside the model, so
 * the bound stays a lower bound), 0 for rank 0 (its units never cross the port) and for a
 * worker whose chunks all had one size (no slope to fit).
 */
static double
em_bound(const struct em_launch *l)
{
	struct exp_worker_times *t = xcalloc(l->nw + 1, sizeof *t);
	double units = 0, b;
	size_t i;

	for (i = 0; i < l->nw; i++) {
		const struct em_worker *w = &l->w[i];
		double den = w->n * w->sxx - w->sx * w->sx;

		if (w->units <= 0)
			continue;
		units += w->units;
		t[i].w = w->t_calc / w->units;
		t[i].c = w->rank != 0 && den > 0 ? (w->n * w->sxy - w->sx * w->sy) / den : 0;
	}
	b = exp_divisible_bound(t, l->nw, units);
	free(t);
	return b;
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
exp_job_metrics(const char *job_id, double *values)
{
	struct job_state st;
	struct evreader *r;
	struct em_launch l;
	struct event ev;
	char *path, why[512];
	size_t i;

	for (i = 0; i < EXP_NBUILTIN; i++)
		values[i] = NAN;
	if (jobstore_read_state(job_id, &st, why, sizeof why) != JOBSTORE_OK)
		return;
	if (st.ended > 0 && st.submitted > 0)
		values[EXP_M_WALL] = st.ended - st.submitted;
	memset(&l, 0, sizeof l);
	xasprintf(&path, "%s/events.jsonl", st.dir);
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
		if (l.makespan > 0)
			values[EXP_M_EFFICIENCY] = em_bound(&l) / l.makespan;
	}
	free(path);
	free(l.w);
	job_state_free(&st);
}

void
exp_run_metrics(const struct exp *e, const char *job_id, double *values)
{
	char *dir, why[1024];
	size_t i;

	exp_job_metrics(job_id, values);
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
