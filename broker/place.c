/*
 * place.c — the placement of a job's ranks over the ranked nodes, the performance ratio
 * each rank gets (seed 002, section 3.2), and the files the launcher and the runtime read:
 * the hydra hostfile and the rank map. The exact rules are in doc/broker.md, "Placement".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "broker/broker.h"
#include "broker/metrics.h"
#include "common/name.h"
#include "common/xmalloc.h"

/* The node whose host is the site file's master, or BROKER_NODE_NONE. */
static size_t
place_master_node(const struct gs_sites *sites)
{
	size_t i;

	if (sites->master == NULL)
		return BROKER_NODE_NONE;
	/* host names are case-insensitive (RFC 4343) */
	for (i = 0; i < sites->nnodes; i++)
		if (sites->nodes[i].host != NULL &&
		    strcasecmp(sites->nodes[i].host, sites->master) == 0)
			return i;
	return BROKER_NODE_NONE;
}

/* The passing position of node, or -1 when it is filtered out. */
static long
place_passing_index(const struct gs_ranking *ranking, size_t node)
{
	size_t i;

	for (i = 0; i < ranking->npassing; i++)
		if (ranking->nodes[i].node == node)
			return (long)i;
	return -1;
}

static int
place_slots(const struct gs_sites *sites, size_t node)
{
	return sites->nodes[node].slots > 0 ? sites->nodes[node].slots : 0;
}

/*
 * Where rank 0 goes: *mnode the node (or BROKER_NODE_NONE when the master host is not a node
 * of the file), *mpass its passing position (or -1: it runs there but offers no worker slot).
 * Returns -1 when there is no master given and no passing node has a slot.
 */
static int
place_master(const struct gs_sites *sites, const struct gs_ranking *ranking, size_t *mnode,
    long *mpass)
{
	size_t i;

	*mnode = BROKER_NODE_NONE;
	*mpass = -1;
	if (sites->master != NULL) {
		*mnode = place_master_node(sites);
		if (*mnode != BROKER_NODE_NONE)
			*mpass = place_passing_index(ranking, *mnode);
		return 0;
	}
	for (i = 0; i < ranking->npassing; i++) {
		if (place_slots(sites, ranking->nodes[i].node) > 0) {
			*mnode = ranking->nodes[i].node;
			*mpass = (long)i;
			return 0;
		}
	}
	return -1;
}

/* Why asked ranks ("5", "2 to 8") do not fit: what passes, its slots, where rank 0 goes. */
static void
place_shortfall(const struct gs_sites *sites, const struct gs_ranking *ranking,
    const char *asked, struct gs_error *err)
{
	size_t i, mnode, slots = 0;
	long mpass;
	int outside;

	for (i = 0; i < ranking->npassing; i++)
		slots += (size_t)place_slots(sites, ranking->nodes[i].node);
	outside = place_master(sites, ranking, &mnode, &mpass) == 0 && sites->master != NULL &&
	    mpass == -1;
	snprintf(err->msg, sizeof err->msg, "the job asks for %s ranks (the master included) "
	    "but %zu of %zu nodes pass the requirements, with %zu slot%s%s%s", asked,
	    ranking->npassing, ranking->n, slots, slots == 1 ? "" : "s",
	    outside ? ", and rank 0 on the master " : "", outside ? sites->master : "");
}

int
broker_capacity(const struct gs_sites *sites, const struct gs_ranking *ranking)
{
	size_t i, mnode;
	long mpass;
	long total = 0;

	if (place_master(sites, ranking, &mnode, &mpass) == -1)
		return 0;
	for (i = 0; i < ranking->npassing; i++)
		total += place_slots(sites, ranking->nodes[i].node);
	/* a master outside the passing nodes runs rank 0 without taking a slot */
	if (mpass == -1)
		total++;
	else if (place_slots(sites, mnode) == 0)
		total++;
	return total > 1000000 ? 1000000 : (int)total;
}

