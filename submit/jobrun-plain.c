/*
 * jobrun-plain.c — the verdict on a launch whose program never started libgrt (no start
 * record in its events: a plain MPI program), judged as mpiexec judges it: done when every
 * rank exited 0, which mpiexec's status says (it is the ranks' exit statuses or'ed, a rank
 * killed by signal N counting 128+N through gridsubmit-rank); failed otherwise.
 */
#include <stdio.h>

#include "launch/launch.h"
#include "submit/jobrun.h"

int
jobrun_verdict_plain(const struct launch_result *lr, char *reason, size_t len)
{
	if (lr->master_exit == 0 && lr->mpiexec_status == 0)
		return 1;
	if (lr->master_signal > 0)
		snprintf(reason, len, "rank 0 died of signal %d (libgrt never started)",
		    lr->master_signal);
	else if (lr->master_exit > 0)
		snprintf(reason, len, "rank 0 exited with status %d (libgrt never started)",
		    lr->master_exit);
	else if (lr->master_exit == 0)
		snprintf(reason, len, "a rank failed: mpiexec exited with status %d, the ranks' "
		    "exit statuses or'ed (libgrt never started)", lr->mpiexec_status);
	else
		snprintf(reason, len, "mpiexec exited with status %d before rank 0 ended",
		    lr->mpiexec_status);
	return 0;
}
