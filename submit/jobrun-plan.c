/*
 * jobrun-plan.c — where a job's ranks go: the one placement that `run` and `submit`
 * launch and that `rank` shows as their dry run (doc/broker.md, "Placement"). A
 * multi-site job's master runs on this host; live metrics, when asked for, are read
 * before the ranking; the job gets as many ranks as fit, down to its min_ranks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker/broker.h"
#include "broker/metrics.h"
#include "broker/slurm-nodes.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "remote/remote.h"
#include "submit/jobrun.h"

/*
 * Multi-site jobs run rank 0 on the submitting host (doc/testbed.md, "Launch over ssh"):
 * events.jsonl and master.status are written here, the console and the supervisor read
 * them live, and each site's link is its link to us. A site file's master on another host
 * is replaced (with a note).
 */
static void
jobrun_master_here(struct gs_sites *sites)
{
	char me[256];

	if (!broker_sites_remote(sites) || (sites->master != NULL &&
	    remote_host_is_local(sites->master)))
		return;
	if (gethostname(me, sizeof me) != 0 || !remote_host_valid(me))
		snprintf(me, sizeof me, "localhost");
	if (sites->master != NULL)
		fprintf(stderr, "gridsubmit: rank 0 runs on this host (%s), not on the site "
		    "file's master %s: multi-site jobs keep their master here\n", me,
		    sites->master);
	free(sites->master);
	sites->master = xstrdup(me);
}

int
jobrun_plan(struct gs_sites *sites, const struct gs_job *job, const struct metrics_opts *mo,
    struct gs_ranking *rk, int *ranked, struct gs_placement *pl, int *placed,
    struct gs_error *err)
{
	size_t i, nbusy = 0;

	*ranked = *placed = 0;
	jobrun_master_here(sites);
	if (mo != NULL && metrics_fetch(sites, mo) == -1)
		log_warnx("cannot read live metrics; using the site file's values");
	/* Slurm's view of its sites' nodes is not metrics: read with --no-metrics too */
	for (i = 0; i < sites->nsites; i++)
		if (sites->sites[i].sched != NULL) {
			slurm_inventory(sites, mo != NULL && mo->timeout > 0 ? mo->timeout : 5);
			break;
		}
	if (broker_rank(sites, job, rk, err) != 0)
		return EXIT_INPUT;
	*ranked = 1;
	if (broker_place_job(sites, rk, job, pl, err) == 0) {
		*placed = 1;
		return EXIT_OK;
	}
	/*
	 * Too few free nodes: a job may wait in Slurm's queue for nodes allocated to others
	 * (what a batch site is for), so admit them (busy 2) and place again.
	 */
	for (i = rk->npassing; i < rk->n; i++)
		if (sites->nodes[rk->nodes[i].node].busy == 1 &&
		    strcmp(rk->nodes[i].filtered, "Slurm: allocated to others") == 0) {
			sites->nodes[rk->nodes[i].node].busy = 2;
			nbusy++;
		}
	if (nbusy == 0)
		return EXIT_NOPLACE;
	broker_ranking_free(rk);
	*ranked = 0;
	if (broker_rank(sites, job, rk, err) != 0)
		return EXIT_INPUT;
	*ranked = 1;
	if (broker_place_job(sites, rk, job, pl, err) != 0)
		return EXIT_NOPLACE;
	*placed = 1;
	return EXIT_OK;
}
