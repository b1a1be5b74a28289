/*
 * launch-host.c — the paths of the rank wrapper and of hydra's proxy, and the route toward
 * a node and its address.
 */

#include <arpa/inet.h>

#include <errno.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file.h"
#include "common/log.h"
#include "common/proc.h"
#include "common/xmalloc.h"
#include "gen/gs-config.h"
#include "launch/launch-int.h"
#include "launch/launch.h"
#include "launch/rank/rank-preload.h"
#include "launch/stage.h"
#include "remote/remote.h"

/*
 * gridsubmit-rank lives next to the gridsubmit binary (build dir, or the install's bin);
 * NULL when it is not there.
 */
char *
launch_rank_wrapper(void)
{
	return file_beside_self("gridsubmit-rank");
}

char *
launch_finalize_lib(void)
{
	char *wrapper = launch_rank_wrapper(), *real, *slash, *lib = NULL;

	if (wrapper != NULL && (real = realpath(wrapper, NULL)) != NULL) {
		if ((slash = strrchr(real, '/')) != NULL)
			*slash = '\0';
		xasprintf(&lib, "%s/" RANK_FINALIZE_LIB, real);
		free(real);
		if (access(lib, R_OK) != 0) {
			free(lib);
			lib = NULL;
		}
	}
	free(wrapper);
	return lib;
}

/*
 * Where hydra looks for hydra_pmi_proxy on every host: next to the real mpiexec (it
 * passes "DIR/hydra_pmi_proxy" with DIR the directory of its own binary).
 */
char *
launch_proxy_path(void)
{
	const char *path = getenv("PATH");
	char *full, *real, *slash, *out = NULL;

	if (strchr(GS_MPIEXEC, '/') != NULL)
		full = xstrdup(GS_MPIEXEC);
	else
		full = file_which(GS_MPIEXEC, path != NULL ? path : "/usr/bin:/bin");
	if (full != NULL && (real = realpath(full, NULL)) != NULL) {
		if ((slash = strrchr(real, '/')) != NULL)
			*slash = '\0';
		xasprintf(&out, "%s/hydra_pmi_proxy", real);
		free(real);
	}
	free(full);
	return out != NULL ? out : xstrdup("/usr/bin/hydra_pmi_proxy");
}

int
launch_ssh_hostname(const char *config, const char *host, char *target, size_t len,
    char *why, size_t whylen)
{
	/* a node reached through srun: the route toward it is its login host's */
	char *argv[] = { "ssh", "-F", (char *)config, "-G", "--",
	    (char *)remote_route_target(host), NULL };
	struct proc_task pt;
	char *p;

	*target = '\0';
	if (proc_run(argv, 10, &pt) != 0) {
		snprintf(why, whylen, "%s: ssh -G failed: %s", host, pt.err);
		proc_free(&pt, 1);
		snprintf(target, len, "%s", host);
		return -1;
	}
	for (p = pt.out; p != NULL && *p != '\0'; p = strchr(p, '\n') ? strchr(p, '\n') + 1 :
	    NULL)
		if (sscanf(p, "hostname %255s", target) == 1)
			break;
	proc_free(&pt, 1);
	if (*target == '\0')
		snprintf(target, len, "%s", host);
	return 0;
}

/*
 * The local interface and address by which host is reached, as ssh will reach it (its
 * HostName from the job's ssh_config, resolved, then the kernel's route): hydra's -iface,
 * so that remote proxies connect back to an address they can reach.
 */
int
launch_route(const char *config, const char *host, char *ifname, size_t iflen, char *addr,
    size_t addrlen, char *why, size_t whylen)
{
	struct addrinfo hints, *ai = NULL;
	struct sockaddr_in local;
	socklen_t len = sizeof local;
	struct ifaddrs *ifa, *i;
	char target[256];
	int s, found = 0;
	/* the last answer: preflight and launch ask for the same host (ssh -G takes ~50 ms) */
	static char *c_config, *c_host, c_if[64], c_addr[64];

	if (c_config != NULL && strcmp(c_config, config) == 0 && strcmp(c_host, host) == 0) {
		snprintf(ifname, iflen, "%s", c_if);
		snprintf(addr, addrlen, "%s", c_addr);
		return 0;
	}
	if (launch_ssh_hostname(config, host, target, sizeof target, why, whylen) != 0)
		return -1;
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_INET;
	hints.ai_socktype = SOCK_DGRAM;
	if (getaddrinfo(target, "9", &hints, &ai) != 0 || ai == NULL) {
		snprintf(why, whylen, "%s: cannot resolve %s", host, target);
		return -1;
	}
	if ((s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1 ||
	    connect(s, ai->ai_addr, ai->ai_addrlen) == -1 ||
	    getsockname(s, (struct sockaddr *)&local, &len) == -1) {
		snprintf(why, whylen, "%s: no route to %s: %s", host, target, strerror(errno));
		if (s != -1)
			close(s);
		freeaddrinfo(ai);
		return -1;
	}
	close(s);
	freeaddrinfo(ai);
	inet_ntop(AF_INET, &local.sin_addr, addr, (socklen_t)addrlen);
	if (getifaddrs(&ifa) == 0) {
		for (i = ifa; i != NULL && !found; i = i->ifa_next) {
			if (i->ifa_addr == NULL || i->ifa_addr->sa_family != AF_INET)
				continue;
			if (((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr ==
			    local.sin_addr.s_addr) {
				snprintf(ifname, iflen, "%s", i->ifa_name);
				found = 1;
			}
		}
		freeifaddrs(ifa);
	}
	if (!found) {
		snprintf(why, whylen, "%s: no local interface has %s", host, addr);
		return -1;
	}
	free(c_config);
	free(c_host);
	c_config = xstrdup(config);
	c_host = xstrdup(host);
	snprintf(c_if, sizeof c_if, "%s", ifname);
	snprintf(c_addr, sizeof c_addr, "%s", addr);
	return 0;
}

/* The IPv4 address ssh reaches host at (its HostName in config, resolved); -1: unknown. */
int
launch_host_addr(const char *config, const char *host, struct in_addr *addr)
{
	struct addrinfo hints, *ai = NULL;
	char target[256], why[256];
	int rc = -1;

	/* without ssh's answer, host as it is */
	launch_ssh_hostname(config, host, target, sizeof target, why, sizeof why);
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_INET;
	if (getaddrinfo(target, NULL, &hints, &ai) == 0 && ai != NULL) {
		*addr = ((struct sockaddr_in *)ai->ai_addr)->sin_addr;
		rc = 0;
	}
	if (ai != NULL)
		freeaddrinfo(ai);
	return rc;
}
