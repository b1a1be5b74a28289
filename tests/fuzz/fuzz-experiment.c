/*
 * fuzz-experiment.c — libFuzzer target for the experiment file loader (exp_load_errs,
 * experiment/exp.h) and the copy of it kept with the results (exp_load_stored). The
 * bytes are an experiment file in a directory laid out as examples/ is (its job files
 * and sites reachable by the same relative paths, as links into the tree), so that a
 * seed taken from examples/ loads and mutations reach the points and their overlays.
 * Every input gives an experiment or errors each naming the file; everything is freed.
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "broker/errlist.h"
#include "experiment/exp.h"
#include "tests/fuzz/fuzz-file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where the file goes: DIR/examples/experiments, with DIR/examples/X and DIR/sites links. */
static char fuzz_exp_dir[512];

/* DIR/name -> the tree's top/target (the fuzzer runs from the top of the tree). */
static void
fuzz_link(const char *top, const char *target, const char *name)
{
	char from[PATH_MAX + 64], to[PATH_MAX + 64];

	snprintf(to, sizeof to, "%s/%s", top, target);
	snprintf(from, sizeof from, "%s/%s", fuzz_dir(), name);
	if (symlink(to, from) != 0)
		abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const parts[] = { "mandelbrot", "matmul", "apriori", "ep", "pi",
		"hello", "synthetic", "ssa", "codesign" };
	char top[PATH_MAX], dir[PATH_MAX + 64];
	size_t i;

	(void)argc;
	(void)argv;
	if (getcwd(top, sizeof top) == NULL)
		abort();
	snprintf(dir, sizeof dir, "%s/examples", fuzz_dir());
	if (mkdir(dir, 0700) != 0)
		abort();
	snprintf(fuzz_exp_dir, sizeof fuzz_exp_dir, "%s/examples/experiments", fuzz_dir());
	if (mkdir(fuzz_exp_dir, 0700) != 0)
		abort();
	fuzz_link(top, "sites", "sites");
	fuzz_link(top, "build", "build");
	for (i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		snprintf(dir, sizeof dir, "examples/%s", parts[i]);
		fuzz_link(top, dir, dir);
	}
	/* examples/mandelbrot/experiment.yaml names job.yaml beside it */
	fuzz_link(top, "examples/mandelbrot/job.yaml", "examples/experiments/job.yaml");
	return 0;
}

/* A load that failed: at least one error, and none beyond the cap. */
static void
fuzz_errors(const struct gs_errlist *errs)
{
	if (errs->n == 0 || errs->n > GS_ERRLIST_MAX)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gs_errlist errs;
	struct exp e;
	char path[1024], orig[1024];

	fuzz_write("examples/experiments/fuzz.yaml", data, size, path, sizeof path);
	if (exp_load_errs(path, &e, &errs) == 0)
		exp_free(&e);
	else
		fuzz_errors(&errs);
	snprintf(orig, sizeof orig, "%s/orig.yaml", fuzz_exp_dir);
	if (exp_load_stored(path, orig, &e, &errs) == 0)
		exp_free(&e);
	else
		fuzz_errors(&errs);
	return 0;
}
