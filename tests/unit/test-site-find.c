/*
 * test-site-find.c — `--sites NAME`: which arguments are names, where a name is looked for
 * (XDG_CONFIG_HOME, then HOME/.config, then the installed share directory), the error for a
 * name found nowhere, and sites_load_file() recording the file it resolved.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tests/tap.h"

#include "gs-config.h"
#include "site.h"

static char dir[] = "/tmp/gs-site-find.XXXXXX";

static void
touch(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f != NULL) {
		fputs(text, f);
		fclose(f);
	}
}

static void
test_names(void)
{
	is_int(sites_arg_is_name("tiger"), 1, "'tiger' is a name");
	is_int(sites_arg_is_name("my.grid"), 1, "'my.grid' is a name");
	is_int(sites_arg_is_name("tiger.yml"), 1, "'tiger.yml' is a name (only .yaml is a file)");
	is_int(sites_arg_is_name("tiger.yaml"), 0, "'tiger.yaml' is a path");
	is_int(sites_arg_is_name(".yaml"), 0, "'.yaml' is a path");
	is_int(sites_arg_is_name("sites/tiger"), 0, "'sites/tiger' is a path");
	is_int(sites_arg_is_name("./tiger"), 0, "'./tiger' is a path");
	is_int(sites_arg_is_name(""), 0, "'' is not a name");
}

static void
test_find(void)
{
	struct gs_error err;
	struct gs_sites s;
	char path[256], want[1024];
	char *got;

	snprintf(path, sizeof path, "%s/gridsubmit", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/gridsubmit/sites", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/gridsubmit/sites/mine.yaml", dir);
	touch(path, "sites:\n  - name: a\n    link: {bandwidth_mbps: 100, latency_ms: 1}\n"
	    "    nodes:\n      - {host: n1, cpu_mhz: 1000, cores: 2}\n");

	setenv("XDG_CONFIG_HOME", dir, 1);
	got = sites_find("mine", &err);
	is_str(got, path, "a name is found in $XDG_CONFIG_HOME/gridsubmit/sites");
	free(got);
	got = sites_find("sites/tiger.yaml", &err);
	is_str(got, "sites/tiger.yaml", "a path is left as it is");
	free(got);

	memset(&err, 0, sizeof err);
	is_int(sites_find("nosuch", &err) == NULL, 1, "an unknown name: NULL");
	snprintf(want, sizeof want, "no site file named 'nosuch': looked for nosuch.yaml in "
	    "%s/gridsubmit/sites and %s/share/gridsubmit/sites (give a path to use a file "
	    "elsewhere)", dir, GS_PREFIX);
	is_str(err.msg, want, "an unknown name: the places searched");

	/* a relative XDG_CONFIG_HOME does not count: HOME/.config instead */
	setenv("XDG_CONFIG_HOME", "relative", 1);
	setenv("HOME", "/nonexistent-home", 1);
	memset(&err, 0, sizeof err);
	is_int(sites_find("mine", &err) == NULL, 1, "relative XDG_CONFIG_HOME: not used");
	ok(strstr(err.msg, " /nonexistent-home/.config/gridsubmit/sites and ") != NULL,
	    "HOME/.config/gridsubmit/sites searched instead");

	setenv("XDG_CONFIG_HOME", dir, 1);
	if (is_int(sites_load_file("mine", &s, &err), 0, "sites_load_file loads a name")) {
		is_str(s.path, path, "and records the resolved file");
		sites_free(&s);
	} else
		printf("#   %s\n", err.msg);
	unlink(path);
	snprintf(path, sizeof path, "%s/gridsubmit/sites", dir);
	rmdir(path);
	snprintf(path, sizeof path, "%s/gridsubmit", dir);
	rmdir(path);
}

int
main(void)
{
	if (mkdtemp(dir) == NULL) {
		ok(0, "mkdtemp");
		return 1;
	}
	test_names();
	test_find();
	rmdir(dir);
	return tap_done();
}
