/* grt-internal.h — what the parts of libgrt share and applications do not see. */
#ifndef GRT_INTERNAL_H
#define GRT_INTERNAL_H

#include "grt/grt.h"

/* One line of the rank map. */
struct grt_rankinfo {
	char node[64];
	char site[64];
	double pf;
	double pr;
	double cpu_mhz;
};

/* Read the rank map: GRT_OK with an allocated array, GRT_EINVAL, GRT_ENOMEM. */
int grt_rankmap_load(const char *path, struct grt_rankinfo **out, int *count);

#include <signal.h>

/* Set once a rank failed in this process's view: grt_end() must not finalize. */
extern int grt_failure_seen;

/* Set by SIGUSR1, which hydra (-disable-auto-cleanup) sends when a rank exits. */
extern volatile sig_atomic_t grt_usr1_seen;

/* Poll back-off: spin for 2 ms, then sleep a little longer each time, up to 1 ms. */
struct grt_backoff {
	unsigned spins;
	double since;		/* MPI_Wtime() of the first look at the clock; 0: none yet */
	long sleep_ns;
};
void grt_backoff_reset(struct grt_backoff *b);
/* Returns the clock when it read it (before any sleep), 0 when it did not. */
double grt_backoff_wait(struct grt_backoff *b);

/*
 * Around a run (loop or tasks): SIGUSR1 caught into grt_usr1_seen, and MPI errors on comm
 * returned as codes (the handler before is kept in *old); then the handler put back.
 */
int grt_run_enter(MPI_Comm comm, MPI_Errhandler *old);
void grt_run_leave(MPI_Comm comm, MPI_Errhandler old);

int grt_master(MPI_Comm comm, const struct grt_app *app, const struct grt_config *cfg,
    struct grt_report *rep);
int grt_worker(MPI_Comm comm, const struct grt_app *app, const struct grt_config *cfg,
    struct grt_report *rep);
/*
 * A sub-master (runtime/sub/grt-sub.c): role is the master's ROLE message (len bytes),
 * naming its workers. Runs the scheme for them over the chunks the master gives it until
 * the master's STOP; returns as grt_worker does.
 */
int grt_sub(MPI_Comm comm, const struct grt_app *app, const struct grt_config *cfg,
    struct grt_report *rep, const void *role, size_t len);

#endif
