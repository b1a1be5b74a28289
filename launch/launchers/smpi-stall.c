/*
 * launchers/smpi-stall.c — a simulation that stalled (doc/simulate.md, "A stalled
 * simulation"): SimGrid finds every rank waiting for a communication that will never
 * complete, says "Oops! Deadlock detected" on stderr with the simulated time before it,
 * lists the waiting actors and ends; smpirun may still exit 0, and the job, whose ranks
 * never finished, would be taken for done. The line is looked for in the job's stderr
 * (DIR/stderr, where smpirun's goes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "launch/launch-int.h"

#define STALL_MARK	"Oops! Deadlock detected"
#define STALL_LINE_MAX	4096	/* bytes of a line looked at: SimGrid's are short */

int
smpi_stalled(const char *dir, double *when)
{
	char *path, line[STALL_LINE_MAX];
	FILE *f;
	int found = 0;

	xasprintf(&path, "%s/stderr", dir);
	f = fopen(path, "re");
	free(path);
	if (f == NULL)
		return 0;
	while (!found && fgets(line, sizeof line, f) != NULL) {
		if (strstr(line, STALL_MARK) == NULL)
			continue;
		found = 1;
		/* "[0.519805] ./src/kernel/EngineImpl.cpp:718: [ker_engine/CRITICAL] Oops! ..." */
		if (line[0] != '[' || sscanf(line + 1, "%lf", when) != 1)
			*when = -1;
	}
	fclose(f);
	return found;
}
