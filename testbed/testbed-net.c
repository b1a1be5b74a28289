/*
 * testbed-net.c — the private /16 of a testbed (testbed.h): the first of 10.213.0.0/16 ..
 * 10.244.0.0/16 that no address of this host is in, chosen under a lock of this host's so
 * that two `up`s at the same time never take the same one. Testbeds of other names, or of
 * other users' state directories, are then up side by side.
 */
#include <sys/file.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "testbed/testbed.h"

/* 1 when an address of this host is in 10.second.0.0/16. */
static int
tb_net_used(const struct ifaddrs *ifa, unsigned second)
{
	const struct ifaddrs *i;
	const unsigned char *a;

	for (i = ifa; i != NULL; i = i->ifa_next) {
		if (i->ifa_addr == NULL || i->ifa_addr->sa_family != AF_INET)
			continue;
		a = (const unsigned char *)&((const struct sockaddr_in *)i->ifa_addr)->sin_addr;
		if (a[0] == 10 && a[1] == second)
			return 1;
	}
	return 0;
}

int
tb_net_take(struct testbed *tb)
{
	struct ifaddrs *ifa;
	unsigned k;

	if ((tb->net_lock = open(TB_NET_LOCK, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) == -1 ||
	    flock(tb->net_lock, LOCK_EX) == -1)
		return tb_syserr("%s", TB_NET_LOCK);
	if (getifaddrs(&ifa) == -1)
		return tb_syserr("this host's addresses");
	for (k = TB_NET_FIRST; k < TB_NET_FIRST + TB_NET_COUNT; k++)
		if (!tb_net_used(ifa, k))
			break;
	freeifaddrs(ifa);
	if (k == TB_NET_FIRST + TB_NET_COUNT) {
		fprintf(stderr, "gridsubmit testbed: no free network for %s: 10.%u.0.0/16 to "
		    "10.%u.0.0/16 are all in use (other testbeds are up: gridsubmit testbed "
		    "down)\n", tb->name, TB_NET_FIRST, TB_NET_FIRST + TB_NET_COUNT - 1);
		return -1;
	}
	snprintf(tb->net, sizeof tb->net, "10.%u", k);
	return 0;
}

void
tb_net_release(struct testbed *tb)
{
	if (tb->net_lock != -1)
		close(tb->net_lock);
	tb->net_lock = -1;
}
