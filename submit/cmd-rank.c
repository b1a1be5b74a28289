/*
 * cmd-rank.c — show how the broker ranks the nodes for a job: the terms of the performance
 * function (seed 002, eq. 2) per node, the placement of the job's ranks and, with
 * --explain, why a node was filtered out or has stale metrics (doc/broker.md).
 *
 *   gridsubmit rank JOB.yaml [--sites F] [--ranks N] [--oversubscribe] [--explain] [--json]
 *                            [--no-metrics] [--timeout S]
 *
 * Exit: 0 placed; 3 a bad site or job file (or requirements); 4 too few nodes or slots
 * pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "broker/broker.h"
#include "broker/metrics.h"
#include "broker/node-values.h"
#include "common/jsonout.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "remote/remote.h"
#include "submit/cmd.h"
#include "submit/jobrun.h"
#include "submit/userconf.h"

extern const struct cmd_entry cmd_rank_entry;

struct rank_args {
	const char *job;
	const char *sites;
	int ranks;		/* 0: the job's */
	int explain;
	int json;
	int metrics;
	double timeout;		/* 0: the default */
	int oversubscribe;	/* --oversubscribe */
};

static const char *
rank_site(const struct gs_sites *s, const struct gs_node *n)
{
	if (n->site >= 0 && (size_t)n->site < s->nsites)
		return s->sites[n->site].name;
	return "?";
}

static const char *
rank_metrics_state(const struct gs_node *n)
{
	if (n->stale != NULL)
		return "stale";
	if (n->have_metrics)
		return "live";
	return "-";
}

/* 1 when the node is one of a site behind Slurm (slurm-site.h). */
static int
rank_is_slurm(const struct gs_sites *s, const struct gs_node *n)
{
	return n->site >= 0 && (size_t)n->site < s->nsites && s->sites[n->site].sched != NULL;
}

/* Slurm's view of a node as the inventory left it (slurm-site.h): one word. */
static const char *
rank_slurm_state(const struct gs_node *n)
{
	if (n->unavailable != NULL)
		return "unavailable";
	if (n->busy == 2)
		return "waits";
	return n->busy ? "busy" : "free";
}

/* The Slurm object of a node of a Slurm site in --json. */
static json_t *
rank_slurm_json(const struct gs_node *n)
{
	return json_pack("{s:s, s:o, s:b, s:o, s:o}", "state", rank_slurm_state(n),
	    "unavailable", jsonout_str(n->unavailable), "busy", n->busy != 0,
	    "cpu_load", n->sched_load >= 0 ? jsonout_num(n->sched_load) : json_null(),
	    "features", jsonout_str(n->features));
}

/* The placement as the text shows it: {host, ranks} in rank order, and the master's host. */
static json_t *
rank_placement_json(const struct gs_sites *s, const struct gs_placement *pl)
{
	json_t *hosts = json_array();
	int r, n;

	for (r = 0; r < pl->nranks; r += n) {
		for (n = 1; r + n < pl->nranks && pl->ranks[r + n].node == pl->ranks[r].node; n++)
			;
		json_array_append_new(hosts, json_pack("{s:s, s:i, s:i}", "host",
		    broker_rank_host(s, pl, r), "first_rank", r, "ranks", n));
	}
	return json_pack("{s:i, s:s, s:o}", "ranks", pl->nranks, "master",
	    broker_rank_host(s, pl, 0), "hosts", hosts);
}

/*
 * The ranking and the placement as one document (gridsubmit-json(5)), with the error
 * object when code (the exit status) is not 0: why there is no placement. 0, or -1.
 */
