/*
 * testbed-latency.c — a node's link latency (its site's latency_ms, one way, "to the
 * master": gridsubmit-sites(5), SITE FILES, Sites) on kernels without sch_netem: a delay
 * line in the node's network namespace (doc/testbed.md, "Latency").
 *
 * The node's IPv4 packets to and from the bridge are sent to NFQUEUE queue 0 by iptables
 * rules in the namespace, where gridsubmit-delay (testbed/delay/) hands each back to
 * the kernel latency_ms after it arrived. Both directions are delayed where packets come
 * *in*, at PREROUTING:
 *  - master -> node as it arrives on eth0;
 *  - node -> master after a detour through a veth pair inside the namespace (dly0 -> dly1)
 *    and forwarding to eth0. Why the detour: a packet this host's TCP sends stays charged
 *    to its socket until it is received somewhere, and TCP small queues lets only about
 *    1 ms of the sending rate be charged at once; held latency_ms in OUTPUT it throttled a
 *    node's uploads to 2 Mbit/s (measured here, 20 ms, unshaped link); received on dly1
 *    first, the charge is gone and uploads ran at the same 350 Mbit/s as downloads.
 * Loopback traffic (lo, the node's own address) takes neither path. Everything lives in
 * the namespace and goes with it; the daemon is in the manifest and in the namespace, so
 * `down` kills it like sshd. It is not in the node's cgroup: the CPU quota and background
 * load of emulate: must not delay packets.
 */
#include <sys/prctl.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file.h"
#include "common/xmalloc.h"
#include "testbed/testbed.h"

#define DL_QUEUE	"0"		/* the NFQUEUE queue of a node's namespace */
#define DL_OUT		"dly0"		/* the node's own packets leave through this end... */
#define DL_IN		"dly1"		/* ...and come in here, to be delayed and forwarded */
#define DL_IN_MAC	"02:67:73:64:6c:31"	/* fixed: no ARP on the detour */
#define DL_GATEWAY	"169.254.0.1"	/* the detour's next hop: a neighbour entry only */
#define DL_TABLE_OUT	"100"		/* local traffic (iif lo) -> the detour */
#define DL_TABLE_FWD	"101"		/* from the detour -> eth0 */
#define DL_READY_SECS	5

const char *
tb_latency_name(int how)
{
	switch (how) {
	case TB_LAT_NETEM:
		return "netem";
	case TB_LAT_DELAY:
		return "delay-line";
	}
	return "none";
}

/* gridsubmit-delay lives next to the gridsubmit binary (build dir, or the install's bin). */
static char *
tb_delay_program(void)
{
	return file_beside_self("gridsubmit-delay");
}

/*
 * Start the daemon in the node's namespace (not its UTS namespace or cgroup: it is
 * plumbing, not part of the emulated host), recorded in the manifest, and wait until it
 * says its queue is bound. Until the parent has recorded it, the child dies with the
 * parent (PR_SET_PDEATHSIG); once in the namespace, `down` finds it there anyway.
 */
static int
tb_delay_start(struct testbed *tb, struct tb_node *tn, const char *prog, double ms)
{
	char *nspath, *log, delay[32], buf[16];
	char *argv[] = { (char *)prog, "--delay", delay, "--queue", DL_QUEUE, "--ready-fd",
	    "3", NULL };
	struct pollfd pfd;
	pid_t parent = getpid(), pid;
	ssize_t n;
	int p[2];

	snprintf(delay, sizeof delay, "%.6f", ms);
	if (pipe2(p, O_CLOEXEC) == -1)
		return tb_syserr("%s: cannot start the delay line", tn->node->host);
	xasprintf(&nspath, "/run/netns/%s", tn->netns);
	xasprintf(&log, "%s/delay.log", tn->dir);
	fflush(NULL);
	if ((pid = fork()) == -1) {
		tb_syserr("%s: cannot start the delay line", tn->node->host);
		close(p[0]);
		close(p[1]);
		free(nspath);
		free(log);
		return -1;
	}
	if (pid == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1 || getppid() != parent)
			_exit(127);
		tb_child_enter(nspath);
		prctl(PR_SET_PDEATHSIG, 0);
		tb_child_output(log);
		if (p[1] == 3)
			fcntl(3, F_SETFD, 0);
		else if (dup2(p[1], 3) == -1)
			_exit(127);
		execv(argv[0], argv);
		dprintf(2, "gridsubmit testbed: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	if (tb_manifest_add(tb, "pid %ld %lld delay %s", (long)pid, tb_proc_start(pid),
	    tn->node->host) == -1) {
		tb_kill_unrecorded(pid);
		close(p[0]);
		free(nspath);
		free(log);
		return -1;
	}
	pfd.fd = p[0];
	pfd.events = POLLIN;
	n = 0;
	if (poll(&pfd, 1, DL_READY_SECS * 1000) == 1)
		n = read(p[0], buf, sizeof buf - 1);
	close(p[0]);
	if (n < 6 || strncmp(buf, "ready\n", 6) != 0) {
		fprintf(stderr, "gridsubmit testbed: %s: the delay line did not start "
		    "(see %s)\n", tn->node->host, log);
		free(nspath);
		free(log);
		return -1;
	}
	free(nspath);
	free(log);
	return 0;
}

