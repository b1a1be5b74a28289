/*
 * grt-task-loads.c — the node loads gridsubmit hands the master during a task run
 * (cfg.loads_path, doc/tasks.md "Load signals"): "NODE LOAD1" lines, the file replaced
 * whole about every second. On the emulated testbed every node shares one kernel, so a
 * rank's own /proc/loadavg says nothing about its node: the node's monitor does. Read
 * again only when the file's modification time changed; a node missing from it (its
 * monitor did not answer) falls back to what the steps show.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <string.h>

#include "runtime/task/grt-task-master.h"

void
tm_loads_read(struct tk_master *m)
{
	struct stat sb;
	char line[256], node[128];
	double mtime, load;
	FILE *f;
	int r;

	if (m->cfg->loads_path == NULL || stat(m->cfg->loads_path, &sb) != 0)
		return;
	mtime = (double)sb.st_mtim.tv_sec + (double)sb.st_mtim.tv_nsec * 1e-9;
	if (mtime == m->loads_mtime || (f = fopen(m->cfg->loads_path, "r")) == NULL)
		return;
	m->loads_mtime = mtime;
	for (r = 1; r < m->size; r++)
		m->w[r].node_load = -1;
	while (fgets(line, sizeof line, f) != NULL) {
		if (line[0] == '#' || sscanf(line, "%127s %lf", node, &load) != 2 || load < 0)
			continue;
		for (r = 1; r < m->size && r < m->nri; r++)
			if (strcmp(m->ri[r].node, node) == 0)
				m->w[r].node_load = load;
	}
	fclose(f);
}
