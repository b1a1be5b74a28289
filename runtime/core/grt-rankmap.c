/* grt-rankmap.c — the rank map gridsubmit writes for the master: node, site, PF, PR per rank. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "runtime/core/grt-internal.h"

/* "rank node site pf pr cpu_mhz" lines; '#' starts a comment. */
int
grt_rankmap_load(const char *path, struct grt_rankinfo **out, int *count)
{
	FILE *f;
	char line[512], node[64], site[64];
	struct grt_rankinfo *ri, *all = NULL;
	int rank, n = 0, cap = 0, rc = GRT_OK;
	double pf, pr, mhz;

	*out = NULL;
	*count = 0;
	if ((f = fopen(path, "r")) == NULL)
		return GRT_EINVAL;
	while (fgets(line, sizeof line, f) != NULL) {
		char *p = line;

		while (isspace((unsigned char)*p))
			p++;
		if (*p == '#' || *p == '\0')
			continue;
		if (sscanf(p, "%d %63s %63s %lf %lf %lf", &rank, node, site, &pf, &pr, &mhz) != 6 ||
		    rank != n || !(pr >= 0) || !(mhz >= 0) || !(pf >= 0)) {
			rc = GRT_EINVAL;
			break;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			if ((ri = realloc(all, (size_t)cap * sizeof *ri)) == NULL) {
				rc = GRT_ENOMEM;
				break;
			}
			all = ri;
		}
		ri = &all[n++];
		snprintf(ri->node, sizeof ri->node, "%s", node);
		snprintf(ri->site, sizeof ri->site, "%s", site);
		ri->pf = pf;
		ri->pr = pr;
		ri->cpu_mhz = mhz;
	}
	fclose(f);
	if (rc != GRT_OK) {
		free(all);
		return rc;
	}
	*out = all;
	*count = n;
	return GRT_OK;
}

