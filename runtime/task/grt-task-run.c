/*
 * grt-task-run.c — grt_tasks_run (grt.h, doc/tasks.md): check the application and the
 * configuration (no hierarchy: doc/runtime.md, "The hierarchy"), then rank 0 is the
 * master and every other rank a worker.
 */
#include <stdio.h>
#include <string.h>

#include "runtime/task/grt-task.h"

int
grt_tasks_default(MPI_Comm comm, const struct grt_config *cfg)
{
	int size, n;

	if (MPI_Comm_size(comm, &size) != MPI_SUCCESS)
		return 1;
	n = size - 1 - (cfg != NULL ? cfg->spare : 0);
	return n > 1 ? n : 1;
}

int
grt_tasks_run(MPI_Comm comm, const struct grt_task_app *app, const struct grt_config *cfg,
    struct grt_report *rep)
{
	MPI_Errhandler old;
	int rank, size, rc;

	memset(rep, 0, sizeof *rep);
	if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS)
		return GRT_EMPI;
	rep->rank = rank;
	rep->is_master = rank == 0;
	if (app == NULL || cfg == NULL || app->tasks < 1 || app->steps < 1 || app->init == NULL ||
	    app->unpack == NULL || app->pack == NULL || app->step == NULL)
		return GRT_EINVAL;
	if (size < 2 || cfg->spare < 0 || cfg->spare > size - 2) {
		snprintf(rep->why, sizeof rep->why, "a task run needs a master and at least one "
		    "worker that is not a spare: %d ranks, %d spares", size, cfg->spare);
		return GRT_EINVAL;
	}
	/* sub-masters would have to follow moves and forward mail: not done (doc/runtime.md) */
	if (cfg->hierarchy != GRT_HIER_NONE && cfg->hierarchy != GRT_HIER_AUTO) {
		snprintf(rep->why, sizeof rep->why, "the task runtime has no sub-masters: "
		    "hierarchy must be none (or auto) with migratable tasks");
		return GRT_EINVAL;
	}
	if ((rc = grt_run_enter(comm, &old)) != GRT_OK)
		return rc;
	rc = rank == 0 ? grt_task_master(comm, app, cfg, rep) :
	    grt_task_worker(comm, app, cfg, rep);
	grt_run_leave(comm, old);
	return rc;
}

int
tk_first_rank(int task, int size, int spare)
{
	return 1 + task % (size - 1 - spare);
}
