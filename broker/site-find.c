/*
 * site-find.c — `--sites NAME`: a site file by name, from the user's own directory first
 * (so that a user can shadow an installed site), then from the installed share directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gs-config.h"
#include "site.h"
#include "xmalloc.h"

/* The user's site directory, allocated; NULL when neither XDG_CONFIG_HOME nor HOME says. */
static char *
sites_user_dir(void)
{
	const char *e;
	char *dir;

	/* the XDG base directory spec ignores a relative XDG_CONFIG_HOME */
	if ((e = getenv("XDG_CONFIG_HOME")) != NULL && *e == '/')
		xasprintf(&dir, "%s/gridsubmit/sites", e);
	else if ((e = getenv("HOME")) != NULL && *e == '/')
		xasprintf(&dir, "%s/.config/gridsubmit/sites", e);
	else
		dir = NULL;
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

char *
sites_find(const char *arg, struct gs_error *err)
{
	const char *dirs[2];
	char *user, *path;
	size_t i;

	if (!sites_arg_is_name(arg))
		return xstrdup(arg);
	user = sites_user_dir();
	dirs[0] = user;
	dirs[1] = GS_PREFIX "/share/gridsubmit/sites";
	for (i = 0; i < 2; i++) {
		if (dirs[i] == NULL)
			continue;
		xasprintf(&path, "%s/%s.yaml", dirs[i], arg);
		if (access(path, F_OK) == 0) {
			free(user);
			return path;
		}
		free(path);
	}
	snprintf(err->msg, sizeof err->msg, "no site file named '%s': looked for %s.yaml in "
	    "%s and %s (give a path to use a file elsewhere)", arg, arg,
	    user != NULL ? user : "$XDG_CONFIG_HOME/gridsubmit/sites (HOME is not set)", dirs[1]);
	free(user);
	return NULL;
}
