/*
 * place-host.c — where a placement's ranks run: each rank's host, and whether any of them,
 * or any node of a site file, is another host than this one (broker.h).
 */
#include <stddef.h>

#include "broker/broker.h"
#include "remote/remote.h"

const char *
broker_rank_host(const struct gs_sites *sites, const struct gs_placement *p, int r)
{
	return p->ranks[r].node == BROKER_NODE_NONE ? sites->master :
	    sites->nodes[p->ranks[r].node].host;
}

int
broker_placement_remote(const struct gs_sites *sites, const struct gs_placement *p)
{
	int r;

	for (r = 0; r < p->nranks; r++)
		if (!remote_host_is_local(broker_rank_host(sites, p, r)))
			return 1;
	return 0;
}

int
broker_sites_remote(const struct gs_sites *sites)
{
	size_t i;

	for (i = 0; i < sites->nnodes; i++)
		if (!remote_host_is_local(sites->nodes[i].host))
			return 1;
	return 0;
}
