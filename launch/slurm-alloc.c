/*
 * slurm-alloc.c — the allocations that hold a job's nodes on Slurm sites (slurm-site.h,
 * doc/slurm.md, "Allocation"). Per Slurm site of the placement, one sbatch through the
 * login host asks for exactly the placed nodes, whole (--exclusive), held by a sleep for
 * the allocation's life; the job then waits, pending with Slurm's reason, until every
 * allocation runs. Its nodes are then reached by srun (remote.h, routes). Every
 * allocation is in the job's state.json from the moment Slurm names it, so that nothing
 * can be left allocated: the cleanup, `cancel` and a cancel signal release them all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "common/proc.h"
#include "common/xmalloc.h"
#include "launch/launch.h"
#include "launch/slurm-site.h"
#include "remote/remote.h"

#define SLURM_CMD_TIMEOUT	30.0	/* seconds for one command on a login host */
#define SLURM_POLL_FIRST	0.2	/* seconds between looks at a pending allocation, */
#define SLURM_POLL_QUICK	10.0	/* for this long (Slurm starts batch jobs on its */
					/* batch_sched_delay, 3 s by default), then */
#define SLURM_POLL_MAX		2.0	/* doubling up to this */
#define SLURM_RELEASE_WAIT	15.0	/* seconds for Slurm to end a released allocation */

/* the allocation's own program: it only holds the nodes (its time limit ends it) */
#define SLURM_HOLD		"exec sleep 2147483647"

/* The Slurm site of node i, or NULL. */
static const struct gs_sched *
slurm_sched_of(const struct gs_sites *sites, size_t node)
{
	return sites->sites[sites->nodes[node].site].sched;
}

int
slurm_placement_uses(const struct gs_sites *sites, const struct gs_placement *p)
{
	int r;

	for (r = 0; r < p->nranks; r++)
		if (p->ranks[r].node != BROKER_NODE_NONE &&
		    slurm_sched_of(sites, p->ranks[r].node) != NULL)
			return 1;
	return 0;
}

int
slurm_time_reached(const struct gs_sites *sites, const struct gs_job *job,
    const struct gs_placement *p, double ran)
{
	const struct gs_sched *sc;
	long long limit;
	int r;

	for (r = 0; r < p->nranks; r++) {
		if (p->ranks[r].node == BROKER_NODE_NONE ||
		    (sc = slurm_sched_of(sites, p->ranks[r].node)) == NULL)
			continue;
		if (slurm_time_parse(job->time_limit != NULL ? job->time_limit : sc->time,
		    &limit) == 0 && ran >= (double)limit - SLURM_SETTLE)
			return 1;
	}
	return 0;
}

/* The placed nodes of site s, each once: their names in *hosts (not allocated). */
static size_t
slurm_site_hosts(const struct gs_sites *sites, const struct gs_placement *p, size_t s,
    const char ***hosts)
{
	unsigned char *seen = xcalloc(sites->nnodes + 1, 1);
	size_t n = 0;
	int r;

	*hosts = xcalloc((size_t)p->nranks + 1, sizeof **hosts);
	for (r = 0; r < p->nranks; r++) {
		size_t node = p->ranks[r].node;

		if (node == BROKER_NODE_NONE || seen[node] || (size_t)sites->nodes[node].site != s)
			continue;
		seen[node] = 1;
		(*hosts)[n++] = sites->nodes[node].host;
	}
	free(seen);
	return n;
}

/* Append "--opt=value" to the words when value is set. */
static void
slurm_opt(char **w, size_t *n, const char *opt, const char *value)
{
	if (value != NULL)
		xasprintf(&w[(*n)++], "--%s=%s", opt, value);
}

