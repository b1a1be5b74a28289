/*
 * launch-master.c — rank 0 on another host (the site file's master, doc/broker.md,
 * "Placement"): what its launch needs. Rank 0 writes the job's events, its journal and
 * master.status for the supervisor, the console and resume to read in the job directory
 * here as they are written. A node that shares the job directory writes them there itself;
 * for one that does not, the relay (relay.h) keeps the directory for its libgrt, and its
 * wrapper's master.status is fetched after the run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "launch/launch-int.h"
#include "launch/launch.h"
#include "launch/relay.h"
#include "launch/stage.h"
#include "remote/remote.h"

/* launch-int.h. */
int
launch_master_remote(const struct launch_plan *pl)
{
	return pl->place->nranks > 0 &&
	    !remote_host_is_local(broker_rank_host(pl->sites, pl->place, 0));
}

/* 1 when rank 0's node has a job directory of its own (DIR/remote-dirs); -1: unreadable. */
static int
master_own_dir(const struct launch_plan *pl, char *why, size_t whylen)
{
	struct stage_dir *sd;
	size_t nsd;
	int own;

	if (stage_dirs_read(pl->st->dir, &sd, &nsd) == -1) {
		snprintf(why, whylen, "%s/remote-dirs: %s", pl->st->dir, strerror(errno));
		return -1;
	}
	own = stage_dirs_find(sd, nsd, broker_rank_host(pl->sites, pl->place, 0)) != NULL;
	stage_dirs_free(sd, nsd);
	return own;
}

/* launch-int.h: a relay only for a master node with a job directory of its own. */
int
launch_master_relay(const struct launch_plan *pl, struct relay *r, char *why,
    size_t whylen)
{
	char ifname[64], addr[64], *config;
	int own, rc;

	relay_none(r);
	if (!launch_master_remote(pl))
		return 0;
	if ((own = master_own_dir(pl, why, whylen)) <= 0)
		return own;
	/* this host's address toward rank 0's node, as its ssh reaches it */
	xasprintf(&config, "%s/ssh_config", pl->st->dir);
	rc = launch_route(config, broker_rank_host(pl->sites, pl->place, 0), ifname,
	    sizeof ifname, addr, sizeof addr, why, whylen);
	free(config);
	if (rc == -1 || relay_open(r, addr, pl->st->dir, why, whylen) == -1)
		return -1;
	return 0;
}

/* launch-int.h. */
void
launch_master_fetch_status(struct launch *l)
{
	const struct launch_plan *pl = &l->plan;
	char *names[] = { "master.status" };
	struct gs_job job = *pl->job;

	/* stage_out's rule: the node of the lowest rank with its own directory, rank 0's */
	job.stage_out = names;
	job.nstage_out = 1;
	stage_out(pl->sites, pl->place, &job, pl->st);
	launch_master_status(pl->st, &l->res);
}