int
broker_place(const struct gs_sites *sites, struct gs_ranking *ranking, int nranks,
    struct gs_placement *out, struct gs_error *err)
{
	size_t i, np = ranking->npassing, mnode;
	int *cap, *count, workers = nranks - 1, placed, r, cores, k;
	long mpass, rix, *pos;
	double *w, sum = 0;
	char asked[32];

	memset(out, 0, sizeof *out);
	for (i = 0; i < ranking->n; i++) {
		ranking->nodes[i].selected = 0;
		ranking->nodes[i].pr = 0;
	}
	if (nranks < 1) {
		snprintf(err->msg, sizeof err->msg, "the job asks for %d ranks (at least 1)",
		    nranks);
		return -1;
	}
	if (place_master(sites, ranking, &mnode, &mpass) == -1 ||
	    broker_capacity(sites, ranking) < nranks) {
		snprintf(asked, sizeof asked, "%d", nranks);
		place_shortfall(sites, ranking, asked, err);
		return -1;
	}

	/* worker slots: the master's rank uses one slot of its node (when the node has one) */
	cap = xcalloc(np ? np : 1, sizeof *cap);
	count = xcalloc(np ? np : 1, sizeof *count);
	for (i = 0; i < np; i++) {
		cap[i] = place_slots(sites, ranking->nodes[i].node);
		if ((long)i == mpass && cap[i] > 0)
			cap[i]--;
	}
	/* round robin in decreasing PF: every node gets a rank before any gets two */
	for (placed = 0; placed < workers; ) {
		int progress = 0;

		for (i = 0; i < np && placed < workers; i++) {
			if (count[i] < cap[i]) {
				count[i]++;
				placed++;
				progress = 1;
			}
		}
		if (!progress)
			break;	/* cannot happen: capacity was checked */
	}

	out->nranks = nranks;
	out->ranks = xcalloc((size_t)nranks, sizeof *out->ranks);
	out->ranks[0].node = mnode;
	out->ranks[0].pf = mpass >= 0 ? ranking->nodes[mpass].pf : 0;
	out->ranks[0].pr = 0;
	/*
	 * Ranks on one node are consecutive, the master's node first (after rank 0), then the
	 * others in decreasing PF: so every host is one "host:n" line of the hostfile.
	 */
	r = 1;
	for (rix = -1; rix < (long)np; rix++) {
		long j = rix == -1 ? mpass : rix;

		if (j < 0 || (rix >= 0 && rix == mpass))
			continue;
		for (k = 0; k < count[j]; k++) {
			out->ranks[r].node = ranking->nodes[j].node;
			out->ranks[r].pf = ranking->nodes[j].pf;
			r++;
		}
	}

	/*
	 * PR (seed 002, 3.2: the ratio of the PFs), per worker rank: a node's PF describes the
	 * whole node, and a rank uses one core of it, so rank r on node j weighs
	 *	w_r = PF_j / max(cores_j, ranks_j)
	 * (ranks_j counts every rank on j, the master's included), and PR_r = w_r / sum w.
	 * With one core per node and one rank per node this is PF_j / sum PF.
	 */
	pos = xcalloc(sites->nnodes ? sites->nnodes : 1, sizeof *pos);
	for (i = 0; i < np; i++)
		pos[ranking->nodes[i].node] = (long)i;
	w = xcalloc((size_t)nranks, sizeof *w);
	for (r = 1; r < nranks; r++) {
		size_t node = out->ranks[r].node;

		rix = pos[node];
		cores = metrics_node_cores(&sites->nodes[node]);
		k = count[rix] + (rix == mpass ? 1 : 0);
		w[r] = out->ranks[r].pf / (cores > k ? cores : k);
		sum += w[r];
	}
	for (r = 1; r < nranks; r++) {
		/* all PFs 0 (no clock, no bandwidth known): equal shares */
		out->ranks[r].pr = sum > 0 ? w[r] / sum : 1.0 / workers;
		rix = pos[out->ranks[r].node];
		ranking->nodes[rix].pr += out->ranks[r].pr;
		ranking->nodes[rix].selected = 1;
	}
	if (mpass >= 0)
		ranking->nodes[mpass].selected = 1;
	free(pos);
	free(w);
	free(cap);
	free(count);
	return 0;
}

