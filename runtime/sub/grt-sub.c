/*
 * grt-sub.c — a sub-master's life (doc/runtime.md, "The hierarchy"; the files of
 * runtime/sub/ are listed in grt-sub.h): the master's ROLE names its workers; it tells
 * each of them that it is now their boss, deals the master's chunks out to them until the
 * master's STOP, and passes the STOP on. It waits as the master does (grt-comm.h): polled
 * with a back-off under MPICH, its deadlines looked at between two messages; blocking
 * under SMPI, where no rank fails.
 */
#include <stdlib.h>
#include <string.h>

#include "runtime/comm/grt-comm.h"
#include "runtime/sub/grt-sub.h"

/* The members of the ROLE message, the scheme's conf with their PR and clocks. */
static int
sub_open(struct sub *s, const void *role, size_t len)
{
	struct grt_msg_role r;
	const unsigned char *p = role;
	int i, have_pr = 1, have_cpu = 1;

	memcpy(&r, p, sizeof r);
	if (r.nworkers < 1 || r.nworkers >= s->size ||
	    len != sizeof r + (size_t)r.nworkers * sizeof(struct grt_msg_member))
		return GRT_EPROTO;
	s->nw = r.nworkers;
	if ((s->w = calloc((size_t)s->nw, sizeof *s->w)) == NULL ||
	    (s->index = malloc((size_t)s->size * sizeof *s->index)) == NULL ||
	    (s->pr = malloc((size_t)s->nw * sizeof *s->pr)) == NULL ||
	    (s->cpu = malloc((size_t)s->nw * sizeof *s->cpu)) == NULL)
		return GRT_ENOMEM;
	for (i = 0; i < s->size; i++)
		s->index[i] = -1;
	for (i = 0; i < s->nw; i++) {
		struct sub_worker *wk = &s->w[i];
		int j;

		memcpy(&wk->info, p + sizeof r + (size_t)i * sizeof wk->info, sizeof wk->info);
		if (wk->info.rank <= 0 || wk->info.rank >= s->size || wk->info.rank == s->me ||
		    s->index[wk->info.rank] >= 0)
			return GRT_EPROTO;
		wk->rank = wk->info.rank;
		s->index[wk->rank] = i;
		for (j = 0; j < SUB_DEPTH; j++)
			wk->out[j].sreq = MPI_REQUEST_NULL;
		s->pr[i] = wk->info.pr;
		s->cpu[i] = wk->info.cpu_mhz;
		have_pr &= wk->info.pr > 0;
		have_cpu &= wk->info.cpu_mhz > 0;
	}
	/* the application's own arrays, if any, are by the master's workers: not these */
	s->conf = s->cfg->sched;
	s->conf.pr = have_pr ? s->pr : NULL;
	s->conf.cpu = have_cpu ? s->cpu : NULL;
	return GRT_OK;
}

/* Every worker of the group hears that this rank deals its chunks from now on. */
static int
sub_tell_workers(struct sub *s)
{
	static struct grt_msg_role role;
	int i, rc;

	role.boss = s->me;
	role.nworkers = 0;
	for (i = 0; i < s->nw; i++) {
		struct sub_piece *p = &s->w[i].out[0];

		if ((rc = grt_comm_isend(&role, sizeof role, s->w[i].rank, GRT_TAG_ROLE, s->comm,
		    &p->sreq)) != GRT_OK)
			return rc;
	}
	return GRT_OK;
}

/* One message: a chunk or STOP from the master, a result from a worker. */
static int
sub_message(struct sub *s, const MPI_Status *st, double now)
{
	int i;

	if (st->MPI_SOURCE == 0 && st->MPI_TAG == GRT_TAG_WORK) {
		struct grt_msg_work w;

		if (s->rbuf.len < sizeof w)
			return GRT_EPROTO;
		memcpy(&w, s->rbuf.data, sizeof w);
		return sub_chunk_add(s, &w, now);
	}
	if (st->MPI_SOURCE == 0 && st->MPI_TAG == GRT_TAG_STOP) {
		if (s->rbuf.len < sizeof s->stop)
			return GRT_EPROTO;
		memcpy(&s->stop, s->rbuf.data, sizeof s->stop);
		s->stopped = 1;
		return GRT_OK;
	}
	i = st->MPI_SOURCE >= 0 && st->MPI_SOURCE < s->size ? s->index[st->MPI_SOURCE] : -1;
	if (i < 0 || st->MPI_TAG != GRT_TAG_RESULT)
		return GRT_EPROTO;
	/* a failed worker's late answer: its pieces are someone else's now */
	if (s->w[i].failed)
		return GRT_OK;
	return sub_result(s, i, &s->rbuf, now);
}

