/*
 * test-rank.c — the broker's ranking (seed 002, eq. 2) against hand-computed values, the
 * filters, ties, the placement (spreading, slots, master), PR, the hostfile and rank map.
 * Grids are built in memory, independent of the YAML loader.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broker/broker.h"
#include "broker/metrics.h"
#include "tests/tap.h"

#define EPS 1e-12

static struct gs_site gsites[8];
static struct gs_node gnodes[32];
static struct gs_sites grid;

static void
grid_reset(void)
{
	memset(gsites, 0, sizeof gsites);
	memset(gnodes, 0, sizeof gnodes);
	memset(&grid, 0, sizeof grid);
	grid.path = "tiger.yaml";
	grid.sites = gsites;
	grid.nodes = gnodes;
}

static int
site_add(char *name, double bw)
{
	gsites[grid.nsites].name = name;
	gsites[grid.nsites].bandwidth_mbps = bw;
	return (int)grid.nsites++;
}

static struct gs_node *
node_add(char *host, int site, double mhz, int cores, int slots, double mem)
{
	struct gs_node *n = &gnodes[grid.nnodes++];

	n->host = host;
	n->site = site;
	n->cpu_mhz = mhz;
	n->cores = cores;
	n->slots = slots;
	n->mem_mb = mem;
	return n;
}

static void
job_init(struct gs_job *job, double w1, double w2)
{
	memset(job, 0, sizeof *job);
	job->path = "job.yaml";
	job->ranks = 1;
	job->w1 = w1;
	job->w2 = w2;
}

/* The TIGER grid of seed 002 (table 2), one node per site, with live loads on two. */
static void
grid_tiger4(void)
{
	int thu, lz, hit, pu;
	struct gs_node *n;

	grid_reset();
	thu = site_add("THU", 1000);
	lz = site_add("LZ", 100);
	hit = site_add("HIT", 100);
	pu = site_add("PU", 1000);
	node_add("delta1", thu, 3001, 1, 1, 1024);
	n = node_add("lz01", lz, 898, 1, 1, 256);
	n->have_metrics = 1;
	n->load1 = 1.0;		/* CL = 2 */
	n = node_add("gridhit0", hit, 2800, 1, 1, 512);
	n->have_metrics = 1;
	n->load1 = 0.5;		/* CL = 1.5 */
	node_add("hpc09", pu, 1991, 1, 1, 1024);
}

static char *
hostfile_text(const struct gs_placement *p, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*rc = broker_write_hostfile(&grid, p, f);
	fclose(f);
	return buf;
}

static char *
rankmap_text(const struct gs_placement *p, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*rc = broker_write_rankmap(&grid, p, f);
	fclose(f);
	return buf;
}

static double
pr_sum(const struct gs_placement *p)
{
	double s = 0;
	int r;

	for (r = 1; r < p->nranks; r++)
		s += p->ranks[r].pr;
	return s;
}

