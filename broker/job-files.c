/*
 * job-files.c — the files a job file names for staging, where they are read from and the
 * check, before a job is made, that they are there (job.h).
 */
#include <sys/stat.h>

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broker/job.h"
#include "common/xmalloc.h"

char *
job_stage_in_source(const struct gs_job *job, size_t i)
{
	char *c = xstrdup(job->path), *src;
	size_t n;

	xasprintf(&src, "%s/%s", dirname(c), job->stage_in[i]);
	free(c);
	for (n = strlen(src); n > 1 && src[n - 1] == '/'; n--)
		src[n - 1] = '\0';
	return src;
}

int
job_stage_in_check(const struct gs_job *job, char *why, size_t whylen)
{
	struct stat sb;
	char *src;
	size_t i;
	int rc = 0;

	for (i = 0; i < job->nstage_in && rc == 0; i++) {
		src = job_stage_in_source(job, i);
		if (stat(src, &sb) == -1) {
			snprintf(why, whylen, "stage_in: %s: %s", src, strerror(errno));
			rc = -1;
		} else if (!S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode)) {
			snprintf(why, whylen, "stage_in: %s: not a regular file or directory",
			    src);
			rc = -1;
		}
		free(src);
	}
	return rc;
}