static int
rank_print_json(const struct gs_sites *s, const struct gs_ranking *rk,
    const struct gs_placement *pl, int code, const char *why)
{
	json_t *doc, *nodes;
	char msg[1100];
	size_t i;

	nodes = json_array();
	for (i = 0; i < rk->n; i++) {
		const struct gs_ranked *r = &rk->nodes[i];
		const struct gs_node *n = &s->nodes[r->node];
		json_t *o;

		o = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, "
		    "s:o, s:b, s:s, s:o, s:o}", "host", n->host, "site", rank_site(s, n),
		    "cs", jsonout_num(r->cs), "cl", jsonout_num(r->cl), "b", jsonout_num(r->b),
		    "pf_cpu", jsonout_num(r->pf_cpu), "pf_bw", jsonout_num(r->pf_bw),
		    "pf", jsonout_num(r->pf), "pr", jsonout_num(r->pr), "selected", r->selected,
		    "metrics", rank_metrics_state(n), "filtered", jsonout_str(r->filtered),
		    "stale", jsonout_str(n->stale));
		json_object_set_new(o, "cores", json_integer(n->cores));
		json_object_set_new(o, "cpu_mhz", jsonout_num(n->cpu_mhz));
		json_object_set_new(o, "mem_mb", jsonout_num(n->mem_mb));
		json_object_set_new(o, "slots", json_integer(n->slots));
		json_object_set_new(o, "sources", node_values_json(n));
		/* only on a node of a Slurm site: the others keep their keys */
		if (rank_is_slurm(s, n))
			json_object_set_new(o, "slurm", rank_slurm_json(n));
		json_array_append_new(nodes, o);
	}
	doc = json_pack("{s:o, s:o}", "nodes", nodes, "placement",
	    pl != NULL ? rank_placement_json(s, pl) : json_null());
	if (doc != NULL && code != 0) {
		snprintf(msg, sizeof msg, "no placement: %s", why);
		json_object_set_new(doc, "error", jsonout_error(code, msg));
	}
	return jsonout_print(doc);
}

/* --explain: every node of a Slurm site as Slurm sees it (the inventory). */
static void
rank_print_slurm(const struct gs_sites *s, const struct gs_ranking *rk)
{
	size_t i, n = 0;

	for (i = 0; i < rk->n; i++) {
		const struct gs_node *nd = &s->nodes[rk->nodes[i].node];

		if (!rank_is_slurm(s, nd))
			continue;
		if (n++ == 0)
			printf("\nSlurm (read through the login hosts):\n");
		printf("  %s (%s): ", nd->host, rank_site(s, nd));
		if (nd->unavailable != NULL)
			printf("unavailable, %s", nd->unavailable);
		else if (nd->busy == 2)
			printf("busy (the job would wait in Slurm's queue)");
		else if (nd->busy)
			printf("busy (allocated to others)");
		else
			printf("free");
		if (nd->sched_load >= 0)
			printf(", CPULoad %.2f", nd->sched_load);
		if (nd->features != NULL)
			printf(", features %s", nd->features);
		printf("\n");
	}
}

/*
 * --explain: where rank 0 runs and why, and what B measures therefore (doc/broker.md,
 * "The terms"). file_master: the site file's master: as written (NULL: none).
 */
static void
rank_print_master(const struct gs_sites *s, const struct gs_placement *pl,
    const char *file_master)
{
	const char *host = broker_rank_host(s, pl, 0);
	size_t node = pl->ranks[0].node;

	printf("\nrank 0 (the master): ");
	if (!remote_host_is_local(host) && node != BROKER_NODE_NONE) {
		printf("on %s, the site file's master; B is each node's link to it: its "
		    "site's link in %s, else the slower of its site's and %s's\n", host,
		    rank_site(s, &s->nodes[node]), rank_site(s, &s->nodes[node]));
		return;
	}
	printf("on this host (%s)", host != NULL ? host : "localhost");
	if (!broker_placement_remote(s, pl))
		printf(": every rank runs here\n");
	else if (file_master == NULL)
		printf(": the site file names no master; B is each site's link to this "
		    "host\n");
	else
		printf(", not on the site file's master %s (the note above says why); B is "
		    "each site's link to this host\n", file_master);
}

/* --explain: each node's cores, cpu_mhz and mem_mb with where they come from. */
static void
rank_print_values(const struct gs_sites *s, const struct gs_ranking *rk)
{
	char cores[1024], mhz[1024], mem[1024];
	size_t i;

	printf("\nnode values:\n");
	for (i = 0; i < rk->n; i++) {
		const struct gs_node *nd = &s->nodes[rk->nodes[i].node];

		printf("  %s (%s): cores %d (%s), cpu_mhz %.0f (%s), mem_mb %.0f (%s), slots %d\n",
		    nd->host, rank_site(s, nd), nd->cores,
		    node_value_source(nd, NODE_VALUE_CORES, cores, sizeof cores), nd->cpu_mhz,
		    node_value_source(nd, NODE_VALUE_MHZ, mhz, sizeof mhz), nd->mem_mb,
		    node_value_source(nd, NODE_VALUE_MEM, mem, sizeof mem), nd->slots);
	}
}