static void
test_pf_tiger(void)
{
	struct gs_job job;
	struct gs_ranking rk;
	struct gs_placement pl;
	struct gs_error err;
	char *text;
	int rc;

	grid_tiger4();
	job_init(&job, 0.9, 0.1);
	is_int(broker_rank(&grid, &job, &rk, &err), 0, "tiger: rank");
	is_int(rk.n, 4, "tiger: 4 nodes");
	is_int(rk.npassing, 4, "tiger: 4 pass");
	/* decreasing PF: delta1, hpc09, gridhit0, lz01 */
	is_str(gnodes[rk.nodes[0].node].host, "delta1", "tiger: 1st delta1");
	is_str(gnodes[rk.nodes[1].node].host, "hpc09", "tiger: 2nd hpc09");
	is_str(gnodes[rk.nodes[2].node].host, "gridhit0", "tiger: 3rd gridhit0");
	is_str(gnodes[rk.nodes[3].node].host, "lz01", "tiger: 4th lz01");
	/* CS/CL: 3001/1, 1991/1, 2800/1.5, 898/2; sum 7307.667; sum B 2200 (hand-computed) */
	is_dbl(rk.nodes[0].cs, 3001, EPS, "delta1 CS");
	is_dbl(rk.nodes[0].cl, 1, EPS, "delta1 CL (no metrics)");
	is_dbl(rk.nodes[0].b, 1000, EPS, "delta1 B");
	is_dbl(rk.nodes[0].pf_cpu, 0.369598138940838, 1e-12, "delta1 PF cpu term");
	is_dbl(rk.nodes[0].pf_bw, 0.045454545454545, 1e-12, "delta1 PF bandwidth term");
	is_dbl(rk.nodes[0].pf, 0.415052684395384, 1e-12, "delta1 PF");
	is_dbl(rk.nodes[1].pf, 0.290662774255348, 1e-12, "hpc09 PF");
	is_dbl(rk.nodes[2].cl, 1.5, EPS, "gridhit0 CL = 1 + 0.5/1");
	is_dbl(rk.nodes[2].pf_cpu, 0.229895543493135, 1e-12, "gridhit0 PF cpu term");
	is_dbl(rk.nodes[2].pf, 0.234440998038590, 1e-12, "gridhit0 PF");
	is_dbl(rk.nodes[3].cl, 2, EPS, "lz01 CL = 1 + 1/1");
	is_dbl(rk.nodes[3].pf_cpu, 0.055298088765224, 1e-12, "lz01 PF cpu term");
	is_dbl(rk.nodes[3].pf_bw, 0.004545454545455, 1e-12, "lz01 PF bandwidth term");
	is_dbl(rk.nodes[3].pf, 0.059843543310678, 1e-12, "lz01 PF");
	is_dbl(rk.nodes[0].pf + rk.nodes[1].pf + rk.nodes[2].pf + rk.nodes[3].pf, 1, 1e-12,
	    "PFs sum to w1 + w2");

	/* no master: rank 0 on the best node, which has no slot left; PR over the workers */
	is_int(broker_place(&grid, &rk, 4, &pl, &err), 0, "tiger: place 4 ranks");
	is_int(pl.nranks, 4, "4 ranks placed");
	is_str(gnodes[pl.ranks[0].node].host, "delta1", "rank 0 on the best node");
	is_dbl(pl.ranks[0].pr, 0, 0, "master PR 0");
	is_str(gnodes[pl.ranks[1].node].host, "hpc09", "rank 1 hpc09");
	is_str(gnodes[pl.ranks[2].node].host, "gridhit0", "rank 2 gridhit0");
	is_str(gnodes[pl.ranks[3].node].host, "lz01", "rank 3 lz01");
	is_dbl(pl.ranks[1].pr, 0.496904193764719, 1e-12, "hpc09 PR = PF / sum of workers' PF");
	is_dbl(pl.ranks[2].pr, 0.400789937460035, 1e-12, "gridhit0 PR");
	is_dbl(pl.ranks[3].pr, 0.102305868775246, 1e-12, "lz01 PR");
	is_dbl(pr_sum(&pl), 1, 1e-12, "PR sums to 1 over the workers");
	ok(rk.nodes[0].selected && rk.nodes[3].selected, "nodes marked selected");
	is_dbl(rk.nodes[1].pr, pl.ranks[1].pr, EPS, "ranking PR is the node's ranks' PR");
	text = hostfile_text(&pl, &rc);
	is_int(rc, 0, "hostfile written");
	is_str(text, "delta1:1\nhpc09:1\ngridhit0:1\nlz01:1\n", "hostfile text");
	free(text);
	text = rankmap_text(&pl, &rc);
	is_int(rc, 0, "rankmap written");
	is_str(text, "# rank node site pf pr cpu_mhz\n"
	    "0 delta1 THU 0.415053 0 3001\n"
	    "1 hpc09 PU 0.290663 0.496904 1991\n"
	    "2 gridhit0 HIT 0.234441 0.40079 2800\n"
	    "3 lz01 LZ 0.0598435 0.102306 898\n", "rankmap text");
	free(text);
	broker_placement_free(&pl);

	/* too many ranks */
	is_int(broker_place(&grid, &rk, 5, &pl, &err), -1, "5 ranks on 4 slots fail");
	is_str(err.msg, "the job asks for 5 ranks (the master included) but 4 of 4 nodes pass "
	    "the requirements, with 4 slots", "no-placement message");
	is_int(broker_capacity(&grid, &rk), 4, "capacity 4");
	broker_ranking_free(&rk);
}

