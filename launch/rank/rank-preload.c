/*
 * rank-preload.c — the finalize interposer into the program's LD_PRELOAD (rank-preload.h).
 * Why it is preloaded rather than linked: the program is the user's, built with mpicc as
 * for any mpiexec; only its dynamic linker can be told.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch/rank/rank-preload.h"

int
rank_preload_finalize(void)
{
	const char *old = getenv("LD_PRELOAD");
	char self[PATH_MAX], lib[PATH_MAX + sizeof RANK_FINALIZE_LIB], *slash, *value;
	ssize_t n;
	int rc;

	if ((n = readlink("/proc/self/exe", self, sizeof self - 1)) <= 0)
		return 0;
	self[n] = '\0';
	if ((slash = strrchr(self, '/')) == NULL)
		return 0;
	*slash = '\0';
	snprintf(lib, sizeof lib, "%s/%s", self, RANK_FINALIZE_LIB);
	if (strpbrk(lib, " :\t") != NULL || access(lib, R_OK) != 0)
		return 0;
	if (old == NULL || *old == '\0')
		return setenv("LD_PRELOAD", lib, 1) == 0;
	if ((value = malloc(strlen(old) + 1 + strlen(lib) + 1)) == NULL)
		return 0;
	sprintf(value, "%s:%s", old, lib);
	rc = setenv("LD_PRELOAD", value, 1) == 0;
	free(value);
	return rc;
}
