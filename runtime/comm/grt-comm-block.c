/*
 * grt-comm-block.c — the loop runtime's messages under SimGrid's SMPI (grt-comm.h): a
 * message is its length (8 bytes), then its bytes, both with its tag; the receiver blocks
 * in MPI_Recv for the length and then takes the bytes from the same source. MPI keeps two
 * messages of one sender in order, so the bytes are the next message of that source and
 * tag.
 *
 * The length goes with MPI_Send, which SMPI completes at once for a message under
 * smpi/send-is-detached-thresh (65536 by default and as gridsubmit sets it): a master
 * never waits there for a worker that computes.
 */
#include <stdint.h>
#include <stdlib.h>

#include "runtime/comm/grt-comm.h"
#include "runtime/master/grt-master.h"

const int grt_comm_blocks = 1;

/*
 * The CPU time, in seconds of this host, that a rank of the MPICH build spends on its first
 * message (doc/simulate.md, "First contact"): measured on the testbed, where a worker's
 * first chunk took 14 ms of this host's CPU beyond its link's latency, however slow its
 * CPU quota (median of 15 workers of tiger, 10 to 22 ms). SMPI has no such cost; each rank
 * pays it once here, at its host's speed, as smpi_execute counts it.
 * GRT_SMPI_FIRST_CONTACT (seconds; gridsubmit simulate --first-contact-ms) puts another
 * host's in its place.
 */
#define FIRST_CONTACT_S	0.014

static int contacted;

void
grt_comm_contact(void)
{
	const char *env;
	double s = FIRST_CONTACT_S;
	char *end;

	if (contacted)
		return;
	contacted = 1;
	if ((env = getenv("GRT_SMPI_FIRST_CONTACT")) != NULL && *env != '\0') {
		s = strtod(env, &end);
		if (*end != '\0' || !(s >= 0 && s <= 1e3))
			s = FIRST_CONTACT_S;
	}
	/*
	 * SMPI counts a rank's CPU time between two MPI calls as its computation; the other
	 * ranks run in this thread while this one waits the execution out, so the count is
	 * closed before and opened again after
	 */
	smpi_bench_end();
	if (s > 0)
		smpi_execute(s);
	smpi_bench_begin();
}

int
grt_comm_isend(const void *buf, size_t len, int dest, int tag, MPI_Comm comm,
    MPI_Request *req)
{
	int64_t n = (int64_t)len;

	if (len > INT32_MAX)
		return GRT_EINVAL;
	grt_comm_contact();
	if (MPI_Send(&n, (int)sizeof n, MPI_BYTE, dest, tag, comm) != MPI_SUCCESS ||
	    MPI_Isend(buf, (int)len, MPI_BYTE, dest, tag, comm, req) != MPI_SUCCESS)
		return GRT_EMPI;
	return GRT_OK;
}

int
grt_comm_recv(MPI_Comm comm, int source, int tag, int wait, grt_buf *buf, MPI_Status *st)
{
	int64_t n;
	int flag, got;

	if (!wait) {
		if (MPI_Iprobe(source, tag, comm, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return GRT_EMPI;
		if (!flag)
			return 0;
	}
	if (MPI_Recv(&n, (int)sizeof n, MPI_BYTE, source, tag, comm, st) != MPI_SUCCESS ||
	    MPI_Get_count(st, MPI_BYTE, &got) != MPI_SUCCESS)
		return GRT_EMPI;
	if (got != (int)sizeof n || n < 0 || n > INT32_MAX)
		return GRT_EPROTO;
	grt_comm_contact();
	return grt_comm_take(comm, st, (int)n, buf);
}

/*
 * The master takes every result of a chunk it sent, unless it declared the worker failed
 * (a deadline: 4 times the chunk's expected time, 2 s at least, runtime/core/grt-deadline.h),
 * which a simulated node gives no cause for unless a speed trace slows it that much.
 */
int
grt_comm_sent(MPI_Comm comm, MPI_Request *req)
{
	(void)comm;
	return MPI_Wait(req, MPI_STATUS_IGNORE) == MPI_SUCCESS ? GRT_OK : GRT_EMPI;
}

int
grt_comm_all_ranks(void)
{
	return MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS;
}

/*
 * The master with nothing of its own to compute (master_round comes here without looking
 * first): the periodic work (events, deadlines), then a blocking receive of the next
 * result, but only while a busy worker can still send one.
 */
int
master_wait(struct master *m, int self, struct grt_backoff *bo)
{
	int rc;

	(void)bo;
	if ((rc = master_periodic(m, self, MPI_Wtime())) != GRT_OK)
		return rc;
	if (!master_can_progress(m, self))
		return GRT_ENOWORKERS;
	rc = master_poll(m, 1);
	return rc < 0 ? rc : GRT_OK;
}
