/* grt-run.c — grt_run() and the poll back-off shared by master and workers. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runtime/core/grt-internal.h"

int grt_failure_seen;
volatile sig_atomic_t grt_usr1_seen;

static void
run_on_usr1(int sig)
{
	(void)sig;
	grt_usr1_seen = 1;
}

/*
 * Spin for BACKOFF_SPIN_S before the first sleep, whatever a probe costs: a peer that
 * pauses for a moment (the master writing its events, a page fault) must not find this
 * rank asleep. A sleep lasts at least the timer slack (50 us by default), and two ranks
 * that each sleep while waiting for the other slow a fast exchange down many times
 * (bench-grt, events on, with 2000 probes before the first sleep: 0.44 of events off).
 */
#define BACKOFF_SPIN_S	0.002
#define BACKOFF_CHECK	64		/* probes between two looks at the clock */
#define BACKOFF_MIN_NS	2000L
#define BACKOFF_MAX_NS	1000000L	/* 1 ms: the latency a quiet rank may add */

void
grt_backoff_reset(struct grt_backoff *b)
{
	b->spins = 0;
	b->since = 0;
	b->sleep_ns = BACKOFF_MIN_NS;
}

double
grt_backoff_wait(struct grt_backoff *b)
{
	struct timespec ts;
	double now;

	if (++b->spins % BACKOFF_CHECK != 0)
		return 0;
	now = MPI_Wtime();
	if (b->since == 0) {
		b->since = now;
		return now;
	}
	if (b->sleep_ns == BACKOFF_MIN_NS && now - b->since < BACKOFF_SPIN_S)
		return now;
	ts.tv_sec = 0;
	ts.tv_nsec = b->sleep_ns;
	nanosleep(&ts, NULL);
	if (b->sleep_ns < BACKOFF_MAX_NS)
		b->sleep_ns *= 2;
	if (b->sleep_ns > BACKOFF_MAX_NS)
		b->sleep_ns = BACKOFF_MAX_NS;
	return now;
}

int
grt_run_enter(MPI_Comm comm, MPI_Errhandler *old)
{
	struct sigaction sa;

	/*
	 * hydra (with -disable-auto-cleanup) sends SIGUSR1 to every rank when one exits; its
	 * default action would kill the survivors. The master takes it as a hint to check
	 * deadlines sooner; the handler stays for the rest of the process's life.
	 */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = run_on_usr1;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	/*
	 * MPI errors come back as codes while the run lasts: the STOP that the master still
	 * sends a worker it declared failed fails over tcp when the worker is dead (UCX's
	 * endpoint timeout), and must not abort the master of a run that has succeeded.
	 */
	if (MPI_Comm_get_errhandler(comm, old) != MPI_SUCCESS ||
	    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN) != MPI_SUCCESS)
		return GRT_EMPI;
	return GRT_OK;
}

void
grt_run_leave(MPI_Comm comm, MPI_Errhandler old)
{
	/* SMPI (gridsubmit simulate) gives no handle for the default handler: none to restore */
	if (old != MPI_ERRHANDLER_NULL) {
		MPI_Comm_set_errhandler(comm, old);
		MPI_Errhandler_free(&old);
	}
}

int
grt_run(MPI_Comm comm, const struct grt_app *app, const struct grt_config *cfg,
    struct grt_report *rep)
{
	MPI_Errhandler old;
	int rank, rc;

	memset(rep, 0, sizeof *rep);
	if (app == NULL || cfg == NULL || app->units < 0 || app->rounds < 1 ||
	    app->compute == NULL)
		return GRT_EINVAL;
	if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS)
		return GRT_EMPI;
	rep->rank = rank;
	rep->is_master = rank == 0;
	if ((rc = grt_run_enter(comm, &old)) != GRT_OK)
		return rc;
	rc = rank == 0 ? grt_master(comm, app, cfg, rep) : grt_worker(comm, app, cfg, rep);
	grt_run_leave(comm, old);
	return rc;
}

const char *
grt_report_error(int rc, const struct grt_report *rep)
{
	return rep != NULL && rep->why[0] != '\0' ? rep->why : grt_strerror(rc);
}