/* sbatch's words for the nodes of site s (allocated, NULL-terminated). */
static char **
slurm_sbatch_words(const struct gs_sched *sc, const struct gs_job *job,
    const struct job_state *st, const char **hosts, size_t nhosts)
{
	char **w = xcalloc(20, sizeof *w), *list = NULL, *nl;
	size_t n = 0, i;

	for (i = 0; i < nhosts; i++) {
		xasprintf(&nl, "%s%s%s", list != NULL ? list : "", list != NULL ? "," : "",
		    hosts[i]);
		free(list);
		list = nl;
	}
	w[n++] = xstrdup("sbatch");
	w[n++] = xstrdup("--parsable");
	xasprintf(&w[n++], "--job-name=gridsubmit-%s", st->id);
	xasprintf(&w[n++], "--nodes=%zu", nhosts);
	xasprintf(&w[n++], "--nodelist=%s", list);
	w[n++] = xstrdup("--exclusive");
	w[n++] = xstrdup("--no-requeue");
	w[n++] = xstrdup("--output=/dev/null");
	w[n++] = xstrdup("--error=/dev/null");
	slurm_opt(w, &n, "partition", sc->partition);
	slurm_opt(w, &n, "account", sc->account);
	slurm_opt(w, &n, "qos", sc->qos);
	slurm_opt(w, &n, "time", job->time_limit != NULL ? job->time_limit : sc->time);
	xasprintf(&w[n++], "--wrap=%s", SLURM_HOLD);
	free(list);
	return w;
}

static void
slurm_words_free(char **w)
{
	char **p;

	for (p = w; *p != NULL; p++)
		free(*p);
	free(w);
}

/* One command on a login host, its stdout's first line in out (a Slurm id, a state). */
static int
slurm_login_run(const char *config, const char *login, char *const words[], char *out,
    size_t outlen, char *why, size_t whylen)
{
	struct proc_task pt;
	char **argv, line[512];
	int rc;

	*out = '\0';
	if ((argv = remote_ssh_argv(config, NULL, login, words)) == NULL) {
		snprintf(why, whylen, "invalid login host name %s", login);
		return -1;
	}
	rc = proc_run(argv, SLURM_CMD_TIMEOUT, &pt);
	remote_argv_free(argv);
	if (rc != 0) {
		proc_last_line(pt.err, line, sizeof line);
		if (rc == PROC_DEADLINE)
			snprintf(why, whylen, "%s: %s did not answer within %g s", login, words[0],
			    SLURM_CMD_TIMEOUT);
		else
			snprintf(why, whylen, "%s: %s: %s", login, words[0], *line != '\0' ? line :
			    "failed with no message");
	} else
		snprintf(out, outlen, "%.*s", (int)strcspn(pt.out, "\n"), pt.out);
	proc_free(&pt, 1);
	return rc == 0 ? 0 : -1;
}

/* Ask for the placed nodes of site s; the allocation is recorded. 0, or -1 with why. */
static int
slurm_submit(const struct gs_sites *sites, const struct gs_job *job,
    const struct gs_placement *p, size_t s, struct job_state *st, const char *config,
    char *why, size_t whylen)
{
	const struct gs_sched *sc = sites->sites[s].sched;
	const char **hosts;
	char **words, id[64] = "", ewhy[768] = "";
	size_t n;

	if ((n = slurm_site_hosts(sites, p, s, &hosts)) == 0) {
		free(hosts);
		return 0;
	}
	words = slurm_sbatch_words(sc, job, st, hosts, n);
	if (slurm_login_run(config, sc->login, words, id, sizeof id, ewhy, sizeof ewhy) != 0 ||
	    (id[strcspn(id, ";")] = '\0', id[0] == '\0') ||
	    strspn(id, "0123456789") != strlen(id)) {
		snprintf(why, whylen, "site %s: Slurm did not take the allocation: %s",
		    sites->sites[s].name, ewhy[0] != '\0' && id[0] == '\0' ? ewhy :
		    "sbatch printed no job id");
		slurm_words_free(words);
		free(hosts);
		return -1;
	}
	jobstore_alloc_add(st, sites->sites[s].name, sc->login, id, (char *const *)hosts, n);
	slurm_words_free(words);
	free(hosts);
	if (jobstore_write_state(st) != 0) {
		snprintf(why, whylen, "%s/state.json: cannot record Slurm job %s: %s", st->dir, id,
		    strerror(errno));
		return -1;
	}
	return 0;
}

