/*
 * test-fd-budget.c — the descriptors a launch needs (launch/fd-budget.h), counted from
 * placements built here, and RLIMIT_NOFILE reserved for them in a child of this test: a
 * soft limit below the need raised (only as far as the need), one above it left, a hard
 * limit below the need refused with the reason and the limit untouched.
 */
#include <sys/resource.h>
#include <sys/wait.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker/broker.h"
#include "common/xmalloc.h"
#include "launch/fd-budget.h"
#include "tests/tap.h"

static struct gs_node nodes[3];
static struct gs_sites sites;

/* n ranks: the first here local of them on this host, the rest dealt to two nodes in turn. */
static void
place(struct gs_placement *p, int n, int here)
{
	int r;

	p->nranks = n;
	p->ranks = xcalloc((size_t)n, sizeof *p->ranks);
	for (r = 0; r < n; r++)
		p->ranks[r].node = r < here ? 0 : 1 + (size_t)(r - here) * 2 / (size_t)(n - here);
}

static void
test_count(void)
{
	struct gs_placement p;
	struct fd_budget b;

	place(&p, 8, 8);
	fd_budget_count(&sites, &p, &b);
	ok(b.lease == 0 && b.mpiexec == 0 && b.local == 32, "8 ranks here: no lease, 4 each "
	    "for the local proxy (%d %d %d)", b.lease, b.mpiexec, b.local);
	is_int(b.need, 32 + FD_BUDGET_MARGIN, "8 ranks here: need 96");
	free(p.ranks);
	place(&p, 1200, 1);
	fd_budget_count(&sites, &p, &b);
	ok(b.lease == 1200 && b.mpiexec == 8 && b.local == 4, "1200 ranks on 2 nodes: a lease "
	    "each, 4 per node for mpiexec, 4 for rank 0 here (%d %d %d)", b.lease, b.mpiexec,
	    b.local);
	is_int(b.need, 1200 + FD_BUDGET_MARGIN, "1200 ranks: need 1264");
	free(p.ranks);
}

/* In a child: soft and hard limits set, then fd_budget_reserve; its result on a pipe. */
static void
reserve(int nranks, rlim_t soft, rlim_t hard, int *rc, rlim_t *after, char *why, size_t len)
{
	struct gs_placement p;
	struct rlimit rl;
	int fds[2], st;
	pid_t pid;

	*rc = -2;
	*after = 0;
	*why = '\0';
	if (pipe(fds) == -1)
		return;
	if ((pid = fork()) == 0) {
		char buf[1024] = "";
		int r;

		close(fds[0]);
		rl.rlim_cur = soft;
		rl.rlim_max = hard;
		if (setrlimit(RLIMIT_NOFILE, &rl) == -1)
			_exit(1);
		place(&p, nranks, 1);
		r = fd_budget_reserve(&sites, &p, buf, sizeof buf);
		getrlimit(RLIMIT_NOFILE, &rl);
		dprintf(fds[1], "%d %llu %s", r, (unsigned long long)rl.rlim_cur, buf);
		_exit(0);
	}
	close(fds[1]);
	{
		char buf[1200] = "";
		ssize_t n = read(fds[0], buf, sizeof buf - 1);
		unsigned long long cur;
		int used = 0;

		if (n > 0 && sscanf(buf, "%d %llu %n", rc, &cur, &used) == 2) {
			*after = (rlim_t)cur;
			snprintf(why, len, "%s", buf + used);
		}
	}
	close(fds[0]);
	waitpid(pid, &st, 0);
}

static void
test_reserve(void)
{
	char why[1024];
	rlim_t after;
	int rc;

	reserve(1200, 100, 4096, &rc, &after, why, sizeof why);
	is_int(rc, 0, "soft 100, hard 4096: 1200 ranks reserved (%s)", why);
	is_int(after, 1264, "the soft limit raised to the need, no further");
	reserve(10, 2000, 4096, &rc, &after, why, sizeof why);
	ok(rc == 0 && after == 2000, "a soft limit above the need is left (%llu)",
	    (unsigned long long)after);
	reserve(1200, 100, 1024, &rc, &after, why, sizeof why);
	is_int(rc, -1, "hard 1024: 1200 ranks refused");
	is_str(why, "1200 ranks need about 1264 file descriptors; the hard limit is 1024: raise "
	    "it (ulimit -Hn as root, or LimitNOFILE= of the service) or run fewer ranks",
	    "the reason, with what to do");
	is_int(after, 100, "and the limit untouched");
}

int
main(void)
{
	memset(nodes, 0, sizeof nodes);
	nodes[0].host = "localhost";
	nodes[1].host = "n1.invalid";
	nodes[2].host = "n2.invalid";
	sites.nodes = nodes;
	sites.nnodes = 3;
	test_count();
	test_reserve();
	return tap_done();
}
