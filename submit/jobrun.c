/*
 * jobrun.c — one job from its files to its end: load the sites and the job, rank and place,
 * write the job directory, launch mpiexec and supervise it, record the final state. `run`
 * does this in the foreground; `submit` in a detached supervisor process.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "broker/broker.h"
#include "broker/errlist.h"
#include "broker/metrics.h"
#include "common/clock.h"
#include "common/events-read.h"
#include "common/file.h"
#include "common/log.h"
#include "common/pstat.h"
#include "common/xmalloc.h"
#include "launch/fd-budget.h"
#include "launch/jobctl.h"
#include "launch/launch.h"
#include "submit/cmd.h"
#include "submit/jobrun.h"
#include "submit/userconf.h"

/*
 * st's new phase in state.json; a write that fails is tried again once with the reserve
 * given back (jobrun-fatal.c: the supervisor short of descriptors or memory still records
 * why the job failed), and then the supervisor stops.
 */
static void
jobrun_state(struct job_state *st, enum job_phase phase, const char *reason)
{
	if (jobstore_set_phase(st, phase, reason) != 0 &&
	    (!jobrun_fatal_release() || jobstore_set_phase(st, phase, reason) != 0))
		fatal("%s/state.json", st->dir);
}

int
jobrun_fail(struct jobrun *jr, int code, const char *reason, int say)
{
	struct job_state *st = &jr->st;
	char *full, *p;
	size_t i;

	/* every earlier restart's reason goes with the last one (doc/restarts.md) */
	full = xstrdup(reason);
	for (i = 0; i < st->nrestart_log; i++) {
		xasprintf(&p, "%s%s%zu) %s", full, i == 0 ? "; restarts: " : "; ", i + 1,
		    st->restart_log[i].reason);
		free(full);
		full = p;
	}
	if (say)
		fprintf(stderr, "gridsubmit: %s\n", full);
	jobrun_state(st, JOB_FAILED, full);
	if (say)
		fprintf(stderr, "gridsubmit: job %s failed; its directory: %s\n", st->id,
		    st->dir);
	free(full);
	return code;
}

/* The launch was called off by a cancel signal (why: when; jobrun-cancel.c says who). */
static int
jobrun_cancelled(struct job_state *st, const char *why)
{
	char reason[1024];
	int code = jobrun_cancel_record(st, why, reason, sizeof reason);

	fprintf(stderr, "gridsubmit: job %s: %s\n", st->id, reason);
	return code;
}

/* What the events of the last launch say about its end (jobrun_read_end). */
struct jobrun_end {
	int started;		/* a start record was seen: the program runs on libgrt */
	int found;		/* an end record was seen */
	char status[EV_TEXT_MAX];
	int nfail;		/* fail records: workers the master lost */
};

/*
 * The end record of the last launch in events.jsonl (doc/runtime.md, "Events"), read with
 * the one events reader: status, makespan, failed ranks, requeued units. A start or a
 * restart record begins a new launch: what came before it is of an earlier one. A torn
 * last line is no end record.
 */
