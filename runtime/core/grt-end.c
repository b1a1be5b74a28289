/*
 * grt-end.c — grt_end(): the end of a libgrt program, without a hang.
 *
 * Measured on Debian 12 (MPICH 4.0.2 ch4:ucx, UCX 1.13.1; doc/runtime.md, "Failures",
 * item "The end of a clean run"):
 * with UCX_TLS=self,tcp, the transport of every multi-host job, MPI_Finalize hangs in
 * about a third of the runs of a program that does nothing wrong (4 ranks, one send each,
 * 20 runs: 3 to 17 hung, more often when the ranks arrive together). Some ranks spin in
 * UCX's disconnect of an endpoint while the others already wait in the PMI barrier that
 * ends MPI_Finalize, and nothing ever moves again. So the end is:
 *   1. after a failure: nothing (MPI_Finalize hangs in the survivors: doc/reliability.md,
 *      "A dead worker under MPICH 4.0.2");
 *   2. otherwise every rank meets the others in a barrier (grt_comm_all_ranks), so that
 *      no rank leaves while another still needs it; under MPICH a non-blocking one that
 *      gives up shortly after hydra signals that a rank has exited;
 *   3. under gridsubmit (GRT_FINALIZE=skip, set only together with mpiexec
 *      -disable-auto-cleanup, under which a rank that exits without MPI_Finalize does not
 *      take the others down): no MPI_Finalize at all. The rank still tells hydra's proxy
 *      that it ended on purpose (PMI-1 "finalize", what MPI_Finalize sends last): a rank
 *      that closes its PMI connection without it is taken for a failed one, and when the
 *      proxy notices the close before the exit (2 % of runs, measured) hydra reports the
 *      clean rank as "Hangup (signal 1)" and mpiexec exits with status 1 (grt-pmi.c,
 *      which the plain programs' interposer runtime/finalize/ shares);
 *   4. otherwise MPI_Finalize, under a watchdog thread that ends the process with the
 *      same status when it has not returned within FINALIZE_LIMIT seconds.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runtime/comm/grt-comm.h"
#include "runtime/core/grt-internal.h"
#include "runtime/core/grt-pmi.h"

#define FINALIZE_LIMIT	5	/* seconds MPI_Finalize may take */

static int end_status;

static void *
end_watchdog(void *arg)
{
	struct timespec ts = { FINALIZE_LIMIT, 0 };

	(void)arg;
	while (nanosleep(&ts, &ts) == -1)
		;
	fflush(NULL);
	_exit(end_status);
	return NULL;
}

int
grt_end(int rc)
{
	const char *how = getenv("GRT_FINALIZE");
	pthread_attr_t attr;
	pthread_t dog;

	end_status = rc == GRT_OK ? 0 : 1;
	fflush(NULL);
	if (grt_failure_seen || !grt_comm_all_ranks())
		return end_status;
	if (how != NULL && strcmp(how, "skip") == 0) {
		grt_pmi_finalize();
		return end_status;
	}
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&dog, &attr, end_watchdog, NULL) != 0) {
		/* no watchdog, no MPI_Finalize: a hang would be worse than a missing finalize */
		pthread_attr_destroy(&attr);
		return end_status;
	}
	pthread_attr_destroy(&attr);
	MPI_Finalize();
	return end_status;
}
