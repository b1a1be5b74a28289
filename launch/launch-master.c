/*
 * launch-master.c — rank 0 on another host (the site file's master, doc/broker.md,
 * "Placement"): what its launch needs. Rank 0 writes the job's events, its journal and
 * master.status into the job directory, where the supervisor, the console and resume read
 * them as they are written and where a journal's fdatasync is this host's disk's; so its
 * node must share the job directory with this host (preflight's shared check), and its
 * launch is not speculative: the gate is a FIFO of this host's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "launch/launch-int.h"
#include "launch/launch.h"
#include "launch/stage.h"
#include "remote/remote.h"

int
launch_master_remote(const struct launch_plan *pl)
{
	return pl->place->nranks > 0 &&
	    !remote_host_is_local(broker_rank_host(pl->sites, pl->place, 0));
}

int
launch_master_check(const struct launch_plan *pl, char *why, size_t whylen)
{
	struct stage_dir *sd;
	const char *host;
	size_t nsd;
	int rc = 0;

	if (!launch_master_remote(pl))
		return 0;
	host = broker_rank_host(pl->sites, pl->place, 0);
	if (stage_dirs_read(pl->st->dir, &sd, &nsd) == -1) {
		snprintf(why, whylen, "%s/remote-dirs: %s", pl->st->dir, strerror(errno));
		return -1;
	}
	if (stage_dirs_find(sd, nsd, host) != NULL) {
		snprintf(why, whylen, "the site file's master %s does not share the job "
		    "directory %s with this host: rank 0 there could not write the job's "
		    "events and journal here; share the directory with %s, or remove master: "
		    "from the site file (rank 0 then runs here)", host, pl->st->dir, host);
		rc = -1;
	}
	stage_dirs_free(sd, nsd);
	return rc;
}