static void
jobrun_read_end(struct job_state *st, struct jobrun_end *e)
{
	struct evreader *r;
	struct event ev;
	char *path;

	memset(e, 0, sizeof *e);
	xasprintf(&path, "%s/events.jsonl", st->dir);
	r = evreader_open(path);
	free(path);
	if (r == NULL)
		return;
	memset(&ev, 0, sizeof ev);
	while (evreader_next(r, &ev) == 1) {
		if (ev.kind == EV_START || ev.kind == EV_RESTART) {
			memset(e, 0, sizeof *e);
			e->started = ev.kind == EV_START;
		} else if (ev.kind == EV_FAIL)
			e->nfail++;
		else if (ev.kind == EV_END) {
			snprintf(e->status, sizeof e->status, "%s", ev.text[0] != '\0' ?
			    ev.text : "?");
			st->makespan = isnan(ev.makespan) ? 0 : ev.makespan;
			st->failed_ranks = ev.failed;
			st->requeued = ev.requeued;
			e->found = 1;
		}
		event_clear(&ev);
	}
	evreader_free(r);
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

/* Where the job's directory, results, events and output are: on stderr, as run's own lines. */
static void
jobrun_print_where(const struct job_state *st, const struct gs_job *job)
{
	size_t i;
	struct stat sb;

	fprintf(stderr, "  directory: %s\n", st->dir);
	for (i = 0; i < job->nstage_out; i++) {
		char *p;

		xasprintf(&p, "%s/%s", st->dir, job->stage_out[i]);
		fprintf(stderr, "  result:    %s%s\n", p, stat(p, &sb) == 0 ? "" : " (missing)");
		free(p);
	}
	fprintf(stderr, "  events:    %s/events.jsonl\n", st->dir);
	fprintf(stderr, "  output:    %s/stdout, %s/stderr\n", st->dir, st->dir);
}

/*
 * The site file a job uses (README.md, "Configuration file"): --sites, else the
 * configuration file's sites:, else NULL for the embedded default.
 */
static const char *
jobrun_sites_arg(const struct jobrun_args *a)
{
	const struct gs_config *cfg = userconf();

	return a->sites != NULL || cfg == NULL ? a->sites : cfg->sites;
}

/*
 * The site file and the job file, each one's every error printed: as a compiler does, an
 * error in the first does not hide those of the second.
 */
static int
jobrun_load_files(const struct jobrun_args *a, const struct gs_config *cfg,
    struct gs_sites *sites, struct gs_job *job)
{
	const char *file = jobrun_sites_arg(a);
	struct gs_errlist errs;
	int src, jrc;

	src = file != NULL ? sites_load_file_errs(file, sites, &errs) :
	    sites_load_default_errs(sites, &errs);
	if (src != 0) {
		errlist_print(&errs, stderr);
		if (a->sites == NULL && file != NULL)
			fprintf(stderr, "%s:%d:%d: note: the site file is set here, by the "
			    "configuration file's 'sites'\n", cfg->path, cfg->sites_loc.line,
			    cfg->sites_loc.col);
	}
	/* without a job file, the job was loaded from the command line (jobrun_nofile_load) */
	jrc = a->job == NULL ? 0 : job_load_file_sites_errs(a->job, a->overlay,
	    a->overlay_origin, src == 0 ? sites : NULL, job, &errs);
	if (jrc != 0)
		errlist_print(&errs, stderr);
	if (src == 0 && jrc == 0)
		return 0;
	if (src == 0)
		sites_free(sites);
	if (jrc == 0)
		job_free(job);
	return -1;
}

/* The words after "--" on the command line, after the job file's args. */
static void
jobrun_more_args(struct gs_job *job, const struct jobrun_args *a)
{
	int i;

	if (a->nmore_args == 0)
		return;
	job->args = xreallocarray(job->args, job->nargs + (size_t)a->nmore_args + 1,
	    sizeof *job->args);
	for (i = 0; i < a->nmore_args; i++)
		job->args[job->nargs++] = xstrdup(a->more_args[i]);
	job->args[job->nargs] = NULL;
}

int
jobrun_load(const struct jobrun_args *a, struct gs_sites *sites, struct gs_job *job)
{
	const struct gs_config *cfg;
	int code;

	if ((cfg = userconf()) == NULL)
		return EXIT_INPUT;
	if (a->job == NULL && (code = jobrun_nofile_load(a, job)) != EXIT_OK)
		return code;
	/* the job file's program and stage_in files are checked with its other mistakes */
	if (jobrun_load_files(a, cfg, sites, job) != 0)
		return EXIT_INPUT;
	if ((code = jobrun_nofile_apply(a, job)) != EXIT_OK) {
		job_free(job);
		sites_free(sites);
		return code;
	}
	/* command line > job file > configuration file > the runtime's default (gss) */
	if (a->scheme != NULL)
		job_runtime_set(job, "scheme", a->scheme);
	else if (cfg->scheme != NULL && job_runtime_get(job, "scheme") == NULL)
		job_runtime_set(job, "scheme", cfg->scheme);
	if (a->migration != NULL)
		job_runtime_set(job, "migration", a->migration);
	if (a->ranks > 0)
		job->ranks = job->min_ranks = a->ranks;
	if (a->oversubscribe)
		job->oversubscribe = 1;
	if (a->time != NULL) {
		free(job->time_limit);
		job->time_limit = xstrdup(a->time);
	}
	if (a->job != NULL)
		jobrun_more_args(job, a);
	return EXIT_OK;
}

/* The job is done: its journal goes, unless the job keeps it (doc/restarts.md). */
static void
jobrun_drop_journal(const struct jobrun *jr)
{
	char *path;

	if (jr->job.keep_journal)
		return;
	xasprintf(&path, "%s/journal", jr->st.dir);
	if (unlink(path) == -1 && errno != ENOENT)
		log_warn("job %s: cannot remove %s", jr->st.id, path);
	free(path);
}

/*
 * How the launch ended, from rank 0, the end event and mpiexec. Done, cancelled and
 * timeout (jobrun-timeout.c) are recorded here (EXIT_OK, EXIT_CANCELLED, EXIT_TIMEOUT
 * with reason); a failure is not (EXIT_FAILED with reason):
 * a relaunch may follow. *restartable: 0 when the program decided to fail by itself (rank
 * 0 exited with a status of its own and no worker was lost), which a relaunch would only
 * repeat.
 */
static int
jobrun_verdict(struct jobrun *jr, char *reason, size_t len, int *restartable)
{
	struct job_state *st = &jr->st;
	const struct launch_result *lr = &jr->launch.res;
	struct jobrun_end e;
	const char *plain;

	jobrun_read_end(st, &e);
	jobrun_ranks_record(st);
	jr->plain = !e.started;
	st->libgrt = e.started;
	plain = e.started ? "" : " (libgrt never started)";
	st->exit_code = lr->mpiexec_status;
	*restartable = 0;
	if (lr->cancelled)
		return jobrun_cancel_record(st, NULL, reason, len);
	if (jobrun_timeout_stopped(jr, e.found ? e.status : NULL, reason, len))
		return EXIT_TIMEOUT;
	/* a simulation that stalled never ended, whatever smpirun's status (doc/simulate.md) */
	if (lr->sim_stalled) {
		snprintf(reason, len, "the simulation stalled: every rank was waiting for a "
		    "message that never came (SimGrid's deadlock, at %.6g s of simulated time; "
		    "its list of the waiting ranks is in %s/stderr)", lr->sim_stall_at, st->dir);
		return EXIT_FAILED;
	}
	if (lr->master_exit == 0 && e.found && strcmp(e.status, "ok") == 0) {
		jobrun_state(st, JOB_DONE, NULL);
		jobrun_drop_journal(jr);
		return EXIT_OK;
	}
	/*
	 * no start record: a program that never started libgrt, judged as mpiexec judges it
	 * (doc/restarts.md): mpiexec's status is the ranks' exit statuses or'ed, a rank killed
	 * by signal N counting 128+N through gridsubmit-rank
	 */
	if (!e.started && lr->master_exit == 0 && lr->mpiexec_status == 0) {
		jobrun_state(st, JOB_DONE, NULL);
		return EXIT_OK;
	}
	if (jobrun_timeout_slurm(jr, reason, len))
		return EXIT_TIMEOUT;
	/* without libgrt, the first rank that failed, with its node (jobrun-ranks.c) */
	if (!e.started && jobrun_ranks_failure(st, reason, len, restartable))
		return EXIT_FAILED;
	if (lr->master_signal > 0)
		snprintf(reason, len, "rank 0 died of signal %d%s", lr->master_signal, plain);
	else if (lr->master_exit > 0)
		snprintf(reason, len, "rank 0 exited with status %d%s", lr->master_exit,
		    e.found && strcmp(e.status, "ok") != 0 ?
		    " (the runtime reported a failure)" : plain);
	else if (lr->master_exit == 0 && e.started)
		snprintf(reason, len, "rank 0 exited without the runtime's end record");
	else if (lr->master_exit == 0)
		snprintf(reason, len, "a rank failed: mpiexec exited with status %d, the ranks' "
		    "exit statuses or'ed%s", lr->mpiexec_status, plain);
	else
		snprintf(reason, len, "mpiexec exited with status %d before rank 0 ended",
		    lr->mpiexec_status);
	*restartable = lr->master_signal > 0 || lr->master_exit < 0 ||
	    (lr->master_exit > 0 && e.nfail > 0);
	return EXIT_FAILED;
}

/* The placed job's launch files and launch (its directory made, its state recorded). */
static int
jobrun_ready(struct jobrun *jr)
{
	struct launch_plan plan;
	struct job_state *st = &jr->st;
	char why[4096];

	/* the time origin of every launch's events (GRT_T0), whole milliseconds */
	if (st->t0 == 0)
		st->t0 = (double)llround(clock_wall() * 1000) / 1000;
	plan = (struct launch_plan){ &jr->sites, &jr->job, &jr->ranking, &jr->place, st,
	    jr->speculate, jr->sim, jr->quiet };
	switch (launch_prepare(&jr->launch, &plan, why, sizeof why)) {
	case LAUNCH_OK:
		return EXIT_OK;
	case LAUNCH_CANCELLED:
		return jobrun_cancelled(st, why);
	default:
		return jobrun_fail(jr, EXIT_LAUNCH, why, 1);
	}
}

/*
 * jobrun_plan with jr's options: live metrics unless --no-metrics, read within the
 * configuration file's metrics_timeout (else metrics.h's default).
 */
static int
jobrun_plan_job(struct jobrun *jr, struct gs_error *err)
{
	const struct gs_config *cfg = userconf();
	struct metrics_opts mo;

	memset(&mo, 0, sizeof mo);
	if (cfg != NULL)
		mo.timeout = cfg->metrics_timeout;
	return jobrun_plan(&jr->sites, &jr->job, jr->metrics ? &mo : NULL, &jr->ranking,
	    &jr->ranked, &jr->place, &jr->placed, err);
}

int
jobrun_place(struct jobrun *jr)
{
	struct gs_error err;
	int code;

	if ((code = jobrun_plan_job(jr, &err)) != EXIT_OK)
		return jobrun_fail(jr, code, err.msg, 1);
	jr->st.ranks = jr->place.nranks;
	return jobrun_ready(jr);
}

int
jobrun_prepare(const struct jobrun_args *a, struct jobrun *jr)
{
	const char *scheme;
	struct job_state *st = &jr->st;
	struct gs_error err;
	char why[1024];
	int code;

	memset(jr, 0, sizeof *jr);
	jr->top_saved_err = -1;
	if ((code = jobrun_load(a, &jr->sites, &jr->job)) != EXIT_OK)
		return code;
	jr->loaded = 1;
	/* a job that runs reaches its hosts; a simulated one only reads their figures */
	if (a->sim == NULL && jobrun_derived_check(jobrun_sites_arg(a), &jr->sites) != 0)
		return EXIT_INPUT;
	jr->speculate = a->speculate;
	jr->metrics = a->metrics;
	jr->restarts_max = a->restarts >= 0 ? a->restarts : jr->job.restarts;
	jr->now = a->now;
	jr->sim = a->sim;
	/* a job that cannot be placed (or simulated) is refused before it takes an id */
	if ((code = jobrun_plan_job(jr, &err)) != EXIT_OK) {
		fprintf(stderr, "gridsubmit: %s%s\n", code == EXIT_NOPLACE ? "no placement: " : "",
		    err.msg);
		return code;
	}
	if (a->sim != NULL && (code = jobrun_sim_check(jr)) != EXIT_OK)
		return code;
	/* nor one this host has too few descriptors for (launch_prepare checks relaunches) */
	if (a->sim == NULL && fd_budget_reserve(&jr->sites, &jr->place, why, sizeof why) != 0) {
		fprintf(stderr, "gridsubmit: %s\n", why);
		return EXIT_LAUNCH;
	}
	st->name = xstrdup(jr->job.name);
	st->job_file = a->job != NULL ? realpath(jr->job.path, NULL) : NULL;
	st->ranks = jr->place.nranks;
	st->submitted = clock_wall();
	st->supervisor_pid = (long)getpid();
	st->supervisor_start = pstat_start_time(getpid());
	st->exit_code = -1;
	st->libgrt = -1;
	st->restarts_max = jr->restarts_max;
	st->ranks_option = a->ranks;
	st->no_metrics = !a->metrics;
	if (jobrun_sites_arg(a) != NULL)
		st->sites_file = realpath(jr->sites.path, NULL);
	scheme = job_runtime_get(&jr->job, "scheme");
	st->scheme = xstrdup(scheme != NULL ? scheme : "gss");
	st->phase = JOB_BROKERING;
	if (jobstore_create(st, why, sizeof why) == -1) {
		log_warnx("%s", why);
		return EXIT_FAILED;
	}
	jobrun_write_files(a, jr);
	return jobrun_ready(jr);
}

int
jobrun_execute(struct jobrun *jr, int top)
{
	struct job_state *st = &jr->st;
	char why[4096];
	int code, restartable, rc, first;
	pid_t loads;

	launch_catch_signals();
	if (top)
		jobrun_top_start(jr);
	jobrun_disk_reserve(st);
	jobrun_fatal_arm(st);
	for (first = 1;; first = 0) {
		/*
		 * the slots first (jobrun-queue.c); a relaunch keeps holding them. A simulated
		 * job uses no real node: it stays out of the queue.
		 */
		rc = jr->sim != NULL ? LAUNCH_OK : first ? jobrun_queue_enter(jr, why, sizeof why) :
		    jobrun_queue_update(jr, why, sizeof why);
		if (rc == LAUNCH_OK)
			rc = launch_start(&jr->launch, why, sizeof why);
		switch (rc) {
		case LAUNCH_OK:
			break;
		case LAUNCH_CANCELLED:
			code = jobrun_cancelled(st, why);
			goto out;
		default:
			code = jobrun_fail(jr, EXIT_LAUNCH, why, 1);
			goto out;
		}
		jr->launch.time_limit = jobrun_time_left(jr);
		loads = jobrun_loads_start(jr);
		launch_wait(&jr->launch);
		jobrun_loads_stop(jr, loads);
		jr->ran += jr->launch.res.ran;
		code = jobrun_verdict(jr, why, sizeof why, &restartable);
		/*
		 * a full or read-only disk, no descriptor or memory left: a relaunch would meet
		 * them again (jobrun-disk.c, jobrun-resource.c)
		 */
		if (code == EXIT_FAILED && (jobrun_disk_failure(jr, why, sizeof why) ||
		    jobrun_resource_failure(jr, why, sizeof why))) {
			code = jobrun_fail(jr, EXIT_FAILED, why, 1);
			break;
		}
		/* a failure: relaunched while restarts remain (jobrun-restart.c) */
		if (code != EXIT_FAILED ||
		    (code = jobrun_restart(jr, why, restartable)) != EXIT_OK)
			break;
	}
out:
	jobrun_fatal_disarm();
	jobrun_disk_release(st);
	jobrun_queue_leave(jr);
	if (top)
		jobrun_top_end(jr);
	return code;
}

void
jobrun_report(struct jobrun *jr, int code)
{
	struct job_state *st = &jr->st;

	jobrun_show_output(st, "stdout", stdout);
	if (code != EXIT_OK)
		jobrun_show_output(st, "stderr", stderr);
	if (jr->quiet && code == EXIT_OK)
		return;
	/*
	 * the job's own time: state.json's ends, not when this report comes (run --top). A
	 * makespan is that of a job that completed: one stopped or failed has none
	 */
	if (jr->plain)
		jobrun_ranks_report(jr);
	else if (st->phase == JOB_DONE)
		fprintf(stderr, "gridsubmit: job %s done in %.2f s (makespan %.3f s, %d failed "
		    "ranks, %lld units requeued)\n", st->id, st->ended - st->submitted,
		    st->makespan, st->failed_ranks, (long long)st->requeued);
	else
		fprintf(stderr, "gridsubmit: job %s %s in %.2f s%s%s\n", st->id,
		    job_phase_name(st->phase), st->ended - st->submitted,
		    st->reason != NULL ? ": " : "", st->reason != NULL ? st->reason : "");
	if (jr->launch.res.killed_stragglers)
		fprintf(stderr, "gridsubmit: ranks still running after rank 0 ended were "
		    "killed\n");
	if (!jr->quiet)
		jobrun_print_where(st, &jr->job);
}

void
jobrun_free(struct jobrun *jr)
{
	launch_free(&jr->launch);
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
