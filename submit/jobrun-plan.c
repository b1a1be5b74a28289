/*
 * jobrun-plan.c — where a job's ranks go: the one placement that `run` and `submit`
 * launch and that `rank` shows as their dry run (doc/broker.md, "Placement"). Rank 0
 * runs on the site file's master node, else (no master, or one that cannot take it) on
 * this host; live metrics, when asked for, are read before the ranking; the job gets as
 * many ranks as fit, down to its min_ranks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "broker/broker.h"
#include "broker/metrics.h"
#include "broker/slurm-nodes.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "remote/remote.h"
#include "submit/jobrun.h"

/* The node of the sites whose host is name (case-insensitive, RFC 4343), or NULL. */
static const struct gs_node *
jobrun_master_node(const struct gs_sites *sites, const char *name)
{
	size_t i;

	for (i = 0; i < sites->nnodes; i++)
		if (sites->nodes[i].host != NULL && strcasecmp(sites->nodes[i].host, name) == 0)
			return &sites->nodes[i];
	return NULL;
}

/*
 * Why rank 0 cannot run on the site file's master node (NULL: it can): a node left out
 * after a failure (the master lost: the relaunch runs rank 0 here, where the journal is),
 * or a node of a Slurm site, which is no one's before its allocation.
 */
static const char *
jobrun_master_refused(const struct gs_sites *sites, const struct gs_node *n, char *buf,
    size_t len)
{
	if (n == NULL)
		return "it is not a node of the sites";
	if (n->excluded != NULL) {
		snprintf(buf, len, "it was left out after a failure: %s", n->excluded);
		return buf;
	}
	if (n->site >= 0 && (size_t)n->site < sites->nsites &&
	    sites->sites[n->site].sched != NULL)
		return "a Slurm site's node is not given before its allocation";
	return NULL;
}

/* jobrun.h. */
int
jobrun_master_place(struct gs_sites *sites, char *note, size_t len)
{
	const char *refused = NULL;
	char me[256], buf[512];

	*note = '\0';
	if (!broker_sites_remote(sites) || (sites->master != NULL &&
	    remote_host_is_local(sites->master)))
		return 0;
	if (sites->master != NULL && (refused = jobrun_master_refused(sites,
	    jobrun_master_node(sites, sites->master), buf, sizeof buf)) == NULL)
		return 0;
	if (gethostname(me, sizeof me) != 0 || !remote_host_valid(me))
		snprintf(me, sizeof me, "localhost");
	if (sites->master != NULL)
		snprintf(note, len, "rank 0 runs on this host (%s), not on the site file's "
		    "master %s: %s", me, sites->master, refused);
	free(sites->master);
	sites->master = xstrdup(me);
	return *note != '\0';
}

int
jobrun_plan(struct gs_sites *sites, const struct gs_job *job, const struct metrics_opts *mo,
    struct gs_ranking *rk, int *ranked, struct gs_placement *pl, int *placed,
    struct gs_error *err)
{
	size_t i, nbusy = 0;
	char note[1024];

	*ranked = *placed = 0;
	if (jobrun_master_place(sites, note, sizeof note))
		fprintf(stderr, "gridsubmit: %s\n", note);
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