int
slurm_alloc_look(struct job_alloc *a, const char *config, char *why, size_t whylen)
{
	char *words[] = { "squeue", "--noheader", "--states=all", "--format=%T|%r", "--jobs",
	    a->id, NULL };
	char line[512], *bar;

	if (slurm_login_run(config, a->login, words, line, sizeof line, why, whylen) != 0) {
		if (strstr(why, "Invalid job id") == NULL)
			return -1;
		line[0] = '\0';
	}
	if (line[0] == '\0') {
		/* slurmctld forgot it (MinJobAge): it ended a while ago, how is lost */
		jobstore_alloc_set_state(a, "ENDED", "no longer in Slurm's queue");
		return 0;
	}
	if ((bar = strchr(line, '|')) != NULL)
		*bar++ = '\0';
	jobstore_alloc_set_state(a, line, bar != NULL && strcmp(bar, "None") != 0 ? bar :
	    NULL);
	return 0;
}

/* 1: Slurm will not run it any more (ended, failed, cancelled). */
int
slurm_alloc_over(const struct job_alloc *a)
{
	static const char *const live[] = { "SUBMITTED", "PENDING", "CONFIGURING", "RUNNING",
	    "SUSPENDED", "REQUEUED", "RESIZING", "SIGNALING", "STAGE_OUT", NULL };
	size_t i;

	for (i = 0; live[i] != NULL; i++)
		if (strcmp(a->state, live[i]) == 0)
			return 0;
	return 1;
}

/* "waiting for Slurm job 1234 on site hpc: Resources" */
static void
slurm_pending_reason(const struct job_alloc *a, char *buf, size_t len)
{
	snprintf(buf, len, "waiting for Slurm job %s on site %s: %s", a->id, a->site,
	    a->reason != NULL ? a->reason : a->state);
}

/*
 * Sleep up to *wait seconds (doubled for next time); woken by a cancel signal when
 * interruptible.
 */
static void
slurm_nap(double *wait, int interruptible)
{
	double end = clock_mono() + *wait;
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	while (clock_mono() < end && !(interruptible && launch_cancel_requested()))
		nanosleep(&ts, NULL);
	*wait = *wait * 2 < SLURM_POLL_MAX ? *wait * 2 : SLURM_POLL_MAX;
}

/*
 * Wait until the allocations from first on run: pending (st, stderr) with Slurm's reason
 * meanwhile. LAUNCH_OK, or LAUNCH_FAILED/LAUNCH_CANCELLED with why.
 */
static int
slurm_wait_running(struct job_state *st, size_t first, const char *config, int quiet,
    char *why, size_t whylen)
{
	char reason[1024], said[1024] = "", ewhy[768];
	double wait = SLURM_POLL_FIRST, quick = clock_mono() + SLURM_POLL_QUICK;
	size_t i, running;

	for (;;) {
		if (launch_cancel_requested()) {
			snprintf(why, whylen, "cancelled while waiting for Slurm");
			return LAUNCH_CANCELLED;
		}
		reason[0] = '\0';
		for (i = first, running = 0; i < st->nallocs; i++) {
			struct job_alloc *a = &st->allocs[i];

			if (slurm_alloc_look(a, config, ewhy, sizeof ewhy) != 0) {
				snprintf(why, whylen, "Slurm job %s on site %s: %s", a->id, a->site,
				    ewhy);
				return LAUNCH_FAILED;
			}
			if (strcmp(a->state, "RUNNING") == 0)
				running++;
			else if (slurm_alloc_over(a)) {
				snprintf(why, whylen, "Slurm job %s on site %s ended before it ran: "
				    "%s%s%s", a->id, a->site, a->state, a->reason != NULL ? ", " : "",
				    a->reason != NULL ? a->reason : "");
				return LAUNCH_FAILED;
			} else if (reason[0] == '\0')
				slurm_pending_reason(a, reason, sizeof reason);
		}
		if (running == st->nallocs - first)
			return LAUNCH_OK;
		if (strcmp(reason, said) != 0) {
			if (jobstore_set_phase(st, JOB_PENDING, reason) != 0)
				return LAUNCH_FAILED;
			if (!quiet)
				fprintf(stderr, "gridsubmit: job %s pending: %s\n", st->id, reason);
			snprintf(said, sizeof said, "%s", reason);
		}
		slurm_nap(&wait, 1);
		if (clock_mono() < quick)
			wait = SLURM_POLL_FIRST;
	}
}

void
slurm_routes(const struct job_state *st)
{
	size_t i, j;

	remote_route_clear();
	for (i = 0; i < st->nallocs; i++)
		for (j = 0; j < st->allocs[i].nhosts && !st->allocs[i].released; j++)
			remote_route_srun(st->allocs[i].hosts[j], st->allocs[i].login,
			    st->allocs[i].id);
}