/*
 * The detour of the node's own packets (see the top of this file): local traffic to the
 * testbed's /16 goes out dly0 to a fixed neighbour, which is dly1; from dly1 it is
 * forwarded out eth0. dly1 accepts the node's own source address (accept_local) and does
 * no reverse-path check. The veth ends have no address, so nothing (hydra, UCX) takes
 * them for a way to reach the node.
 */
static int
tb_delay_detour(const struct testbed *tb, struct tb_node *tn, const char *sysctl)
{
	const char *ns = tn->netns;
	char net[32], v6a[64], v6b[64];

	snprintf(net, sizeof net, "%s.0.0/16", tb->net);
	if (tb_run("ip", "-n", ns, "link", "add", DL_OUT, "type", "veth", "peer", "name", DL_IN,
	    NULL) == -1 ||
	    tb_run("ip", "-n", ns, "link", "set", DL_IN, "address", DL_IN_MAC, NULL) == -1)
		return -1;
	/* no IPv6 link-local address either, where there is IPv6 */
	snprintf(v6a, sizeof v6a, "net.ipv6.conf.%s.disable_ipv6=1", DL_OUT);
	snprintf(v6b, sizeof v6b, "net.ipv6.conf.%s.disable_ipv6=1", DL_IN);
	if (access("/proc/sys/net/ipv6", F_OK) == 0)
		tb_run_quiet("ip", "netns", "exec", ns, sysctl, "-q", "-w", v6a, v6b, NULL);
	if (tb_run("ip", "netns", "exec", ns, sysctl, "-q", "-w",
	    "net.ipv4.conf.all.forwarding=1", "net.ipv4.conf.all.rp_filter=0",
	    "net.ipv4.conf." DL_IN ".rp_filter=0", "net.ipv4.conf." DL_IN ".accept_local=1",
	    NULL) == -1 ||
	    tb_run("ip", "-n", ns, "link", "set", DL_OUT, "up", NULL) == -1 ||
	    tb_run("ip", "-n", ns, "link", "set", DL_IN, "up", NULL) == -1 ||
	    tb_run("ip", "-n", ns, "neigh", "add", DL_GATEWAY, "lladdr", DL_IN_MAC, "dev",
	    DL_OUT, "nud", "permanent", NULL) == -1 ||
	    tb_run("ip", "-n", ns, "route", "add", net, "via", DL_GATEWAY, "dev", DL_OUT,
	    "onlink", "src", tn->addr, "table", DL_TABLE_OUT, NULL) == -1 ||
	    tb_run("ip", "-n", ns, "route", "add", net, "dev", "eth0", "src", tn->addr,
	    "table", DL_TABLE_FWD, NULL) == -1 ||
	    tb_run("ip", "-n", ns, "rule", "add", "pref", DL_TABLE_OUT, "iif", "lo", "lookup",
	    DL_TABLE_OUT, NULL) == -1 ||
	    tb_run("ip", "-n", ns, "rule", "add", "pref", DL_TABLE_FWD, "iif", DL_IN, "lookup",
	    DL_TABLE_FWD, NULL) == -1)
		return -1;
	return 0;
}

