/*
 * grt-task-comm-poll.c — a task run's sending, receiving and waiting under MPICH
 * (grt-task.h): one MPI message per message, found by a probe, and an idle rank's wait one step of the
 * back-off of grt-run.c. A rank never blocks: a blocking MPICH call spins on its core, and
 * one on a dead rank never returns (doc/reliability.md). The SMPI build's are in
 * grt-task-comm-block.c.
 */
#include "runtime/task/grt-task.h"

int
tk_isend(const void *buf, size_t len, int dest, MPI_Comm comm, MPI_Request *req)
{
	if (len > INT32_MAX)
		return GRT_EINVAL;
	return MPI_Isend(buf, (int)len, MPI_BYTE, dest, GRT_TAG_TASK, comm, req) == MPI_SUCCESS ?
	    GRT_OK : GRT_EMPI;
}

int
tk_recv_any(MPI_Comm comm, grt_buf *b, int *src, double *secs)
{
	MPI_Status st;
	double t0;
	int flag, n, rc;

	if (MPI_Iprobe(MPI_ANY_SOURCE, GRT_TAG_TASK, comm, &flag, &st) != MPI_SUCCESS)
		return GRT_EMPI;
	if (!flag)
		return 0;
	if (MPI_Get_count(&st, MPI_BYTE, &n) != MPI_SUCCESS || n < 0)
		return GRT_EMPI;
	if ((rc = grt_buf_reserve(b, (size_t)n)) != GRT_OK)
		return rc;
	t0 = MPI_Wtime();
	if (MPI_Recv(b->data, n, MPI_BYTE, st.MPI_SOURCE, GRT_TAG_TASK, comm,
	    MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return GRT_EMPI;
	*secs = MPI_Wtime() - t0;
	b->len = (size_t)n;
	*src = st.MPI_SOURCE;
	return 1;
}

int
tk_wait(MPI_Comm comm, struct tk_sends *s, struct grt_backoff *bo, grt_buf *b, int *src,
    double *secs, double *clock)
{
	(void)comm;
	(void)s;
	(void)b;
	(void)src;
	(void)secs;
	*clock = grt_backoff_wait(bo);
	return 0;
}
