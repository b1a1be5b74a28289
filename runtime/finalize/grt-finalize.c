/*
 * grt-finalize.c — libgridsubmit-finalize.so: the end of a plain MPI program (one without
 * libgrt) under gridsubmit, without MPICH's hang in MPI_Finalize over tcp.
 *
 * Measured (doc/reliability.md, "MPI_Finalize over tcp, in programs without libgrt"): with
 * MPICH 4.0.2 over UCX's tcp transport, the transport of every job with ranks on more than
 * one host, MPI_Finalize hangs in most runs of a correct program, one rank spinning in
 * UCX's endpoint disconnect while the others wait in the PMI barrier. libgrt programs never
 * get there (grt_end() in runtime/core/grt-end.c); a user's program calls MPI_Finalize
 * itself. gridsubmit-rank preloads this library into every rank's program (LD_PRELOAD), so
 * that the program's call lands here:
 * - under GRT_FINALIZE=skip (gridsubmit sets it only with mpiexec -disable-auto-cleanup,
 *   under which a rank may leave without MPI_Finalize) and with MPICH: every rank meets the
 *   others in a barrier on MPI_COMM_WORLD (no rank leaves while another still needs it; a
 *   failed rank stops the whole launch at once, launch/launch-ends.c, so nobody waits here
 *   for a dead one), stdio is flushed, hydra's proxy is told the rank ends on purpose
 *   (grt_pmi_finalize(), the exchange MPI_Finalize ends with) and MPI_SUCCESS is returned.
 *   MPI is not torn down: the process's exit does that. MPI_Finalized says 1 from then on;
 *   MPI_Initialized still says 1, as after a real MPI_Finalize;
 * - otherwise (another launcher, another MPI, MPI not initialized or already finalized)
 *   the real PMPI_Finalize.
 * The PMPI_* functions are looked up when called (dlsym), never linked: the library loads
 * harmlessly into programs that are not MPI programs (/bin/sh, /bin/sleep), whose
 * MPI_Finalize is never called. It exports these two functions and nothing else (built
 * with -fvisibility=hidden), so its copy of grt_pmi_finalize never meets libgrt's. A
 * statically linked program does not see it at all.
 */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/grt-pmi.h"

typedef int (*finalize_fn)(void);
typedef int (*flag_fn)(int *);
typedef int (*barrier_fn)(MPI_Comm);
typedef int (*version_fn)(char *, int *);

/* 1 once MPI_Finalize ended this rank's MPI here, without PMPI_Finalize. */
static int ended_here;

/* The MPI function name as the program's MPI library defines it, or NULL. */
static void *
pmpi(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

/*
 * Whether this MPI_Finalize may end the rank without PMPI_Finalize: gridsubmit said so
 * (GRT_FINALIZE=skip), the library is MPICH (MPI_COMM_WORLD below is MPICH's handle, and
 * the PMI exchange is hydra's) and MPI is initialized and not finalized.
 */
static int
finalize_skip(void)
{
	static char version[MPI_MAX_LIBRARY_VERSION_STRING];
	const char *how = getenv("GRT_FINALIZE");
	version_fn lib_version;
	flag_fn initialized, finalized;
	int len, in = 0, out = 1;

	if (how == NULL || strcmp(how, "skip") != 0)
		return 0;
	*(void **)&lib_version = pmpi("PMPI_Get_library_version");
	*(void **)&initialized = pmpi("PMPI_Initialized");
	*(void **)&finalized = pmpi("PMPI_Finalized");
	if (lib_version == NULL || initialized == NULL || finalized == NULL ||
	    lib_version(version, &len) != MPI_SUCCESS || strncmp(version, "MPICH", 5) != 0)
		return 0;
	return initialized(&in) == MPI_SUCCESS && in && finalized(&out) == MPI_SUCCESS && !out;
}

__attribute__((visibility("default"))) int
MPI_Finalize(void)
{
	finalize_fn real;
	barrier_fn barrier;

	if (finalize_skip()) {
		*(void **)&barrier = pmpi("PMPI_Barrier");
		if (barrier != NULL && barrier(MPI_COMM_WORLD) == MPI_SUCCESS) {
			fflush(NULL);
			grt_pmi_finalize();
			ended_here = 1;
			return MPI_SUCCESS;
		}
	}
	*(void **)&real = pmpi("PMPI_Finalize");
	return real != NULL ? real() : MPI_ERR_OTHER;
}

__attribute__((visibility("default"))) int
MPI_Finalized(int *flag)
{
	flag_fn real;

	if (ended_here) {
		*flag = 1;
		return MPI_SUCCESS;
	}
	*(void **)&real = pmpi("PMPI_Finalized");
	return real != NULL ? real(flag) : MPI_ERR_OTHER;
}
