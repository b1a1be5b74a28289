/*
 * jobrun-derived.c — a site file given where its testbed's derived file was meant
 * (jobrun.h). `testbed up FILE` prints the derived site file, whose nodes are reached
 * through the testbed's ssh_config; FILE itself names hosts that exist only there, and
 * its job would take an id and fail at launch ("cannot resolve fa1"). Caught before the
 * job is made, with the file to use.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <limits.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "remote/remote.h"
#include "submit/cmd.h"
#include "submit/jobrun.h"

/*
 * The derived site file of the testbed that `testbed up FILE` makes for file (named after
 * its base name without .yaml, doc/testbed.md), when it is there and is not file itself;
 * else NULL. Allocated.
 */
static char *
jd_derived(const char *file)
{
	const char *base = strrchr(file, '/');
	char *path, real[PATH_MAX], dreal[PATH_MAX];
	size_t len;

	base = base != NULL ? base + 1 : file;
	len = strlen(base);
	if (len > 5 && strcmp(base + len - 5, ".yaml") == 0)
		len -= 5;
	xasprintf(&path, "%s/testbed/%.*s/sites.yaml", cmd_home(), (int)len, base);
	if (access(path, R_OK) == 0 && realpath(path, dreal) != NULL &&
	    (realpath(file, real) == NULL || strcmp(real, dreal) != 0))
		return path;
	free(path);
	return NULL;
}

/*
 * The first node that ssh would look up by its name and that does not resolve; NULL when
 * every one does. A node with an ssh_config of its own (which may say its HostName), or
 * of a Slurm site (reached from its login host), is not looked up here.
 */
static const char *
jd_unresolved(const struct gs_sites *sites)
{
	struct addrinfo hints, *ai;
	const struct gs_node *n;
	size_t i;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	for (i = 0; i < sites->nnodes; i++) {
		n = &sites->nodes[i];
		if (n->ssh.config != NULL || remote_host_is_local(n->host) ||
		    (n->site >= 0 && (size_t)n->site < sites->nsites &&
		    sites->sites[n->site].sched != NULL))
			continue;
		if (getaddrinfo(n->host, NULL, &hints, &ai) != 0)
			return n->host;
		freeaddrinfo(ai);
	}
	return NULL;
}

int
jobrun_derived_check(const char *file, const struct gs_sites *sites)
{
	const char *host;
	char *derived;

	if (file == NULL || (derived = jd_derived(file)) == NULL)
		return 0;
	if ((host = jd_unresolved(sites)) == NULL) {
		free(derived);
		return 0;
	}
	fprintf(stderr, "gridsubmit: %s: host '%s' does not resolve; its testbed is up: use the "
	    "derived site file %s\n", file, host, derived);
	free(derived);
	return -1;
}