static void
test_filters(void)
{
	struct gs_job job;
	struct gs_ranking rk;
	struct gs_error err;
	char *sites[] = { "THU", "LZ", "HIT" };
	char *badsites[] = { "THX" };
	double sum;

	grid_tiger4();
	job_init(&job, 0.9, 0.1);
	job.sites = sites;
	job.nsites = 3;
	job.requirements = "mem_mb >= 512";
	is_int(broker_rank(&grid, &job, &rk, &err), 0, "filters: rank");
	is_int(rk.npassing, 2, "filters: 2 pass");
	is_str(gnodes[rk.nodes[0].node].host, "delta1", "filters: delta1 first");
	is_str(gnodes[rk.nodes[1].node].host, "gridhit0", "filters: gridhit0 second");
	/* filtered ones after, in site file order */
	is_str(gnodes[rk.nodes[2].node].host, "lz01", "filtered: lz01");
	is_str(rk.nodes[2].filtered, "mem_mb >= 512 (mem_mb is 256)", "lz01: failing clause");
	is_str(gnodes[rk.nodes[3].node].host, "hpc09", "filtered: hpc09");
	is_str(rk.nodes[3].filtered, "site PU not in the job's sites", "hpc09: not in sites");
	ok(rk.nodes[0].filtered == NULL && rk.nodes[1].filtered == NULL, "passing: no clause");
	is_dbl(rk.nodes[2].pf, 0, 0, "filtered node PF 0");
	/* the sums run over the passing nodes: 3001 + 1866.67 and 1000 + 100 */
	is_dbl(rk.nodes[0].pf, 0.9 * 3001 / (3001 + 2800 / 1.5) + 0.1 * 1000 / 1100.0, 1e-12,
	    "delta1 PF over passing nodes");
	sum = rk.nodes[0].pf + rk.nodes[1].pf;
	is_dbl(sum, 1, 1e-12, "passing PFs sum to 1");
	broker_ranking_free(&rk);

	/* an unknown site in the job is an error, with a suggestion */
	job.sites = badsites;
	job.nsites = 1;
	is_int(broker_rank(&grid, &job, &rk, &err), -1, "unknown job site fails");
	is_str(err.msg, "job.yaml: sites: no site 'THX' in tiger.yaml (did you mean 'THU'?)",
	    "unknown job site message");

	/* requirement errors name the file position when the loader knows it */
	job.nsites = 0;
	job.requirements = "mem_mb >= 5 &";
	job.requirements_loc.file = "jobs/j.yaml";
	job.requirements_loc.line = 7;
	job.requirements_loc.col = 16;
	is_int(broker_rank(&grid, &job, &rk, &err), -1, "bad requirements fail");
	is_str(err.msg, "jobs/j.yaml:7:28: requirements: '&' is not an operator (did you mean "
	    "'&&'?)", "requirements error at file:line:col");
	job.requirements_loc.line = 0;
	job.requirements_loc.file = NULL;
	is_int(broker_rank(&grid, &job, &rk, &err), -1, "bad requirements fail (no location)");
	is_str(err.msg, "job.yaml: requirements:13: '&' is not an operator (did you mean "
	    "'&&'?)", "requirements error with the column only");

	/* nothing passes: no placement, the message counts */
	job.requirements = "mem_mb > 100000";
	is_int(broker_rank(&grid, &job, &rk, &err), 0, "all filtered: rank ok");
	is_int(rk.npassing, 0, "all filtered: 0 pass");
	{
		struct gs_placement pl;

		is_int(broker_place(&grid, &rk, 1, &pl, &err), -1, "all filtered: no placement");
		is_str(err.msg, "the job asks for 1 ranks (the master included) but 0 of 4 nodes "
		    "pass the requirements, with 0 slots", "all filtered: message");
	}
	broker_ranking_free(&rk);
}