static void
rank_print_text(const struct gs_sites *s, const struct gs_job *job,
    const struct gs_ranking *rk, const struct gs_placement *pl, int nranks,
    const struct rank_args *a, const char *file_master)
{
	size_t i, nstale = 0, hw = 4, sw = 4;
	int r, n;

	for (i = 0; i < rk->n; i++) {
		const struct gs_node *nd = &s->nodes[rk->nodes[i].node];

		if (strlen(nd->host) > hw)
			hw = strlen(nd->host);
		if (strlen(rank_site(s, nd)) > sw)
			sw = strlen(rank_site(s, nd));
		if (nd->stale != NULL)
			nstale++;
	}
	printf("job %s: %d rank%s, w1 %g, w2 %g; %s: %zu node%s, %zu pass%s\n", job->name,
	    nranks, nranks == 1 ? "" : "s", job->w1, job->w2, s->path, rk->n,
	    rk->n == 1 ? "" : "s", rk->npassing, rk->npassing == 1 ? "es" : "");
	printf("\n%3s  %-*s  %-*s  %10s  %6s  %8s  %8s  %8s  %8s  %8s  %-3s  %s\n", "#",
	    (int)hw, "host", (int)sw, "site", "CS", "CL", "B", "PF_cpu", "PF_bw", "PF", "PR",
	    "sel", "metrics");
	for (i = 0; i < rk->npassing; i++) {
		const struct gs_ranked *rr = &rk->nodes[i];
		const struct gs_node *nd = &s->nodes[rr->node];

		printf("%3zu  %-*s  %-*s  %10.0f  %6.3f  %8g  %8.6f  %8.6f  %8.6f  %8.6f  %-3s  %s\n",
		    i + 1, (int)hw, nd->host, (int)sw, rank_site(s, nd), rr->cs, rr->cl, rr->b,
		    rr->pf_cpu, rr->pf_bw, rr->pf, rr->pr, rr->selected ? "yes" : "no",
		    rank_metrics_state(nd));
	}
	if (pl != NULL && pl->nranks > 0) {
		/* the placement as hydra will read it: host:n in rank order */
		printf("\nplacement:");
		for (r = 0; r < pl->nranks; r += n) {
			for (n = 1; r + n < pl->nranks && pl->ranks[r + n].node ==
			    pl->ranks[r].node; n++)
				;
			printf(" %s:%d", broker_rank_host(s, pl, r), n);
		}
		printf(" (rank 0, the master, on %s)\n", broker_rank_host(s, pl, 0));
	}
	if (!a->explain) {
		if (rk->n > rk->npassing || nstale > 0)
			printf("\n%zu node%s filtered out, %zu with stale metrics "
			    "(--explain says why)\n", rk->n - rk->npassing,
			    rk->n - rk->npassing == 1 ? "" : "s", nstale);
		return;
	}
	if (pl != NULL && pl->nranks > 0)
		rank_print_master(s, pl, file_master);
	if (rk->n > rk->npassing) {
		printf("\nfiltered out:\n");
		for (i = rk->npassing; i < rk->n; i++) {
			const struct gs_node *nd = &s->nodes[rk->nodes[i].node];

			printf("  %s (%s): %s\n", nd->host, rank_site(s, nd), rk->nodes[i].filtered);
		}
	}
	rank_print_slurm(s, rk);
	rank_print_values(s, rk);
	if (nstale > 0) {
		printf("\nstale metrics (site-file values used):\n");
		for (i = 0; i < rk->n; i++) {
			const struct gs_node *nd = &s->nodes[rk->nodes[i].node];

			if (nd->stale != NULL)
				printf("  %s (%s): %s\n", nd->host, rank_site(s, nd), nd->stale);
		}
	}
}

static const struct option rank_longopts[] = {
	{ "sites", required_argument, NULL, 's' },
	{ "ranks", required_argument, NULL, 'n' },
	{ "explain", no_argument, NULL, 'e' },
	{ "json", no_argument, NULL, 'j' },
	{ "no-metrics", no_argument, NULL, 'M' },
	{ "timeout", required_argument, NULL, 't' },
	{ "oversubscribe", no_argument, NULL, 'O' },
	{ NULL, 0, NULL, 0 }
};

