/*
 * grt-comm-poll.c — the loop runtime's messages under MPICH (grt-comm.h): one MPI message
 * each, waited for by probes with the back-off of grt-run.c, which leaves the CPU to the
 * ranks that compute when several share a core.
 */
#include <time.h>

#include "runtime/comm/grt-comm.h"
#include "runtime/master/grt-master.h"

#define END_SYNC_GRACE	2.0	/* seconds to wait in the end barrier after a rank exited */
#define QUIET_SHARE	0.8	/* of a chunk's expected time, slept through */
#define QUIET_MIN_S	50e-6	/* no sleep shorter: the kernel's timer slack */
#define QUIET_MAX_S	1e-3	/* no sleep longer: the back-off's longest */

const int grt_comm_blocks = 0;

int
grt_comm_isend(const void *buf, size_t len, int dest, int tag, MPI_Comm comm,
    MPI_Request *req)
{
	if (len > INT32_MAX)
		return GRT_EINVAL;
	return MPI_Isend(buf, (int)len, MPI_BYTE, dest, tag, comm, req) == MPI_SUCCESS ?
	    GRT_OK : GRT_EMPI;
}

int
grt_comm_recv(MPI_Comm comm, int source, int tag, int wait, grt_buf *buf, MPI_Status *st)
{
	struct grt_backoff bo;
	int flag, n;

	grt_backoff_reset(&bo);
	for (;;) {
		if (MPI_Iprobe(source, tag, comm, &flag, st) != MPI_SUCCESS)
			return GRT_EMPI;
		if (flag)
			break;
		if (!wait)
			return 0;
		grt_backoff_wait(&bo);
	}
	if (MPI_Get_count(st, MPI_BYTE, &n) != MPI_SUCCESS || n < 0)
		return GRT_EMPI;
	return grt_comm_take(comm, st, n, buf);
}

int
grt_comm_sent(MPI_Comm comm, MPI_Request *req)
{
	struct grt_backoff bo;
	int done = 0, stop = 0;

	grt_backoff_reset(&bo);
	for (;;) {
		if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return GRT_EMPI;
		if (done)
			return GRT_OK;
		/* from the master, or from a worker's sub-master */
		if (MPI_Iprobe(MPI_ANY_SOURCE, GRT_TAG_STOP, comm, &stop, MPI_STATUS_IGNORE) !=
		    MPI_SUCCESS)
			return GRT_EMPI;
		if (stop) {
			/*
			 * The STOP may have come after the master took this very result (its
			 * last): the send is then complete, only not yet seen as such when
			 * this loop looked. Else the request stays pending: never
			 * MPI_Finalize after this.
			 */
			if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
				return GRT_EMPI;
			if (!done)
				grt_failure_seen = 1;
			return GRT_OK;
		}
		grt_backoff_wait(&bo);
	}
}

/*
 * Every rank meets the others in a non-blocking barrier, so that no rank leaves while
 * another still needs it. It waits as long as it takes (the master may be writing a large
 * result), but once hydra signals that a rank has exited (SIGUSR1) only END_SYNC_GRACE
 * more: that rank was past the barrier.
 */
int
grt_comm_all_ranks(void)
{
	MPI_Request req;
	struct grt_backoff bo;
	double gave_up = 0;
	int done = 0;

	if (MPI_Ibarrier(MPI_COMM_WORLD, &req) != MPI_SUCCESS)
		return 0;
	grt_backoff_reset(&bo);
	for (;;) {
		if (MPI_Test(&req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return 0;
		if (done)
			return 1;
		if (grt_usr1_seen) {
			double now = MPI_Wtime();

			if (gave_up == 0)
				gave_up = now + END_SYNC_GRACE;
			else if (now > gave_up)
				return 0;
		}
		grt_backoff_wait(&bo);
	}
}

/*
 * Seconds the master may sleep before a result is due: until the earliest expected end of
 * a busy worker's head chunk (its last per-unit t_exe times the chunk's units, after the
 * chunk started), less a fifth of that chunk's expected time, for chunks that run short.
 * 0 when a result is due now or a busy worker has no estimate yet. A dedicated master that
 * probes without pause takes a core from the workers when ranks share cores.
 */
static double
master_quiet(const struct master *m, double now)
{
	double due = -1, end;
	int i;

	for (i = 0; i < m->nw; i++) {
		const struct worker *wk = &m->w[i];

		if (wk->state != W_BUSY)
			continue;
		if (wk->unit_exe <= 0)
			return 0;
		end = wk->t_head + QUIET_SHARE * wk->unit_exe *
		    (double)wk->out[wk->head].c.count;
		if (due < 0 || end < due)
			due = end;
	}
	return due > now ? due - now : 0;
}

/* Sleep while no result is due, at most QUIET_MAX_S at a time. */
static void
master_doze(const struct master *m, double now)
{
	struct timespec ts;
	double q = master_quiet(m, now);

	if (q < QUIET_MIN_S)
		return;
	if (q > QUIET_MAX_S)
		q = QUIET_MAX_S;
	ts.tv_sec = 0;
	ts.tv_nsec = (long)(q * 1e9);
	nanosleep(&ts, NULL);
}

/*
 * One empty look of the master's loop: a step of the back-off; when it read the clock
 * (every BACKOFF_CHECK looks) or hydra signalled, the periodic work, then a doze while no
 * result is due. The clock is not read per look: on this machine a clock read costs as
 * much as a look for a message.
 */
int
master_wait(struct master *m, int self, struct grt_backoff *bo)
{
	double now;
	int rc;

	if ((now = grt_backoff_wait(bo)) <= 0) {
		if (!grt_usr1_seen)
			return GRT_OK;
		now = MPI_Wtime();
	}
	if ((rc = master_periodic(m, self, now)) == GRT_OK)
		master_doze(m, now);
	return rc;
}
