/* home.c — gridsubmit's state directory (home.h). */
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/home.h"
#include "common/xmalloc.h"

int
home_mkdirs(const char *path, unsigned mode)
{
	char buf[PATH_MAX], *p;

	if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (p = buf + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, (mode_t)mode) == -1 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, (mode_t)mode) == -1 && errno != EEXIST)
		return -1;
	return 0;
}

const char *
home_root(char *why, size_t whylen)
{
	static char *root;
	const char *home, *xdg;
	struct stat sb;
	char *dir;

	if (root != NULL)
		return root;
	if ((home = getenv("GRIDSUBMIT_HOME")) != NULL && *home != '\0')
		dir = xstrdup(home);
	else if ((xdg = getenv("XDG_STATE_HOME")) != NULL && *xdg == '/')
		xasprintf(&dir, "%s/gridsubmit", xdg);
	else if ((home = getenv("HOME")) != NULL && *home == '/')
		xasprintf(&dir, "%s/.local/state/gridsubmit", home);
	else {
		snprintf(why, whylen, "no place for the job store: set GRIDSUBMIT_HOME or HOME");
		return NULL;
	}
	if (home_mkdirs(dir, 0700) == -1 || stat(dir, &sb) == -1)
		snprintf(why, whylen, "%s: %s", dir, strerror(errno));
	else if (!S_ISDIR(sb.st_mode))
		snprintf(why, whylen, "%s: the job store is not a directory", dir);
	/*
	 * others could plant or change job state there: refuse (doc/reliability.md, "Job
	 * state that is never lost")
	 */
	else if (sb.st_mode & S_IWOTH)
		snprintf(why, whylen, "%s: the job store is world-writable; chmod o-w it first",
		    dir);
	else
		return root = dir;
	free(dir);
	return NULL;
}
