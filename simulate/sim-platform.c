/*
 * sim-platform.c — the platform of a placed job for smpirun (doc/simulate.md, "The
 * platform"): one simulated host per host of the placement, with the speed and cores of its
 * node (simulate.h), the links of the site file, the background load as speed traces.
 *
 * Two ways of linking a site to the master (sim_opts.links):
 * - per node (the default, as the testbed shapes them): every node has a link of its own
 *   at its site's bandwidth and latency, each direction apart (SPLITDUPLEX, as tc shapes
 *   both ends); the master's own link is not a bottleneck. All hosts sit in one SimGrid
 *   cluster zone, which needs no routing table, so 10,000 hosts cost no more than their
 *   links.
 * - per site: the site's nodes reach its router over a fast LAN (SIM_LAN_*) and share one
 *   link to the master at the site's figures; a zone per site, routes between zones
 *   through the two sites' links (the master's own site, if it is one, has none).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/file.h"
#include "common/xmalloc.h"
#include "simulate/simulate.h"

/* the LAN inside a site when its nodes share the site's link; the master's own link */
#define SIM_LAN_MBPS	10000.0
#define SIM_LAN_MS	0.01
#define SIM_MASTER_MBPS	100000.0

double
sim_host_mhz(const struct gs_sites *sites, const struct sim_opts *o)
{
	double top = 0;
	size_t i;

	if (o->host_mhz > 0)
		return o->host_mhz;
	for (i = 0; i < sites->nnodes; i++)
		if (sites->nodes[i].cpu_mhz > top)
			top = sites->nodes[i].cpu_mhz;
	return top > 0 ? top : 1000;
}

double
sim_node_speed(const struct gs_node *n, double host_mhz)
{
	double scale = n->emulate.cpu_scale > 0 ? n->emulate.cpu_scale : 1;

	return SIM_HOST_FLOPS * n->cpu_mhz * scale / host_mhz;
}

size_t
sim_check_sites(const struct gs_sites *sites, struct gs_errlist *errs)
{
	struct gs_error e;
	size_t i, n = 0;

	for (i = 0; i < sites->nnodes; i++) {
		const struct gs_node *nd = &sites->nodes[i];

		if (nd->emulate.load <= 0 ||
		    nd->emulate.load_interval >= SIM_LOAD_RESOLUTION)
			continue;
		memset(&e, 0, sizeof e);
		e.loc = nd->loc;
		snprintf(e.msg, sizeof e.msg, "%s:%d:%d: emulate.load_interval: %g s on %s is "
		    "below the %g s the simulated load can follow (its speed trace); use %g or "
		    "more", sites->path, nd->loc.line, nd->loc.col, nd->emulate.load_interval,
		    nd->host, SIM_LOAD_RESOLUTION, SIM_LOAD_RESOLUTION);
		errlist_add(errs, &e);
		n++;
	}
	return n;
}

/* A name as an XML attribute value, allocated. */
static char *
sim_xml_attr(const char *s)
{
	char *out = xmalloc(strlen(s) * 6 + 1), *o = out;

	for (; *s != '\0'; s++)
		switch (*s) {
		case '<': o = stpcpy(o, "&lt;"); break;
		case '>': o = stpcpy(o, "&gt;"); break;
		case '&': o = stpcpy(o, "&amp;"); break;
		case '"': o = stpcpy(o, "&quot;"); break;
		case '\'': o = stpcpy(o, "&apos;"); break;
		default: *o++ = *s;
		}
	*o = '\0';
	return out;
}

/* What the platform needs of each host of the placement. */
struct sim_host {
	const char *name;
	const struct gs_node *node;	/* NULL: the master on a host of no site */
	int site;			/* -1: the master's own */
	int ranks;
};

/* The hosts of p, each once, in the order of their first rank. */
static struct sim_host *
sim_hosts(const struct gs_sites *sites, const struct gs_placement *p, size_t *nhosts)
{
	struct sim_host *h = xcalloc((size_t)p->nranks, sizeof *h);
	size_t n = 0, j;
	int r;

	for (r = 0; r < p->nranks; r++) {
		size_t node = p->ranks[r].node;
		const char *name = node == BROKER_NODE_NONE ? sites->master :
		    sites->nodes[node].host;

		for (j = 0; j < n && strcmp(h[j].name, name) != 0; j++)
			;
		if (j == n) {
			h[n].name = name;
			h[n].node = node == BROKER_NODE_NONE ? NULL : &sites->nodes[node];
			h[n].site = node == BROKER_NODE_NONE ? -1 : sites->nodes[node].site;
			n++;
		}
		h[j].ranks++;
	}
	*nhosts = n;
	return h;
}

