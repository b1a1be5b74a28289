/*
 * rank.c — filter the nodes by the job's sites and requirements, then rank the passing
 * ones by the performance function of seed 002, eq. 2 (doc/broker.md, "PF (seed 002,
 * eq. 2)"):
 *
 *	PF_j = w1 * (CS_j / CL_j) / sum_i (CS_i / CL_i) + w2 * B_j / sum_i B_i
 *
 * the sums running over the nodes that pass, B_j the node's link to wherever rank 0 runs.
 * The rules are in doc/broker.md.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "broker/broker.h"
#include "broker/expr.h"
#include "broker/metrics.h"
#include "broker/node-values.h"
#include "common/suggest.h"
#include "common/xmalloc.h"
#include "remote/remote.h"

static const char *
rank_site_name(const struct gs_sites *sites, int site)
{
	if (site >= 0 && (size_t)site < sites->nsites && sites->sites[site].name != NULL)
		return sites->sites[site].name;
	return "?";
}

static int
rank_job_has_site(const struct gs_job *job, const char *name)
{
	size_t i;

	for (i = 0; i < job->nsites; i++)
		if (strcmp(job->sites[i], name) == 0)
			return 1;
	return 0;
}

/* Every site the job names must exist: a typo would otherwise just filter everything. */
static int
rank_check_sites(const struct gs_sites *sites, const struct gs_job *job,
    struct gs_error *err)
{
	const char **names;
	const char *guess;
	size_t i, j;
	int rc = 0;

	names = xcalloc(sites->nsites + 1, sizeof *names);
	for (j = 0; j < sites->nsites; j++)
		names[j] = sites->sites[j].name;
	for (i = 0; i < job->nsites && rc == 0; i++) {
		for (j = 0; j < sites->nsites; j++)
			if (strcmp(job->sites[i], sites->sites[j].name) == 0)
				break;
		if (j < sites->nsites)
			continue;
		guess = suggest_closest(job->sites[i], names);
		snprintf(err->msg, sizeof err->msg, "%s: sites: no site '%s' in %s%s%s%s",
		    job->path != NULL ? job->path : "job", job->sites[i],
		    sites->path != NULL ? sites->path : "the site file",
		    guess != NULL ? " (did you mean '" : "", guess != NULL ? guess : "",
		    guess != NULL ? "'?)" : "");
		rc = -1;
	}
	free(names);
	return rc;
}

/*
 * A site's link in Mbit/s (negative counts as 0), or 0 for a node of no site.
 */
static double
rank_site_bw(const struct gs_sites *sites, int site)
{
	double b;

	if (site < 0 || (size_t)site >= sites->nsites)
		return 0;
	b = sites->sites[site].bandwidth_mbps;
	return b > 0 ? b : 0;
}

/*
 * The node where rank 0 runs when it is a node of the sites on another host (the site
 * file's master, jobrun_master_place), else NULL: rank 0 runs here.
 */
static const struct gs_node *
rank_master_node(const struct gs_sites *sites)
{
	size_t i;

	if (sites->master == NULL || remote_host_is_local(sites->master))
		return NULL;
	for (i = 0; i < sites->nnodes; i++)
		if (sites->nodes[i].host != NULL &&
		    strcasecmp(sites->nodes[i].host, sites->master) == 0)
			return &sites->nodes[i];
	return NULL;
}

/*
 * B_j, the node's link to wherever rank 0 runs (doc/broker.md, "The terms"). Rank 0 here:
 * its site's link. Rank 0 on node m: a node of m's site has its site's link (the master's
 * LAN, as tiger.yaml's THU); a node of another site reaches m through both sites' links,
 * so the slower one, min(B_site, B_master's site).
 */
static double
rank_link(const struct gs_sites *sites, const struct gs_node *n, const struct gs_node *m)
{
	double b = rank_site_bw(sites, n->site), bm;

	if (m == NULL || m->site == n->site)
		return b;
	bm = rank_site_bw(sites, m->site);
	return b < bm ? b : bm;
}

