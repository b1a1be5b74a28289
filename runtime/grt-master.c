/*
 * grt-master.c — rank 0 of libgrt: hands out chunks chosen by the scheme, merges results,
 * detects failed workers and requeues their units, and writes the event stream.
 *
 * Only non-blocking point-to-point calls once the run has started (RELIABILITY.md: a
 * receive from a dead rank blocks forever in MPICH 4.0): sends are MPI_Isend, results are
 * found with MPI_Iprobe, and every outstanding chunk has a deadline. A worker whose deadline
 * passes is declared failed and its chunk requeued; a result that arrives from it later is
 * dropped (the requeued copy counts), and the worker is taken back as a live one. Each unit
 * range is outstanding at one live worker at a time, so every unit is merged exactly once.
 */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grt-events.h"
#include "grt-internal.h"
#include "grt-proto.h"

#define SAMPLE_UNITS		5	/* seed 002, sec. 3.3: five sampled iterations */
#define DEADLINE_CHECK_PERIOD	0.01	/* seconds between deadline scans */
#define SUSPECT_FACTOR		4	/* after hydra's SIGUSR1: 4x the expected time */
#define SUSPECT_MIN		2.0	/* ... but at least this many seconds */

enum wstate_kind {
	W_IDLE,		/* no chunk; the scheme has nothing more for it this round */
	W_BUSY,		/* a chunk is outstanding */
	W_FAILED,	/* declared failed: missed a deadline */
	W_DROPPED,	/* the scheme cannot balance it; it got STOP */
	W_SELF,		/* the master's own worker slot (master computes) */
};

struct worker {
	enum wstate_kind state;
	int self_idle;		/* W_SELF: nothing more this round */
	int64_t seq;
	struct grt_chunk c;
	int kind;		/* GRT_WORK_CHUNK or GRT_WORK_SAMPLE */
	int from_scheme;	/* the chunk came from grt_sched_next (not a requeue) */
	long rq;		/* index of the chunk in master.rq, or -1 */
	double t_send;
	double deadline;
	MPI_Request sreq;
	grt_buf sbuf;

	int64_t units;		/* totals over the run */
	double t_calc;
	double t_exe;
	int64_t r_units;	/* this round */
	double r_exe;
	double unit_exe;	/* t_exe per unit of its last chunk: for deadlines */
};

/* A range taken back from a failed worker: queued, handed out again, then merged. */
enum rq_state { RQ_QUEUED, RQ_OUT, RQ_MERGED };

struct requeued {
	struct grt_chunk c;
	enum rq_state state;
};

struct master {
	MPI_Comm comm;
	const struct grt_app *app;
	const struct grt_config *cfg;
	struct grt_report *rep;
	int size;
	int nw;			/* workers in the scheme */
	int off;		/* rank = worker index + off */
	struct worker *w;
	grt_sched *sched;
	struct grt_sched_conf conf;
	double *pr;		/* per worker, or NULL */
	double *cpu;
	struct grt_rankinfo *ri;	/* rank map, or NULL */
	int nri;
	struct grt_events ev;
	grt_buf rbuf;		/* received messages */
	grt_buf obuf;		/* the master's own results */

	struct requeued *rq;	/* every range requeued after a failure, this round */
	size_t nrq;
	size_t caprq;
	size_t nqueued;		/* of them, waiting for a worker */

	int round;
	int64_t merged;		/* units merged in this round */
	int sampling;		/* pwd with swr auto: sampling before round 1 */
	int64_t sample_units[SAMPLE_UNITS];
	double sample_t[SAMPLE_UNITS];
	int nsamples;		/* units to sample */
	int nsampled;		/* sampled so far */
	int sample_next;	/* next unit index to hand out */
	int sampler;		/* worker doing the sampling, -1 none */

	double t0;
	double next_check;
	int64_t seq;
	int failed_now;		/* workers in W_FAILED */
	int suspect;		/* a rank exited (SIGUSR1): shorter deadlines from now on */
	int rc;
};

static inline int
w_rank(const struct master *m, int w)
{
	return w + m->off;
}