/* One host and its own link (bandwidth in Mbit/s, latency in ms). */
static void
sim_put_host(FILE *f, const struct sim_host *h, double host_mhz, double mbps, double ms,
    const char *trace)
{
	double speed = h->node != NULL ? sim_node_speed(h->node, host_mhz) : SIM_HOST_FLOPS;
	int cores = h->node != NULL ? h->node->cores : 1;
	char *id = sim_xml_attr(h->name), *file = trace != NULL ? sim_xml_attr(trace) : NULL;

	fprintf(f, "    <host id=\"%s\" speed=\"%.17gf\" core=\"%d\"%s%s%s/>\n", id, speed,
	    cores, file != NULL ? " speed_file=\"" : "", file != NULL ? file : "",
	    file != NULL ? "\"" : "");
	fprintf(f, "    <link id=\"%s:link\" bandwidth=\"%.17gMbps\" latency=\"%.17gms\" "
	    "sharing_policy=\"SPLITDUPLEX\"/>\n", id, mbps, ms);
	fprintf(f, "    <host_link id=\"%s\" up=\"%s:link_UP\" down=\"%s:link_DOWN\"/>\n", id,
	    id, id);
	free(id);
	free(file);
}

/*
 * The speed trace of a loaded host, written to dir/load/HOST.trace, its name for
 * platform.xml in *path (NULL for a host without load); 0, or -1 with why.
 */
static int
sim_put_trace(const char *dir, const struct sim_host *h, const struct sim_opts *o,
    char **path, char *why, size_t whylen)
{
	char *full;
	FILE *f;
	int rc;

	*path = NULL;
	if (h->node == NULL || h->node->emulate.load <= 0)
		return 0;
	/*
	 * relative to platform.xml, where smpirun looks: SimGrid 3.32 fails to open a trace
	 * named by an absolute path (it opens it again under each of its search directories)
	 */
	xasprintf(path, "load/%s.trace", h->name);
	xasprintf(&full, "%s/%s", dir, *path);
	if ((f = fopen(full, "w")) == NULL) {
		snprintf(why, whylen, "%s: %s", full, strerror(errno));
		free(full);
		return -1;
	}
	rc = sim_load_trace(f, &h->node->emulate, h->node->cores, h->ranks, o->seed,
	    h->name);
	if (fclose(f) != 0 || rc != 0) {
		snprintf(why, whylen, "%s: cannot write the load trace", full);
		free(full);
		return -1;
	}
	free(full);
	return 0;
}

/* Every host with a link of its own at its site's figures, in one cluster zone. */
static int
sim_per_node(FILE *f, const struct gs_sites *sites, const struct sim_host *h, size_t n,
    const struct sim_opts *o, const char *dir, char *why, size_t whylen)
{
	double mhz = sim_host_mhz(sites, o);
	char *trace;
	size_t i;

	fputs("  <zone id=\"grid\" routing=\"Cluster\">\n", f);
	for (i = 0; i < n; i++) {
		const struct gs_site *s = h[i].site >= 0 ? &sites->sites[h[i].site] : NULL;

		if (sim_put_trace(dir, &h[i], o, &trace, why, whylen) != 0)
			return -1;
		sim_put_host(f, &h[i], mhz, s != NULL ? s->bandwidth_mbps : SIM_MASTER_MBPS,
		    s != NULL ? s->latency_ms : 0, trace);
		free(trace);
	}
	fputs("  </zone>\n", f);
	return 0;
}

/* The route from zone a to zone b (site index, -1 the master's): the sites' shared links. */
static void
sim_zone_route(FILE *f, int a, int b, int master_site)
{
	fprintf(f, "    <zoneRoute src=\"z%d\" dst=\"z%d\" gw_src=\"z%d:router\" "
	    "gw_dst=\"z%d:router\" symmetrical=\"NO\">\n", a + 1, b + 1, a + 1, b + 1);
	if (a >= 0 && a != master_site)
		fprintf(f, "      <link_ctn id=\"z%d:uplink\" direction=\"UP\"/>\n", a + 1);
	if (b >= 0 && b != master_site)
		fprintf(f, "      <link_ctn id=\"z%d:uplink\" direction=\"DOWN\"/>\n", b + 1);
	fputs("    </zoneRoute>\n", f);
}

/*
 * A zone per site with its hosts on a fast LAN, one shared link per site to the master;
 * zone z0 holds a master that is no site's node. Zones are named by index (z0, z1...),
 * the site's name in a comment: names need not be valid ids.
 */
