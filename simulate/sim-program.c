/*
 * sim-program.c — the SMPI build of a job's program: smpirun runs the program itself, as
 * a library it loads once per rank, so it must have been compiled by SimGrid's smpicc
 * against an SMPI build of libgrt. By convention it sits beside the native program as
 * smpi/NAME; `make` builds the examples' there (build/examples/smpi/NAME).
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file.h"
#include "common/xmalloc.h"
#include "simulate/simulate.h"

/* what every program built by smpicc calls: SMPI's MPI handles carry this prefix */
#define SIM_SMPI_MARK	"smpi_MPI_"
#define SIM_PROGRAM_MAX	(256u << 20)

char *
sim_program(const char *program, char *why, size_t whylen)
{
	char *dir = xstrdup(program), *base = xstrdup(program), *path, *buf;
	size_t len;

	xasprintf(&path, "%s/smpi/%s", dirname(dir), basename(base));
	free(dir);
	free(base);
	if (access(path, X_OK) != 0) {
		snprintf(why, whylen, "no SMPI build of %s: %s: %s (build it with SimGrid's "
		    "smpicc, as `make` does for the examples when libsimgrid-dev is installed; "
		    "doc/simulate.md)", program, path, strerror(errno));
		free(path);
		return NULL;
	}
	if (file_read(path, SIM_PROGRAM_MAX, &buf, &len) != 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		free(path);
		return NULL;
	}
	if (memmem(buf, len, SIM_SMPI_MARK, sizeof SIM_SMPI_MARK - 1) == NULL) {
		snprintf(why, whylen, "%s was not built by smpicc (SimGrid's SMPI compiler): "
		    "smpirun cannot run it", path);
		free(buf);
		free(path);
		return NULL;
	}
	free(buf);
	return path;
}
