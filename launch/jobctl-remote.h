/*
 * jobctl-remote.h — a job's processes on its remote nodes (the hosts of DIR/hostfile that
 * are not this one): stopping them over ssh for cancel, and the record of the last check,
 * DIR/remote-check, that status shows. See doc/architecture.md, "No orphan on any site".
 */
#ifndef GS_JOBCTL_REMOTE_H
#define GS_JOBCTL_REMOTE_H

#include <stddef.h>

#include "store/jobstore.h"

enum jobctl_node_state {
	JOBCTL_NODE_UNCHECKED,	/* nobody looked since the job ended */
	JOBCTL_NODE_CLEAN,	/* checked: nothing of the job runs there */
	JOBCTL_NODE_LEFT,	/* checked: processes of the job could not be stopped */
	JOBCTL_NODE_UNREACHABLE,	/* ssh failed or did not answer in time: unknown */
};

struct jobctl_node {
	char host[256];
	enum jobctl_node_state state;
	int stopped;		/* processes of the job stopped there by this check */
	int left;		/* processes of the job still running there */
	char detail[512];	/* why unreachable, or what is left ("PID COMMAND; ...") */
};

const char *jobctl_node_state_name(enum jobctl_node_state s);

/*
 * The remote nodes of the job, from DIR/hostfile, each once, all UNCHECKED. Returns how
 * many (0 for a job on this host only), with an allocated array in *nodes.
 */
size_t jobctl_remote_nodes(const struct job_state *st, struct jobctl_node **nodes);

/*
 * On each node, in parallel, over a fresh ssh connection with the job's ssh_config and
 * the options of remote.c (batch mode, connect timeout): find the job's processes (the
 * job's tag in their environment, their hydra proxies, the proxy recorded in
 * .remote/HOST.pgid), SIGTERM, SIGKILL after grace seconds, and look again. Nodes that
 * have not answered within limit seconds are UNREACHABLE. Fills every node's state and
 * writes DIR/remote-check. Returns how many nodes are not CLEAN.
 */
size_t jobctl_remote_stop(const struct job_state *st, struct jobctl_node *nodes, size_t n,
    double grace, double limit);

/*
 * The last check (DIR/remote-check): 0 with the nodes (allocated) and its time (seconds
 * since the epoch), or -1 when there was none.
 */
int jobctl_remote_read(const struct job_state *st, struct jobctl_node **nodes, size_t *n,
    double *when);

#endif
