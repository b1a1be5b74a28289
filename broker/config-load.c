/*
 * config-load.c — the user's configuration file (config.h) found from the environment and
 * read with the YAML reader of the site and job files: keys checked with "did you mean",
 * values checked where they are written, every error reported (errlist.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker/config.h"
#include "broker/errlist.h"
#include "broker/job.h"
#include "broker/metrics.h"
#include "broker/yaml-doc.h"
#include "common/xmalloc.h"

static const char *const cf_keys[] = { "sites", "scheme", "metrics_timeout", NULL };

char *
config_dir(void)
{
	const char *e;
	char *dir;

	/* the XDG base directory spec ignores a relative XDG_CONFIG_HOME */
	if ((e = getenv("XDG_CONFIG_HOME")) != NULL && *e == '/')
		xasprintf(&dir, "%s/gridsubmit", e);
	else if ((e = getenv("HOME")) != NULL && *e == '/')
		xasprintf(&dir, "%s/.config/gridsubmit", e);
	else
		dir = NULL;
	return dir;
}

/* The file to read (allocated), or NULL for none; *named: 1 when GRIDSUBMIT_CONFIG said. */
static char *
cf_path(int *named)
{
	const char *e = getenv("GRIDSUBMIT_CONFIG");
	char *dir, *path;

	*named = e != NULL;
	if (e != NULL)
		return *e != '\0' ? xstrdup(e) : NULL;
	if ((dir = config_dir()) == NULL)
		return NULL;
	xasprintf(&path, "%s/config.yaml", dir);
	free(dir);
	return path;
}

/*
 * The site file sites: names, when the configuration is a file read from disk: there, or
 * an error at n (a NAME found nowhere with "did you mean"), so that it is one of the
 * file's mistakes rather than a later command's.
 */
static int
cf_sites_there(const struct gs_config *cfg, const char *name, const struct ydoc_node *n,
    struct gs_error *err)
{
	struct gs_error nf;
	char *path;

	if (!sites_arg_is_name(cfg->sites)) {
		if (access(cfg->sites, F_OK) == 0)
			return 0;
		ydoc_error(err, name, n, "'sites': %s: %s", cfg->sites, strerror(errno));
		return -1;
	}
	if ((path = sites_find(cfg->sites, &nf)) != NULL) {
		free(path);
		return 0;
	}
	ydoc_error(err, name, n, "'sites': %s", nf.msg);
	return -1;
}

/*
 * sites: a NAME as it is, a path made relative to the configuration file's directory (the
 * file is read from anywhere: the working directory means nothing to it). files: check
 * that it is there (cf_sites_there).
 */
static int
cf_sites(struct gs_config *cfg, const char *name, const struct ydoc_node *n, int files,
    struct gs_error *err)
{
	const char *s, *slash = strrchr(name, '/');
	char desc[96];

	if (ydoc_str(name, "sites", n, &s, err) == -1)
		return -1;
	if (*s == '\0' || !ydoc_no_controls(s)) {
		ydoc_describe(n, desc, sizeof desc);
		ydoc_error(err, name, n, "'sites' must be a site file or the NAME of one, not %s",
		    desc);
		return -1;
	}
	if (sites_arg_is_name(s) || s[0] == '/' || slash == NULL)
		cfg->sites = xstrdup(s);
	else
		xasprintf(&cfg->sites, "%.*s/%s", (int)(slash - name), name, s);
	cfg->sites_loc.line = n->line;
	cfg->sites_loc.col = n->col;
	return files ? cf_sites_there(cfg, name, n, err) : 0;
}

static void
cf_load(struct gs_config *cfg, const char *name, const struct ydoc_node *root, int files,
    struct gs_errlist *errs)
{
	const struct ydoc_node *n;
	const char *scheme;
	struct gs_error err;

	ydoc_check_keys_all(name, root, cf_keys, errs);
	if ((n = ydoc_get(root, "sites")) != NULL && cf_sites(cfg, name, n, files, &err) == -1)
		errlist_add(errs, &err);
	if ((n = ydoc_get(root, "scheme")) != NULL) {
		if (job_scheme_parse(name, n, &scheme, &err) == 0)
			cfg->scheme = xstrdup(scheme);
		else
			errlist_add(errs, &err);
	}
	if ((n = ydoc_get(root, "metrics_timeout")) != NULL && ydoc_num(name, "metrics_timeout",
	    n, "a number of seconds from 0.1 to 600", METRICS_TIMEOUT_MIN, 0,
	    METRICS_TIMEOUT_MAX, 0, &cfg->metrics_timeout, &err) == -1)
		errlist_add(errs, &err);
}

/* The file's text, read (files: 1) or given (0: nothing is looked for on disk). */
static int
cf_load_buffer(const char *name, const char *buf, size_t len, int files,
    struct gs_config *cfg, struct gs_errlist *errs)
{
	struct ydoc_node *root;
	struct gs_error err;

	memset(cfg, 0, sizeof *cfg);
	memset(&err, 0, sizeof err);
	errlist_init(errs, name);
	if ((root = ydoc_parse(name, buf, len, &err)) == NULL) {
		errlist_add(errs, &err);
		return -1;
	}
	cfg->path = xstrdup(name);
	cfg->sites_loc.file = cfg->path;
	cf_load(cfg, name, root, files, errs);
	ydoc_free(root);
	if (errs->n == 0)
		return 0;
	config_free(cfg);
	return -1;
}

int
config_load(struct gs_config *cfg, struct gs_errlist *errs)
{
	struct gs_error err;
	char *path, *buf;
	size_t len;
	int named, rc;

	memset(cfg, 0, sizeof *cfg);
	if ((path = cf_path(&named)) == NULL)
		return 0;
	if (!named && access(path, F_OK) == -1 && (errno == ENOENT || errno == ENOTDIR)) {
		free(path);
		return 0;
	}
	memset(&err, 0, sizeof err);
	if (ydoc_read_file(path, &buf, &len, &err) == -1) {
		errlist_init(errs, path);
		errlist_add(errs, &err);
		free(path);
		return -1;
	}
	rc = cf_load_buffer(path, buf, len, 1, cfg, errs);
	free(buf);
	free(path);
	return rc;
}

int
config_load_buffer(const char *name, const char *buf, size_t len, struct gs_config *cfg,
    struct gs_errlist *errs)
{
	return cf_load_buffer(name, buf, len, 0, cfg, errs);
}

void
config_free(struct gs_config *cfg)
{
	free(cfg->path);
	free(cfg->sites);
	free(cfg->scheme);
	memset(cfg, 0, sizeof *cfg);
}
