/*
 * testbed-speed.c — the CPU quota of every testbed node (doc/testbed.md, "Relative speeds").
 *
 * By default the quotas emulate the site file's relative speeds. A node's capacity is
 * cpu_mhz × cores × emulate.cpu_scale, and its quota is its capacity times one scale
 * (CPUs per MHz) for the whole grid, the largest that keeps
 *  - the sum of the quotas within this host's CPUs less TB_SPEED_RESERVE: the master rank
 *    runs on this host outside every node, and the delay lines outside the nodes' cgroups.
 *    Quotas that add up to more than the host has are not quotas but a fair share: sixteen
 *    one-CPU quotas on two cores made every TIGER node equally fast, and static beat pwd,
 *    gss and tss (1.31 s against 2.3-2.7 s for mandelbrot 1024), the reverse of seed 002;
 *  - every quota within the node's cores: the scale is at most 1 / the file's top cpu_mhz,
 *    so a node at that clock with cpu_scale 1 gets all its cores, and on a host with room
 *    the quotas are the former cpu_scale × cores, times cpu_mhz / top cpu_mhz.
 * The ratios are then the file's, but for the rounding of a quota down to a microsecond
 * per 100 ms period (at most 0.1 %, at the smallest quota). A quota below cgroup's smallest, 1 ms per period
 * (TB_CPU_MIN), cannot be honoured: such a file is refused before anything is built,
 * rather than emulated with other ratios.
 *
 * --no-speeds or GRIDSUBMIT_TESTBED_SPEEDS=off: the former quotas, cpu_scale × cores (at
 * most this host's CPUs), whatever the clocks.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "testbed/testbed.h"

#define TB_MHZ_NONE	1000.0	/* a node without cpu_mhz in a file where none has one */
#define TB_SPEED_SHOWN	4	/* the scale line names every node of a grid this small */
#define TB_REFUSE_SHOWN	5	/* nodes named when a file is refused; then "and N more" */

/* The CPUs this process may run on (its affinity: what nproc says), at least 1. */
double
tb_host_cpus(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (double)n : 1;
}

static int
tb_cores(const struct gs_node *n)
{
	return n->cores > 0 ? n->cores : 1;
}

/*
 * A quota as cgroups take it: whole microseconds per TB_CG_PERIOD, rounded down so that the
 * quotas never add up to more than the budget (the 1e-6 absorbs floating error: the same
 * quota computed another way, as from the derived file, is not a microsecond less).
 */
static double
tb_quota_round(double cpus)
{
	return (double)(long long)(cpus * TB_CG_PERIOD + 1e-6) / TB_CG_PERIOD;
}

/* x with 3 significant digits, never in e-notation: 0.0000432, 0.000333, 0.130 */
void
tb_speed_fmt(char *buf, size_t len, double x)
{
	int d = 2;
	double m = x;

	while (m > 0 && m < 100 && d < 15) {
		m *= 10;
		d++;
	}
	snprintf(buf, len, "%.*f", d > 2 ? d - 2 : 0, x);
}

/*
 * The quotas (tb->cpus, one per node of the file) and, with speeds, the scale; before
 * anything is built. 0, or -1 when some node's quota would be below TB_CPU_MIN (every
 * such node said, with what to do instead).
 */
