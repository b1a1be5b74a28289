/*
 * model-nodes.c — each placed node's load and CPU busy share while the job runs, as the
 * supervisor's feed last wrote them from the nodes' monitors (DIR/nodes,
 * common/node-stat.h; doc/runtime.md, "Node loads"). They are not events: they come from
 * the job's directory, for every job whose placed nodes have a monitor, libgrt or not.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common/node-stat.h"
#include "tui/model.h"

void
model_nodes(struct model *m, const char *dir)
{
	struct node_stat *v;
	size_t n;

	if (dir == NULL || node_stats_read(dir, &v, &n) != 0)
		return;
	free(m->nodes);
	m->nodes = v;
	m->nnodes = n;
	m->gen++;
}

char *
model_node_short(const struct node_stat *s, double now, char *buf, size_t len)
{
	char cpu[16];
	double age = now - s->time;

	if (s->cpu_busy >= 0)
		snprintf(cpu, sizeof cpu, "%.0f%%", s->cpu_busy * 100);
	else
		snprintf(cpu, sizeof cpu, "-");
	snprintf(buf, len, "load %.2f cpu %s %.0fs ago", s->load1, cpu, age > 0 ? age : 0);
	return buf;
}
