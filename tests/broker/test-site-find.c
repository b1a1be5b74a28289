/*
 * test-site-find.c — `--sites NAME`: which arguments are names, where a name is looked for
 * (XDG_CONFIG_HOME, then HOME/.config, then the installed share directory), the error for a
 * name found nowhere, sites_load_file_errs() recording the file it resolved, and
 * sites_names() listing the names there are (for the shell completion).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tests/tap.h"

#include "broker/errlist.h"
#include "broker/site.h"
#include "common/xmalloc.h"
#include "gen/gs-config.h"

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
	struct gs_errlist errs;
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
	memset(&err, 0, sizeof err);
	is_int(sites_find("mnie", &err) == NULL, 1, "a misspelt name: NULL");
	ok(strncmp(err.msg, "no site file named 'mnie' (did you mean 'mine'?): looked for "
	    "mnie.yaml in ", 74) == 0, "a misspelt name: the NAME that is found, meant: %s",
	    err.msg);

	/* a relative XDG_CONFIG_HOME does not count: HOME/.config instead */
	setenv("XDG_CONFIG_HOME", "relative", 1);
	setenv("HOME", "/nonexistent-home", 1);
	memset(&err, 0, sizeof err);
	is_int(sites_find("mine", &err) == NULL, 1, "relative XDG_CONFIG_HOME: not used");
	ok(strstr(err.msg, " /nonexistent-home/.config/gridsubmit/sites and ") != NULL,
	    "HOME/.config/gridsubmit/sites searched instead");

	setenv("XDG_CONFIG_HOME", dir, 1);
	if (is_int(sites_load_file_errs("mine", &s, &errs), 0,
	    "sites_load_file_errs loads a name")) {
		is_str(s.path, path, "and records the resolved file");
		sites_free(&s);
	} else {
		errlist_first(&errs, &err);
		printf("#   %s\n", err.msg);
	}
	unlink(path);
	snprintf(path, sizeof path, "%s/gridsubmit/sites", dir);
	rmdir(path);
	snprintf(path, sizeof path, "%s/gridsubmit", dir);
	rmdir(path);
}

/* sites_names: the NAMEs of the user's directory (with the installed ones), sorted, once */
static void
test_list(void)
{
	static const char *const files[] = { "b.yaml", "a.yaml", ".hidden.yaml", ".yaml",
	    "notes.txt", "c.yml" };
	char path[256], **names;
	size_t n, i, f, a = 0, b = 0, other = 0, sorted = 1;

	snprintf(path, sizeof path, "%s/gridsubmit", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof path, "%s/gridsubmit/sites", dir);
	mkdir(path, 0700);
	for (f = 0; f < sizeof files / sizeof files[0]; f++) {
		snprintf(path, sizeof path, "%s/gridsubmit/sites/%s", dir, files[f]);
		touch(path, "");
	}
	setenv("XDG_CONFIG_HOME", dir, 1);
	names = sites_names(&n);
	for (i = 0; i < n; i++) {
		if (strcmp(names[i], "a") == 0)
			a++;
		else if (strcmp(names[i], "b") == 0)
			b++;
		else if (names[i][0] == '\0' || strchr(names[i], '.') != NULL)
			other++;
		if (i > 0 && strcmp(names[i - 1], names[i]) >= 0)
			sorted = 0;
	}
	ok(a == 1 && b == 1, "the user's a.yaml and b.yaml are the NAMEs a and b");
	is_int((long long)other, 0, "no hidden file, no .yaml alone, no other suffix");
	ok(sorted, "sorted, each NAME once");
	strv_free(names, n);

	setenv("XDG_CONFIG_HOME", "/nonexistent-config", 1);
	setenv("HOME", "/nonexistent-home", 1);
	names = sites_names(&n);
	for (i = 0, a = 0; i < n; i++)
		a += strcmp(names[i], "a") == 0;
	is_int((long long)a, 0, "a user directory that does not exist: none of its NAMEs");
	strv_free(names, n);

	for (f = 0; f < sizeof files / sizeof files[0]; f++) {
		snprintf(path, sizeof path, "%s/gridsubmit/sites/%s", dir, files[f]);
		unlink(path);
	}
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
	test_list();
	rmdir(dir);
	return tap_done();
}
