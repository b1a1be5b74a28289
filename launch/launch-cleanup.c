/* launch-cleanup.c — after a multi-site job: nothing of it left on any node */

#include <netinet/in.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "launch/launch-int.h"
#include "launch/launch.h"
#include "launch/lease.h"
#include "launch/remote-cancel.h"
#include "launch/stage.h"
#include "remote/remote.h"

/*
 * A launcher session with checks that has ended (DIR/.remote/HOST.ended) without recording
 * a process group in DIR started nothing there: its shell stops before the proxy unless
 * the pgid was written first (launch_write_launcher). Its node needs no cleanup, which
 * matters for an unreachable one: that ssh would only wait for its timeout again.
 */
static int
launch_session_left_nothing(const struct job_state *st, const char *host)
{
	char *ended, *pgid;
	int nothing;

	xasprintf(&ended, "%s/.remote/%s.ended", st->dir, host);
	xasprintf(&pgid, "%s/.remote/%s.pgid", st->dir, host);
	nothing = access(ended, F_OK) == 0 && access(pgid, F_OK) == -1;
	free(ended);
	free(pgid);
	return nothing;
}

/*
 * A node of an allocation that Slurm ended (slurm-site.h): Slurm killed every step of it
 * there, and srun reaches it no more.
 */
static int
launch_host_ended_by_slurm(const struct job_state *st, const char *host)
{
	size_t i, j;

	for (i = 0; i < st->nallocs; i++)
		for (j = 0; j < st->allocs[i].nhosts; j++)
			if (st->allocs[i].released == JOB_ALLOC_ENDED &&
			    strcmp(st->allocs[i].hosts[j], host) == 0)
				return 1;
	return 0;
}

/*
 * After the job (ended, failed or cancelled): on every remote node of the placement, kill
 * the process group of the job's proxy (JOBDIR/.remote/HOST.pgid, written by the
 * launcher), whatever of it is left (remote_cancel): no rank is ever left behind on any
 * host (doc/reliability.md, "A dead worker under MPICH 4.0.2", point 5). With for_good,
 * it leaves JOBDIR/.remote/HOST.stop before it looks: a launcher session that was still
 * on its way (a cancel right after launch) writes its pgid, then sees the mark and never
 * starts the proxy. Without (a speculative launch
 * called off before a relaunch, whose mpiexec is already dead: a late proxy finds no one
 * to connect to and ends by itself), no mark stays to stop the relaunch. In parallel,
 * bounded by the ssh timeout.
 */
void
launch_cleanup_remote(const struct gs_sites *sites, const struct gs_placement *p,
    const struct job_state *st, int for_good, unsigned char *lost)
{
	struct remote_cancel_how how = { .mark = for_good, .limit = 20 };
	struct remote_cancel_node *nodes;
	struct stage_dir *sd = NULL;
	const struct stage_dir *d;
	char *config;
	size_t i, n = 0, nsd = 0, *which;
	struct in_addr a;
	int r, *seen;

	if (!broker_placement_remote(sites, p))
		return;
	/* a node with a job directory of its own has its record there (stage.h) */
	if (stage_dirs_read(st->dir, &sd, &nsd) == -1)
		nsd = 0;
	xasprintf(&config, "%s/ssh_config", st->dir);
	nodes = xcalloc((size_t)p->nranks + 1, sizeof *nodes);
	seen = xcalloc(sites->nnodes + 1, sizeof *seen);
	which = xcalloc((size_t)p->nranks + 1, sizeof *which);
	for (r = 0; r < p->nranks; r++) {
		size_t node = p->ranks[r].node;
		const char *host;

		if (node == BROKER_NODE_NONE || seen[node])
			continue;
		seen[node] = 1;
		host = sites->nodes[node].host;
		if (remote_host_is_local(host) || launch_host_ended_by_slurm(st, host))
			continue;
		d = stage_dirs_find(sd, nsd, host);
		if (d == NULL && launch_session_left_nothing(st, host))
			continue;
		/*
		 * silent on the lease: ssh would only wait for its timeout (about 20 s) before
		 * the relaunch, and the node's wrappers stop what they run by themselves
		 */
		if (launch_host_addr(config, host, &a) == 0 && lease_silent_from(a))
			continue;
		which[n] = node;
		nodes[n].host = host;
		nodes[n++].dir = d != NULL ? d->dir : st->dir;
	}
	remote_cancel(config, &how, nodes, n);
	for (i = 0; i < n; i++) {
		if (nodes[i].sent && nodes[i].task.status != 0)
			log_warnx("job %s: cleanup on %s failed (ssh status %d): ranks may be "
			    "left there", st->id, nodes[i].host, nodes[i].task.status);
		/* ssh's own failure (255), or no answer in time: the node is out of reach */
		if (lost != NULL && nodes[i].sent && (nodes[i].task.status == 255 ||
		    nodes[i].task.status < 0))
			lost[which[i]] = 1;
	}
	remote_cancel_free(nodes, n);
	free(nodes);
	free(which);
	free(seen);
	free(config);
	stage_dirs_free(sd, nsd);
}
