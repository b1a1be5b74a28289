/*
 * test-file-which.c — file_which (common/file.h), the one command search: the first
 * absolute directory of the list holding a regular file that may be executed wins;
 * relative and empty entries, directories and files that may not be executed are passed
 * over; none is NULL.
 */
#include <sys/stat.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/tap.h"

#include "common/file.h"

/* Make dir/name: a file of mode, or (mode 0) a directory. */
static void
make(const char *dir, const char *name, int mode)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (mode == 0) {
		mkdir(path, 0755);
		return;
	}
	if ((f = fopen(path, "w")) != NULL) {
		fputs("#!/bin/sh\n", f);
		fclose(f);
	}
	chmod(path, (mode_t)mode);
}

int
main(void)
{
	char tmpl[] = "/tmp/gs-which.XXXXXX", *t, *got;
	char dirs[4 * PATH_MAX], want[PATH_MAX], cwd[PATH_MAX];
	static const char *const sub[] = { "rel", "dir", "noexec", "exec", "later" };
	size_t i;

	if ((t = mkdtemp(tmpl)) == NULL || getcwd(cwd, sizeof cwd) == NULL || chdir(t) != 0) {
		ok(0, "a temporary directory");
		return tap_done();
	}
	for (i = 0; i < sizeof sub / sizeof sub[0]; i++)
		make(t, sub[i], 0);
	make(t, "rel/prog", 0755);
	make(t, "dir/prog", 0);
	make(t, "noexec/prog", 0644);
	make(t, "exec/prog", 0755);
	make(t, "later/prog", 0755);
	make(t, "prog", 0755);

	snprintf(dirs, sizeof dirs, "rel::%s/dir:%s/noexec:%s/exec:%s/later", t, t, t, t);
	got = file_which("prog", dirs);
	snprintf(want, sizeof want, "%s/exec/prog", t);
	is_str(got, want, "the first absolute directory with an executable regular file");
	free(got);
	snprintf(dirs, sizeof dirs, "%s/later:%s/exec", t, t);
	got = file_which("prog", dirs);
	snprintf(want, sizeof want, "%s/later/prog", t);
	is_str(got, want, "in the order given");
	free(got);
	snprintf(dirs, sizeof dirs, ".:rel::%s/dir:%s/noexec", t, t);
	ok(file_which("prog", dirs) == NULL, "relative and empty entries, a directory, a file "
	    "that may not be executed: none");
	ok(file_which("prog", "") == NULL, "an empty list: none");
	snprintf(dirs, sizeof dirs, "%s/exec:", t);
	got = file_which("none", dirs);
	ok(got == NULL, "a name no directory has: none");
	free(got);

	if (chdir(cwd) != 0)
		ok(0, "back");
	for (i = 0; i < sizeof sub / sizeof sub[0]; i++) {
		snprintf(want, sizeof want, "%s/%s/prog", t, sub[i]);
		remove(want);
		snprintf(want, sizeof want, "%s/%s", t, sub[i]);
		rmdir(want);
	}
	snprintf(want, sizeof want, "%s/prog", t);
	remove(want);
	rmdir(t);
	return tap_done();
}