/* The master's STOP to every worker (a failed one too, in case it is only late). */
static void
sub_stop_all(struct sub *s, int rc)
{
	static struct grt_msg_stop stop;
	MPI_Request req;
	int i, j;

	stop.reason = rc == GRT_OK ? s->stop.reason : GRT_STOP_ERROR;
	stop.failure_seen = s->stop.failure_seen || s->failed > 0;
	for (i = 0; i < s->nw; i++) {
		struct sub_worker *wk = &s->w[i];

		for (j = 0; j < SUB_DEPTH && !wk->failed; j++)
			if (wk->out[j].sreq != MPI_REQUEST_NULL)
				MPI_Wait(&wk->out[j].sreq, MPI_STATUS_IGNORE);
		if (grt_comm_isend(&stop, sizeof stop, wk->rank, GRT_TAG_STOP, s->comm,
		    &req) == GRT_OK)
			MPI_Request_free(&req);
	}
	if (s->oreq != MPI_REQUEST_NULL)
		MPI_Wait(&s->oreq, MPI_STATUS_IGNORE);
	if (stop.failure_seen || stop.reason == GRT_STOP_ERROR)
		grt_failure_seen = 1;
}

static int
sub_loop(struct sub *s)
{
	struct grt_backoff bo;
	MPI_Status st;
	double now;
	int rc = GRT_OK;

	grt_backoff_reset(&bo);
	while (!s->stopped && rc == GRT_OK) {
		rc = grt_comm_recv(s->comm, MPI_ANY_SOURCE, MPI_ANY_TAG, grt_comm_blocks,
		    &s->rbuf, &st);
		if (rc < 0)
			break;
		if (rc == 0) {
			if ((now = grt_backoff_wait(&bo)) > 0 || grt_usr1_seen)
				rc = sub_check_deadlines(s, now > 0 ? now : MPI_Wtime());
			continue;
		}
		grt_backoff_reset(&bo);
		now = MPI_Wtime();
		if ((rc = sub_message(s, &st, now)) == GRT_OK && !grt_comm_blocks)
			rc = sub_check_deadlines(s, now);
	}
	return rc;
}

int
grt_sub(MPI_Comm comm, const struct grt_app *app, const struct grt_config *cfg,
    struct grt_report *rep, const void *role, size_t len)
{
	struct sub s;
	int i, j, rc;

	memset(&s, 0, sizeof s);
	s.comm = comm;
	s.app = app;
	s.cfg = cfg;
	s.rep = rep;
	s.oreq = MPI_REQUEST_NULL;
	MPI_Comm_size(comm, &s.size);
	MPI_Comm_rank(comm, &s.me);
	if ((rc = sub_open(&s, role, len)) == GRT_OK &&
	    (rc = sub_tell_workers(&s)) == GRT_OK)
		rc = sub_loop(&s);
	if (rc == GRT_OK && s.stop.reason == GRT_STOP_ERROR)
		rc = GRT_EMASTER;
	if (s.w != NULL)
		sub_stop_all(&s, rc);
	sub_chunks_free(&s);
	for (i = 0; s.w != NULL && i < s.nw; i++)
		for (j = 0; j < SUB_DEPTH; j++)
			grt_buf_free(&s.w[i].out[j].sbuf);
	grt_buf_free(&s.rbuf);
	grt_buf_free(&s.obuf);
	grt_buf_free(&s.notes);
	free(s.w);
	free(s.index);
	free(s.pr);
	free(s.cpu);
	return rc;
}
