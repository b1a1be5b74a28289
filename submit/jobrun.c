/*
 * jobrun.c — one job from its files to its end: load the sites and the job, rank and place,
 * write the job directory, launch mpiexec and supervise it, record the final state. `run`
 * does this in the foreground; `submit` in a detached supervisor process.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "broker.h"
#include "cmd.h"
#include "gate.h"
#include "jobctl.h"
#include "jobrun.h"
#include "launch.h"
#include "lease.h"
#include "log.h"
#include "metrics.h"
#include "preflight.h"
#include "stage.h"
#include "tui.h"
#include "xmalloc.h"

/* Write a file of the job directory through a FILE*, atomically. */
static void
jobrun_write_with(const struct job_state *st, const char *name, const struct gs_sites *sites,
    const struct gs_placement *p,
    int (*writer)(const struct gs_sites *, const struct gs_placement *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if ((f = open_memstream(&buf, &len)) == NULL)
		fatal("open_memstream");
	if (writer(sites, p, f) != 0)
		fatalx("%s: cannot write the %s (invalid host or user name)", st->dir, name);
	fclose(f);
	if (jobstore_write_file(st->dir, name, buf, len) != 0)
		fatal("%s/%s", st->dir, name);
	free(buf);
}

static void
jobrun_copy_file(const struct job_state *st, const char *from, const char *name)
{
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[65536];
	FILE *in, *mem;

	if ((in = fopen(from, "rb")) == NULL)
		fatal("%s", from);
	if ((mem = open_memstream(&buf, &len)) == NULL)
		fatal("open_memstream");
	while ((n = fread(chunk, 1, sizeof chunk, in)) > 0)
		fwrite(chunk, 1, n, mem);
	fclose(in);
	fclose(mem);
	if (jobstore_write_file(st->dir, name, buf, len) != 0)
		fatal("%s/%s", st->dir, name);
	free(buf);
}

static void
jobrun_state(struct job_state *st, enum job_phase phase, const char *reason)
{
	st->phase = phase;
	free(st->reason);
	st->reason = reason != NULL ? xstrdup(reason) : NULL;
	if (phase == JOB_RUNNING)
		st->started = clock_wall();
	if (phase >= JOB_DONE)
		st->ended = clock_wall();
	if (jobstore_write_state(st) != 0)
		fatal("%s/state.json", st->dir);
}

/* The job failed before launch: record why, say it, and give the exit code. */
static int
jobrun_fail(struct job_state *st, int code, const char *msg)
{
	fprintf(stderr, "gridsubmit: %s\n", msg);
	jobrun_state(st, JOB_FAILED, msg);
	fprintf(stderr, "gridsubmit: job %s failed; its directory: %s\n", st->id, st->dir);
	return code;
}

/*
 * The end record of events.jsonl (DESIGN section 6): status, makespan, failed ranks,
 * requeued units. Returns 1 when there is one; a torn last line is no end record.
 */
static int
jobrun_read_end(struct job_state *st, char *status, size_t statuslen)
{
	char *path, *line = NULL, *last = NULL;
	size_t cap = 0;
	ssize_t n;
	json_t *o;
	FILE *f;
	int found = 0;

	xasprintf(&path, "%s/events.jsonl", st->dir);
	f = fopen(path, "r");
	free(path);
	if (f == NULL)
		return 0;
	while ((n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n' && strstr(line, "\"ev\":\"end\"") != NULL) {
			free(last);
			last = xstrdup(line);
		}
	}
	fclose(f);
	free(line);
	if (last != NULL && (o = json_loads(last, 0, NULL)) != NULL) {
		const char *s = json_string_value(json_object_get(o, "status"));

		snprintf(status, statuslen, "%s", s != NULL ? s : "?");
		found = 1;
		st->makespan =
		    json_number_value(json_object_get(o, "makespan"));
		st->failed_ranks =
		    (int)json_integer_value(json_object_get(o, "failed"));
		st->requeued =
		    json_integer_value(json_object_get(o, "requeued"));
		json_decref(o);
	}
	free(last);
	return found;
}

/* Copy the job's output file to our stream: run is a foreground command. */
static void
jobrun_show_output(const struct job_state *st, const char *name, FILE *to)
{
	char *path, buf[65536];
	size_t n;
	FILE *f;

	xasprintf(&path, "%s/%s", st->dir, name);
	if ((f = fopen(path, "r")) != NULL) {
		while ((n = fread(buf, 1, sizeof buf, f)) > 0)
			fwrite(buf, 1, n, to);
		fclose(f);
	}
	free(path);
	fflush(to);
}

static void
jobrun_print_where(const struct job_state *st, const struct gs_job *job)
{
	size_t i;
	struct stat sb;

	printf("  directory: %s\n", st->dir);
	for (i = 0; i < job->nstage_out; i++) {
		char *p;

		xasprintf(&p, "%s/%s", st->dir, job->stage_out[i]);
		printf("  result:    %s%s\n", p, stat(p, &sb) == 0 ? "" : " (missing)");
		free(p);
	}
	printf("  events:    %s/events.jsonl\n", st->dir);
	printf("  output:    %s/stdout, %s/stderr\n", st->dir, st->dir);
}

static int
jobrun_load(const struct jobrun_args *a, struct gs_sites *sites, struct gs_job *job)
{
	struct gs_error err;
	char why[1024];

	if ((a->sites != NULL ? sites_load_file(a->sites, sites, &err) :
	    sites_load_default(sites, &err)) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	if (job_load_file(a->job, job, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		sites_free(sites);
		return -1;
	}
	if (access(job->program, X_OK) != 0) {
		fprintf(stderr, "%s: program: cannot run %s: %s%s\n", job->path, job->program,
		    strerror(errno), errno == ENOENT ? " (was it built? run make)" : "");
		job_free(job);
		sites_free(sites);
		return -1;
	}
	if (stage_in_check(job, why, sizeof why) != 0) {
		fprintf(stderr, "%s: %s\n", job->path, why);
		job_free(job);
		sites_free(sites);
		return -1;
	}
	if (a->scheme != NULL)
		job_runtime_set(job, "scheme", a->scheme);
	if (a->ranks > 0)
		job->ranks = job->min_ranks = a->ranks;
	return 0;
}

/* How the job ended, from rank 0, the end event and mpiexec: the state and exit code. */
static int
jobrun_verdict(struct job_state *st, const struct launch_result *lr)
{
	char status[32] = "", reason[256];
	int have_end = jobrun_read_end(st, status, sizeof status);

	st->exit_code = lr->mpiexec_status;
	if (lr->cancelled) {
		jobrun_state(st, JOB_CANCELLED, "cancelled by a signal");
		return EXIT_CANCELLED;
	}
	if (lr->master_exit == 0 && have_end && strcmp(status, "ok") == 0) {
		jobrun_state(st, JOB_DONE, NULL);
		return EXIT_OK;
	}
	if (lr->master_signal > 0)
		snprintf(reason, sizeof reason, "rank 0 died of signal %d", lr->master_signal);
	else if (lr->master_exit > 0)
		snprintf(reason, sizeof reason, "rank 0 exited with status %d%s",
		    lr->master_exit, have_end && strcmp(status, "ok") != 0 ?
		    " (the runtime reported a failure)" : "");
	else if (lr->master_exit == 0)
		snprintf(reason, sizeof reason, "rank 0 exited without the runtime's end record");
	else
		snprintf(reason, sizeof reason, "mpiexec exited with status %d before rank 0 "
		    "ended", lr->mpiexec_status);
	jobrun_state(st, JOB_FAILED, reason);
	return EXIT_FAILED;
}

/*
 * Multi-site jobs run rank 0 on the submitting host (DESIGN section 3: master defaults to
 * it; doc/testbed.md, "Launch"): events.jsonl and master.status are written here, the
 * console and the supervisor read them live, and each site's link is its link to us.
 * A site file's master on another host is replaced (with a note).
 */
static void
jobrun_master_here(struct gs_sites *sites)
{
	char me[256];

	if (!launch_sites_remote(sites) || (sites->master != NULL &&
	    launch_host_is_local(sites->master)))
		return;
	if (gethostname(me, sizeof me) != 0 || !host_name_valid(me))
		snprintf(me, sizeof me, "localhost");
	if (sites->master != NULL)
		fprintf(stderr, "gridsubmit: rank 0 runs on this host (%s), not on the site "
		    "file's master %s: multi-site jobs keep their master here\n", me,
		    sites->master);
	free(sites->master);
	sites->master = xstrdup(me);
}

/* A preflight that did not pass: the job ends cancelled or failed (why names the nodes). */
static int
jobrun_preflight_failed(struct job_state *st, const char *why)
{
	stage_cleanup(st);
	if (launch_cancel_requested()) {
		jobrun_state(st, JOB_CANCELLED, "cancelled during preflight");
		fprintf(stderr, "gridsubmit: job %s cancelled during preflight\n", st->id);
		return EXIT_CANCELLED;
	}
	return jobrun_fail(st, EXIT_LAUNCH, why);
}

/*
 * DIR/.remote, where the launcher on a node that shares our file system records its
 * process group: made here when mpiexec starts before the preflight (which makes it too).
 */
static int
jobrun_remote_marks_dir(const struct job_state *st, char *why, size_t whylen)
{
	char *path;
	int rc = 0;

	xasprintf(&path, "%s/.remote", st->dir);
	if (mkdir(path, 0700) == -1 && errno != EEXIST) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		rc = -1;
	}
	free(path);
	return rc;
}

/* The hostfile and rankmap of the placement, then mpiexec's arguments (hold: launch.h). */
static int
jobrun_write_launch(struct jobrun *jr, const struct launch_hold *hold, char *why,
    size_t whylen)
{
	struct job_state *st = &jr->st;

	st->ranks = jr->place.nranks;
	jobrun_write_with(st, "hostfile", &jr->sites, &jr->place, broker_write_hostfile);
	jobrun_write_with(st, "rankmap", &jr->sites, &jr->place, broker_write_rankmap);
	launch_argv_free(jr->argv);
	jr->argv = launch_argv(&jr->sites, &jr->job, &jr->place, st, hold, why, whylen);
	return jr->argv != NULL ? 0 : -1;
}

/* Forget the speculative launch's hold (gate, checks); mpiexec has ended or never ran. */
static void
jobrun_unhold(struct jobrun *jr)
{
	gate_close(&jr->gate);
	preflight_setup_free(&jr->checks);
	free(jr->check_cmd);
	jr->check_cmd = NULL;
}

/*
 * Ready a speculative launch: rank 0's gate, DIR/.remote where the nodes answer, and the
 * checks every node's session runs before its proxy (preflight-session.c). 0, or -1 when
 * it cannot be had (the plain preflight then runs, and reports what is wrong).
 */
static int
jobrun_hold(struct jobrun *jr, struct launch_hold *hold)
{
	struct job_state *st = &jr->st;
	char why[1024], ifname[64], addr[64];
	int r;

	if (gate_open(st, &jr->gate, why, sizeof why) != 0 ||
	    jobrun_remote_marks_dir(st, why, sizeof why) != 0 ||
	    preflight_setup_make(&jr->sites, &jr->job, st, &jr->checks, why, sizeof why) != 0)
		return -1;
	for (r = 0; r < jr->place.nranks; r++) {
		size_t node = jr->place.ranks[r].node;

		if (node == BROKER_NODE_NONE || launch_host_is_local(jr->sites.nodes[node].host))
			continue;
		if (launch_route(jr->checks.config, jr->sites.nodes[node].host, ifname,
		    sizeof ifname, addr, sizeof addr, why, sizeof why) == -1)
			return -1;
		jr->check_cmd = preflight_session_command(&jr->checks, st, addr);
		hold->gate = jr->gate.path;
		hold->checks = jr->check_cmd;
		return 0;
	}
	return -1;
}

int
jobrun_prepare(const struct jobrun_args *a, struct jobrun *jr)
{
	struct gs_error err;
	struct launch_hold hold = { NULL, NULL };
	const char *scheme;
	char why[4096];
	struct job_state *st = &jr->st;

	memset(jr, 0, sizeof *jr);
	jr->gate.fd = -1;
	jr->checks.fd = -1;
	if (jobrun_load(a, &jr->sites, &jr->job) != 0)
		return EXIT_INPUT;
	jr->loaded = 1;
	jobstore_create(st);
	st->name = xstrdup(jr->job.name);
	st->job_file = realpath(jr->job.path, NULL);
	st->ranks = jr->job.ranks;
	st->submitted = clock_wall();
	st->supervisor_pid = (long)getpid();
	st->supervisor_start = jobctl_start_time(getpid());
	st->exit_code = -1;
	scheme = job_runtime_get(&jr->job, "scheme");
	st->scheme = xstrdup(scheme != NULL ? scheme : "gss");
	jobrun_state(st, JOB_BROKERING, NULL);
	jobrun_copy_file(st, jr->job.path, "job.yaml");
	if (a->sites != NULL)
		jobrun_copy_file(st, a->sites, "sites.yaml");

	jobrun_master_here(&jr->sites);
	if (a->metrics)
		metrics_fetch(&jr->sites, NULL);
	if (broker_rank(&jr->sites, &jr->job, &jr->ranking, &err) != 0)
		return jobrun_fail(st, EXIT_INPUT, err.msg);
	jr->ranked = 1;
	if (broker_place(&jr->sites, &jr->ranking, jr->job.ranks, &jr->place, &err) != 0)
		return jobrun_fail(st, EXIT_NOPLACE, err.msg);
	jr->placed = 1;
	/* the stage_in files are needed here in any case (rank 0 runs here) */
	if (stage_in_local(&jr->job, st, why, sizeof why) != 0)
		return jobrun_fail(st, EXIT_LAUNCH, why);
	if (launch_is_remote(&jr->sites, &jr->place)) {
		/* from here on, things exist on the nodes: a cancel must clean them up */
		launch_catch_signals();
		jobrun_state(st, JOB_STAGING, NULL);
		/* speculative: the checks run in mpiexec's sessions, in jobrun_execute */
		if (!a->speculate || jobrun_hold(jr, &hold) != 0) {
			struct preflight pf;

			jobrun_unhold(jr);
			memset(&hold, 0, sizeof hold);
			if (preflight_run(&jr->sites, &jr->job, &jr->ranking, &jr->place, st,
			    &pf, why, sizeof why) != 0)
				return jobrun_preflight_failed(st, why);
		}
	}
	if (jobrun_write_launch(jr, hold.gate != NULL ? &hold : NULL, why, sizeof why) != 0) {
		jobrun_unhold(jr);
		stage_cleanup(st);
		return jobrun_fail(st, EXIT_LAUNCH, why);
	}
	if (jr->gate.path == NULL)
		jobrun_state(st, JOB_LAUNCHING, NULL);
	return EXIT_OK;
}

/*
 * The speculative launch (doc/architecture.md, "Speculative launch"): mpiexec starts at
 * once, as if every node shared our file system and passed, with rank 0 held at the gate,
 * and every node runs the preflight's checks in its own session before its proxy. When
 * every node answers that it passed and shares our job directory, the gate opens: the
 * preflight cost no ssh of its own. Otherwise the launch is called off before any rank got
 * past MPI_Init: mpiexec and whatever it started on the nodes are killed, the plain
 * preflight runs (reports, stages, replaces), and the job launches again with what it
 * found. Returns EXIT_OK with mpiexec's pid in *pid, or the job's exit code.
 */
static int
jobrun_speculate(struct jobrun *jr, pid_t *pid)
{
	struct job_state *st = &jr->st;
	struct preflight pf;
	char why[1024], pfwhy[4096], *path;
	int go;

	*pid = launch_start(jr->argv, st);
	st->mpiexec_pid = (long)*pid;
	st->mpiexec_start = jobctl_start_time(*pid);
	jobrun_state(st, JOB_STAGING, NULL);
	go = preflight_session_wait(&jr->sites, &jr->place, st, &jr->checks, *pid, why,
	    sizeof why) == 0;
	gate_release(&jr->gate, go);
	if (go)
		return EXIT_OK;
	launch_abort(*pid);
	jobrun_unhold(jr);
	launch_cleanup_remote(&jr->sites, &jr->place, st, launch_cancel_requested());
	xasprintf(&path, "%s/master.status", st->dir);
	unlink(path);
	free(path);
	st->mpiexec_pid = 0;
	st->mpiexec_start = 0;
	if (launch_cancel_requested())
		return jobrun_preflight_failed(st, why);
	if (preflight_run(&jr->sites, &jr->job, &jr->ranking, &jr->place, st, &pf, pfwhy,
	    sizeof pfwhy) != 0)
		return jobrun_preflight_failed(st, pfwhy);
	if (pf.replaced || !pf.all_shared)
		fprintf(stderr, "gridsubmit: job %s: launching again with what the preflight "
		    "found (%s)\n", st->id, pf.replaced ? "nodes replaced" : "files staged");
	else
		fprintf(stderr, "gridsubmit: job %s: launching again (%s; the preflight "
		    "found every node ready)\n", st->id, why);
	if (jobrun_write_launch(jr, NULL, pfwhy, sizeof pfwhy) != 0) {
		stage_cleanup(st);
		return jobrun_fail(st, EXIT_LAUNCH, pfwhy);
	}
	jobrun_state(st, JOB_LAUNCHING, NULL);
	lease_open(jr->argv);
	*pid = launch_start(jr->argv, st);
	return EXIT_OK;
}

int
jobrun_execute(struct jobrun *jr, int top)
{
	struct job_state *st = &jr->st;
	pid_t pid;
	int code;

	launch_catch_signals();
	if (launch_cancel_requested()) {
		jobrun_unhold(jr);
		stage_cleanup(st);
		jobrun_state(st, JOB_CANCELLED, "cancelled before launch");
		return EXIT_CANCELLED;
	}
	/* here, in the process that lives as long as the job: the ranks' lease (lease.h) */
	lease_open(jr->argv);
	if (jr->gate.path != NULL) {
		if ((code = jobrun_speculate(jr, &pid)) != EXIT_OK)
			return code;
	} else
		pid = launch_start(jr->argv, st);
	st->mpiexec_pid = (long)pid;
	st->mpiexec_start = jobctl_start_time(pid);
	jobrun_state(st, JOB_RUNNING, NULL);
	if (top) {
		char *events;
		struct tui_opts topts = { 0 };

		xasprintf(&events, "%s/events.jsonl", st->dir);
		tui_follow(events, &topts);
		free(events);
	}
	launch_wait(pid, st, &jr->lr);
	jobrun_unhold(jr);
	/* no rank left on any host; outputs back from the nodes, their directories removed */
	if (jr->lr.cancelled || jr->lr.killed_stragglers || jr->lr.mpiexec_status != 0)
		launch_cleanup_remote(&jr->sites, &jr->place, st, 1);
	if (!jr->lr.cancelled)
		stage_out(&jr->sites, &jr->place, &jr->job, st);
	stage_cleanup(st);
	return jobrun_verdict(st, &jr->lr);
}

void
jobrun_report(struct jobrun *jr, int code)
{
	struct job_state *st = &jr->st;

	jobrun_show_output(st, "stdout", stdout);
	if (code != EXIT_OK)
		jobrun_show_output(st, "stderr", stderr);
	printf("gridsubmit: job %s %s in %.2f s (makespan %.3f s, %d failed ranks, %lld units "
	    "requeued)%s%s\n", st->id, job_phase_name(st->phase), st->ended - st->submitted,
	    st->makespan, st->failed_ranks, (long long)st->requeued, st->reason != NULL ? ": " : "",
	    st->reason != NULL ? st->reason : "");
	if (jr->lr.killed_stragglers)
		printf("gridsubmit: ranks still running after rank 0 ended were killed\n");
	jobrun_print_where(st, &jr->job);
}

void
jobrun_free(struct jobrun *jr)
{
	jobrun_unhold(jr);
	launch_argv_free(jr->argv);
	if (jr->placed)
		broker_placement_free(&jr->place);
	if (jr->ranked)
		broker_ranking_free(&jr->ranking);
	job_state_free(&jr->st);
	if (jr->loaded) {
		job_free(&jr->job);
		sites_free(&jr->sites);
	}
	memset(jr, 0, sizeof *jr);
}