int
tb_speed_plan(struct testbed *tb)
{
	const struct gs_sites *gs = &tb->sites;
	double host = tb_host_cpus(), budget = host - TB_SPEED_RESERVE, top = 0, sum = 0;
	double *mhz, k;
	size_t i, nomhz = 0, fast = 0, bad = 0;
	char s1[32];

	tb->host_cpus = host;
	tb->cpus = xcalloc(gs->nnodes ? gs->nnodes : 1, sizeof *tb->cpus);
	if (!tb->speeds) {
		for (i = 0; i < gs->nnodes; i++) {
			double c = tb_cores(&gs->nodes[i]);

			c = gs->nodes[i].emulate.cpu_scale * (c > host ? host : c);
			tb->cpus[i] = tb_quota_round(c < TB_CPU_MIN ? TB_CPU_MIN : c);
		}
		return 0;
	}

	/* the loader wants cpu_mhz > 0 on every node; should one lack it, say what it got */
	mhz = xcalloc(gs->nnodes ? gs->nnodes : 1, sizeof *mhz);
	for (i = 0; i < gs->nnodes; i++)
		if (gs->nodes[i].cpu_mhz > top)
			top = gs->nodes[i].cpu_mhz;
	for (i = 0; i < gs->nnodes; i++) {
		mhz[i] = gs->nodes[i].cpu_mhz;
		if (mhz[i] > 0)
			continue;
		mhz[i] = top > 0 ? top : TB_MHZ_NONE;
		if (nomhz++ == 0)
			fprintf(stderr, "gridsubmit testbed: %s has no cpu_mhz: taken as %g MHz "
			    "(%s)\n", gs->nodes[i].host, mhz[i], top > 0 ? "the file's largest" :
			    "no node of the file has one");
	}
	if (nomhz > 1)
		fprintf(stderr, "gridsubmit testbed: and %zu more nodes without cpu_mhz\n",
		    nomhz - 1);
	if (top <= 0)
		top = TB_MHZ_NONE;

	for (i = 0; i < gs->nnodes; i++) {
		double c = mhz[i] * tb_cores(&gs->nodes[i]) * gs->nodes[i].emulate.cpu_scale;

		sum += c;
		if (c > mhz[fast] * tb_cores(&gs->nodes[fast]) *
		    gs->nodes[fast].emulate.cpu_scale)
			fast = i;
	}
	k = 1 / top;
	if (sum > 0 && budget / sum < k)
		k = budget / sum;
	tb->cpu_per_mhz = k;
	tb->shrink = k * top;
	for (i = 0; i < gs->nnodes; i++)
		tb->cpus[i] = tb_quota_round(k * mhz[i] * tb_cores(&gs->nodes[i]) *
		    gs->nodes[i].emulate.cpu_scale);
	for (i = 0; i < gs->nnodes; i++) {
		const struct gs_node *n = &gs->nodes[i];
		int cores = tb_cores(n);
		double c = mhz[i] * cores * n->emulate.cpu_scale;
		double fc = mhz[fast] * tb_cores(&gs->nodes[fast]) *
		    gs->nodes[fast].emulate.cpu_scale;

		if (tb->cpus[i] >= TB_CPU_MIN)
			continue;
		if (bad++ >= TB_REFUSE_SHOWN)
			continue;
		tb_speed_fmt(s1, sizeof s1, k * c);
		fprintf(stderr, "gridsubmit testbed: %s:%d:%d: node '%s' would get %s CPU, "
		    "below cgroup's smallest quota (%g CPU): ", n->loc.file, n->loc.line,
		    n->loc.col, n->host, s1, TB_CPU_MIN);
		if (fc > c * 1.005)
			fprintf(stderr, "its capacity, %g MHz x %d core%s x cpu_scale %g, is "
			    "1/%.0f of %s's, which gets %.3g CPU\n", mhz[i], cores,
			    cores == 1 ? "" : "s", n->emulate.cpu_scale, fc / c,
			    gs->nodes[fast].host, tb->cpus[fast]);
		else
			fprintf(stderr, "%zu nodes share %g CPUs\n", gs->nnodes, budget);
	}
	free(mhz);
	if (bad == 0)
		return 0;
	if (bad > TB_REFUSE_SHOWN)
		fprintf(stderr, "gridsubmit testbed: and %zu more nodes below %g CPU\n",
		    bad - TB_REFUSE_SHOWN, TB_CPU_MIN);
	fprintf(stderr, "gridsubmit testbed: %s cannot be emulated faithfully on this host "
	    "(%g CPUs, %g kept for the master and the delay line, quotas from %g CPU): for a "
	    "grid this large or this uneven use 'gridsubmit simulate'; "
	    "'testbed up --no-speeds' gives every node whole cores without the file's speeds\n",
	    gs->path, host, TB_SPEED_RESERVE, TB_CPU_MIN);
	return -1;
}

