/*
 * fuzz-file.c — the fuzz targets' temporary files (fuzz-file.h). One directory per
 * process under TMPDIR, removed when the fuzzer exits, so that a run leaves nothing behind
 * and two runs side by side never share a file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fstree.h"
#include "tests/fuzz/fuzz-file.h"

static char fuzz_path[256];

/* At exit: the directory and whatever a target left in it. */
static void
fuzz_dir_remove(void)
{
	fstree_remove(fuzz_path);
}

const char *
fuzz_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	if (fuzz_path[0] != '\0')
		return fuzz_path;
	snprintf(fuzz_path, sizeof fuzz_path, "%s/gs-fuzz.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	if (mkdtemp(fuzz_path) == NULL)
		abort();
	atexit(fuzz_dir_remove);
	return fuzz_path;
}

void
fuzz_write(const char *name, const void *data, size_t size, char *path, size_t len)
{
	FILE *f;

	if ((size_t)snprintf(path, len, "%s/%s", fuzz_dir(), name) >= len)
		abort();
	if ((f = fopen(path, "w")) == NULL)
		abort();
	if (size > 0 && fwrite(data, 1, size, f) != size)
		abort();
	if (fclose(f) != 0)
		abort();
}
