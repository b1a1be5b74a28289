/* site-ssh.c — how the hosts of a site file are reached over ssh (site.h). */
#include <stdlib.h>

#include "broker/site.h"
#include "common/xmalloc.h"
#include "remote/remote.h"

int
sites_write_ssh_config(const struct gs_sites *sites, const char *path, char *why,
    size_t whylen)
{
	struct remote_host *hosts = xcalloc(sites->nnodes + sites->nsites + 1, sizeof *hosts);
	const struct gs_sched *sc;
	size_t i, n = 0;
	int rc;

	for (i = 0; i < sites->nnodes; i++) {
		hosts[n].host = sites->nodes[i].host;
		hosts[n++].ssh = &sites->nodes[i].ssh;
	}
	/* the login host of every Slurm site (doc/slurm.md) */
	for (i = 0; i < sites->nsites; i++)
		if ((sc = sites->sites[i].sched) != NULL && sc->login != NULL) {
			hosts[n].host = sc->login;
			hosts[n++].ssh = &sc->ssh;
		}
	rc = remote_write_ssh_config(hosts, n, path, why, whylen);
	free(hosts);
	return rc;
}