static void
test_ties(void)
{
	struct gs_job job;
	struct gs_ranking rk;
	struct gs_error err;
	int s, t;

	grid_reset();
	s = site_add("A", 0);
	t = site_add("B", 0);
	node_add("zeta", s, 2000, 1, 1, 0);
	node_add("mid", t, 1000, 1, 1, 0);
	node_add("alpha", s, 2000, 1, 1, 0);
	node_add("beta", t, 2000, 1, 1, 0);
	job_init(&job, 0.5, 0.5);
	is_int(broker_rank(&grid, &job, &rk, &err), 0, "ties: rank");
	/* equal PF: site file order, not names */
	is_str(gnodes[rk.nodes[0].node].host, "zeta", "ties: zeta first (file order)");
	is_str(gnodes[rk.nodes[1].node].host, "alpha", "ties: alpha second");
	is_str(gnodes[rk.nodes[2].node].host, "beta", "ties: beta third");
	is_str(gnodes[rk.nodes[3].node].host, "mid", "ties: mid last");
	/* all B are 0: the bandwidth term is 0, not NaN */
	is_dbl(rk.nodes[0].pf_bw, 0, 0, "no bandwidth known: term 0");
	is_dbl(rk.nodes[0].pf, 0.5 * 2000 / 7000, 1e-12, "ties: PF = w1 share only");
	broker_ranking_free(&rk);
}

/*
 * broker_place_job: more ranks than slots refused with the nodes, their slots and the
 * hint; with oversubscribe, every node takes the least multiple of its slots that holds
 * the ranks, and a range takes its max.
 */
static void
test_place_over(void)
{
	struct gs_job job;
	struct gs_ranking rk;
	struct gs_placement pl;
	struct gs_error err;
	char *text;
	int s, rc;

	grid_reset();
	s = site_add("S", 100);
	node_add("a", s, 3000, 2, 2, 0);
	node_add("b", s, 2000, 1, 1, 0);
	job_init(&job, 1, 0);
	job.ranks = job.min_ranks = 4;
	is_int(broker_rank(&grid, &job, &rk, &err), 0, "over: rank");
	is_int(broker_place_job(&grid, &rk, &job, &pl, &err), -1, "over: 4 ranks on 3 slots refused");
	is_str(err.msg, "the job asks for 4 ranks (the master included) but 2 of 2 nodes pass "
	    "the requirements, with 3 slots (a 2, b 1); add --oversubscribe or oversubscribe: "
	    "true to run more ranks than cores", "over: the nodes, their slots, the hint");
	job.min_ranks = 2;
	is_int(broker_place_job(&grid, &rk, &job, &pl, &err), 0, "over: a range takes what fits");
	is_int(pl.nranks, 3, "over: 3 of 2 to 4");
	broker_placement_free(&pl);
	job.oversubscribe = 1;
	is_int(broker_place_job(&grid, &rk, &job, &pl, &err), 0, "over: oversubscribed");
	is_int(pl.nranks, 4, "over: a range takes its max");
	text = hostfile_text(&pl, &rc);
	/* twice the slots (a 4, b 2) hold 4: round robin a, b, a after the master on a */
	is_str(text, "a:3\nb:1\n", "over: spread as the slots are");
	free(text);
	is_int(grid.nodes[0].slots, 2, "over: the site's slots unchanged");
	broker_placement_free(&pl);
	job.ranks = job.min_ranks = 10;
	is_int(broker_place_job(&grid, &rk, &job, &pl, &err), 0, "over: 10 ranks on 3 slots");
	text = hostfile_text(&pl, &rc);
	/* k = 4 (3 holds 9): a 8, b 4; 9 workers round robin after the master on a: a 5, b 4 */
	is_str(text, "a:6\nb:4\n", "over: 10 ranks, four times the slots");
	free(text);
	is_dbl(pr_sum(&pl), 1, 1e-12, "over: PR sums to 1");
	broker_placement_free(&pl);
	broker_ranking_free(&rk);

	/* nothing passes: the plain message, no hint */
	job.requirements = "cores > 8";
	is_int(broker_rank(&grid, &job, &rk, &err), 0, "over: rank, all filtered");
	is_int(broker_place_job(&grid, &rk, &job, &pl, &err), -1, "over: nothing passes");
	ok(strstr(err.msg, "oversubscribe") == NULL, "over: no hint when nothing passes");
	broker_ranking_free(&rk);
}