static int
cmd_rank_exec(int argc, char **argv)
{
	struct rank_args a;
	struct gs_sites sites;
	struct gs_job job;
	struct gs_error err;
	struct gs_ranking rk;
	struct gs_placement pl;
	struct metrics_opts mo;
	struct jobrun_args ja;
	char *file_master;
	int c, ranked, placed, rc;

	memset(&a, 0, sizeof a);
	a.metrics = 1;
	while ((c = cmd_getopt(argc, argv, &cmd_rank_entry)) != -1) {
		switch (c) {
		case 's':
			a.sites = optarg;
			break;
		case 'n':
			a.ranks = (int)cmd_parse_int(&cmd_rank_entry, "--ranks", optarg, 1, 100000);
			break;
		case 'e':
			a.explain = 1;
			break;
		case 'j':
			a.json = 1;
			break;
		case 'M':
			a.metrics = 0;
			break;
		case 'O':
			a.oversubscribe = 1;
			break;
		case 't':
			a.timeout = cmd_parse_double(&cmd_rank_entry, "--timeout", optarg,
			    METRICS_TIMEOUT_MIN, METRICS_TIMEOUT_MAX);
			break;
		}
	}
	if (optind + 1 != argc)
		cmd_usage_error(&cmd_rank_entry, optind >= argc ? "no job file given" :
		    "one job file only");
	a.job = argv[optind];

	memset(&ja, 0, sizeof ja);
	ja.job = a.job;
	ja.sites = a.sites;
	ja.ranks = a.ranks;
	ja.oversubscribe = a.oversubscribe;
	if (jobrun_load(&ja, &sites, &job) != 0)
		return EXIT_INPUT;
	memset(&mo, 0, sizeof mo);
	/* --timeout, else the configuration file's metrics_timeout (jobrun_load read it) */
	mo.timeout = a.timeout > 0 ? a.timeout : userconf()->metrics_timeout;
	/* run's own placement (jobrun-plan.c): rank is its dry run */
	file_master = sites.master != NULL ? xstrdup(sites.master) : NULL;
	rc = jobrun_plan(&sites, &job, a.metrics ? &mo : NULL, &rk, &ranked, &pl, &placed,
	    &err);
	if (!ranked) {
		fprintf(stderr, "%s\n", err.msg);
		free(file_master);
		job_free(&job);
		sites_free(&sites);
		return rc;
	}
	if (a.json) {
		if (rank_print_json(&sites, &rk, placed ? &pl : NULL, rc, err.msg) != 0 &&
		    rc == EXIT_OK)
			rc = EXIT_FAILED;
	} else
		rank_print_text(&sites, &job, &rk, placed ? &pl : NULL,
		    placed ? pl.nranks : job.ranks, &a, file_master);
	free(file_master);
	fflush(stdout);
	if (!placed)
		log_warnx("no placement: %s", err.msg);
	else
		broker_placement_free(&pl);
	broker_ranking_free(&rk);
	job_free(&job);
	sites_free(&sites);
	return rc;
}

const struct cmd_entry cmd_rank_entry = {
	"rank", "JOB.yaml [--sites F] [--ranks N] [--oversubscribe] [--explain] [--json] "
	"[--no-metrics] [--timeout S]",
	"rank the nodes for a job by the performance function, and explain",
	"  -s, --sites F         the site file, or NAME of a user or installed one (default:\n"
	"                        the configuration file's sites, else the embedded\n"
	"                        localhost.yaml)\n"
	"  -n, --ranks N         MPI processes, the master included (default: the job's)\n"
	"      --oversubscribe   place more ranks than the nodes' slots, as run would with it\n"
	"      --explain         also say where rank 0 runs and why, list every filtered-out\n"
	"                        node with the clause that failed, every node with stale\n"
	"                        metrics with the reason, and where each node's cores,\n"
	"                        cpu_mhz and mem_mb come from\n"
	"      --json            print one JSON document (gridsubmit-json(5))\n"
	"      --no-metrics      do not read live metrics: site-file values only\n"
	"      --timeout S       seconds for reading all live metrics (default:\n"
	"                        the configuration file's metrics_timeout, else 5)\n",
	cmd_rank_exec, "s:n:", rank_longopts, NULL, CMD_OPERAND_YAML
};
