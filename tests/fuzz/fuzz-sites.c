/*
 * fuzz-sites.c — libFuzzer target for the site and job loaders (and the host ranges they
 * expand). Every input must end in a model or a located error: no crash, no leak, no
 * undefined behaviour, and no time or memory out of proportion to the 1 MiB input cap.
 * Built and run by tests/fuzz/run-fuzz.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "site.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gs_sites sites;
	struct gs_job job;
	struct gs_error err;
	char **names, why[256], pattern[128];

	if (sites_load_buffer("fuzz.yaml", (const char *)data, size, &sites, &err) == 0)
		sites_free(&sites);
	else if (strncmp(err.msg, "fuzz.yaml:", 10) != 0)
		abort();	/* every error names the file */
	if (job_load_buffer("fuzz/job.yaml", (const char *)data, size, &job, &err) == 0)
		job_free(&job);
	else if (strncmp(err.msg, "fuzz/job.yaml:", 14) != 0)
		abort();

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