int
slurm_allocate(const struct gs_sites *sites, const struct gs_job *job,
    const struct gs_placement *p, struct job_state *st, const char *config, int quiet,
    char *why, size_t whylen)
{
	size_t s, first = st->nallocs;
	int rc;

	for (s = 0; s < sites->nsites; s++) {
		if (sites->sites[s].sched == NULL)
			continue;
		if (launch_cancel_requested()) {
			snprintf(why, whylen, "cancelled while asking Slurm");
			slurm_release(st, config, 0);
			return LAUNCH_CANCELLED;
		}
		if (slurm_submit(sites, job, p, s, st, config, why, whylen) != 0) {
			slurm_release(st, config, 0);
			return LAUNCH_FAILED;
		}
	}
	if ((rc = slurm_wait_running(st, first, config, quiet, why, whylen)) != LAUNCH_OK) {
		slurm_release(st, config, 0);
		return rc;
	}
	slurm_routes(st);
	return LAUNCH_OK;
}

/*
 * Whether Slurm ended a itself, looking again for up to settle seconds while it still
 * runs: a node that failed kills the job's steps (the launch fails) a moment before
 * slurmctld records the job's end.
 */
static int
slurm_ended_by_slurm(struct job_alloc *a, const char *config, double settle)
{
	double end = clock_mono() + settle, wait = SLURM_POLL_FIRST;
	char why[768];

	for (;;) {
		if (slurm_alloc_look(a, config, why, sizeof why) != 0)
			return 0;
		if (slurm_alloc_over(a))
			return 1;
		if (clock_mono() >= end)
			return 0;
		slurm_nap(&wait, 0);
	}
}

void
slurm_release(struct job_state *st, const char *config, double settle)
{
	char *words[] = { "scancel", NULL, NULL }, out[64], why[768];
	double end, wait = SLURM_POLL_FIRST;
	size_t i, left;

	for (i = 0; i < st->nallocs; i++) {
		struct job_alloc *a = &st->allocs[i];

		if (a->released)
			continue;
		/* what Slurm made of it first: an allocation it ended is a lost node */
		if (slurm_ended_by_slurm(a, config, settle)) {
			a->released = JOB_ALLOC_ENDED;
			continue;
		}
		words[1] = a->id;
		/* one that scancel did not take stays held: a later cancel tries again */
		if (slurm_login_run(config, a->login, words, out, sizeof out, why,
		    sizeof why) != 0) {
			fprintf(stderr, "gridsubmit: job %s: cannot release Slurm job %s on site "
			    "%s: %s (gridsubmit cancel %s tries again)\n", st->id, a->id, a->site,
			    why, st->id);
			continue;
		}
		a->released = JOB_ALLOC_RELEASED;
	}
	/* until Slurm has ended them: then nothing of the job runs on their nodes */
	end = clock_mono() + SLURM_RELEASE_WAIT;
	do {
		for (i = 0, left = 0; i < st->nallocs; i++) {
			struct job_alloc *a = &st->allocs[i];

			if (a->released != JOB_ALLOC_RELEASED || slurm_alloc_over(a))
				continue;
			if (slurm_alloc_look(a, config, why, sizeof why) == 0 &&
			    !slurm_alloc_over(a))
				left++;
		}
		if (left > 0)
			slurm_nap(&wait, 0);
	} while (left > 0 && clock_mono() < end);
	if (jobstore_write_state(st) != 0)
		fprintf(stderr, "gridsubmit: job %s: cannot write %s/state.json\n", st->id,
		    st->dir);
	remote_route_clear();
}

size_t
slurm_held_refresh(struct job_state *st)
{
	struct job_state now;
	char why[1024];
	size_t i, held = 0;

	memset(&now, 0, sizeof now);
	if (jobstore_read_state(st->dir, &now, why, sizeof why) == JOBSTORE_OK) {
		jobstore_allocs_free(st);
		st->allocs = now.allocs;
		st->nallocs = now.nallocs;
		now.allocs = NULL;
		now.nallocs = 0;
	}
	job_state_free(&now);
	for (i = 0; i < st->nallocs; i++)
		held += st->allocs[i].released == JOB_ALLOC_HELD;
	return held;
}
