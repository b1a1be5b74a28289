/* rankmap.c — a job's DIR/rankmap into rows (rankmap.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "common/rankmap.h"
#include "common/xmalloc.h"

#define RANKMAP_READ_MAX	(16 << 20)	/* bytes read of DIR/rankmap */

int
rankmap_read(const char *dir, struct rankmap_row **rows, size_t *n)
{
	char *path, *buf, *line, *save = NULL;
	struct rankmap_row r;
	size_t len, cap = 0;
	int rc;

	*rows = NULL;
	*n = 0;
	xasprintf(&path, "%s/rankmap", dir);
	rc = file_read(path, RANKMAP_READ_MAX, &buf, &len);
	free(path);
	if (rc != 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line != NULL && *n < RANKMAP_MAX_ROWS;
	    line = strtok_r(NULL, "\n", &save)) {
		r.cpu_mhz = 0;
		if (line[0] == '#' || sscanf(line, "%d %255s %255s %lf %lf %lf", &r.rank, r.node,
		    r.site, &r.pf, &r.pr, &r.cpu_mhz) < 5 || r.rank < 0)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			*rows = xreallocarray(*rows, cap, sizeof **rows);
		}
		(*rows)[(*n)++] = r;
	}
	free(buf);
	return 0;
}
