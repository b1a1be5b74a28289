/*
 * rankmap.h — the one reader of a job's DIR/rankmap, the placement the broker wrote
 * ("# rank node site pf pr cpu_mhz", then a line per rank): status, list's NODES, the
 * ranks' ends and the console of a program without libgrt all read it through here.
 */
#ifndef COMMON_RANKMAP_H
#define COMMON_RANKMAP_H

#include <stddef.h>

#define RANKMAP_MAX_ROWS	100000	/* lines kept; a longer file is not a placement */

struct rankmap_row {
	int rank;
	char node[256];
	char site[256];
	double pf, pr;
	double cpu_mhz;		/* the node's clock as the broker placed it; 0: none given */
};

/*
 * DIR/rankmap's well-formed lines (a rank >= 0, a node, a site, PF and PR, then cpu_mhz
 * when the line has it; comments and other lines skipped), in file order, allocated into *rows (free it). 0, or -1 when
 * there is no readable file (*rows NULL, *n 0).
 */
int rankmap_read(const char *dir, struct rankmap_row **rows, size_t *n);

#endif