static void
test_place_spread(void)
{
	struct gs_job job;
	struct gs_ranking rk;
	struct gs_placement pl;
	struct gs_error err;
	char *text;
	double wa, wb, wc, sum;
	int s, rc;

	grid_reset();
	s = site_add("S", 100);
	node_add("a", s, 3000, 2, 2, 0);
	node_add("b", s, 2000, 2, 2, 0);
	node_add("c", s, 1000, 1, 1, 0);
	grid.master = "a";
	job_init(&job, 1, 0);
	is_int(broker_rank(&grid, &job, &rk, &err), 0, "spread: rank");
	/* PF: 6000, 4000, 1000 over 11000 */
	is_dbl(rk.nodes[0].pf, 6.0 / 11, 1e-12, "spread: PF a");

	/* 5 ranks: master on a (uses one of its 2 slots); workers a, b, c, then b */
	is_int(broker_place(&grid, &rk, 5, &pl, &err), 0, "spread: place 5");
	text = hostfile_text(&pl, &rc);
	is_str(text, "a:2\nb:2\nc:1\n", "spread: hostfile groups each host on one line");
	free(text);
	/* PR_r = (PF_j / max(cores_j, ranks_j)) / sum: a 6/11/2, b 4/11/2 x2, c 1/11/1 */
	wa = 6.0 / 11 / 2;
	wb = 4.0 / 11 / 2;
	wc = 1.0 / 11 / 1;
	sum = wa + 2 * wb + wc;
	is_dbl(pl.ranks[1].pr, wa / sum, 1e-12, "spread: PR of a's worker");
	is_dbl(pl.ranks[2].pr, wb / sum, 1e-12, "spread: PR of b's 1st worker");
	is_dbl(pl.ranks[3].pr, wb / sum, 1e-12, "spread: PR of b's 2nd worker");
	is_dbl(pl.ranks[4].pr, wc / sum, 1e-12, "spread: PR of c's worker");
	is_dbl(pr_sum(&pl), 1, 1e-12, "spread: PR sums to 1");
	is_dbl(rk.nodes[1].pr, 2 * wb / sum, 1e-12, "spread: node b's PR is its ranks' sum");
	broker_placement_free(&pl);

	/* 3 ranks: one worker each on a and b before any node gets two; c unused */
	is_int(broker_place(&grid, &rk, 3, &pl, &err), 0, "spread: place 3");
	is_int(pl.ranks[1].node, 0, "spread3: rank 1 on a");
	is_int(pl.ranks[2].node, 1, "spread3: rank 2 on b");
	ok(rk.nodes[0].selected && rk.nodes[1].selected && !rk.nodes[2].selected,
	    "spread3: a and b selected, c not");
	is_dbl(rk.nodes[2].pr, 0, 0, "spread3: c PR 0");
	/* a: 2 cores, 2 ranks (master included) -> 6/11/2; b: 2 cores, 1 rank -> 4/11/2 */
	is_dbl(pl.ranks[1].pr, 0.6, 1e-12, "spread3: a's worker PR 3/5");
	is_dbl(pl.ranks[2].pr, 0.4, 1e-12, "spread3: b's worker PR 2/5");
	broker_placement_free(&pl);

	/* 6 ranks > 5 slots */
	is_int(broker_place(&grid, &rk, 6, &pl, &err), -1, "spread: 6 ranks on 5 slots fail");

	/* the master on the weakest node: rank 0 there, then the others by PF */
	grid.master = "C";	/* host names compare without case */
	is_int(broker_place(&grid, &rk, 4, &pl, &err), 0, "master c: place 4");
	is_int(pl.ranks[0].node, 2, "master c: rank 0 on c");
	text = hostfile_text(&pl, &rc);
	is_str(text, "c:1\na:2\nb:1\n", "master c: hostfile");
	free(text);
	is_dbl(pr_sum(&pl), 1, 1e-12, "master c: PR sums to 1");
	broker_placement_free(&pl);

	/* a master host outside the file: a master-only rank 0, no slot used */
	grid.master = "gateway";
	is_int(broker_capacity(&grid, &rk), 6, "gateway: capacity 5 slots + master");
	is_int(broker_place(&grid, &rk, 6, &pl, &err), 0, "gateway: place 6");
	ok(pl.ranks[0].node == BROKER_NODE_NONE, "gateway: rank 0 is master-only");
	text = hostfile_text(&pl, &rc);
	is_str(text, "gateway:1\na:2\nb:2\nc:1\n", "gateway: hostfile");
	free(text);
	text = rankmap_text(&pl, &rc);
	is_str(text, "# rank node site pf pr cpu_mhz\n"
	    "0 gateway - 0 0 0\n"
	    "1 a S 0.545455 0.272727 3000\n"
	    "2 a S 0.545455 0.272727 3000\n"
	    "3 b S 0.363636 0.181818 2000\n"
	    "4 b S 0.363636 0.181818 2000\n"
	    "5 c S 0.0909091 0.0909091 1000\n", "gateway: rankmap");
	free(text);
	broker_placement_free(&pl);
	is_int(broker_place(&grid, &rk, 7, &pl, &err), -1, "gateway: 7 ranks fail");
	is_str(err.msg, "the job asks for 7 ranks (the master included) but 3 of 3 nodes pass "
	    "the requirements, with 5 slots, and rank 0 on the master gateway",
	    "gateway: message");
	broker_ranking_free(&rk);
}

