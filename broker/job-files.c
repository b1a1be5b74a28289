/*
 * job-files.c — the files a job stages in, where they are read from and the checks,
 * before a job is made, that they are there and fit the job directory (job.h): the job
 * file's stage_in items and the command line's --stage-in alike.
 */
#include <sys/stat.h>

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker/job.h"
#include "common/xmalloc.h"

/*
 * What gridsubmit itself keeps in a job directory (submit/: the job store, the launch,
 * staging, the gate), and bin/ of a node's own directory: a stage_in of one of these names
 * would replace it.
 */
static const char *const jf_job_dir_names[] = {
	"job.yaml", "hostfile", "rankmap", "state.json", "events.jsonl", "stdout", "stderr",
	"master.status", "supervisor.log", "stage.log", "remote-dirs", "ssh_config",
	"ssh-launcher", "bin", "journal", "sites.yaml", "remote-check", "loads", "rank-ends",
	NULL
};

int
job_stage_name_ours(const char *base)
{
	size_t i;

	for (i = 0; jf_job_dir_names[i] != NULL; i++)
		if (strcmp(base, jf_job_dir_names[i]) == 0)
			return 1;
	return 0;
}

char *
job_stage_in_source(const struct gs_job *job, size_t i)
{
	char *c, *src;
	size_t n;

	if (job->stage_in[i][0] == '/')
		src = xstrdup(job->stage_in[i]);
	else {
		c = xstrdup(job->path);
		xasprintf(&src, "%s/%s", dirname(c), job->stage_in[i]);
		free(c);
	}
	for (n = strlen(src); n > 1 && src[n - 1] == '/'; n--)
		src[n - 1] = '\0';
	return src;
}

/* 0 when path is there and a regular file or a directory; else -1 with why. */
static int
jf_stage_in_exists(const char *path, char *why, size_t whylen)
{
	struct stat sb;

	if (stat(path, &sb) == -1) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode)) {
		snprintf(why, whylen, "%s: not a regular file or directory", path);
		return -1;
	}
	return 0;
}

int
job_stage_in_item_check(const struct gs_job *job, size_t i, char *why, size_t whylen)
{
	char *src = job_stage_in_source(job, i);
	int rc = jf_stage_in_exists(src, why, whylen);

	free(src);
	return rc;
}

int
job_stage_in_check(const struct gs_job *job, char *why, size_t whylen)
{
	char msg[PATH_MAX + 128];
	size_t i;

	for (i = 0; i < job->nstage_in; i++)
		if (job_stage_in_item_check(job, i, msg, sizeof msg) != 0) {
			snprintf(why, whylen, "stage_in: %s", msg);
			return -1;
		}
	return 0;
}

/*
 * The name path gets in the job directory checked against gridsubmit's own and those of
 * the job's items: 0, or -1 with why.
 */
static int
jf_stage_in_name(const struct gs_job *job, const char *path, char *why, size_t whylen)
{
	char *base = job_path_base(path), *other;
	size_t i;
	int rc = -1;

	if (base[0] == '\0' || base[0] == '.')
		snprintf(why, whylen, "%s: would be staged as a hidden or empty name; name a "
		    "file or directory", path);
	else if (job_stage_name_ours(base))
		snprintf(why, whylen, "%s: would replace gridsubmit's own '%s' in the job "
		    "directory; rename it", path, base);
	else
		rc = 0;
	for (i = 0; i < job->nstage_in && rc == 0; i++) {
		other = job_path_base(job->stage_in[i]);
		if (strcmp(other, base) == 0) {
			snprintf(why, whylen, "%s: would be staged as '%s', as stage_in item '%s' "
			    "is; rename one", path, base, job->stage_in[i]);
			rc = -1;
		}
		free(other);
	}
	free(base);
	return rc;
}

int
job_stage_in_add(struct gs_job *job, const char *path, char *why, size_t whylen)
{
	char cwd[PATH_MAX], *abs;

	if (jf_stage_in_exists(path, why, whylen) != 0 ||
	    jf_stage_in_name(job, path, why, whylen) != 0)
		return -1;
	if (path[0] == '/')
		abs = xstrdup(path);
	else {
		if (getcwd(cwd, sizeof cwd) == NULL) {
			snprintf(why, whylen, "%s: the current directory: %s", path,
			    strerror(errno));
			return -1;
		}
		xasprintf(&abs, "%s/%s", cwd, path);
	}
	job->stage_in = xreallocarray(job->stage_in, job->nstage_in + 2, sizeof *job->stage_in);
	job->stage_in[job->nstage_in++] = abs;
	job->stage_in[job->nstage_in] = NULL;
	return 0;
}
