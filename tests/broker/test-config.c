/*
 * test-config.c — the user's configuration file (broker/config.h): where it is looked for
 * (GRIDSUBMIT_CONFIG, XDG_CONFIG_HOME, HOME), each key's value, sites: relative to the
 * file, every error located with "did you mean", a missing default file being no error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/broker/errs-text.h"
#include "tests/tap.h"

#include "broker/config.h"
#include "broker/errlist.h"

static char dir[] = "/tmp/gs-test-config.XXXXXX";

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f != NULL) {
		fputs(text, f);
		fclose(f);
	}
}

static int
load(const char *name, const char *text, struct gs_config *cfg, struct gs_errlist *errs)
{
	return config_load_buffer(name, text, strlen(text), cfg, errs);
}

static void
test_keys(void)
{
	struct gs_config cfg;
	struct gs_errlist errs;

	if (is_int(load("/etc/gs/config.yaml", "sites: tiger\nscheme: PWD\n"
	    "metrics_timeout: 2.5\n", &cfg, &errs), 0, "every key loads")) {
		is_str(cfg.path, "/etc/gs/config.yaml", "path");
		is_str(cfg.sites, "tiger", "sites: a NAME stays a NAME");
		is_int(cfg.sites_loc.line, 1, "sites: its line");
		is_int(cfg.sites_loc.col, 8, "sites: its column");
		is_str(cfg.scheme, "pwd", "scheme: the canonical name");
		is_dbl(cfg.metrics_timeout, 2.5, 0, "metrics_timeout");
		config_free(&cfg);
	}
	if (is_int(load("/etc/gs/config.yaml", "sites: mine/tiger.yaml\n", &cfg, &errs), 0,
	    "a relative sites path loads")) {
		is_str(cfg.sites, "/etc/gs/mine/tiger.yaml", "sites: relative to the file's "
		    "directory");
		ok(cfg.scheme == NULL && cfg.metrics_timeout == 0, "the keys not given are unset");
		config_free(&cfg);
	}
	if (is_int(load("/etc/gs/config.yaml", "sites: /srv/tiger.yaml\n", &cfg, &errs), 0,
	    "an absolute sites path loads")) {
		is_str(cfg.sites, "/srv/tiger.yaml", "sites: absolute as written");
		config_free(&cfg);
	}
	if (is_int(load("/etc/gs/config.yaml", "# nothing set\n{}\n", &cfg, &errs), 0,
	    "an empty mapping loads")) {
		ok(cfg.sites == NULL && cfg.scheme == NULL, "an empty mapping sets nothing");
		config_free(&cfg);
	}
}

static void
test_errors(void)
{
	struct gs_config cfg;
	struct gs_errlist errs;
	char *got;

	is_int(load("c.yaml", "metrics_timout: 2\nscheme: gsss\nsites: \"\"\n"
	    "metrics_timeout: 0\ncolour: red\n", &cfg, &errs), -1, "five mistakes: rejected");
	got = errs_text(&errs);
	is_str(got, "c.yaml:1:1: unknown key 'metrics_timout' (did you mean 'metrics_timeout'?)\n"
	    "c.yaml:2:9: unknown scheme 'gsss' (did you mean 'gss'?)\n"
	    "c.yaml:3:8: 'sites' must be a site file or the NAME of one, not ''\n"
	    "c.yaml:4:18: 'metrics_timeout' must be a number of seconds from 0.1 to 600, not "
	    "'0'\n"
	    "c.yaml:5:1: unknown key 'colour' (expected one of: sites, scheme, metrics_timeout)",
	    "five mistakes: every one, located, in order");
	free(got);
	ok(cfg.path == NULL && cfg.scheme == NULL, "rejected: nothing left allocated");
	is_int(load("c.yaml", "metrics_timeout: 601\n", &cfg, &errs), -1, "601 s: rejected");
	is_int(load("c.yaml", "sites: [a, b]\n", &cfg, &errs), -1, "sites as a list: rejected");
	is_int(load("c.yaml", "- sites\n", &cfg, &errs), -1, "a list at the top: rejected");
	is_int(load("c.yaml", "scheme: &a gss\n", &cfg, &errs), -1, "an anchor: rejected");
	is_int(load("c.yaml", "sites: [\n", &cfg, &errs), -1, "truncated: rejected");
	is_int(errs.n, 1, "truncated: one error, the reader's");
}

/* Where the file is looked for, and a missing one. */
static void
test_find(void)
{
	struct gs_config cfg;
	struct gs_errlist errs;
	char path[256], sub[256];
	char *got;

	snprintf(sub, sizeof sub, "%s/gridsubmit", dir);
	mkdir(sub, 0700);
	snprintf(path, sizeof path, "%s/gridsubmit/config.yaml", dir);

	unsetenv("GRIDSUBMIT_CONFIG");
	setenv("XDG_CONFIG_HOME", dir, 1);
	is_int(config_load(&cfg, &errs), 0, "no file in XDG_CONFIG_HOME: no error");
	ok(cfg.path == NULL && cfg.sites == NULL, "no file: nothing set");

	write_file(path, "scheme: fss\n");
	if (is_int(config_load(&cfg, &errs), 0, "XDG_CONFIG_HOME/gridsubmit/config.yaml loads")) {
		is_str(cfg.path, path, "the XDG file is the one read");
		is_str(cfg.scheme, "fss", "its scheme");
		config_free(&cfg);
	}
	setenv("XDG_CONFIG_HOME", "relative/dir", 1);
	setenv("HOME", dir, 1);
	is_int(config_load(&cfg, &errs), 0, "a relative XDG_CONFIG_HOME is ignored: HOME's");
	ok(cfg.path == NULL, "HOME/.config/gridsubmit/config.yaml does not exist: none");
	unsetenv("XDG_CONFIG_HOME");
	snprintf(sub, sizeof sub, "%s/.config", dir);
	mkdir(sub, 0700);
	snprintf(sub, sizeof sub, "%s/.config/gridsubmit", dir);
	mkdir(sub, 0700);
	snprintf(sub, sizeof sub, "%s/.config/gridsubmit/config.yaml", dir);
	write_file(sub, "metrics_timeout: 3\n");
	if (is_int(config_load(&cfg, &errs), 0, "HOME/.config/gridsubmit/config.yaml loads")) {
		is_dbl(cfg.metrics_timeout, 3, 0, "HOME's file is the one read");
		config_free(&cfg);
	}

	/* GRIDSUBMIT_CONFIG: the file named, which must exist; empty: none */
	setenv("GRIDSUBMIT_CONFIG", path, 1);
	if (is_int(config_load(&cfg, &errs), 0, "GRIDSUBMIT_CONFIG is read")) {
		is_str(cfg.scheme, "fss", "GRIDSUBMIT_CONFIG's file, not HOME's");
		config_free(&cfg);
	}
	setenv("GRIDSUBMIT_CONFIG", "", 1);
	is_int(config_load(&cfg, &errs), 0, "GRIDSUBMIT_CONFIG empty: no file");
	ok(cfg.path == NULL && cfg.metrics_timeout == 0, "GRIDSUBMIT_CONFIG empty: nothing set");
	snprintf(sub, sizeof sub, "%s/none.yaml", dir);
	setenv("GRIDSUBMIT_CONFIG", sub, 1);
	is_int(config_load(&cfg, &errs), -1, "GRIDSUBMIT_CONFIG naming no file: an error");
	got = errs_text(&errs);
	ok(strstr(got, "none.yaml: cannot open: No such file or directory") != NULL,
	    "it says which file and why (%s)", got);
	free(got);

	/* an invalid file is an error wherever it was found */
	unsetenv("GRIDSUBMIT_CONFIG");
	setenv("XDG_CONFIG_HOME", dir, 1);
	write_file(path, "sheme: fss\n");
	is_int(config_load(&cfg, &errs), -1, "an invalid default file: an error");
	got = errs_text(&errs);
	ok(strstr(got, "config.yaml:1:1: unknown key 'sheme' (did you mean 'scheme'?)") != NULL,
	    "located, with a suggestion (%s)", got);
	free(got);
	/* a directory where the file should be cannot be read */
	unlink(path);
	mkdir(path, 0700);
	is_int(config_load(&cfg, &errs), -1, "a directory as config.yaml: an error");
	rmdir(path);
}

int
main(void)
{
	char cmd[64 + sizeof dir];
	int rc;

	if (mkdtemp(dir) == NULL) {
		ok(0, "mkdtemp");
		return 1;
	}
	test_keys();
	test_errors();
	test_find();
	rc = tap_done();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	return rc;
}
