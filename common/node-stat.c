/*
 * node-stat.c — each placed node's load and CPU from its monitor, one line per node
 * (node-stat.h): written by the supervisor's feed, read by status and the console.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "common/node-stat.h"
#include "common/xmalloc.h"

#define NODE_STATS_READ_MAX	(4 << 20)	/* bytes read of DIR/nodes */

int
node_stat_format(char *buf, size_t len, const struct node_stat *s)
{
	char cpu[32];
	int n;

	if (s->cpu_busy >= 0)
		snprintf(cpu, sizeof cpu, "%.4f", s->cpu_busy);
	else
		snprintf(cpu, sizeof cpu, "-");
	n = snprintf(buf, len, "%s %.6g %s %.3f\n", s->node, s->load1, cpu, s->time);
	return n < 0 || (size_t)n >= len ? -1 : n;
}

int
node_stat_parse(const char *line, struct node_stat *s)
{
	char node[NODE_STAT_NAME_MAX], cpu[32], *ep;
	double load, t, busy;

	if (line[0] == '#' || sscanf(line, "%63s %lf %31s %lf", node, &load, cpu, &t) != 4 ||
	    !isfinite(load) || load < 0 || !isfinite(t) || t <= 0)
		return -1;
	if (strcmp(cpu, "-") == 0)
		busy = -1;
	else {
		busy = strtod(cpu, &ep);
		if (*ep != '\0' || !isfinite(busy) || busy < 0 || busy > 1)
			return -1;
	}
	snprintf(s->node, sizeof s->node, "%s", node);
	s->load1 = load;
	s->cpu_busy = busy;
	s->time = t;
	return 0;
}

int
node_stats_read(const char *dir, struct node_stat **v, size_t *n)
{
	char *path, *buf, *line, *save = NULL;
	size_t len, cap = 0;
	struct node_stat s;

	*v = NULL;
	*n = 0;
	xasprintf(&path, "%s/%s", dir, NODE_STAT_FILE);
	if (file_read(path, NODE_STATS_READ_MAX, &buf, &len) != 0) {
		free(path);
		return errno == ENOENT ? 0 : -1;
	}
	free(path);
	for (line = strtok_r(buf, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		if (node_stat_parse(line, &s) != 0)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 8;
			*v = xreallocarray(*v, cap, sizeof **v);
		}
		(*v)[(*n)++] = s;
	}
	free(buf);
	return 0;
}

void
node_stat_text(const struct node_stat *s, double now, char *buf, size_t len)
{
	double age = now - s->time;
	char cpu[32];

	if (s->cpu_busy >= 0)
		snprintf(cpu, sizeof cpu, "%.0f%% busy", s->cpu_busy * 100);
	else
		snprintf(cpu, sizeof cpu, "not known yet");
	snprintf(buf, len, "load %.2f, CPU %s (from its monitor, %.0f s ago)", s->load1, cpu,
	    age > 0 ? age : 0);
}