static void
test_place_misc(void)
{
	struct gs_job job;
	struct gs_ranking rk;
	struct gs_placement pl;
	struct gs_error err;
	struct gs_node *n;
	char *text;
	int s, rc;

	/* the master on a filtered node still runs rank 0 there */
	grid_tiger4();
	grid.master = "lz01";
	gnodes[0].ssh.user = "grid";
	gnodes[3].ssh.user = "";
	job_init(&job, 0.9, 0.1);
	job.requirements = "mem_mb >= 512";
	is_int(broker_rank(&grid, &job, &rk, &err), 0, "filtered master: rank");
	is_int(broker_capacity(&grid, &rk), 4, "filtered master: 3 slots + master");
	is_int(broker_place(&grid, &rk, 4, &pl, &err), 0, "filtered master: place 4");
	text = hostfile_text(&pl, &rc);
	is_str(text, "lz01:1\ndelta1:1 user=grid\nhpc09:1\ngridhit0:1\n",
	    "filtered master: hostfile, user= only when set");
	free(text);
	is_dbl(pr_sum(&pl), 1, 1e-12, "filtered master: PR sums to 1");
	broker_placement_free(&pl);

	/* one rank: only the master */
	is_int(broker_place(&grid, &rk, 1, &pl, &err), 0, "one rank");
	is_int(pl.nranks, 1, "one rank: nranks 1");
	text = hostfile_text(&pl, &rc);
	is_str(text, "lz01:1\n", "one rank: hostfile");
	free(text);
	broker_placement_free(&pl);

	/* a host name hydra cannot take is refused */
	gnodes[0].host = "bad host";
	is_int(broker_place(&grid, &rk, 2, &pl, &err), 0, "bad host: placed");
	text = hostfile_text(&pl, &rc);
	is_int(rc, -1, "bad host: hostfile refused");
	is_int(errno, EINVAL, "bad host: EINVAL");
	free(text);
	gnodes[0].host = "delta1";
	gnodes[0].ssh.user = "a b";
	text = hostfile_text(&pl, &rc);
	is_int(rc, -1, "bad user: hostfile refused");
	free(text);
	broker_placement_free(&pl);
	broker_ranking_free(&rk);

	/* every PF 0 (no clock, no bandwidth): equal PR */
	grid_reset();
	s = site_add("S", 0);
	node_add("x1", s, 0, 1, 1, 0);
	node_add("x2", s, 0, 1, 1, 0);
	node_add("x3", s, 0, 1, 1, 0);
	job_init(&job, 1, 0);
	is_int(broker_rank(&grid, &job, &rk, &err), 0, "zero PF: rank");
	is_int(broker_place(&grid, &rk, 3, &pl, &err), 0, "zero PF: place");
	is_dbl(pl.ranks[1].pr, 0.5, 1e-12, "zero PF: equal PR");
	broker_placement_free(&pl);
	broker_ranking_free(&rk);

	/* live metrics: CS from the live clock and the cores the node really has */
	grid_reset();
	s = site_add("S", 10);
	n = node_add("live", s, 3000, 4, 4, 0);
	n->have_metrics = 1;
	n->load1 = 3;
	n->live_cores = 2;
	n->live_mhz = 1500;
	is_int(metrics_node_cores(n), 2, "usable cores capped by live cores");
	is_dbl(metrics_node_cs(n), 3000, EPS, "CS = live MHz x usable cores");
	is_dbl(metrics_node_cl(n), 2.5, EPS, "CL = 1 + load1 / live cores");
	n->live_cores = 8;
	is_int(metrics_node_cores(n), 4, "usable cores: the site file grants 4 of 8");
	is_dbl(metrics_node_cl(n), 1.375, EPS, "CL = 1 + 3 / 8");
	n->live_cores = 0;
	n->live_mhz = 0;
	is_dbl(metrics_node_cs(n), 12000, EPS, "no live values: site-file CS");
	is_dbl(metrics_node_cl(n), 1.75, EPS, "CL = 1 + 3 / site cores");
	n->have_metrics = 0;
	is_dbl(metrics_node_cl(n), 1, EPS, "no metrics: CL 1");
}

