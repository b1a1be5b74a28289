/*
 * jobstore-purge.c — removing ended jobs from the store (jobstore.h, "purge"). A job's
 * directory is its only record (its state.json is the row every command reads), so a job
 * goes whole in one step: under its lock, with its state re-read and final, the directory
 * is renamed out of the listing to jobs/.purge-ID, which no command reads as a job, and
 * only then removed. A crash between the two leaves a .purge- directory and no job that
 * other commands trip on; jobstore_purge_leftovers removes it later.
 */
#include <errno.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fstree.h"
#include "common/home.h"
#include "common/xmalloc.h"
#include "store/jobstore.h"
#include "store/jobstore-int.h"

#define PURGE_PREFIX	".purge-"

int
jobstore_purge(const char *id, int dry_run, struct jobstore_purged *out, char *why,
    size_t whylen)
{
	struct job_state st;
	char *jobs = NULL, *trash = NULL;
	size_t files;
	int fd, rc;

	memset(out, 0, sizeof *out);
	if ((rc = jobstore_read_state(id, &st, why, whylen)) != JOBSTORE_OK)
		return rc;
	/* the decision under the job's lock, which resume takes too: it cannot come back */
	if ((fd = jobstore_lock(st.dir, why, whylen)) == -1) {
		job_state_free(&st);
		return JOBSTORE_ERROR;
	}
	job_state_free(&st);
	if ((rc = jobstore_read_state(id, &st, why, whylen)) != JOBSTORE_OK)
		goto done;
	snprintf(out->id, sizeof out->id, "%s", st.id);
	out->phase = st.phase;
	out->name = st.name != NULL ? xstrdup(st.name) : NULL;
	if (!job_phase_final(st.phase)) {
		snprintf(why, whylen, "job %s is %s: only ended jobs are purged (cancel it "
		    "first)", st.id, job_phase_name(st.phase));
		rc = JOBSTORE_LIVE;
		goto done;
	}
	out->bytes = fstree_size(st.dir, &files);
	if (out->bytes < 0)
		out->bytes = 0;
	if (dry_run)
		goto done;
	jobs = xstrdup(st.dir);
	*strrchr(jobs, '/') = '\0';
	if (jobstore_keep_next_id(jobs, why, whylen) == -1) {
		rc = JOBSTORE_ERROR;
		goto done;
	}
	xasprintf(&trash, "%s/" PURGE_PREFIX "%s", jobs, st.id);
	if (rename(st.dir, trash) == -1) {
		snprintf(why, whylen, "%s: cannot move it out of the store: %s", st.dir,
		    strerror(errno));
		rc = JOBSTORE_ERROR;
		goto done;
	}
	/* gone from the store; what is left of the files is the next purge's */
	if (fstree_remove(trash) == -1) {
		snprintf(why, whylen, "job %s was purged but %s could not be removed: %s",
		    st.id, trash, strerror(errno));
		rc = JOBSTORE_ERROR;
	}
done:
	close(fd);
	job_state_free(&st);
	free(trash);
	free(jobs);
	return rc;
}

void
jobstore_purged_free(struct jobstore_purged *p)
{
	free(p->name);
	p->name = NULL;
}

int
jobstore_purge_leftovers(char *why, size_t whylen)
{
	const char *root;
	struct dirent *de;
	char *jobs, *path;
	int n = 0;
	DIR *d;

	if ((root = home_find(why, whylen)) == NULL)
		return -1;
	xasprintf(&jobs, "%s/jobs", root);
	if ((d = opendir(jobs)) == NULL) {
		free(jobs);
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, PURGE_PREFIX, strlen(PURGE_PREFIX)) != 0)
			continue;
		xasprintf(&path, "%s/%s", jobs, de->d_name);
		if (fstree_remove(path) == 0)
			n++;
		free(path);
	}
	closedir(d);
	free(jobs);
	return n;
}
