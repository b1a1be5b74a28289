/*
 * jobrun-ranks.c — the ranks' ends of a launch (common/rank-end.h, doc/restarts.md, "Every
 * rank's end"): recorded in the job's state, and the verdict on a program that never
 * started libgrt, which is judged as mpiexec judges it: by the first rank that failed.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/log.h"
#include "common/rank-end.h"
#include "common/text.h"
#include "submit/jobrun.h"

void
jobrun_ranks_record(struct job_state *st)
{
	struct rank_end *v;
	size_t n;

	if (rank_ends_read(st->dir, &v, &n) != 0) {
		log_warn("job %s: %s/%s", st->id, st->dir, RANK_ENDS_FILE);
		return;
	}
	jobstore_rank_ends_set(st, v, n);
	free(v);
}

int
jobrun_ranks_failure(const struct job_state *st, char *reason, size_t len, int *restartable)
{
	const struct rank_end *e = rank_ends_first_failure(st->rank_ends, st->nrank_ends);

	if (e == NULL)
		return 0;
	rank_end_text(e, reason, len);
	/* a signal is a loss a relaunch may mend; a status is the program's own decision */
	*restartable = e->signal != 0;
	return 1;
}

void
jobrun_ranks_report(const struct jobrun *jr)
{
	char n[48];
	const struct job_state *st = &jr->st;

	fprintf(stderr, "gridsubmit: job %s %s in %.2f s (%s, without libgrt)%s%s\n",
	    st->id, job_phase_name(st->phase), st->ended - st->submitted,
	    text_plural(n, sizeof n, st->ranks, "rank", NULL),
	    st->reason != NULL ? ": " : "", st->reason != NULL ? st->reason : "");
}