int
broker_place_fit(const struct gs_sites *sites, struct gs_ranking *ranking, int want, int min,
    struct gs_placement *out, struct gs_error *err)
{
	int cap = broker_capacity(sites, ranking), n = want < cap ? want : cap;
	char asked[32];

	if (min > want || min < 1)
		min = want;
	if (n >= min && n >= 1)
		return broker_place(sites, ranking, n, out, err);
	memset(out, 0, sizeof *out);
	if (min == want)
		snprintf(asked, sizeof asked, "%d", want);
	else
		snprintf(asked, sizeof asked, "%d to %d", min, want);
	place_shortfall(sites, ranking, asked, err);
	return -1;
}

void
broker_placement_free(struct gs_placement *p)
{
	if (p == NULL)
		return;
	free(p->ranks);
	memset(p, 0, sizeof *p);
}

/*
 * Hydra fills the hosts of a hostfile in file order, n ranks each: consecutive ranks on one
 * host make one line, so the file reproduces the placement's rank order exactly.
 * Returns 0, or -1 with errno EINVAL (a host or user name hydra cannot take) or the write's.
 */
int
broker_write_hostfile(const struct gs_sites *sites, const struct gs_placement *p, FILE *f)
{
	int r = 0, n;

	while (r < p->nranks) {
		/* a placement made elsewhere may name a node the site file lacks */
		const char *host = p->ranks[r].node == BROKER_NODE_NONE ||
		    p->ranks[r].node < sites->nnodes ? broker_rank_host(sites, p, r) : NULL;
		const char *user = NULL;

		if (host == NULL || !remote_host_valid(host)) {
			errno = EINVAL;
			return -1;
		}
		if (p->ranks[r].node != BROKER_NODE_NONE)
			user = sites->nodes[p->ranks[r].node].ssh.user;
		for (n = 1; r + n < p->nranks && p->ranks[r + n].node == p->ranks[r].node; n++)
			;
		/* hydra's "user=" with nothing after it crashes it: write none instead */
		if (user != NULL && *user != '\0') {
			if (!name_user_valid(user)) {
				errno = EINVAL;
				return -1;
			}
			fprintf(f, "%s:%d user=%s\n", host, n, user);
		} else
			fprintf(f, "%s:%d\n", host, n);
		r += n;
	}
	if (fflush(f) == EOF || ferror(f))
		return -1;
	return 0;
}

/* As read by grt_rankmap_load(): "rank node site pf pr cpu_mhz", '#' comments. */
int
broker_write_rankmap(const struct gs_sites *sites, const struct gs_placement *p, FILE *f)
{
	int r;

	fprintf(f, "# rank node site pf pr cpu_mhz\n");
	for (r = 0; r < p->nranks; r++) {
		const struct gs_rank_place *rp = &p->ranks[r];
		const struct gs_node *n;
		const char *site = "-";

		if (rp->node == BROKER_NODE_NONE) {
			if (sites->master == NULL || !remote_host_valid(sites->master)) {
				errno = EINVAL;
				return -1;
			}
			fprintf(f, "%d %s - %.6g %.6g 0\n", r, sites->master, rp->pf, rp->pr);
			continue;
		}
		if (rp->node >= sites->nnodes) {
			errno = EINVAL;
			return -1;
		}
		n = &sites->nodes[rp->node];
		if (n->host == NULL || !remote_host_valid(n->host)) {
			errno = EINVAL;
			return -1;
		}
		if (n->site >= 0 && (size_t)n->site < sites->nsites &&
		    sites->sites[n->site].name != NULL)
			site = sites->sites[n->site].name;
		fprintf(f, "%d %s %s %.6g %.6g %.6g\n", r, n->host, site, rp->pf, rp->pr,
		    metrics_node_mhz(n));
	}
	if (fflush(f) == EOF || ferror(f))
		return -1;
	return 0;
}
