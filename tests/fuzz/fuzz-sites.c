/*
 * fuzz-sites.c — libFuzzer target for the site, job and configuration loaders (and the
 * host ranges they expand). Every input must end in a model or in errors that each name
 * the file, at least one and at most GS_ERRLIST_MAX: no crash, no leak, no undefined
 * behaviour, and no time or memory out of proportion to the 1 MiB input cap. Built and run
 * by tests/fuzz/run-fuzz.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "broker/config.h"
#include "broker/errlist.h"
#include "broker/job.h"
#include "broker/site.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A load that failed: its errors each name the file, and there is one at least. */
static void
fuzz_errors(const struct gs_errlist *errs, const char *prefix)
{
	size_t i;

	if (errs->n == 0 || errs->n > GS_ERRLIST_MAX)
		abort();
	for (i = 0; i < errs->n; i++)
		if (strncmp(errlist_get(errs, i)->msg, prefix, strlen(prefix)) != 0)
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gs_sites sites;
	struct gs_job job;
	struct gs_config cfg;
	struct gs_errlist errs;
	char **names, why[256], pattern[128];

	if (sites_load_buffer_errs("fuzz.yaml", (const char *)data, size, &sites, &errs) == 0)
		sites_free(&sites);
	else
		fuzz_errors(&errs, "fuzz.yaml:");
	if (job_load_buffer_errs("fuzz/job.yaml", (const char *)data, size, &job, &errs) == 0)
		job_free(&job);
	else
		fuzz_errors(&errs, "fuzz/job.yaml:");
	if (config_load_buffer("fuzz/config.yaml", (const char *)data, size, &cfg, &errs) == 0)
		config_free(&cfg);
	else
		fuzz_errors(&errs, "fuzz/config.yaml:");

	/* short inputs are host range patterns too */
	if (size < sizeof pattern) {
		int n;

		memcpy(pattern, data, size);
		pattern[size] = '\0';
		n = hostrange_expand(pattern, &names, why, sizeof why);
		if (n == 0 || (n < 0 && names != NULL))
			abort();
		if (n > 0)
			hostrange_free(names, n);
	}
	return 0;
}