/*
 * After the cgroups are set up: the scale chosen, on one line (the range for a large
 * grid), and in the manifest for `status`; 0, or -1 (said) when the manifest cannot take it.
 */
int
tb_speed_report(struct testbed *tb)
{
	const struct gs_sites *gs = &tb->sites;
	size_t i, lo = 0, hi = 0;
	double sum = 0;
	char scale[32];

	if (tb->cg_version == 0)
		return 0;
	if (!tb->speeds)
		return tb_manifest_add(tb, "speeds off");
	tb_speed_fmt(scale, sizeof scale, tb->cpu_per_mhz);
	if (tb_manifest_add(tb, "speeds on %.15g", tb->cpu_per_mhz) == -1)
		return -1;
	fprintf(stderr, "gridsubmit testbed: CPU speeds emulated at scale %s CPU/MHz:", scale);
	for (i = 0; i < gs->nnodes; i++) {
		sum += tb->cpus[i];
		if (tb->cpus[i] < tb->cpus[lo])
			lo = i;
		if (tb->cpus[i] > tb->cpus[hi])
			hi = i;
		if (gs->nnodes <= TB_SPEED_SHOWN)
			fprintf(stderr, "%s %s %.3g CPU", i ? "," : "", gs->nodes[i].host,
			    tb->cpus[i]);
	}
	if (gs->nnodes > TB_SPEED_SHOWN)
		fprintf(stderr, " %s %.3g .. %s %.3g CPU", gs->nodes[lo].host, tb->cpus[lo],
		    gs->nodes[hi].host, tb->cpus[hi]);
	fprintf(stderr, " (sum %.2f of %g CPUs, %.2f kept for the master and the delay "
	    "line)\n", sum, tb->host_cpus, tb->host_cpus - sum);
	return 0;
}

/* Without a cgroup cpu controller: why, and what is lost. */
void
tb_speed_unavailable(const struct testbed *tb, const char *why)
{
	if (tb->speeds)
		fprintf(stderr, "gridsubmit testbed: %s: CPU speeds are not emulated (every "
		    "node runs at this host's speed, whatever its cpu_mhz, cores and "
		    "emulate.cpu_scale); 'gridsubmit simulate' models them\n",
		    why);
	else
		fprintf(stderr, "gridsubmit testbed: %s: emulate.cpu_scale is not applied; "
		    "'gridsubmit simulate' models CPU speeds\n", why);
}

/* The CPUs a node has: its quota, or without one its cores (at most this host's). */
double
tb_node_cpus(const struct testbed *tb, const struct tb_node *tn)
{
	double c = tb_cores(tn->node);

	if (tb->cg_version != 0 && tb->cpus != NULL)
		return tb->cpus[tn->node - tb->sites.nodes];
	return c > tb->host_cpus && tb->host_cpus > 0 ? tb->host_cpus : c;
}

/*
 * The node's cpu_scale in the derived site file: one that describes the quota applied.
 * With speeds, the file's cpu_scale times the shrink factor (scale × top cpu_mhz, <= 1), so
 * that quota = cpu_scale × cores × cpu_mhz / top cpu_mhz: `testbed up` of the derived file
 * then finds that its quotas already fit this host (the budget gives the same scale as the
 * top clock) and applies the same ones; a smaller host shrinks them further, a larger one
 * keeps them. Without speeds or without quotas, the file's own.
 */
double
tb_speed_cpu_scale(const struct testbed *tb, const struct gs_node *n)
{
	double s = n->emulate.cpu_scale;

	if (!tb->speeds || tb->cg_version == 0 || tb->shrink <= 0 || tb->shrink >= 1)
		return s;
	return s * tb->shrink;
}
