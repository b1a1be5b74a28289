/*
 * site-find.c — `--sites NAME`: a site file by name, from the user's own directory first
 * (so that a user can shadow an installed site), then from the sites/ of the clone the
 * program runs from (its build/gridsubmit: the README's `--sites tiger` works before any
 * install, with the files of the same version), then from the installed share directory.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "broker/config.h"
#include "broker/site.h"
#include "common/suggest.h"
#include "common/xmalloc.h"
#include "gen/gs-config.h"

/* The user's site directory, allocated; NULL when neither XDG_CONFIG_HOME nor HOME says. */
static char *
sites_user_dir(void)
{
	char *conf = config_dir(), *dir = NULL;

	if (conf != NULL)
		xasprintf(&dir, "%s/sites", conf);
	free(conf);
	return dir;
}

/*
 * The clone's site directory, allocated: ROOT/sites when this program is ROOT/DIR/NAME (a
 * clone's build/gridsubmit) and ROOT/sites holds the embedded default's source
 * (localhost.yaml, in every clone); NULL for an installed program.
 */
static char *
sites_clone_dir(void)
{
	char exe[PATH_MAX], *dir, *slash;
	struct stat sb;
	ssize_t n;
	int i;

	if ((n = readlink("/proc/self/exe", exe, sizeof exe - 1)) <= 0)
		return NULL;
	exe[n] = '\0';
	for (i = 0; i < 2; i++) {
		if ((slash = strrchr(exe, '/')) == NULL || slash == exe)
			return NULL;
		*slash = '\0';
	}
	xasprintf(&dir, "%s/sites/localhost.yaml", exe);
	if (stat(dir, &sb) == -1 || !S_ISREG(sb.st_mode)) {
		free(dir);
		return NULL;
	}
	dir[strlen(dir) - strlen("/localhost.yaml")] = '\0';
	return dir;
}

int
sites_arg_is_name(const char *arg)
{
	size_t len = strlen(arg);

	if (len == 0 || strchr(arg, '/') != NULL)
		return 0;
	return len < 5 || strcmp(arg + len - 5, ".yaml") != 0;
}

/* The installed site directory: sites_find's second place. */
#define SITES_SHARE_DIR	GS_PREFIX "/share/gridsubmit/sites"

/*
 * Why arg names no site file: where it was looked for, and the NAME that is found nearest
 * to it (a typo, "tigre" for "tiger"). user: the user's directory, clone: the clone's,
 * each NULL when there is none.
 */
static void
sites_not_found(const char *arg, const char *user, const char *clone, struct gs_error *err)
{
	char **names, guess[96] = "";
	const char *g;
	size_t n;

	names = sites_names(&n);
	names = xreallocarray(names, n + 1, sizeof *names);
	names[n] = NULL;
	if ((g = suggest_closest(arg, (const char *const *)names)) != NULL)
		snprintf(guess, sizeof guess, " (did you mean '%s'?)", g);
	snprintf(err->msg, sizeof err->msg, "no site file named '%s'%s: looked for %s.yaml in "
	    "%s%s%s and %s (give a path to use a file elsewhere)", arg, guess, arg,
	    user != NULL ? user : "$XDG_CONFIG_HOME/gridsubmit/sites (HOME is not set)",
	    clone != NULL ? ", " : "", clone != NULL ? clone : "", SITES_SHARE_DIR);
	strv_free(names, n);
}

char *
sites_find(const char *arg, struct gs_error *err)
{
	const char *dirs[3];
	char *user, *clone, *path = NULL;
	size_t i;

	if (!sites_arg_is_name(arg))
		return xstrdup(arg);
	user = sites_user_dir();
	clone = sites_clone_dir();
	dirs[0] = user;
	dirs[1] = clone;
	dirs[2] = SITES_SHARE_DIR;
	for (i = 0; i < 3 && path == NULL; i++) {
		if (dirs[i] == NULL)
			continue;
		xasprintf(&path, "%s/%s.yaml", dirs[i], arg);
		if (access(path, F_OK) == -1) {
			free(path);
			path = NULL;
		}
	}
	if (path == NULL)
		sites_not_found(arg, user, clone, err);
	free(user);
	free(clone);
	return path;
}

/* The NAMEs of dir's NAME.yaml files, added to *names (*n of them, room for *cap). */
static void
sites_names_in(const char *dir, char ***names, size_t *n, size_t *cap)
{
	struct dirent *de;
	size_t len;
	DIR *d;

	if (dir == NULL || (d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		/* hidden files are nobody's site: an editor's backup, ".yaml" itself */
		if (de->d_name[0] == '.' || len <= 5 ||
		    strcmp(de->d_name + len - 5, ".yaml") != 0)
			continue;
		if (*n == *cap) {
			*cap = *cap ? *cap * 2 : 16;
			*names = xreallocarray(*names, *cap, sizeof **names);
		}
		(*names)[(*n)++] = xstrndup(de->d_name, len - 5);
	}
	closedir(d);
}

static int
sites_cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **
sites_names(size_t *n)
{
	char **names = NULL, *user = sites_user_dir(), *clone = sites_clone_dir();
	size_t cap = 0, i, kept = 0;

	*n = 0;
	sites_names_in(user, &names, n, &cap);
	sites_names_in(clone, &names, n, &cap);
	sites_names_in(SITES_SHARE_DIR, &names, n, &cap);
	free(user);
	free(clone);
	if (*n == 0)
		return names;
	qsort(names, *n, sizeof *names, sites_cmp_name);
	/* a user's file shadows an installed one of the same NAME: one NAME */
	for (i = 0; i < *n; i++) {
		if (kept > 0 && strcmp(names[kept - 1], names[i]) == 0)
			free(names[i]);
		else
			names[kept++] = names[i];
	}
	*n = kept;
	return names;
}
