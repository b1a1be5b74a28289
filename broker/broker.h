/*
 * broker.h — filter, rank and place: the performance function of seed 002 (eq. 2) over the
 * nodes that pass the job's requirements, and the placement of the job's ranks.
 */
#ifndef GS_BROKER_H
#define GS_BROKER_H

#include <stdio.h>

#include "broker/job.h"
#include "broker/site.h"

/* One node's terms in the ranking (doc/broker.md, "The terms"). */
struct gs_ranked {
	size_t node;		/* index into gs_sites.nodes */
	double cs;		/* CPU clock x usable cores */
	double cl;		/* 1 + load1 / cores (1 without metrics) */
	double b;		/* bandwidth to the master, Mbit/s */
	double pf_cpu;		/* w1 * (CS/CL) / sum(CS/CL) */
	double pf_bw;		/* w2 * B / sum(B) */
	double pf;		/* pf_cpu + pf_bw */
	double pr;		/* PF normalised over the selected nodes; 0 when not selected */
	int selected;		/* 1 when the placement uses this node */
	char *filtered;		/* the requirement clause that failed, or NULL */
};

struct gs_ranking {
	struct gs_ranked *nodes;	/* passing nodes in decreasing PF (ties: site file order),
					   then the filtered ones in site file order */
	size_t n;
	size_t npassing;
};

/*
 * Rank the nodes of sites for job (metrics already applied to the nodes, or not). A node
 * with gs_node.excluded set is filtered out, as one that fails the requirements.
 * Returns 0, or -1 with err (e.g. a requirements expression that does not parse, naming the
 * job file's line and column).
 */
int broker_rank(const struct gs_sites *sites, const struct gs_job *job,
    struct gs_ranking *out, struct gs_error *err);
void broker_ranking_free(struct gs_ranking *r);

/*
 * The node of a master-only rank 0: the site file's master host is not one of its nodes;
 * rank 0 then runs on gs_sites.master (doc/broker.md, "Placement").
 */
#define BROKER_NODE_NONE	((size_t)-1)

/* One MPI rank of the placement. */
struct gs_rank_place {
	size_t node;		/* index into gs_sites.nodes, or BROKER_NODE_NONE */
	double pf;
	double pr;		/* performance ratio given to the runtime (0 for the master) */
};

struct gs_placement {
	struct gs_rank_place *ranks;	/* rank 0 is the master */
	int nranks;
};

/*
 * Place nranks ranks: rank 0 on the master host (the site file's master, else the best
 * node), workers over the selected nodes in decreasing PF, spreading over nodes before
 * filling their slots. Marks ranking->nodes[i].selected and sets pr. Returns 0, or -1 with
 * err when fewer slots than ranks pass the requirements.
 */
int broker_place(const struct gs_sites *sites, struct gs_ranking *ranking, int nranks,
    struct gs_placement *out, struct gs_error *err);
void broker_placement_free(struct gs_placement *p);

/*
 * Place a job that asks for want ranks and can run with min (ranks: {min, max}; min 0:
 * want only): as many as fit, down to min. Returns 0 (out->nranks says how many), or -1 with err saying
 * why the ranks do not fit.
 */
int broker_place_fit(const struct gs_sites *sites, struct gs_ranking *ranking, int want,
    int min, struct gs_placement *out, struct gs_error *err);

/*
 * place-over.c: place job (its ranks, min_ranks and oversubscribe) as broker_place_fit
 * does; when its ranks do not fit the passing nodes' slots, refuse with err naming those
 * nodes and their slots and saying how to oversubscribe. A job that may oversubscribe
 * gets all its ranks (the max of a range): every passing node takes the same multiple of
 * its slots, the least that holds them (doc/broker.md, "Oversubscription"). What run, submit, rank, a
 * relaunch and a preflight that lost nodes place by. Returns 0, or -1 with err.
 */
int broker_place_job(const struct gs_sites *sites, struct gs_ranking *ranking,
    const struct gs_job *job, struct gs_placement *out, struct gs_error *err);

/*
 * The most ranks broker_place() can place for this ranking (rank 0 included): the slots of
 * the passing nodes, plus rank 0 when the master is not one of them. For a job's min_ranks.
 */
int broker_capacity(const struct gs_sites *sites, const struct gs_ranking *ranking);

/*
 * place-host.c: the host of rank r of p (its node's, or the master's for a rank placed on
 * no node; NULL: this host); 1 when a rank of p runs on another host than this one
 * (remote_host_is_local), or when a node of sites is on another host.
 */
const char *broker_rank_host(const struct gs_sites *sites, const struct gs_placement *p, int r);
int broker_placement_remote(const struct gs_sites *sites, const struct gs_placement *p);
int broker_sites_remote(const struct gs_sites *sites);

/* Hydra hostfile: "host:n" lines in rank order (consecutive ranks on a host grouped). */
int broker_write_hostfile(const struct gs_sites *sites, const struct gs_placement *p, FILE *f);
/* Rank map: "rank node site pf pr cpu_mhz" lines, as read by libgrt (grt.h). */
int broker_write_rankmap(const struct gs_sites *sites, const struct gs_placement *p, FILE *f);

#endif