/* Take back worker wk's chunk; a chunk already requeued once goes back to the queue. */
static int
master_requeue(struct master *m, struct worker *wk)
{
	if (wk->rq >= 0) {
		/* merged already (its first worker answered late): nothing to take back */
		if (m->rq[wk->rq].state == RQ_OUT) {
			m->rq[wk->rq].state = RQ_QUEUED;
			m->nqueued++;
		}
		return GRT_OK;
	}
	if (m->nrq == m->caprq) {
		size_t ncap = m->caprq ? m->caprq * 2 : 16;
		struct requeued *p = realloc(m->rq, ncap * sizeof *p);

		if (p == NULL)
			return GRT_ENOMEM;
		m->rq = p;
		m->caprq = ncap;
	}
	m->rq[m->nrq].c = wk->c;
	m->rq[m->nrq].state = RQ_QUEUED;
	wk->rq = (long)m->nrq++;
	m->nqueued++;
	return GRT_OK;
}

/* A queued requeued range, marked as handed out; -1 when none. */
static long
master_dequeue(struct master *m)
{
	size_t i;

	if (m->nqueued == 0)
		return -1;
	for (i = m->nrq; i-- > 0;) {
		if (m->rq[i].state == RQ_QUEUED) {
			m->rq[i].state = RQ_OUT;
			m->nqueued--;
			return (long)i;
		}
	}
	return -1;
}

/* Expected seconds for count units on worker w, from its (or anyone's) last chunks. */
static double
master_expected(const struct master *m, const struct worker *wk, int64_t count)
{
	double per = wk->unit_exe;
	int i;

	if (per <= 0) {
		for (i = 0; i < m->nw; i++)
			if (m->w[i].unit_exe > per)
				per = m->w[i].unit_exe;
	}
	return per > 0 ? per * (double)count : 0;
}

/*
 * The round a chunk belongs to: SWR sampling runs before round 1 is begun (m->round is
 * still 0), but the sampled units are units of round 1 and the application sees them so.
 */
static inline int
master_work_round(const struct master *m)
{
	return m->round > 0 ? m->round : 1;
}

