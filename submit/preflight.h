/*
 * preflight.h — before a multi-site launch, check every remote node of the placement in
 * parallel (ssh reachable within the connect timeout, hydra_pmi_proxy where hydra will
 * run it, the program and gridsubmit-rank with the same content as here, a job directory
 * there: ours when the file system is shared, else one of its own), stage to the nodes
 * that need it (stage.h), and replace the nodes that fail either by the broker's next
 * best ones when the job allows it. hydra itself waits forever on a bad ssh setup: this
 * is what keeps gridsubmit from hanging.
 */
#ifndef GS_PREFLIGHT_H
#define GS_PREFLIGHT_H

#include <stddef.h>

#include "broker.h"
#include "jobstore.h"

struct preflight {
	int nodes_staged;	/* nodes that got their own job directory, staged */
	int nodes_checked;
	int nodes_failed;	/* over all rounds */
	int all_shared;		/* 1: every node has our job directory (shared file system) */
	int replaced;		/* 1: the placement was redone without failed nodes */
};

/*
 * Check the remote nodes of p (nothing to do when all ranks are local) and stage to those
 * that need it. On failures, report each node's reason in one message; then, when the job
 * allows it (spare nodes, or min_ranks), set the failed nodes' slots to 0, place again (p
 * and ranking updated) and check the new nodes. Returns 0, or -1 with why (naming every
 * failed node; "cancelled ..." after a cancel signal). The remote directories it made are
 * in DIR/remote-dirs, for stage_cleanup(), also when it fails.
 */
int preflight_run(struct gs_sites *sites, const struct gs_job *job, struct gs_ranking *ranking,
    struct gs_placement *p, const struct job_state *st, struct preflight *pf, char *why,
    size_t whylen);

#endif
