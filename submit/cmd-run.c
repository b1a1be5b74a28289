/*
 * cmd-run.c — gridsubmit run: submit a job and follow it in the foreground.
 *
 * Loads the sites (the embedded sites/localhost.yaml unless --sites) and the job, ranks the
 * nodes (live metrics where a monitor is set), places the ranks, writes the job directory
 * (job.yaml, hostfile, rankmap, state.json), launches mpiexec and supervises it; with --top
 * it shows the live console meanwhile. Exits 0 only when the job succeeded.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "broker.h"
#include "cmd.h"
#include "jobstore.h"
#include "launch.h"
#include "log.h"
#include "metrics.h"
#include "scheme.h"
#include "tui.h"
#include "xmalloc.h"

struct run_args {
	const char *job;
	const char *sites;
	const char *scheme;
	int ranks;		/* 0: the job file's */
	int top;
	int metrics;
};

static double
run_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
run_parse(int argc, char **argv, struct run_args *a)
{
	static const struct option longopts[] = {
		{ "sites", required_argument, NULL, 's' },
		{ "scheme", required_argument, NULL, 'S' },
		{ "ranks", required_argument, NULL, 'n' },
		{ "top", no_argument, NULL, 't' },
		{ "no-metrics", no_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(a, 0, sizeof *a);
	a->metrics = 1;
	while ((c = cmd_getopt(argc, argv, "s:n:", longopts, &cmd_run_entry)) != -1) {
		switch (c) {
		case 's':
			a->sites = optarg;
			break;
		case 'S':
			if (grt_scheme_from_name(optarg) < 0)
				cmd_usage_error(&cmd_run_entry, "--scheme: unknown scheme '%s' (see "
				    "gridsubmit schedule --help)", optarg);
			a->scheme = optarg;
			break;
		case 'n':
			a->ranks = (int)cmd_parse_int(&cmd_run_entry, "--ranks", optarg, 1, 100000);
			break;
		case 't':
			a->top = 1;
			break;
		case 'M':
			a->metrics = 0;
			break;
		}
	}
	if (optind != argc - 1)
		cmd_usage_error(&cmd_run_entry, optind >= argc ? "missing JOB.yaml" :
		    "one job file at a time");
	a->job = argv[optind];
}

/* Write a file of the job directory through a FILE*, atomically. */
static void
run_write_with(const struct job_state *st, const char *name, const struct gs_sites *sites,
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
run_copy_file(const struct job_state *st, const char *from, const char *name)
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
run_state(struct job_state *st, enum job_phase phase, const char *reason)
{
	st->phase = phase;
	free(st->reason);
	st->reason = reason != NULL ? xstrdup(reason) : NULL;
	if (phase == JOB_RUNNING)
		st->started = run_now();
	if (phase >= JOB_DONE)
		st->ended = run_now();
	if (jobstore_write_state(st) != 0)
		fatal("%s/state.json", st->dir);
}

/* The job failed before launch: record why, say it, and give the exit code. */
static int
run_fail(struct job_state *st, int code, const char *msg)
{
	fprintf(stderr, "gridsubmit: %s\n", msg);
	run_state(st, JOB_FAILED, msg);
	fprintf(stderr, "gridsubmit: job %s failed; its directory: %s\n", st->id, st->dir);
	return code;
}

/*
 * The end record of events.jsonl (DESIGN section 6): status, makespan, failed ranks,
 * requeued units. Returns 1 when there is one; a torn last line is no end record.
 */
static int
run_read_end(const struct job_state *st, char *status, size_t statuslen)
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
		((struct job_state *)st)->makespan =
		    json_number_value(json_object_get(o, "makespan"));
		((struct job_state *)st)->failed_ranks =
		    (int)json_integer_value(json_object_get(o, "failed"));
		((struct job_state *)st)->requeued =
		    json_integer_value(json_object_get(o, "requeued"));
		json_decref(o);
	}
	free(last);
	return found;
}

/* Copy the job's output file to our stream: run is a foreground command. */
static void
run_show_output(const struct job_state *st, const char *name, FILE *to)
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
run_print_where(const struct job_state *st, const struct gs_job *job)
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
run_load(const struct run_args *a, struct gs_sites *sites, struct gs_job *job)
{
	struct gs_error err;

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
	if (a->scheme != NULL)
		job_runtime_set(job, "scheme", a->scheme);
	if (a->ranks > 0)
		job->ranks = job->min_ranks = a->ranks;
	return 0;
}

/* How the job ended, from rank 0, the end event and mpiexec: the state and exit code. */
static int
run_verdict(struct job_state *st, const struct launch_result *lr)
{
	char status[32] = "", reason[256];
	int have_end = run_read_end(st, status, sizeof status);

	st->exit_code = lr->mpiexec_status;
	if (lr->cancelled) {
		run_state(st, JOB_CANCELLED, "cancelled by a signal");
		return EXIT_CANCELLED;
	}
	if (lr->master_exit == 0 && have_end && strcmp(status, "ok") == 0) {
		run_state(st, JOB_DONE, NULL);
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
	run_state(st, JOB_FAILED, reason);
	return EXIT_FAILED;
}

static int
cmd_run_exec(int argc, char **argv)
{
	struct run_args a;
	struct gs_sites sites;
	struct gs_job job;
	struct gs_ranking ranking;
	struct gs_placement place;
	struct gs_error err;
	struct job_state st;
	struct launch_result lr;
	char why[512], **mpiargv;
	const char *scheme;
	pid_t pid;
	int code;

	run_parse(argc, argv, &a);
	if (run_load(&a, &sites, &job) != 0)
		return EXIT_INPUT;

	memset(&st, 0, sizeof st);
	jobstore_create(&st);
	st.name = xstrdup(job.name);
	st.job_file = realpath(job.path, NULL);
	st.ranks = job.ranks;
	st.submitted = run_now();
	st.supervisor_pid = (long)getpid();
	st.exit_code = -1;
	scheme = job_runtime_get(&job, "scheme");
	st.scheme = xstrdup(scheme != NULL ? scheme : "gss");
	run_state(&st, JOB_BROKERING, NULL);
	run_copy_file(&st, job.path, "job.yaml");
	if (a.sites != NULL)
		run_copy_file(&st, a.sites, "sites.yaml");

	if (a.metrics)
		metrics_fetch(&sites, NULL);
	if (broker_rank(&sites, &job, &ranking, &err) != 0) {
		code = run_fail(&st, EXIT_INPUT, err.msg);
		goto out;
	}
	if (broker_place(&sites, &ranking, job.ranks, &place, &err) != 0) {
		code = run_fail(&st, EXIT_NOPLACE, err.msg);
		broker_ranking_free(&ranking);
		goto out;
	}
	st.ranks = place.nranks;
	run_write_with(&st, "hostfile", &sites, &place, broker_write_hostfile);
	run_write_with(&st, "rankmap", &sites, &place, broker_write_rankmap);

	if ((mpiargv = launch_argv(&sites, &job, &place, &st, why, sizeof why)) == NULL) {
		code = run_fail(&st, EXIT_LAUNCH, why);
		goto out_place;
	}
	run_state(&st, JOB_LAUNCHING, NULL);
	printf("gridsubmit: job %s (%s): %d ranks, scheme %s\n", st.id, st.name, st.ranks,
	    st.scheme);
	fflush(stdout);
	launch_catch_signals();
	pid = launch_start(mpiargv, &st);
	st.mpiexec_pid = (long)pid;
	run_state(&st, JOB_RUNNING, NULL);
	if (a.top) {
		char *events;
		struct tui_opts topts = { 0 };

		xasprintf(&events, "%s/events.jsonl", st.dir);
		tui_follow(events, &topts);
		free(events);
	}
	launch_wait(pid, &st, &lr);
	launch_argv_free(mpiargv);

	code = run_verdict(&st, &lr);
	run_show_output(&st, "stdout", stdout);
	if (code != EXIT_OK)
		run_show_output(&st, "stderr", stderr);
	printf("gridsubmit: job %s %s in %.2f s (makespan %.3f s, %d failed ranks, %lld units "
	    "requeued)%s%s\n", st.id, job_phase_name(st.phase), st.ended - st.submitted,
	    st.makespan, st.failed_ranks, (long long)st.requeued, st.reason != NULL ? ": " : "",
	    st.reason != NULL ? st.reason : "");
	if (lr.killed_stragglers)
		printf("gridsubmit: ranks still running %s after rank 0 ended were killed\n",
		    "10 s");
	run_print_where(&st, &job);
out_place:
	broker_placement_free(&place);
	broker_ranking_free(&ranking);
out:
	job_state_free(&st);
	job_free(&job);
	sites_free(&sites);
	return code;
}

const struct cmd_entry cmd_run_entry = {
	"run", "JOB.yaml [--sites F] [--scheme S] [--ranks N] [--top] [--no-metrics]",
	"submit a job and follow it in the foreground",
	"  -s, --sites F         site file (default: the embedded sites/localhost.yaml)\n"
	"      --scheme S        load-balancing scheme, overriding the job file's runtime.scheme\n"
	"  -n, --ranks N         MPI processes, the master included, overriding the job file\n"
	"      --top             show the live console while the job runs\n"
	"      --no-metrics      rank with the site file's values only (no live metrics)\n",
	cmd_run_exec
};
