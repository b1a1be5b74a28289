/*
 * jobrun-fatal.c — the supervisor's own failure recorded as the job's (doc/restarts.md,
 * "Out of descriptors or memory"): a supervisor that dies of a fatal error (out of memory
 * in any allocation, state.json not writable) used to say why on stderr only, and `status`
 * then found a running job whose supervisor was gone. While a job runs, the supervisor
 * holds a reserve of address space and descriptors; on a fatal error it gives the reserve
 * back and writes the job's end, failed with the message as its reason, since writing
 * state.json needs a little of both (the JSON text; file_write_atomic's temporary file and
 * directory). A disk that takes no write (read-only) still leaves state.json as it was.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/log.h"
#include "submit/jobrun.h"

#define FATAL_RESERVE_BYTES	(1024 * 1024)	/* state.json of a job with many restarts, with room */
#define FATAL_RESERVE_FDS	2		/* the temporary file and its directory */

static struct job_state *fatal_st;		/* the job being supervised, or NULL */
static void *fatal_mem;
static int fatal_fd[FATAL_RESERVE_FDS] = { -1, -1 };

int
jobrun_fatal_release(void)
{
	int i, had = fatal_mem != NULL;

	free(fatal_mem);
	fatal_mem = NULL;
	for (i = 0; i < FATAL_RESERVE_FDS; i++) {
		had |= fatal_fd[i] >= 0;
		if (fatal_fd[i] >= 0)
			close(fatal_fd[i]);
		fatal_fd[i] = -1;
	}
	return had;
}

/* log_onfatal: the job failed with message as its reason, unless it already ended. */
static void
jobrun_fatal_record(const char *message)
{
	char reason[1200];

	jobrun_fatal_release();
	if (fatal_st == NULL || job_phase_final(fatal_st->phase))
		return;
	snprintf(reason, sizeof reason, "the supervisor stopped: %s", message);
	if (jobstore_set_phase(fatal_st, JOB_FAILED, reason) != 0)
		fprintf(stderr, "%s: the job's failure could not be recorded in %s/state.json\n",
		    log_progname, fatal_st->dir);
}

void
jobrun_fatal_arm(struct job_state *st)
{
	int i;

	fatal_st = st;
	fatal_mem = malloc(FATAL_RESERVE_BYTES);
	for (i = 0; i < FATAL_RESERVE_FDS; i++)
		fatal_fd[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	log_onfatal = jobrun_fatal_record;
}

void
jobrun_fatal_disarm(void)
{
	log_onfatal = NULL;
	fatal_st = NULL;
	jobrun_fatal_release();
}
