/*
 * remote-cancel.h — stopping what a job started on its nodes (remote-cancel.c, with
 * sh/remote-cancel.sh run on each node over remote/remote.h's ssh).
 */
#ifndef GS_REMOTE_CANCEL_H
#define GS_REMOTE_CANCEL_H

#include <stddef.h>

#include "common/proc.h"

/*
 * Stopping what a job started on its nodes, one ssh per node, in parallel: the one
 * cancel of the cleanup after a job (launch_cleanup_remote), of the removal of the nodes'
 * own job directories (stage_cleanup) and of `cancel` (jobctl_remote_stop). On each node,
 * sh/remote-cancel.sh looks at the process group recorded in DIR/.remote/HOST.pgid (DIR:
 * the job's directory there). What differs between them is how.
 */
struct remote_cancel_how {
	int mark;		/* first leave .remote/HOST.stop: a late session never starts */
	const char *tag;	/* NULL: kill the recorded group (right after the job); else
				 * also the job's processes by GRIDSUBMIT_JOB=tag, the recorded
				 * proxy only while it is one (a later cancel: pids are reused) */
	double grace;		/* with tag: seconds from SIGTERM to SIGKILL */
	int remove;		/* then remove DIR (a node's own) and its empty parents */
	int own_connection;	/* a fresh ssh connection: a shared one may hang on a dead link */
	double limit;		/* seconds for them all */
};
struct remote_cancel_node {
	const char *host;	/* in */
	const char *dir;	/* in: the job's directory there */
	int sent;		/* 0: no ssh (invalid host name); task untouched */
	struct proc_task task;	/* the ssh's status, stdout and stderr (proc.h) */
};
void remote_cancel(const char *config, const struct remote_cancel_how *how,
    struct remote_cancel_node *nodes, size_t n);
void remote_cancel_free(struct remote_cancel_node *nodes, size_t n);

#endif
