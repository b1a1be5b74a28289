/*
 * slurm-nodes.h — the inventory of the sites behind Slurm (doc/slurm.md, "Which nodes"): a
 * site whose site file says `scheduler: {type: slurm, login: HOST, ...}` has its nodes read
 * from Slurm through the login host, over ssh with the login hosts' ssh settings
 * (remote/remote.h), before the broker ranks them. Holding nodes for a job is launch's
 * (launch/slurm-site.h).
 */
#ifndef GS_SLURM_NODES_H
#define GS_SLURM_NODES_H

#include <stddef.h>

#include "broker/site.h"

/*
 * One node as `sinfo --json` describes it (Slurm 22.05's scontrol has no --json; sinfo's
 * is the openapi v0.0.38 node).
 */
struct slurm_node {
	char *name;
	int cpus;
	double mem_mb;		/* real_memory */
	char *features;		/* comma-separated, or NULL */
	char *state;		/* lower case, Slurm's words joined by '+': "idle", "mixed",
				 * "allocated", "idle+drain", "down+not_responding" */
	char *reason;		/* Slurm's reason (drain, down), or NULL */
	double cpu_load;	/* CPULoad (load average), -1 when Slurm has none */
	char **partitions;	/* the partitions it is in */
	size_t npartitions;
};

/*
 * Parse what the inventory's command prints on a login host: `sinfo --json`, then the
 * lines of `sinfo --noheader --format=%P` (the default partition starred). The nodes in
 * an allocated array *out, its length in *n; the default partition, allocated, in
 * *default_partition (NULL: none starred, or default_partition NULL). 0, or -1 with why.
 */
int slurm_nodes_parse(const char *text, struct slurm_node **out, size_t *n,
    char **default_partition, char *why, size_t whylen);
void slurm_nodes_free(struct slurm_node *nodes, size_t n);

/*
 * Slurm's nodes onto the Slurm site `site` of sites (doc/slurm.md, "Which nodes"): with
 * `nodes: auto`, a node per Slurm node of its partition (sched->partition, else
 * default_partition, else every node), made from sched->proto (cores and slots its CPUs
 * unless proto sets slots, mem_mb its real memory, monitor expanded, loc the scheduler's)
 * and put after the nodes of the sites before it; then every node of the site gets
 * unavailable ("down: REASON", "drained: REASON", "not a node of Slurm on LOGIN", "not in
 * partition P"), busy (allocated or mixed), sched_load (CPULoad) and features. Returns
 * how many nodes were added.
 */
int slurm_site_apply(struct gs_sites *sites, size_t site, const struct slurm_node *sn,
    size_t nsn, const char *default_partition);

/*
 * Read every Slurm site of sites through its login host (ssh with the login hosts' ssh
 * settings in a private ssh_config under $GRIDSUBMIT_HOME, removed after; at most timeout
 * seconds for all, in parallel) and apply it (slurm_site_apply). A site whose login host
 * cannot be read: its nodes unavailable, "Slurm on LOGIN could not be read: WHY", said
 * once on stderr. Returns how many sites could not be read.
 */
int slurm_inventory(struct gs_sites *sites, double timeout);

#endif
