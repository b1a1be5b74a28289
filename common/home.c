/* home.c — gridsubmit's state directory (home.h). */
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/*
 * The directory's name, absolute: a relative GRIDSUBMIT_HOME is taken from the current
 * directory once and written back to the environment, so that later calls and the
 * processes gridsubmit starts (a detached supervisor, an experiment's runs) use the same
 * store wherever they run. The name is worked out again when the environment changes (a
 * test that tries several stores); a name handed out before stays valid. NULL with why
 * when there is no place for it.
 */
const char *
home_path(char *why, size_t whylen)
{
	static struct home_name {
		char *path;
		struct home_name *next;
	} *names;
	struct home_name *n;
	const char *home, *xdg;
	char cwd[PATH_MAX], *p;

	if ((home = getenv("GRIDSUBMIT_HOME")) != NULL && *home != '\0') {
		if (*home == '/')
			p = xstrdup(home);
		else if (getcwd(cwd, sizeof cwd) == NULL) {
			snprintf(why, whylen, "GRIDSUBMIT_HOME=%s is relative and the current "
			    "directory cannot be named (%s): give an absolute path", home,
			    strerror(errno));
			return NULL;
		} else {
			xasprintf(&p, "%s/%s", strcmp(cwd, "/") == 0 ? "" : cwd, home);
			setenv("GRIDSUBMIT_HOME", p, 1);
		}
	} else if ((xdg = getenv("XDG_STATE_HOME")) != NULL && *xdg == '/')
		xasprintf(&p, "%s/gridsubmit", xdg);
	else if ((home = getenv("HOME")) != NULL && *home == '/')
		xasprintf(&p, "%s/.local/state/gridsubmit", home);
	else {
		snprintf(why, whylen, "no place for the job store: set GRIDSUBMIT_HOME or HOME");
		return NULL;
	}
	/* the names handed out are kept, each once, so that none is freed under its holder */
	for (n = names; n != NULL && strcmp(n->path, p) != 0; n = n->next)
		;
	if (n == NULL) {
		n = xmalloc(sizeof *n);
		n->path = p;
		n->next = names;
		names = n;
	} else
		free(p);
	return n->path;
}

/*
 * Whether the directory dir (stat sb) may hold the store: a directory of the user's own
 * that no one else can write, since whoever can write it can plant or change job state
 * there, and cancel signals the pids that state names (doc/reliability.md, "Job state
 * that is never lost"; doc/security.md). A shared directory (sticky, as /tmp, or another
 * user's) gets no advice to change its mode: the store belongs in a directory of one's own.
 */
static int
home_check(const char *dir, const struct stat *sb, char *why, size_t whylen)
{
	if (!S_ISDIR(sb->st_mode))
		snprintf(why, whylen, "%s: the job store is not a directory", dir);
	else if ((sb->st_mode & S_IWOTH) &&
	    ((sb->st_mode & S_ISVTX) || sb->st_uid != geteuid()))
		snprintf(why, whylen, "%s: the job store is a directory that others can write "
		    "(shared); use a directory of your own, e.g. GRIDSUBMIT_HOME=~/.gridsubmit",
		    dir);
	else if (sb->st_uid != geteuid())
		snprintf(why, whylen, "%s: the job store belongs to uid %lu, not to you (uid "
		    "%lu): its owner could change its jobs; use a directory of your own, e.g. "
		    "GRIDSUBMIT_HOME=~/.gridsubmit", dir, (unsigned long)sb->st_uid,
		    (unsigned long)geteuid());
	else if (sb->st_mode & S_IWOTH)
		snprintf(why, whylen, "%s: the job store is world-writable: others could change "
		    "its jobs; make it yours alone (chmod o-w) or use a directory of your own, "
		    "e.g. GRIDSUBMIT_HOME=~/.gridsubmit", dir);
	else if (sb->st_mode & S_IWGRP)
		snprintf(why, whylen, "%s: the job store is writable by its group: others could "
		    "change its jobs; make it yours alone (chmod g-w)", dir);
	else
		return 0;
	return -1;
}

const char *
home_root(char *why, size_t whylen)
{
	static const char *root;
	const char *dir;
	struct stat sb;

	if (root != NULL)
		return root;
	if ((dir = home_path(why, whylen)) == NULL)
		return NULL;
	if (stat(dir, &sb) == 0) {
		if (home_check(dir, &sb, why, whylen) == -1)
			return NULL;
	} else if (home_mkdirs(dir, 0700) == -1 || stat(dir, &sb) == -1) {
		snprintf(why, whylen, "%s: %s", dir, strerror(errno));
		return NULL;
	} else if (home_check(dir, &sb, why, whylen) == -1)
		return NULL;
	return root = dir;
}

const char *
home_find(char *why, size_t whylen)
{
	const char *dir;
	struct stat sb;

	if ((dir = home_path(why, whylen)) == NULL)
		return NULL;
	if (stat(dir, &sb) == -1) {
		if (errno == ENOENT)
			return dir;
		snprintf(why, whylen, "%s: %s", dir, strerror(errno));
		return NULL;
	}
	return home_check(dir, &sb, why, whylen) == 0 ? dir : NULL;
}
