/* grt-comm.c — what both builds of grt-comm.h share. */
#include "runtime/comm/grt-comm.h"

int
grt_comm_take(MPI_Comm comm, const MPI_Status *st, int n, grt_buf *buf)
{
	int rc;

	if ((rc = grt_buf_reserve(buf, (size_t)n)) != GRT_OK)
		return rc;
	if (MPI_Recv(buf->data, n, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, comm,
	    MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return GRT_EMPI;
	buf->len = (size_t)n;
	return 1;
}