static int
master_send(struct master *m, int w, const struct grt_chunk *c, int kind, int from_scheme,
    long rq, double now)
{
	struct worker *wk = &m->w[w];
	struct grt_msg_work h;
	double allow;
	int rc;

	if (wk->sreq != MPI_REQUEST_NULL && MPI_Wait(&wk->sreq, MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return GRT_EMPI;
	wk->sbuf.len = 0;
	h.seq = ++m->seq;
	h.start = c->start;
	h.count = c->count;
	h.round = master_work_round(m);
	h.kind = kind;
	if ((rc = grt_buf_append(&wk->sbuf, &h, sizeof h)) != GRT_OK)
		return rc;
	/* a sampled unit gets its input too: compute cannot run, or be timed, without it */
	if (m->app->pack != NULL &&
	    m->app->pack(m->app->ctx, h.round, c->start, c->count, &wk->sbuf) != 0)
		return GRT_EAPP;
	if (wk->sbuf.len > INT32_MAX)
		return GRT_EINVAL;
	if (MPI_Isend(wk->sbuf.data, (int)wk->sbuf.len, MPI_BYTE, w_rank(m, w), GRT_TAG_WORK,
	    m->comm, &wk->sreq) != MPI_SUCCESS)
		return GRT_EMPI;
	wk->state = W_BUSY;
	wk->seq = h.seq;
	wk->c = *c;
	wk->kind = kind;
	wk->from_scheme = from_scheme;
	wk->rq = rq;
	wk->t_send = now;
	allow = m->cfg->deadline_factor * master_expected(m, wk, c->count);
	wk->deadline = now + (allow > m->cfg->deadline ? allow : m->cfg->deadline);
	return GRT_OK;
}

/* The next piece of work for worker w: a sample, a requeued range, or the scheme's chunk. */
static int
master_take(struct master *m, int w, struct grt_chunk *c, int *kind, int *from_scheme,
    long *rq)
{
	*kind = GRT_WORK_CHUNK;
	*from_scheme = 0;
	*rq = -1;
	if (m->sampling) {
		if (w != m->sampler || m->sample_next >= m->nsamples)
			return 0;
		c->start = m->sample_units[m->sample_next++];
		c->count = 1;
		*kind = GRT_WORK_SAMPLE;
		return 1;
	}
	if ((*rq = master_dequeue(m)) >= 0) {
		*c = m->rq[*rq].c;
		return 1;
	}
	if (grt_sched_next(m->sched, w, c)) {
		*from_scheme = 1;
		return c->count > 0;
	}
	return 0;
}

/* Give worker w its next chunk, or mark it idle for the rest of the round. */
static int
master_assign(struct master *m, int w, double now)
{
	struct grt_chunk c;
	int kind, from_scheme;
	long rq;

	if (m->w[w].state != W_IDLE)
		return GRT_OK;
	if (!master_take(m, w, &c, &kind, &from_scheme, &rq))
		return GRT_OK;
	return master_send(m, w, &c, kind, from_scheme, rq, now);
}

/* Requeued units wake the idle workers (and the master's own slot) of this round. */
static int
master_wake_idle(struct master *m, double now)
{
	int i, rc;

	for (i = 0; i < m->nw && (m->nqueued > 0 || m->sampling); i++) {
		if (m->w[i].state == W_SELF)
			m->w[i].self_idle = 0;
		else if (m->w[i].state == W_IDLE && (rc = master_assign(m, i, now)) != GRT_OK)
			return rc;
	}
	return GRT_OK;
}

static void
master_event_rankref(struct master *m, const char *kind, int rank, double now)
{
	grt_events_begin(&m->ev, now, kind);
	grt_events_int(&m->ev, "rank", rank);
}

static int
master_fail(struct master *m, int w, double now, const char *reason)
{
	struct worker *wk = &m->w[w];
	int rc = GRT_OK;

	if (wk->kind == GRT_WORK_CHUNK) {
		int merged = wk->rq >= 0 && m->rq[wk->rq].state == RQ_MERGED;

		rc = master_requeue(m, wk);
		if (!merged)
			m->rep->requeued += wk->c.count;
	} else
		m->sample_next--;	/* hand the same sample out again */
	wk->state = W_FAILED;
	m->failed_now++;
	m->rep->failed_ranks++;
	/* while pwd samples there is no scheme yet: master_start_scheme skips W_FAILED */
	if (m->sched != NULL)
		grt_sched_remove_worker(m->sched, w);
	if (m->sampling && m->sampler == w) {
		int i;

		m->sampler = -1;
		for (i = 0; i < m->nw && m->sampler < 0; i++)
			if (m->w[i].state == W_IDLE || m->w[i].state == W_SELF)
				m->sampler = i;
		m->sample_next = m->nsampled;
	}
	master_event_rankref(m, "fail", w_rank(m, w), now);
	grt_events_int(&m->ev, "requeued", wk->kind == GRT_WORK_CHUNK ? wk->c.count : 0);
	grt_events_str(&m->ev, "reason", reason);
	grt_events_end(&m->ev, now);
	if (rc == GRT_OK)
		rc = master_wake_idle(m, now);
	return rc;
}

/* Scan the deadlines of outstanding chunks; hydra's SIGUSR1 (a rank exited) shortens them. */
static int
master_check_deadlines(struct master *m, double now)
{
	char why[96];
	int i, rc, suspect = m->suspect;

	for (i = 0; i < m->nw; i++) {
		struct worker *wk = &m->w[i];
		double limit;

		if (wk->state != W_BUSY)
			continue;
		limit = wk->deadline;
		if (suspect && master_expected(m, wk, wk->c.count) > 0) {
			double s = SUSPECT_FACTOR * master_expected(m, wk, wk->c.count);

			if (s < SUSPECT_MIN)
				s = SUSPECT_MIN;
			if (wk->t_send + s < limit)
				limit = wk->t_send + s;
		}
		if (now < limit)
			continue;
		snprintf(why, sizeof why, "no result within %.1f s%s", now - wk->t_send,
		    suspect ? " (a rank exited)" : "");
		if ((rc = master_fail(m, i, now, why)) != GRT_OK)
			return rc;
	}
	return GRT_OK;
}

static void
master_chunk_event(struct master *m, int rank, const struct grt_chunk *c, double t_calc,
    double t_exe, double now)
{
	if (m->cfg->events_chunks)
		grt_events_chunk(&m->ev, now, rank, m->round, c->start, c->count, t_calc, t_exe);
}

static void master_start_scheme(struct master *m, double now);

/* A sampled unit's time is in; with all five, SWR = min/max (seed 002, eq. 3). */
static void
master_sampled(struct master *m, double t_calc, double now)
{
	m->sample_t[m->nsampled++] = t_calc;
	if (m->nsampled < m->nsamples)
		return;
	m->conf.swr = grt_swr_from_samples(m->sample_t, m->nsamples);
	m->sampling = 0;
	master_start_scheme(m, now);
}

/* Account a finished chunk (worker or master), feed the scheme, merge, log. */
static int
master_done(struct master *m, int w, const struct grt_chunk *c, int from_scheme,
    double t_calc, double t_exe, const void *res, size_t reslen, double now)
{
	struct worker *wk = &m->w[w];

	wk->units += c->count;
	wk->t_calc += t_calc;
	wk->t_exe += t_exe;
	wk->r_units += c->count;
	wk->r_exe += t_exe;
	if (c->count > 0)
		wk->unit_exe = t_exe / (double)c->count;
	if (from_scheme)
		grt_sched_feedback(m->sched, w, c, t_calc, t_exe);
	if (m->app->merge != NULL &&
	    m->app->merge(m->app->ctx, m->round, c->start, c->count, res, reslen) != 0)
		return GRT_EAPP;
	m->merged += c->count;
	m->rep->units_done += c->count;
	master_chunk_event(m, w_rank(m, w), c, t_calc, t_exe, now);
	return GRT_OK;
}

/* One result, if one is waiting. Returns 1 when a message was handled, 0, or an error. */
static int
master_poll(struct master *m)
{
	struct grt_msg_result h;
	struct grt_chunk c;
	struct worker *wk;
	MPI_Status st;
	double now, t_exe;
	int flag, n, w, rc, from_scheme;

	if (MPI_Iprobe(MPI_ANY_SOURCE, GRT_TAG_RESULT, m->comm, &flag, &st) != MPI_SUCCESS)
		return GRT_EMPI;
	if (!flag)
		return 0;
	if (MPI_Get_count(&st, MPI_BYTE, &n) != MPI_SUCCESS || n < (int)sizeof h)
		return GRT_EPROTO;
	if ((rc = grt_buf_reserve(&m->rbuf, (size_t)n)) != GRT_OK)
		return rc;
	if (MPI_Recv(m->rbuf.data, n, MPI_BYTE, st.MPI_SOURCE, GRT_TAG_RESULT, m->comm,
	    MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return GRT_EMPI;
	now = MPI_Wtime();
	memcpy(&h, m->rbuf.data, sizeof h);
	w = st.MPI_SOURCE - m->off;
	if (w < 0 || w >= m->nw)
		return GRT_EPROTO;
	wk = &m->w[w];
	if (wk->state == W_FAILED) {
		/* late, after its deadline: the worker lives; take it back */
		struct requeued *rq = wk->rq >= 0 ? &m->rq[wk->rq] : NULL;

		if (h.seq != wk->seq)
			return GRT_EPROTO;
		wk->state = W_IDLE;
		m->failed_now--;
		m->rep->failed_ranks--;
		if (m->sched != NULL)
			grt_sched_add_worker(m->sched, w);
		if (h.status != 0)
			return GRT_EAPP;
		if (rq == NULL || rq->state == RQ_MERGED || wk->kind != GRT_WORK_CHUNK) {
			rc = master_assign(m, w, now);
			return rc == GRT_OK ? 1 : rc;
		}
		/* its chunk is not merged yet: this result counts, the requeued copy not */
		if (rq->state == RQ_QUEUED)
			m->nqueued--;
		rq->state = RQ_MERGED;
		m->rep->requeued -= wk->c.count;
		c = wk->c;
		if ((rc = master_assign(m, w, now)) != GRT_OK)
			return rc;
		rc = master_done(m, w, &c, 0, h.t_calc, now - wk->t_send,
		    m->rbuf.data + sizeof h, (size_t)n - sizeof h, now);
		return rc == GRT_OK ? 1 : rc;
	}
	if (wk->state != W_BUSY || h.seq != wk->seq)
		return GRT_EPROTO;
	if (h.status != 0)
		return GRT_EAPP;
	t_exe = now - wk->t_send;
	c = wk->c;
	from_scheme = wk->from_scheme;
	wk->state = W_IDLE;
	if (wk->rq >= 0) {
		/* a requeued range whose first worker answered late and was merged already */
		int dup = m->rq[wk->rq].state == RQ_MERGED;

		m->rq[wk->rq].state = RQ_MERGED;
		if (dup) {
			rc = master_assign(m, w, now);
			return rc == GRT_OK ? 1 : rc;
		}
	}
	if (wk->kind == GRT_WORK_SAMPLE) {
		master_sampled(m, h.t_calc, now);
		if ((rc = master_assign(m, w, now)) != GRT_OK)
			return rc;
		return 1;
	}
	/* hand out the next chunk before merging: the worker computes while we merge */
	if ((rc = master_assign(m, w, now)) != GRT_OK)
		return rc;
	rc = master_done(m, w, &c, from_scheme, h.t_calc, t_exe, m->rbuf.data + sizeof h,
	    (size_t)n - sizeof h, now);
	return rc == GRT_OK ? 1 : rc;
}

/* The master's own share when it computes too: one chunk, synchronously. */
static int
master_compute_self(struct master *m, int w)
{
	struct grt_chunk c;
	double t, now;
	int kind, from_scheme;
	long rq;

	if (!master_take(m, w, &c, &kind, &from_scheme, &rq)) {
		m->w[w].self_idle = 1;
		return GRT_OK;
	}
	m->obuf.len = 0;
	if (m->app->pack != NULL) {
		/* the application's compute expects the packed input, as a worker gets it */
		grt_buf in = { NULL, 0, 0 };
		int rc = GRT_OK;

		if (m->app->pack(m->app->ctx, master_work_round(m), c.start, c.count, &in) != 0)
			rc = GRT_EAPP;
		t = MPI_Wtime();
		if (rc == GRT_OK && m->app->compute(m->app->ctx, master_work_round(m), c.start,
		    c.count, in.data, in.len, &m->obuf) != 0)
			rc = GRT_EAPP;
		grt_buf_free(&in);
		if (rc != GRT_OK)
			return rc;
	} else {
		t = MPI_Wtime();
		if (m->app->compute(m->app->ctx, master_work_round(m), c.start, c.count, NULL, 0,
		    &m->obuf) != 0)
			return GRT_EAPP;
	}
	now = MPI_Wtime();
	if (kind == GRT_WORK_SAMPLE) {
		master_sampled(m, now - t, now);
		return GRT_OK;
	}
	if (rq >= 0) {
		if (m->rq[rq].state == RQ_MERGED)
			return GRT_OK;
		m->rq[rq].state = RQ_MERGED;
	}
	return master_done(m, w, &c, from_scheme, now - t, now - t, m->obuf.data, m->obuf.len,
	    now);
}

static void
master_drop_event(struct master *m, int w, double share, double now)
{
	char why[96];

	snprintf(why, sizeof why, "cannot balance: %.2g units per round", share);
	master_event_rankref(m, "drop", w_rank(m, w), now);
	grt_events_str(&m->ev, "reason", why);
	grt_events_end(&m->ev, now);
}

static int
master_stop(struct master *m, int w, int reason)
{
	struct grt_msg_stop s = { reason, m->failed_now > 0 };
	struct worker *wk = &m->w[w];

	if (wk->sreq != MPI_REQUEST_NULL && MPI_Wait(&wk->sreq, MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return GRT_EMPI;
	wk->sbuf.len = 0;
	if (grt_buf_append(&wk->sbuf, &s, sizeof s) != GRT_OK)
		return GRT_ENOMEM;
	if (MPI_Isend(wk->sbuf.data, (int)sizeof s, MPI_BYTE, w_rank(m, w), GRT_TAG_STOP, m->comm,
	    &wk->sreq) != MPI_SUCCESS)
		return GRT_EMPI;
	return GRT_OK;
}

/* Round start, or the end of sampling: the scheme's first chunks to every worker. */
static void
master_start_scheme(struct master *m, double now)
{
	int *order, i, err;

	if (m->sched == NULL) {
		if ((m->sched = grt_sched_new(&m->conf, m->nw, m->app->units, &err)) == NULL) {
			m->rc = err;
			return;
		}
		for (i = 0; i < m->nw; i++)
			if (m->w[i].state == W_FAILED)
				grt_sched_remove_worker(m->sched, i);
	}
	m->round = grt_sched_begin_round(m->sched);
	m->merged = 0;
	m->nrq = 0;
	m->nqueued = 0;
	for (i = 0; i < m->nw; i++) {
		double share;

		m->w[i].r_units = 0;
		m->w[i].r_exe = 0;
		m->w[i].self_idle = 0;
		if (m->w[i].state != W_DROPPED && m->w[i].state != W_FAILED &&
		    grt_sched_dropped(m->sched, i, &share)) {
			master_drop_event(m, i, share, now);
			m->rep->dropped_ranks++;
			if (m->w[i].state == W_SELF) {
				m->w[i].self_idle = 1;
				continue;
			}
			m->w[i].state = W_DROPPED;
			if ((m->rc = master_stop(m, i, GRT_STOP_DROPPED)) != GRT_OK)
				return;
		}
	}
	if ((order = malloc((size_t)m->nw * sizeof *order)) == NULL) {
		m->rc = GRT_ENOMEM;
		return;
	}
	grt_sched_order(m->sched, order);
	for (i = 0; i < m->nw && m->rc == GRT_OK; i++)
		if (m->w[order[i]].state == W_IDLE)
			m->rc = master_assign(m, order[i], now);
	free(order);
}

static void
master_round_event(struct master *m, double now)
{
	double mean = 0, sd = 0;
	int i, n = 0;

	for (i = 0; i < m->nw; i++) {
		if (m->w[i].r_units > 0) {
			mean += m->w[i].r_exe;
			n++;
		}
	}
	if (n > 0)
		mean /= n;
	for (i = 0; i < m->nw; i++)
		if (m->w[i].r_units > 0)
			sd += (m->w[i].r_exe - mean) * (m->w[i].r_exe - mean);
	if (n > 0)
		sd = sqrt(sd / n);
	grt_events_begin(&m->ev, now, "round");
	grt_events_int(&m->ev, "j", m->round);
	grt_events_raw(&m->ev, ",\"units\":[");
	for (i = 0; i < m->size; i++) {
		int w = i - m->off;

		if (i > 0)
			grt_events_raw(&m->ev, ",");
		grt_events_rawint(&m->ev, w >= 0 ? m->w[w].r_units : 0);
	}
	grt_events_raw(&m->ev, "]");
	grt_events_dbl(&m->ev, "mean_exe", mean);
	grt_events_dbl(&m->ev, "sd_exe", sd);
	grt_events_end(&m->ev, now);
}

static const char *
master_role(const struct master *m, int rank)
{
	if (rank == 0)
		return m->off == 0 ? "master+worker" : "master";
	return "worker";
}

static void
master_start_event(struct master *m, double now)
{
	int i;

	grt_events_begin(&m->ev, now, "start");
	grt_events_str(&m->ev, "job", m->cfg->job_id != NULL ? m->cfg->job_id : "");
	grt_events_str(&m->ev, "scheme", grt_scheme_name(m->conf.scheme));
	grt_events_int(&m->ev, "N", m->app->units);
	grt_events_int(&m->ev, "rounds", m->app->rounds);
	grt_events_raw(&m->ev, ",\"ranks\":[");
	for (i = 0; i < m->size; i++) {
		const struct grt_rankinfo *ri = i < m->nri ? &m->ri[i] : NULL;
		int w = i - m->off;
		char name[32];

		snprintf(name, sizeof name, "rank%d", i);
		grt_events_raw(&m->ev, i > 0 ? ",{\"rank\":" : "{\"rank\":");
		grt_events_rawint(&m->ev, i);
		grt_events_raw(&m->ev, ",\"node\":");
		grt_events_rawstr(&m->ev, ri != NULL ? ri->node : name);
		grt_events_raw(&m->ev, ",\"site\":");
		grt_events_rawstr(&m->ev, ri != NULL ? ri->site : "");
		grt_events_raw(&m->ev, ",\"pf\":");
		grt_events_rawdbl(&m->ev, ri != NULL ? ri->pf : 0);
		grt_events_raw(&m->ev, ",\"pr\":");
		grt_events_rawdbl(&m->ev, w >= 0 && m->pr != NULL ? m->pr[w] :
		    w >= 0 ? 1.0 / m->nw : 0);
		grt_events_raw(&m->ev, ",\"role\":");
		grt_events_rawstr(&m->ev, master_role(m, i));
		grt_events_raw(&m->ev, "}");
	}
	grt_events_raw(&m->ev, "]");
	grt_events_end(&m->ev, now);
}

static void
master_end_event(struct master *m, double now)
{
	int i;

	grt_events_begin(&m->ev, now, "end");
	grt_events_str(&m->ev, "status", m->rc == GRT_OK ? "ok" : "failed");
	if (m->rc != GRT_OK)
		grt_events_str(&m->ev, "error", grt_strerror(m->rc));
	grt_events_dbl(&m->ev, "makespan", now - m->t0);
	grt_events_int(&m->ev, "failed", m->rep->failed_ranks);
	grt_events_int(&m->ev, "dropped", m->rep->dropped_ranks);
	grt_events_int(&m->ev, "requeued", m->rep->requeued);
	if (m->conf.scheme == GRT_SCHEME_PWD)
		grt_events_dbl(&m->ev, "swr", m->conf.swr);
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

/* Per-worker PR and CPU clock from the rank map (or the application's own arrays). */
static int
master_conf(struct master *m)
{
	int i, have_pr = 1, have_cpu = 1;

	m->conf = m->cfg->sched;
	if (m->cfg->rankmap_path != NULL &&
	    grt_rankmap_load(m->cfg->rankmap_path, &m->ri, &m->nri) != GRT_OK)
		return GRT_EINVAL;
	if (m->nri < m->size) {
		have_pr = have_cpu = 0;
	} else {
		for (i = 0; i < m->nw; i++) {
			have_pr &= m->ri[w_rank(m, i)].pr > 0;
			have_cpu &= m->ri[w_rank(m, i)].cpu_mhz > 0;
		}
	}
	if (m->conf.pr == NULL && have_pr) {
		if ((m->pr = malloc((size_t)m->nw * sizeof *m->pr)) == NULL)
			return GRT_ENOMEM;
		for (i = 0; i < m->nw; i++)
			m->pr[i] = m->ri[w_rank(m, i)].pr;
		m->conf.pr = m->pr;
	}
	if (m->conf.cpu == NULL && have_cpu) {
		if ((m->cpu = malloc((size_t)m->nw * sizeof *m->cpu)) == NULL)
			return GRT_ENOMEM;
		for (i = 0; i < m->nw; i++)
			m->cpu[i] = m->ri[w_rank(m, i)].cpu_mhz;
		m->conf.cpu = m->cpu;
	}
	return GRT_OK;
}

/* Five distinct units at random (fixed seed: runs are reproducible), or all when N < 5. */
static void
master_pick_samples(struct master *m)
{
	uint64_t x = 0x9e3779b97f4a7c15u;
	int64_t n = m->app->units;
	int i, j;

	m->nsamples = n < SAMPLE_UNITS ? (int)n : SAMPLE_UNITS;
	for (i = 0; i < m->nsamples; i++) {
		int64_t u;
		int dup;

		do {
			x ^= x >> 12;
			x ^= x << 25;
			x ^= x >> 27;
			u = n <= SAMPLE_UNITS ? i : (int64_t)((x * 0x2545f4914f6cdd1du) % (uint64_t)n);
			for (dup = 0, j = 0; j < i; j++)
				dup |= m->sample_units[j] == u;
		} while (dup);
		m->sample_units[i] = u;
	}
}

/* The sampling worker: the one with the largest PR (the first when equal). */
static int
master_best_worker(const struct master *m)
{
	int i, best = 0;

	for (i = 1; m->conf.pr != NULL && i < m->nw; i++)
		if (m->conf.pr[i] > m->conf.pr[best])
			best = i;
	return best;
}

/* Can any result still come? A busy worker, or the master's own slot with work to do. */
static int
master_can_progress(const struct master *m, int self)
{
	int i;

	if (self >= 0 && !m->w[self].self_idle)
		return 1;
	for (i = 0; i < m->nw; i++)
		if (m->w[i].state == W_BUSY)
			return 1;
	return 0;
}

/* Before round 1 of pwd with SWR auto: five units timed on the best worker first. */
static void
master_start_sampling(struct master *m, double now)
{
	master_pick_samples(m);
	if (m->nsamples == 0) {
		master_start_scheme(m, now);
		return;
	}
	m->sampling = 1;
	m->sampler = master_best_worker(m);
	m->rc = master_assign(m, m->sampler, now);
}

static int
master_loop(struct master *m)
{
	struct grt_backoff bo;
	int r, rc, self = m->off == 0 ? 0 : -1;

	for (r = 0; r < m->app->rounds && m->rc == GRT_OK; r++) {
		if (r == 0 && m->cfg->swr_auto && m->conf.scheme == GRT_SCHEME_PWD)
			master_start_sampling(m, MPI_Wtime());
		else
			master_start_scheme(m, MPI_Wtime());
		grt_backoff_reset(&bo);
		while (m->rc == GRT_OK && (m->sampling || m->merged < m->app->units)) {
			double now;

			if ((rc = master_poll(m)) < 0) {
				m->rc = rc;
				break;
			}
			if (rc > 0) {
				grt_backoff_reset(&bo);
				continue;
			}
			if (self >= 0 && !m->w[self].self_idle) {
				if ((m->rc = master_compute_self(m, self)) != GRT_OK)
					break;
				continue;
			}
			now = MPI_Wtime();
			grt_events_tick(&m->ev, now);
			if (grt_usr1_seen)
				m->suspect = 1;
			if (now >= m->next_check || grt_usr1_seen) {
				grt_usr1_seen = 0;
				m->next_check = now + DEADLINE_CHECK_PERIOD;
				if ((m->rc = master_check_deadlines(m, now)) != GRT_OK)
					break;
				if (!master_can_progress(m, self)) {
					m->rc = GRT_ENOWORKERS;
					break;
				}
			}
			grt_backoff_wait(&bo);
		}
		if (m->rc == GRT_OK && m->app->round_done != NULL &&
		    m->app->round_done(m->app->ctx, m->round) != 0)
			m->rc = GRT_EAPP;
		if (m->rc == GRT_OK)
			master_round_event(m, MPI_Wtime());
	}
	return m->rc;
}

/* Every worker still listening gets STOP; a failed one too, in case it is only late. */
static void
master_stop_all(struct master *m)
{
	int i, reason = m->rc == GRT_OK ? GRT_STOP_DONE : GRT_STOP_ERROR;

	for (i = 0; i < m->nw; i++) {
		struct worker *wk = &m->w[i];

		if (wk->state == W_SELF || wk->state == W_DROPPED)
			continue;
		if (wk->state == W_FAILED) {
			static struct grt_msg_stop late;
			MPI_Request req;

			late.reason = reason;
			late.failure_seen = 1;
			if (MPI_Isend(&late, (int)sizeof late, MPI_BYTE, w_rank(m, i), GRT_TAG_STOP,
			    m->comm, &req) == MPI_SUCCESS)
				MPI_Request_free(&req);
			continue;
		}
		if (master_stop(m, i, reason) != GRT_OK)
			grt_failure_seen = 1;
	}
	/* the STOPs are small (eager): they complete without the workers' help */
	for (i = 0; i < m->nw; i++)
		if (m->w[i].state != W_FAILED && m->w[i].sreq != MPI_REQUEST_NULL)
			MPI_Wait(&m->w[i].sreq, MPI_STATUS_IGNORE);
}

int
grt_master(MPI_Comm comm, const struct grt_app *app, const struct grt_config *cfg,
    struct grt_report *rep)
{
	struct master m;
	double now;
	int i, rc;

	memset(&m, 0, sizeof m);
	m.comm = comm;
	m.app = app;
	m.cfg = cfg;
	m.rep = rep;
	m.sampler = -1;
	MPI_Comm_size(comm, &m.size);
	m.off = cfg->master_computes || m.size == 1 ? 0 : 1;
	m.nw = m.size - m.off;
	m.t0 = MPI_Wtime();
	if ((m.w = calloc((size_t)m.nw, sizeof *m.w)) == NULL)
		m.rc = GRT_ENOMEM;
	for (i = 0; m.w != NULL && i < m.nw; i++) {
		m.w[i].state = w_rank(&m, i) == 0 ? W_SELF : W_IDLE;
		m.w[i].sreq = MPI_REQUEST_NULL;
	}
	if (m.rc == GRT_OK)
		m.rc = master_conf(&m);
	if (m.rc == GRT_OK)
		m.rc = grt_events_open(&m.ev, cfg->events_path, m.t0);
	else
		grt_events_open(&m.ev, NULL, m.t0);

	grt_usr1_seen = 0;

	if (m.rc == GRT_OK) {
		master_start_event(&m, m.t0);
		master_loop(&m);
	}
	now = MPI_Wtime();
	rep->makespan = now - m.t0;
	rep->swr = m.conf.swr;
	if (m.w != NULL)
		master_stop_all(&m);
	if (m.rc != GRT_OK || m.failed_now > 0)
		grt_failure_seen = 1;
	if (m.w != NULL)
		master_end_event(&m, now);
	rc = grt_events_close(&m.ev);
	rep->events_lost = rc != GRT_OK;

	for (i = 0; m.w != NULL && i < m.nw; i++)
		grt_buf_free(&m.w[i].sbuf);
	free(m.w);
	grt_sched_free(m.sched);
	grt_buf_free(&m.rbuf);
	grt_buf_free(&m.obuf);
	free(m.rq);
	free(m.pr);
	free(m.cpu);
	free(m.ri);
	return m.rc;
}
