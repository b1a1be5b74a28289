/*
 * fd-budget.h — the file descriptors a launch needs, counted before mpiexec starts
 * (doc/reliability.md, "Descriptors"): RLIMIT_NOFILE's soft limit raised toward its hard
 * limit when the ranks need more, or the job refused with the reason and what to do,
 * before anything is taken. A job that ran out halfway would fail late and obscurely: the
 * lease would leave ranks unaccepted, hydra would lose a proxy.
 */
#ifndef GS_FD_BUDGET_H
#define GS_FD_BUDGET_H

#include <stddef.h>

#include "broker/broker.h"

/* Descriptors every process of a launch keeps for itself beyond the ranks' (files, curl). */
#define FD_BUDGET_MARGIN	64
/* Per remote node, mpiexec's: its ssh's stdin, stdout and stderr, the proxy's connection. */
#define FD_BUDGET_PER_NODE	4
/* Per rank here, the local proxy's: the rank's stdin, stdout, stderr and PMI connection. */
#define FD_BUDGET_PER_LOCAL	4

/*
 * What placement p needs, each process that inherits our limit on its own: the
 * supervisor a lease connection per rank of a multi-site job, mpiexec FD_BUDGET_PER_NODE
 * per remote node, the local proxy FD_BUDGET_PER_LOCAL per rank here; need is the largest
 * of the three plus FD_BUDGET_MARGIN.
 */
struct fd_budget {
	int lease;		/* the supervisor's lease connections */
	int mpiexec;		/* mpiexec's toward the remote nodes */
	int local;		/* the local proxy's toward the ranks here */
	long need;
};

void fd_budget_count(const struct gs_sites *sites, const struct gs_placement *p,
    struct fd_budget *b);

/*
 * Make RLIMIT_NOFILE's soft limit at least what p needs: 0 when it already is or was
 * raised (never lowered, never past the hard limit); -1 with why ("1200 ranks need about
 * 1264 file descriptors; the hard limit is 1024: raise it (ulimit -Hn as root, or
 * LimitNOFILE=) or run fewer ranks") when the hard limit is too low.
 */
int fd_budget_reserve(const struct gs_sites *sites, const struct gs_placement *p, char *why,
    size_t whylen);

#endif