/* Decreasing PF; equal PFs keep the site file's order, so the ranking is deterministic. */
static int
rank_cmp(const void *a, const void *b)
{
	const struct gs_ranked *x = a, *y = b;

	if (x->pf > y->pf)
		return -1;
	if (x->pf < y->pf)
		return 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

int
broker_rank(const struct gs_sites *sites, const struct gs_job *job,
    struct gs_ranking *out, struct gs_error *err)
{
	struct expr *req = NULL;
	struct expr_error xerr;
	const struct gs_node *master = rank_master_node(sites);
	struct gs_ranked *all, *r;
	size_t i, np = 0, nf = 0;
	double sum_cpu = 0, sum_b = 0;
	char why[1024];

	memset(out, 0, sizeof *out);
	if (job->requirements != NULL &&
	    (req = expr_parse(job->requirements, &xerr)) == NULL) {
		const struct gs_loc *l = &job->requirements_loc;
		const char *file = l->file != NULL ? l->file :
		    job->path != NULL ? job->path : "job";

		/* the column in the expression maps onto the file when it is on one line */
		if (l->line > 0)
			snprintf(err->msg, sizeof err->msg, "%s:%d:%d: requirements: %s", file,
			    l->line, l->col + xerr.col - 1, xerr.msg);
		else
			snprintf(err->msg, sizeof err->msg, "%s: requirements:%d: %s", file,
			    xerr.col, xerr.msg);
		return -1;
	}
	if (rank_check_sites(sites, job, err) == -1) {
		expr_free(req);
		return -1;
	}

	all = xcalloc(sites->nnodes ? sites->nnodes : 1, sizeof *all);
	for (i = 0; i < sites->nnodes; i++) {
		const struct gs_node *n = &sites->nodes[i];
		const char *site = rank_site_name(sites, n->site);

		r = &all[i];
		r->node = i;
		r->cs = metrics_node_cs(n);
		r->cl = metrics_node_cl(n);
		/* a Slurm node without node_exporter: Slurm's CPULoad is its load1 */
		if (!n->have_metrics && n->sched_load >= 0 && n->site >= 0 &&
		    (size_t)n->site < sites->nsites && sites->sites[n->site].sched != NULL)
			r->cl = 1 + n->sched_load / (n->cores > 0 ? n->cores : 1);
		r->b = rank_link(sites, n, master);
		if (n->excluded != NULL)
			xasprintf(&r->filtered, "excluded after a failure: %s", n->excluded);
		else if (node_values_missing(n, why, sizeof why) != NULL)
			r->filtered = xstrdup(why);
		else if (job->nsites > 0 && !rank_job_has_site(job, site))
			xasprintf(&r->filtered, "site %s not in the job's sites", site);
		else if (n->unavailable != NULL)
			xasprintf(&r->filtered, "Slurm: %s", n->unavailable);
		else if (n->busy == 1)
			/* busy 2: admitted by jobrun_plan, the job waits in Slurm's queue */
			xasprintf(&r->filtered, "Slurm: allocated to others");
		else if (req != NULL)
			expr_eval(req, sites, n, &r->filtered);
		if (r->filtered == NULL) {
			sum_cpu += r->cs / r->cl;
			sum_b += r->b;
			np++;
		}
	}
	expr_free(req);

	/* seed 002, eq. 2; a term whose sum is 0 (no clock, no bandwidth known) adds nothing */
	out->nodes = xcalloc(sites->nnodes ? sites->nnodes : 1, sizeof *out->nodes);
	out->n = sites->nnodes;
	out->npassing = np;
	for (i = 0; i < sites->nnodes; i++) {
		r = &all[i];
		if (r->filtered != NULL) {
			out->nodes[np + nf++] = *r;
			continue;
		}
		r->pf_cpu = sum_cpu > 0 ? job->w1 * (r->cs / r->cl) / sum_cpu : 0;
		r->pf_bw = sum_b > 0 ? job->w2 * r->b / sum_b : 0;
		r->pf = r->pf_cpu + r->pf_bw;
		out->nodes[i - nf] = *r;
	}
	free(all);
	qsort(out->nodes, np, sizeof *out->nodes, rank_cmp);
	return 0;
}

void
broker_ranking_free(struct gs_ranking *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++)
		free(r->nodes[i].filtered);
	free(r->nodes);
	memset(r, 0, sizeof *r);
}