static int
sim_per_site(FILE *f, const struct gs_sites *sites, const struct sim_host *h, size_t n,
    const struct sim_opts *o, const char *dir, char *why, size_t whylen)
{
	double mhz = sim_host_mhz(sites, o);
	int master_site = h[0].site, z, a, b, *used;
	char *trace;
	size_t i;

	/* zones in use: index site + 1, 0 for the master's own */
	used = xcalloc(sites->nsites + 1, sizeof *used);
	for (i = 0; i < n; i++)
		used[h[i].site + 1] = 1;
	fputs("  <zone id=\"grid\" routing=\"Full\">\n", f);
	for (z = 0; z <= (int)sites->nsites; z++) {
		const struct gs_site *s = z > 0 ? &sites->sites[z - 1] : NULL;

		if (!used[z])
			continue;
		fprintf(f, "   <!-- %s -->\n", s != NULL ? "a site" : "the master");
		fprintf(f, "   <zone id=\"z%d\" routing=\"Cluster\">\n    <router id=\"z%d:router\"/>\n",
		    z, z);
		for (i = 0; i < n; i++) {
			if (h[i].site + 1 != z)
				continue;
			if (sim_put_trace(dir, &h[i], o, &trace, why, whylen) != 0) {
				free(used);
				return -1;
			}
			sim_put_host(f, &h[i], mhz, z > 0 ? SIM_LAN_MBPS : SIM_MASTER_MBPS,
			    z > 0 ? SIM_LAN_MS : 0, trace);
			free(trace);
		}
		fputs("   </zone>\n", f);
		if (s != NULL && z - 1 != master_site)
			fprintf(f, "   <link id=\"z%d:uplink\" bandwidth=\"%.17gMbps\" "
			    "latency=\"%.17gms\" sharing_policy=\"SPLITDUPLEX\"/>\n", z,
			    s->bandwidth_mbps, s->latency_ms);
	}
	for (a = -1; a < (int)sites->nsites; a++)
		for (b = -1; b < (int)sites->nsites; b++)
			if (a != b && used[a + 1] && used[b + 1])
				sim_zone_route(f, a, b, master_site);
	fputs("  </zone>\n", f);
	free(used);
	return 0;
}

/*
 * smpirun's hostfile, hostfile.smpi: "host:N" for each run of consecutive ranks on one
 * host, in rank order. Not the job's hydra hostfile: smpirun 3.32 reads nothing after
 * the count (hydra's "user=" makes it count one rank in all and pile every rank on the
 * first host).
 */
static int
sim_write_hostfile(const struct gs_sites *sites, const struct gs_placement *p,
    const char *dir, char *why, size_t whylen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int r, n, rc;

	if ((f = open_memstream(&buf, &len)) == NULL) {
		snprintf(why, whylen, "%s/hostfile.smpi: %s", dir, strerror(errno));
		return -1;
	}
	for (r = 0; r < p->nranks; r += n) {
		size_t node = p->ranks[r].node;

		for (n = 1; r + n < p->nranks && p->ranks[r + n].node == node; n++)
			;
		fprintf(f, "%s:%d\n", node == BROKER_NODE_NONE ? sites->master :
		    sites->nodes[node].host, n);
	}
	if (fclose(f) != 0) {
		snprintf(why, whylen, "%s/hostfile.smpi: cannot write it", dir);
		free(buf);
		return -1;
	}
	if ((rc = file_write_atomic(dir, "hostfile.smpi", buf, len, 0644)) != 0)
		snprintf(why, whylen, "%s/hostfile.smpi: %s", dir, strerror(errno));
	free(buf);
	return rc;
}

int
sim_write_platform(const struct gs_sites *sites, const struct gs_placement *p,
    const struct sim_opts *o, const char *dir, char *why, size_t whylen)
{
	struct sim_host *h;
	char *path, *buf = NULL;
	size_t n, len = 0;
	FILE *f;
	int rc;

	if (sim_write_hostfile(sites, p, dir, why, whylen) != 0)
		return -1;
	xasprintf(&path, "%s/load", dir);
	if (mkdir(path, 0755) == -1 && errno != EEXIST) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	h = sim_hosts(sites, p, &n);
	if ((f = open_memstream(&buf, &len)) == NULL) {
		snprintf(why, whylen, "%s/platform.xml: %s", dir, strerror(errno));
		free(h);
		return -1;
	}
	fputs("<?xml version='1.0'?>\n"
	    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
	    "<!-- written by gridsubmit simulate from the job's site file (doc/simulate.md) -->\n"
	    "<platform version=\"4.1\">\n", f);
	rc = o->links == SIM_LINKS_SITE ? sim_per_site(f, sites, h, n, o, dir, why, whylen) :
	    sim_per_node(f, sites, h, n, o, dir, why, whylen);
	fputs("</platform>\n", f);
	free(h);
	if (fclose(f) != 0 && rc == 0) {
		snprintf(why, whylen, "%s/platform.xml: cannot write it", dir);
		rc = -1;
	}
	if (rc == 0 && (rc = file_write_atomic(dir, "platform.xml", buf, len, 0644)) != 0)
		snprintf(why, whylen, "%s/platform.xml: %s", dir, strerror(errno));
	free(buf);
	return rc;
}
