/*
 * launch-lost.c — after a multi-site launch failed: which of its nodes are out of reach
 * (doc/restarts.md, "What counts as a failed node"). Three signs, all from this side:
 * the ranks' lease (lease.h: a connection from it silent during the launch, one whose
 * wrapper said its proxy died, or one still open after its ranks should have ended), the
 * cleanup after the launch could not reach the node over ssh (res.lost), or it does not
 * answer an ssh probe now. The lease's is the first looked at: it names the node exactly,
 * where the cleanup's ssh only says it could not get there. A node of a Slurm site has one sign only: Slurm
 * ended the allocation that held it. The probe is one `ssh HOST true` per remote node
 * of the placement, in parallel through the one fan-out, bounded by a deadline.
 */
#include <arpa/inet.h>

#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/proc.h"
#include "common/xmalloc.h"
#include "launch/launch-int.h"
#include "launch/launch.h"
#include "launch/lease.h"
#include "remote/remote.h"

#define LOST_SILENT_MAX		4096	/* lease connections looked at */
#define LOST_LEASE_WAIT		0.5	/* seconds for the last FINs to arrive */

/* The remote nodes of the placement, each once: 1 in want[node]. Returns how many. */
static size_t
lost_remote_nodes(const struct launch_plan *pl, unsigned char *want)
{
	size_t n = 0;
	int r;

	for (r = 0; r < pl->place->nranks; r++) {
		size_t node = pl->place->ranks[r].node;

		/* the site file's master's node too: a relaunch without it runs rank 0 here */
		if (node == BROKER_NODE_NONE || want[node] ||
		    remote_host_is_local(pl->sites->nodes[node].host))
			continue;
		want[node] = 1;
		n++;
	}
	return n;
}

/* What a lease connection's end says of its node (lease.h, LEASE_LOST_*). */
static char *
lost_lease_why(int how, double timeout)
{
	char *why;

	if (how == LEASE_LOST_PROXY)
		return xstrdup("lost its hydra proxy (its rank's wrapper said so on the lease)");
	if (how == LEASE_LOST_SILENT) {
		xasprintf(&why, "was silent on its ranks' lease for %g s during the launch",
		    timeout);
		return why;
	}
	return xstrdup("kept its ranks' lease open after the launch ended");
}

/* Lease connections lost during the launch or still open: their nodes are named. */
static void
lost_by_lease(const struct launch_plan *pl, const char *config, const unsigned char *want,
    char **why)
{
	struct lease_peer *silent;
	struct in_addr a;
	size_t i, k, n;

	silent = xcalloc(LOST_SILENT_MAX, sizeof *silent);
	n = lease_silent(silent, LOST_SILENT_MAX, LOST_LEASE_WAIT);
	for (i = 0; n > 0 && i < pl->sites->nnodes; i++) {
		if (!want[i] || why[i] != NULL ||
		    launch_host_addr(config, pl->sites->nodes[i].host, &a) == -1)
			continue;
		/* the first sign of the node's that says most: proxy, silence, open */
		for (k = 0; k < n; k++)
			if (silent[k].addr.s_addr == a.s_addr && (why[i] == NULL ||
			    silent[k].how < LEASE_LOST_OPEN)) {
				free(why[i]);
				why[i] = lost_lease_why(silent[k].how, pl->job->lease_timeout);
				if (silent[k].how == LEASE_LOST_PROXY)
					break;
			}
	}
	free(silent);
}

/* `ssh HOST true` on every wanted node without a reason yet, in parallel. */
static void
lost_by_probe(const struct launch_plan *pl, const char *config, const unsigned char *want,
    double timeout, char **why)
{
	char *words[] = { "true", NULL }, line[256];
	struct proc_task *t;
	size_t i, n = pl->sites->nnodes;

	t = xcalloc(n + 1, sizeof *t);
	for (i = 0; i < n; i++)
		if (want[i] && why[i] == NULL)
			t[i].argv = remote_ssh_argv(config, NULL, pl->sites->nodes[i].host, words);
	proc_run_all(t, n, clock_mono() + timeout, launch_cancel_requested);
	for (i = 0; i < n; i++) {
		if (t[i].argv == NULL || t[i].status == 0)
			continue;
		if (t[i].status == PROC_DEADLINE)
			xasprintf(&why[i], "did not answer ssh within %g s", timeout);
		else if (t[i].status != PROC_STOPPED) {
			proc_last_line(t[i].err, line, sizeof line);
			xasprintf(&why[i], "did not answer ssh (%s)", *line != '\0' ? line :
			    "no message");
		}
	}
	proc_free(t, n);
	free(t);
}

/*
 * The nodes of Slurm sites: out of reach when Slurm ended the allocation that held them
 * (slurm_release marked it, with Slurm's state and reason), never probed over ssh (their
 * routes went with the allocation).
 */
static void
lost_by_slurm(const struct launch_plan *pl, unsigned char *want, char **why)
{
	const struct job_state *st = pl->st;
	size_t i, j, k;

	for (i = 0; i < st->nallocs; i++) {
		const struct job_alloc *a = &st->allocs[i];

		for (j = 0; j < a->nhosts && a->released == JOB_ALLOC_ENDED; j++)
			for (k = 0; k < pl->sites->nnodes; k++)
				if (want[k] && why[k] == NULL &&
				    strcmp(pl->sites->nodes[k].host, a->hosts[j]) == 0)
					xasprintf(&why[k], "Slurm ended job %s on site %s: %s%s%s",
					    a->id, a->site, a->state, a->reason != NULL ? ", " : "",
					    a->reason != NULL ? a->reason : "");
	}
	for (k = 0; k < pl->sites->nnodes; k++)
		if (pl->sites->sites[pl->sites->nodes[k].site].sched != NULL)
			want[k] = 0;
}

size_t
launch_lost_nodes(struct launch *l, double timeout, char **why)
{
	const struct launch_plan *pl = &l->plan;
	unsigned char *want;
	char *config;
	size_t i, n = 0;

	want = xcalloc(pl->sites->nnodes + 1, 1);
	if (lost_remote_nodes(pl, want) == 0) {
		free(want);
		return 0;
	}
	lost_by_slurm(pl, want, why);
	xasprintf(&config, "%s/ssh_config", pl->st->dir);
	lost_by_lease(pl, config, want, why);
	for (i = 0; i < pl->sites->nnodes; i++)
		if (want[i] && why[i] == NULL && l->res.lost != NULL && l->res.lost[i])
			why[i] = xstrdup("did not answer ssh after the failure (cleanup)");
	lost_by_probe(pl, config, want, timeout, why);
	for (i = 0; i < pl->sites->nnodes; i++)
		n += why[i] != NULL;
	free(config);
	free(want);
	return n;
}
