/*
 * grt-master.c — rank 0 of libgrt: its life from the rank map to the end event, and the
 * main loop of every round. What it does on the way is in the files grt-master.h lists.
 *
 * Under MPICH only non-blocking point-to-point calls once the run has started
 * (doc/reliability.md, "A dead worker under MPICH 4.0.2": a receive from a dead rank
 * blocks forever in MPICH 4.0): sends are MPI_Isend, results are found with MPI_Iprobe
 * (grt-comm-poll.c), and every outstanding chunk has a deadline. A worker whose deadline
 * passes is declared failed and its chunk requeued; a result that arrives from it later
 * counts when the requeued copy is not merged yet and is dropped otherwise, and the worker
 * is taken back as a live one. Each unit range is outstanding at one live worker at a
 * time, so every unit is merged exactly once.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/comm/grt-comm.h"
#include "runtime/master/grt-master.h"

#define DEADLINE_CHECK_PERIOD	0.01	/* seconds between deadline scans */
#define RESULTS_PER_CHECK	64	/* results handled in a row between two looks */

/* Per-worker PR and CPU clock from the rank map (or the application's own arrays). */
static int
master_conf(struct master *m)
{
	int i, have_pr = 1, have_cpu = 1;

	m->conf = m->cfg->sched;
	if (m->cfg->rankmap_path != NULL &&
	    grt_rankmap_load(m->cfg->rankmap_path, &m->ri, &m->nri) != GRT_OK)
		return GRT_EINVAL;
	/* sub-masters: the groups' PR and clocks are their workers' sums */
	if ((i = master_group_setup(m)) != GRT_OK || m->grp.on)
		return i;
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

/* Can any result still come? A busy worker, or the master's own slot with work to do. */
int
master_can_progress(const struct master *m, int self)
{
	int i;

	if (self >= 0 && !m->self.idle)
		return 1;
	for (i = 0; i < m->nw; i++)
		if (m->w[i].state == W_BUSY)
			return 1;
	return 0;
}

/*
 * What the master does now and then, not per message: events, deadlines, a lost run, the
 * time limit.
 */
int
master_periodic(struct master *m, int self, double now)
{
	int rc;

	grt_events_tick(&m->ev, now);
	grt_journal_tick(&m->jn, now);
	if ((rc = master_disk_check(m)) != GRT_OK)
		return rc;
	/*
	 * GRT_TIME_LIMIT: from the first look past it no chunk is handed out (master_take);
	 * the answers of those outstanding are merged and journaled, and the run ends. A
	 * worker is never left sending to a master that has gone (under SMPI that aborts
	 * the simulation).
	 */
	if (m->cfg->time_limit > 0 && now - m->t0 >= m->cfg->time_limit)
		m->timing_out = 1;
	if (m->timing_out)
		return master_can_progress(m, self) ? GRT_OK : GRT_ETIMEOUT;
	if (grt_usr1_seen)
		m->suspect = 1;
	if (now < m->next_check && !grt_usr1_seen)
		return GRT_OK;
	grt_usr1_seen = 0;
	m->next_check = now + DEADLINE_CHECK_PERIOD;
	if ((rc = master_check_deadlines(m, now)) != GRT_OK)
		return rc;
	/* called after a result or a slice too: the round may have just ended */
	if (!m->sampling && m->merged >= m->app->units)
		return GRT_OK;
	return master_can_progress(m, self) ? GRT_OK : GRT_ENOWORKERS;
}

/*
 * One round: results first, then a slice of the master's own chunk, then a wait
 * (master_wait; at once when receives block and the master has nothing of its own to
 * compute). The clock is read once per result and per slice.
 */
static void
master_round(struct master *m, int self)
{
	struct grt_backoff bo;
	unsigned handled = 0;
	int rc;

	grt_backoff_reset(&bo);
	while (m->rc == GRT_OK && (m->sampling || m->merged < m->app->units)) {
		if (grt_comm_blocks && (self < 0 || m->self.idle)) {
			m->rc = master_wait(m, self, &bo);
			continue;
		}
		if ((rc = master_poll(m, 0)) < 0) {
			m->rc = rc;
			break;
		}
		if (rc > 0) {
			grt_backoff_reset(&bo);
			if (++handled % RESULTS_PER_CHECK == 0 || grt_usr1_seen)
				m->rc = master_periodic(m, self, m->now);
			continue;
		}
		if (self >= 0 && !m->self.idle) {
			if ((m->rc = master_self_slice(m, self)) == GRT_OK)
				m->rc = master_periodic(m, self, m->now);
			continue;
		}
		m->rc = master_wait(m, self, &bo);
	}
}

static int
master_loop(struct master *m)
{
	int r, first = m->replay.rounds_done, self = m->off == 0 ? 0 : -1;

	/* a journal replayed at start: its rounds are done */
	for (r = first; r < m->app->rounds && m->rc == GRT_OK; r++) {
		if (r == first && m->cfg->swr_auto && grt_scheme_uses_swr(m->conf.scheme))
			master_start_sampling(m, MPI_Wtime());
		else
			master_start_scheme(m, MPI_Wtime());
		master_round(m, self);
		if (m->rc == GRT_OK && m->app->round_done != NULL &&
		    m->app->round_done(m->app->ctx, m->round) != 0)
			m->rc = GRT_EAPP;
		if (m->rc == GRT_OK && grt_journal_round(&m->jn, m->round) != GRT_OK)
			m->rep->journal_lost = 1;
		/* the round's end must be durable before the next round counts on it */
		if (m->rc == GRT_OK)
			m->rc = master_disk_check(m);
		if (m->rc == GRT_OK)
			master_round_event(m, MPI_Wtime());
	}
	return m->rc;
}

/* The rank map, the event stream, the journal (replayed), and the first events. */
static void
master_open(struct master *m)
{
	if (m->rc == GRT_OK)
		m->rc = master_relay_open(m);
	if (m->rc == GRT_OK)
		m->rc = master_conf(m);
	if (m->rc == GRT_OK)
		m->rc = master_relay_events(m);
	else
		grt_events_open(&m->ev, NULL, m->t0);
	if (m->rc == GRT_OK) {
		master_start_event(m, m->t0);
		/* in the file before a worker can die: the supervisor reads it (doc/restarts.md) */
		grt_events_flush(&m->ev, m->t0);
	}
	if (m->rc == GRT_OK)
		m->rc = master_resume_open(m);
	else
		grt_journal_none(&m->jn);
	if (m->rc == GRT_OK)
		m->rc = master_relay_journal(m);
	if (m->replay.records > 0 || m->replay.cut > 0)
		master_resume_event(m, MPI_Wtime());
}

int
grt_master(MPI_Comm comm, const struct grt_app *app, const struct grt_config *cfg,
    struct grt_report *rep)
{
	struct master m;
	double now;
	int i, j, rc;

	memset(&m, 0, sizeof m);
	m.comm = comm;
	m.app = app;
	m.cfg = cfg;
	m.rep = rep;
	m.sampler = -1;
	m.relay.fd = -1;
	MPI_Comm_size(comm, &m.size);
	m.off = cfg->master_computes || m.size == 1 ? 0 : 1;
	m.nw = m.size - m.off;
	m.t0 = MPI_Wtime();
	if ((m.w = calloc((size_t)m.nw, sizeof *m.w)) == NULL)
		m.rc = GRT_ENOMEM;
	for (i = 0; m.w != NULL && i < m.nw; i++) {
		m.w[i].state = w_rank(&m, i) == 0 ? W_SELF : W_IDLE;
		m.w[i].stop_req = MPI_REQUEST_NULL;
		for (j = 0; j < GRT_DEPTH_MAX; j++)
			m.w[i].out[j].sreq = MPI_REQUEST_NULL;
	}
	master_open(&m);
	grt_usr1_seen = 0;
	if (m.rc == GRT_OK)
		master_loop(&m);
	now = MPI_Wtime();
	rep->makespan = now - m.t0;
	rep->swr = m.conf.swr;
	if (m.w != NULL)
		master_stop_all(&m);
	if (m.rc != GRT_OK || m.failed_now > 0)
		grt_failure_seen = 1;
	/* durable before the end event says the run is over */
	if (grt_journal_close(&m.jn) != GRT_OK)
		rep->journal_lost = 1;
	if (m.w != NULL)
		master_end_event(&m, now);
	rc = grt_events_close(&m.ev);
	rep->events_lost = rc != GRT_OK;
	master_relay_close(&m);
	grt_replay_free(&m.replay);

	for (i = 0; m.w != NULL && i < m.nw; i++)
		for (j = 0; j < GRT_DEPTH_MAX; j++)
			grt_buf_free(&m.w[i].out[j].sbuf);
	free(m.w);
	grt_sched_free(m.sched);
	grt_buf_free(&m.rbuf);
	grt_buf_free(&m.obuf);
	grt_buf_free(&m.ibuf);
	free(m.rq);
	free(m.pr);
	free(m.cpu);
	free(m.ri);
	master_group_free(&m);
	return m.rc;
}
