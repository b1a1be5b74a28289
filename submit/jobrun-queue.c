/*
 * jobrun-queue.c — a placed job waits for its slots before mpiexec starts (jobrun.h,
 * slots.h). The ledger is asked again every JOBRUN_QUEUE_POLL_NS; meanwhile the job is
 * recorded pending with the ledger's reason (said on stderr, unless -q), and a cancel
 * signal (gridsubmit cancel) calls the prepared launch off.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "launch/jobctl.h"
#include "submit/jobrun.h"

#define JOBRUN_QUEUE_POLL_NS	250000000L

/* Whether another job of the ledger can still hold slots: not ended, its supervisor alive. */
static int
jobrun_queue_alive(long job, void *arg)
{
	struct job_state st;
	char id[32], why[1024];
	int alive;

	(void)arg;
	snprintf(id, sizeof id, "%ld", job);
	if (jobstore_read_state(id, &st, why, sizeof why) != JOBSTORE_OK)
		return 0;
	alive = !job_phase_final(st.phase) && jobctl_supervisor_alive(&st);
	job_state_free(&st);
	return alive;
}

/* The placement's ranks host by host (the master outside every node takes no slot). */
static struct slots_claim *
jobrun_queue_claims(const struct jobrun *jr, size_t *n)
{
	const struct gs_sites *sites = &jr->sites;
	struct slots_claim *c = NULL;
	size_t i, j;

	*n = 0;
	for (i = 0; i < (size_t)jr->place.nranks; i++) {
		const struct gs_node *node;

		if (jr->place.ranks[i].node == BROKER_NODE_NONE)
			continue;
		node = &sites->nodes[jr->place.ranks[i].node];
		for (j = 0; j < *n && c[j].host != node->host; j++)
			;
		if (j == *n) {
			c = xreallocarray(c, *n + 1, sizeof *c);
			c[j] = (struct slots_claim){ node->host, sites->sites[node->site].name, 0,
			    node->slots };
			(*n)++;
		}
		/* an oversubscribed node (broker_place_job) is held whole, never beyond */
		if (c[j].want < c[j].capacity)
			c[j].want++;
	}
	return c;
}

/* One claim of the job's placement; now: held at once. */
static int
jobrun_queue_claim(struct jobrun *jr, int now, char *reason, size_t len)
{
	struct slots_claim *c;
	size_t n;
	int verdict;

	if (jr->slots == NULL && (jr->slots = slots_open(reason, len)) == NULL)
		return SLOTS_ERROR;
	c = jobrun_queue_claims(jr, &n);
	verdict = slots_claim(jr->slots, strtol(jr->st.id, NULL, 10), c, n, now,
	    jobrun_queue_alive, NULL, reason, len);
	free(c);
	return verdict;
}

/* The launch will not start: called off, and why. */
static int
jobrun_queue_call_off(struct jobrun *jr, int status)
{
	launch_cancel(&jr->launch);
	return status;
}

int
jobrun_queue_enter(struct jobrun *jr, char *why, size_t whylen)
{
	struct timespec ts = { 0, JOBRUN_QUEUE_POLL_NS };
	char reason[1024], said[1024] = "";

	for (;;) {
		if (launch_cancel_requested()) {
			snprintf(why, whylen, "cancelled while pending");
			return jobrun_queue_call_off(jr, LAUNCH_CANCELLED);
		}
		switch (jobrun_queue_claim(jr, jr->now, reason, sizeof reason)) {
		case SLOTS_HELD:
			if (said[0] != '\0' && !jr->quiet)
				fprintf(stderr, "gridsubmit: job %s: its slots are free, starting\n",
				    jr->st.id);
			return LAUNCH_OK;
		case SLOTS_ERROR:
			snprintf(why, whylen, "the slot ledger: %s", reason);
			return jobrun_queue_call_off(jr, LAUNCH_FAILED);
		}
		if (strcmp(reason, said) != 0) {
			if (jobstore_set_phase(&jr->st, JOB_PENDING, reason) != 0)
				fatal("%s/state.json", jr->st.dir);
			if (!jr->quiet)
				fprintf(stderr, "gridsubmit: job %s pending: %s\n", jr->st.id,
				    reason);
			snprintf(said, sizeof said, "%s", reason);
		}
		nanosleep(&ts, NULL);
	}
}

int
jobrun_queue_update(struct jobrun *jr, char *why, size_t whylen)
{
	char reason[1024];

	if (jobrun_queue_claim(jr, 1, reason, sizeof reason) == SLOTS_HELD)
		return LAUNCH_OK;
	snprintf(why, whylen, "the slot ledger: %s", reason);
	return jobrun_queue_call_off(jr, LAUNCH_FAILED);
}

void
jobrun_queue_leave(struct jobrun *jr)
{
	char why[1024];

	if (jr->slots == NULL)
		return;
	if (slots_release(jr->slots, strtol(jr->st.id, NULL, 10), why, sizeof why) == -1)
		log_warnx("job %s: its slots stay in the ledger until the next job looks: %s",
		    jr->st.id, why);
	slots_close(jr->slots);
	jr->slots = NULL;
}
