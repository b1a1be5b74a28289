/*
 * place-over.c — a job's placement with its consent to oversubscribe (doc/broker.md,
 * "Oversubscription"): more ranks than the passing nodes' slots are refused, naming the
 * nodes and their slots, unless the job says oversubscribe: true (or run, submit and rank
 * get --oversubscribe); then every passing node takes the same multiple of its slots, the
 * least that holds the ranks, so the ranks stay spread as the slots are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broker/broker.h"
#include "common/xmalloc.h"

/* The most nodes the refusal names; the rest are counted. */
#define PO_NAMED	8

/* The refusal's tail: the passing nodes' slots and how to go past them. */
static void
po_refuse(const struct gs_sites *sites, const struct gs_ranking *ranking,
    struct gs_error *err)
{
	size_t o = strlen(err->msg), i;

	for (i = 0; i < ranking->npassing && i < PO_NAMED && o < sizeof err->msg; i++) {
		const struct gs_node *n = &sites->nodes[ranking->nodes[i].node];

		o += (size_t)snprintf(err->msg + o, sizeof err->msg - o, "%s%s %d",
		    i == 0 ? " (" : ", ", n->host, n->slots);
	}
	if (ranking->npassing > PO_NAMED && o < sizeof err->msg)
		o += (size_t)snprintf(err->msg + o, sizeof err->msg - o, ", and %zu more nodes",
		    ranking->npassing - PO_NAMED);
	if (o < sizeof err->msg)
		snprintf(err->msg + o, sizeof err->msg - o, "); add --oversubscribe or "
		    "oversubscribe: true to run more ranks than cores");
}

/*
 * want ranks over the passing nodes, each taking k times its slots for the least k that
 * holds them: a copy of sites whose nodes differ in their slots alone (their pointers are
 * sites' own, so the copy is not freed with sites_free).
 */
static int
po_place_over(const struct gs_sites *sites, struct gs_ranking *ranking, int want,
    struct gs_placement *out, struct gs_error *err)
{
	struct gs_sites over = *sites;
	size_t i;
	int k, rc;

	over.nodes = xcalloc(sites->nnodes ? sites->nnodes : 1, sizeof *over.nodes);
	memcpy(over.nodes, sites->nodes, sites->nnodes * sizeof *over.nodes);
	for (k = 2; broker_capacity(&over, ranking) < want && k <= want; k++)
		for (i = 0; i < ranking->npassing; i++) {
			size_t j = ranking->nodes[i].node;

			over.nodes[j].slots = sites->nodes[j].slots * k;
		}
	rc = broker_place(&over, ranking, want, out, err);
	free(over.nodes);
	return rc;
}

/*
 * A job that may oversubscribe gets all its ranks (ranks: {min, max} takes max): slots are
 * no bound for it; the others as many as fit, down to min.
 */
int
broker_place_job(const struct gs_sites *sites, struct gs_ranking *ranking,
    const struct gs_job *job, struct gs_placement *out, struct gs_error *err)
{
	int cap = broker_capacity(sites, ranking), some = ranking->npassing > 0 && cap > 0;

	/* nothing passes, or nothing with a slot: more of nothing does not help */
	if (job->oversubscribe && some && job->ranks > cap)
		return po_place_over(sites, ranking, job->ranks, out, err);
	if (broker_place_fit(sites, ranking, job->ranks, job->min_ranks, out, err) == 0)
		return 0;
	if (some)
		po_refuse(sites, ranking, err);
	return -1;
}