/* After the daemon is bound: an unbound queue would drop every packet sent to it. */
static int
tb_delay_rules(struct tb_node *tn, const char *iptables)
{
	static const char *const devs[] = { "eth0", DL_IN, NULL };
	int i;

	for (i = 0; devs[i] != NULL; i++)
		if (tb_run("ip", "netns", "exec", tn->netns, iptables, "-w", "-t", "mangle",
		    "-A", "PREROUTING", "-i", devs[i], "-j", "NFQUEUE", "--queue-num",
		    DL_QUEUE, NULL) == -1)
			return -1;
	return 0;
}

/*
 * 1 when this kernel has sch_netem (a module some kernels lack): tried on the loopback of
 * a network namespace of the probe's own (util-linux's unshare -n), which goes with it, so
 * nothing is left to undo.
 */
static int
tb_netem_probe(void)
{
	char *tc;
	int rc;

	if ((tc = tb_which("tc")) == NULL)
		return 0;
	rc = tb_run_quiet("unshare", "-n", tc, "qdisc", "add", "dev", "lo", "root", "netem",
	    "delay", "1ms", NULL);
	free(tc);
	return rc == 0;
}

/* What the delay line lacks on this host (NULL: nothing), and the tools it found. */
static const char *
tb_delay_missing(char **prog, char **iptables, char **sysctl)
{
	*prog = tb_delay_program();
	*iptables = tb_which("iptables");
	*sysctl = tb_which("sysctl");
	if (*prog == NULL)
		return "gridsubmit-delay is not next to gridsubmit: install libnetfilter-queue-dev "
		    "(Debian), then ./configure && make builds it";
	if (*iptables == NULL)
		return "iptables is not installed (Debian package iptables)";
	if (*sysctl == NULL)
		return "sysctl is not installed (Debian package procps)";
	return NULL;
}

/* A testbed whose links are faster than the site file says would measure the wrong grid. */
int
tb_latency_check(struct testbed *tb)
{
	char *prog, *iptables, *sysctl;
	const char *why;
	size_t s;
	int rc = 0;

	if ((tb->have_netem = tb_netem_probe()))
		return 0;
	why = tb_delay_missing(&prog, &iptables, &sysctl);
	for (s = 0; why != NULL && s < tb->sites.nsites; s++) {
		const struct gs_site *site = &tb->sites.sites[s];

		if (site->latency_ms <= 0)
			continue;
		fprintf(stderr, "gridsubmit testbed: %s:%d:%d: site '%s': link latency_ms %g "
		    "needs the delay line (this kernel has no sch_netem), but %s\n",
		    site->loc.file, site->loc.line, site->loc.col, site->name,
		    site->latency_ms, why);
		rc = -1;
	}
	free(prog);
	free(iptables);
	free(sysctl);
	return rc;
}

int
tb_latency_node(struct testbed *tb, struct tb_node *tn)
{
	const struct gs_site *site = &tb->sites.sites[tn->node->site];
	char *prog = NULL, *iptables = NULL, *sysctl = NULL;
	const char *why;
	int rc = 0;

	if (site->latency_ms <= 0)
		tn->lat_how = TB_LAT_NONE;
	else if (tb->have_netem)
		tn->lat_how = TB_LAT_NETEM;	/* tb_shape put it under the htb class */
	else if ((why = tb_delay_missing(&prog, &iptables, &sysctl)) != NULL) {
		/* tb_latency_check found it all: something went away since */
		fprintf(stderr, "gridsubmit testbed: %s: the delay line: %s\n", tn->node->host,
		    why);
		tn->lat_how = TB_LAT_DELAY;
		rc = -1;
	} else {
		tn->lat_how = TB_LAT_DELAY;
		if (tb_delay_detour(tb, tn, sysctl) == -1 ||
		    tb_delay_start(tb, tn, prog, site->latency_ms) == -1 ||
		    tb_delay_rules(tn, iptables) == -1)
			rc = -1;
	}
	if (tb_manifest_add(tb, "latency %s %s %.15g", tn->node->host,
	    tb_latency_name(tn->lat_how), site->latency_ms) == -1)
		rc = -1;
	free(prog);
	free(iptables);
	free(sysctl);
	return rc;
}