/* A node left out after a failure (doc/restarts.md) is filtered, the sums without it. */
static void
test_excluded(void)
{
	struct gs_job job;
	struct gs_ranking rk;
	struct gs_placement pl;
	struct gs_error err;
	char why[] = "rank 1's node did not answer ssh";

	grid_tiger4();
	job_init(&job, 1, 0);
	gnodes[3].excluded = why;	/* hpc09 */
	is_int(broker_rank(&grid, &job, &rk, &err), 0, "excluded: rank");
	is_int(rk.npassing, 3, "excluded: 3 of 4 pass");
	is_str(gnodes[rk.nodes[3].node].host, "hpc09", "excluded: hpc09 with the filtered");
	is_str(rk.nodes[3].filtered, "excluded after a failure: rank 1's node did not answer ssh",
	    "excluded: why");
	is_dbl(rk.nodes[0].pf + rk.nodes[1].pf + rk.nodes[2].pf, 1, 1e-12,
	    "excluded: the PFs of the others sum to 1");
	is_int(broker_capacity(&grid, &rk), 3, "excluded: capacity 3");
	is_int(broker_place(&grid, &rk, 3, &pl, &err), 0, "excluded: 3 ranks placed");
	ok(pl.ranks[1].node != 3 && pl.ranks[2].node != 3, "excluded: no rank on hpc09");
	broker_placement_free(&pl);
	is_int(broker_place(&grid, &rk, 4, &pl, &err), -1, "excluded: 4 ranks do not fit");
	broker_ranking_free(&rk);
	gnodes[3].excluded = NULL;
}

int
main(void)
{
	test_pf_tiger();
	test_filters();
	test_excluded();
	test_ties();
	test_place_spread();
	test_place_misc();
	test_place_over();
	return tap_done();
}
