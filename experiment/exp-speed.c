/*
 * exp-speed.c — the speed of each rank's node as the run had it, for the bound
 * (exp-bound.h; doc/experiments.md, "The bound"). A simulation's platform.xml holds the
 * exact speed of every simulated host (flop/s, cpu_scale included); any other run's rank
 * map holds the clock the broker placed each node at, and its sites.yaml the testbed
 * quota (emulate.cpu_scale) that slowed it. Ranks the files say nothing of get 0
 * (unknown): the bound then counts every rank as equal.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker/errlist.h"
#include "broker/site.h"
#include "common/file.h"
#include "common/rankmap.h"
#include "common/xmalloc.h"
#include "experiment/exp-metrics.h"

#define ES_PLATFORM_MAX	(256 << 20)	/* bytes read of platform.xml (10,000 hosts: 2 MB) */

/* The speed of host name in platform.xml's text, or 0 (host ids are plain host names). */
static double
es_platform_host(const char *xml, const char *name)
{
	char *key, *p;
	double v = 0;

	xasprintf(&key, "<host id=\"%s\" speed=\"", name);
	if ((p = strstr(xml, key)) != NULL)
		v = strtod(p + strlen(key), NULL);
	free(key);
	return isfinite(v) && v > 0 ? v : 0;
}

/* Speeds from DIR/platform.xml; -1 when the run was not simulated. */
static int
es_platform(const char *dir, const struct rankmap_row *rows, size_t n, double *speed,
    size_t nspeed)
{
	char *path, *xml;
	size_t len, i;

	xasprintf(&path, "%s/platform.xml", dir);
	if (file_read(path, ES_PLATFORM_MAX, &xml, &len) != 0) {
		free(path);
		return -1;
	}
	free(path);
	for (i = 0; i < n; i++)
		if ((size_t)rows[i].rank < nspeed)
			speed[rows[i].rank] = es_platform_host(xml, rows[i].node);
	free(xml);
	return 0;
}

/* A node's testbed quota in the run's sites.yaml, 1 without one. */
static double
es_scale(const struct gs_sites *s, const char *host)
{
	size_t i;

	for (i = 0; s != NULL && i < s->nnodes; i++)
		if (s->nodes[i].host != NULL && strcmp(s->nodes[i].host, host) == 0)
			return s->nodes[i].emulate.cpu_scale > 0 ? s->nodes[i].emulate.cpu_scale : 1;
	return 1;
}

/* Speeds from the rank map's cpu_mhz times the node's cpu_scale. */
static void
es_sites(const char *dir, const struct rankmap_row *rows, size_t n, double *speed,
    size_t nspeed)
{
	struct gs_sites sites, *s = NULL;
	struct gs_errlist errs;
	char *path;
	size_t i;

	xasprintf(&path, "%s/sites.yaml", dir);
	memset(&sites, 0, sizeof sites);
	if (access(path, R_OK) == 0 && sites_load_file_errs(path, &sites, &errs) == 0)
		s = &sites;
	free(path);
	for (i = 0; i < n; i++)
		if ((size_t)rows[i].rank < nspeed && rows[i].cpu_mhz > 0 &&
		    isfinite(rows[i].cpu_mhz))
			speed[rows[i].rank] = rows[i].cpu_mhz * es_scale(s, rows[i].node);
	if (s != NULL)
		sites_free(s);
}

const char *
exp_speeds(const char *dir, double *speed, size_t n)
{
	struct rankmap_row *rows;
	size_t nrows;
	const char *src = "site file";

	memset(speed, 0, n * sizeof *speed);
	if (rankmap_read(dir, &rows, &nrows) != 0)
		return "none";
	if (es_platform(dir, rows, nrows, speed, n) == 0)
		src = "platform";
	else
		es_sites(dir, rows, nrows, speed, n);
	free(rows);
	return src;
}
