/*
 * fd-budget.c — the descriptors of a launch (fd-budget.h): counted from the placement,
 * reserved by raising RLIMIT_NOFILE's soft limit, refused with the reason when the hard
 * limit is below the need. The soft limit is raised only as far as the need: mpiexec and
 * the ranks inherit it, and a program may still use select(2), which fails past 1024.
 */
#include <sys/resource.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "launch/fd-budget.h"
#include "remote/remote.h"

void
fd_budget_count(const struct gs_sites *sites, const struct gs_placement *p,
    struct fd_budget *b)
{
	long most;
	int r, remote;

	memset(b, 0, sizeof b[0]);
	remote = broker_placement_remote(sites, p);
	for (r = 0; r < p->nranks; r++) {
		const char *host = broker_rank_host(sites, p, r);

		if (host == NULL || remote_host_is_local(host)) {
			b->local++;
			continue;
		}
		/* consecutive ranks of a node are placed together: one proxy per run of them */
		if (r == 0 || p->ranks[r - 1].node != p->ranks[r].node)
			b->mpiexec++;
	}
	/* every rank of a multi-site job holds a lease connection, the ones here too */
	b->lease = remote ? p->nranks : 0;
	b->mpiexec *= FD_BUDGET_PER_NODE;
	b->local *= FD_BUDGET_PER_LOCAL;
	most = b->lease;
	if (b->mpiexec > most)
		most = b->mpiexec;
	if (b->local > most)
		most = b->local;
	b->need = most + FD_BUDGET_MARGIN;
}

int
fd_budget_reserve(const struct gs_sites *sites, const struct gs_placement *p, char *why,
    size_t whylen)
{
	struct fd_budget b;
	struct rlimit rl;

	fd_budget_count(sites, p, &b);
	if (getrlimit(RLIMIT_NOFILE, &rl) == -1) {
		snprintf(why, whylen, "cannot read the limit of open files: %s", strerror(errno));
		return -1;
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= (rlim_t)b.need)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < (rlim_t)b.need) {
		snprintf(why, whylen, "%d rank%s need about %ld file descriptors; the hard limit "
		    "is %llu: raise it (ulimit -Hn as root, or LimitNOFILE= of the service) or "
		    "run fewer ranks", p->nranks, p->nranks == 1 ? "" : "s", b.need,
		    (unsigned long long)rl.rlim_max);
		return -1;
	}
	rl.rlim_cur = (rlim_t)b.need;
	if (setrlimit(RLIMIT_NOFILE, &rl) == -1) {
		snprintf(why, whylen, "%d rank%s need about %ld file descriptors; the soft limit "
		    "cannot be raised from %llu: %s", p->nranks, p->nranks == 1 ? "" : "s",
		    b.need, (unsigned long long)rl.rlim_cur, strerror(errno));
		return -1;
	}
	return 0;
}
