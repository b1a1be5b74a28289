/*
 * exp-run.c — the runs of an experiment (doc/experiments.md, "Runs, store and resume").
 *
 * Every run is a real job: a child process loads the job with the point's overlay, ranks,
 * places and launches it exactly as `run` does (jobrun.h), or simulates it as `simulate`
 * does for a point of mode simulate, with the point's simulate parameters as its options
 * (exp-simopts.c), with its own job directory and id, and its output in
 * the experiment's logs/. The parent records each change of the run's state in the store
 * (one transaction each) and reads the metrics from the job directory when the child ends.
 * The child is the job's supervisor (detach.h): Ctrl-C reaches it with the terminal's
 * process group and cancels the job; when the parent dies (SIGKILL) the child gets SIGTERM
 * (PR_SET_PDEATHSIG) and cancels the job too, so a killed experiment leaves no job
 * behind. The next run of the command resumes: it settles runs left "running" (a job that
 * ended done is kept; otherwise the run is interrupted) and runs every run that is not
 * done.
 */
#include <sys/wait.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "experiment/exp-metrics.h"
#include "launch/jobctl.h"
#include "submit/detach.h"
#include "submit/exp-run.h"
#include "submit/jobrun.h"

#define ER_POLL_NS	100000000L	/* a job left by a killed experiment: checked this often */

/* The mean node_load1 of the placed nodes that answered their monitor; NaN for none. */
static double
er_load_before(const struct jobrun *jr)
{
	double sum = 0;
	int i, n = 0;

	if (!jr->placed)
		return NAN;
	for (i = 0; i < jr->place.nranks; i++) {
		size_t k = jr->place.ranks[i].node;

		if (k == BROKER_NODE_NONE || !jr->sites.nodes[k].have_metrics)
			continue;
		sum += jr->sites.nodes[k].load1;
		n++;
	}
	return n > 0 ? sum / n : NAN;
}

/* What a run's child needs (detach.h): the experiment and the run. */
struct er_job {
	const struct exp_runner *x;
	const struct exp_run *r;
};

/*
 * The child: one job, as `run` does it (or, for a point of mode simulate, as `simulate`
 * does it, seeded with the run's seed), its id and load told through fd ("ID LOAD").
 * Returns the job's exit code.
 */
static int
er_child(void *arg, int fd)
{
	const struct er_job *j = arg;
	const struct exp_runner *x = j->x;
	const struct exp_run *r = j->r;
	struct jobrun_args a;
	struct sim_opts so;
	struct gs_error err;
	struct jobrun jr;
	char line[96];
	int code;

	/* the experiment's lock is the experiment's: a job left behind must not hold it */
	if (x->lock_fd >= 0)
		close(x->lock_fd);
	memset(&a, 0, sizeof a);
	a.job = x->e->job;
	a.sites = x->sites;
	a.metrics = 1;
	a.speculate = 1;
	a.restarts = -1;
	a.overlay = exp_overlay(x->e, r->point, r->rep, r->seed);
	a.overlay_origin = x->e->path;
	if (exp_point_mode(x->e, r->point) == EXP_MODE_SIMULATE) {
		jobrun_sim_args(&a, &so);
		so.seed = r->seed;
		/* checked before the first run (cmd-experiment.c): the file changed since */
		if (exp_sim_opts(x->e, r->point, x->e->path, &so, &err) != 0) {
			fprintf(stderr, "%s\n", err.msg);
			return EXIT_INPUT;
		}
	}
	code = jobrun_prepare(&a, &jr);
	if (jr.st.id[0] != '\0') {
		snprintf(line, sizeof line, "%s %.17g\n", jr.st.id, er_load_before(&jr));
		if (write(fd, line, strlen(line)) < 0)
			return EXIT_LAUNCH;
	}
	close(fd);
	if (code == EXIT_OK) {
		code = jobrun_execute(&jr, 0);
		jobrun_report(&jr, code);
	}
	return code;
}

/* What the child said before its job started: "ID LOAD", or nothing. */
static void
er_read_id(const char *said, char *id, size_t idlen, double *load)
{
	size_t n = strcspn(said, " ");

	*load = said[n] == ' ' ? strtod(said + n + 1, NULL) : NAN;
	snprintf(id, idlen, "%.*s", (int)n, said);
}

/*
 * Wait for the child; a stop signal that reaches only us (kill PID, a batch system's
 * SIGTERM: not the terminal's process group) is passed on once, so that the job is
 * cancelled rather than waited out.
 */
static int
er_wait_child(pid_t pid)
{
	int status, told = 0;

	while (waitpid(pid, &status, 0) == -1) {
		if (errno != EINTR)
			return EXIT_LAUNCH;
		if (launch_cancel_requested() && !told) {
			kill(pid, SIGTERM);
			told = 1;
		}
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return EXIT_FAILED;
}

/* The end of a run in the store, with its metrics; the store's error is fatal. */
static void
er_record_end(struct exp_runner *x, const struct exp_run *r, enum exp_run_state state,
    int code, const char *reason, const char *job_id, double load)
{
	double *v = xcalloc(x->nnames + 1, sizeof *v);
	char why[1024];
	size_t i;

	for (i = 0; i < x->nnames; i++)
		v[i] = NAN;
	if (job_id[0] != '\0' && state != EXP_INTERRUPTED)
		exp_run_metrics(x->e, job_id, v);
	/*
	 * a run that did not complete has no makespan (an end record of a failure may give
	 * one), nor an efficiency over it
	 */
	if (state != EXP_DONE)
		v[EXP_M_MAKESPAN] = v[EXP_M_EFFICIENCY] = NAN;
	v[EXP_M_LOAD_BEFORE] = load;
	if (exp_store_end(x->store, r->id, state, clock_wall(), code, reason, x->names, v,
	    x->nnames, why, sizeof why) != 0)
		fatalx("%s", why);
	free(v);
}

/* Why a job failed, from its state, for the store and the failure line. */
static char *
er_job_reason(const char *job_id, int code)
{
	struct job_state st;
	char why[512], *s;

	if (job_id[0] != '\0' && jobstore_read_state(job_id, &st, why, sizeof why) ==
	    JOBSTORE_OK) {
		xasprintf(&s, "job %s %s (exit %d)%s%s", job_id, job_phase_name(st.phase), code,
		    st.reason != NULL ? ": " : "", st.reason != NULL ? st.reason : "");
		job_state_free(&st);
		return s;
	}
	xasprintf(&s, "the job did not start (exit %d)", code);
	return s;
}

int
exp_runner_one(struct exp_runner *x, const struct exp_run *r)
{
	struct er_job j = { x, r };
	struct detach d = { .append = 0, .session = 0 };
	char id[32], said[96], why[1024], *reason, *log;
	enum exp_run_state state;
	double load;
	int code;
	pid_t pid;

	if (exp_store_start(x->store, r->id, clock_wall(), why, sizeof why) != 0)
		fatalx("%s", why);
	xasprintf(&log, "%s/logs/run-%lld.log", x->dir, (long long)r->id);
	d.log = log;
	pid = detach_start(&d, er_child, &j, said, sizeof said);
	free(log);
	er_read_id(said, id, sizeof id, &load);
	if (id[0] != '\0' && exp_store_job(x->store, r->id, id, why, sizeof why) != 0)
		fatalx("%s", why);
	if (launch_cancel_requested())
		kill(pid, SIGTERM);
	code = er_wait_child(pid);
	if (code == EXIT_OK) {
		er_record_end(x, r, EXP_DONE, code, NULL, id, load);
		return code;
	}
	reason = er_job_reason(id, code);
	state = code == EXIT_CANCELLED || launch_cancel_requested() ? EXP_INTERRUPTED :
	    EXP_FAILED;
	er_record_end(x, r, state, code, reason, id, load);
	if (state == EXP_FAILED)
		x->failed_line(x, r, reason);
	free(reason);
	return code;
}

/*
 * A run left "running" by an experiment that was killed: its job (if it got one) is
 * waited for while its supervisor lives (it cancels the job when it loses its parent),
 * then kept when done, else the run is interrupted and runs again.
 */
void
exp_runner_settle(struct exp_runner *x, const struct exp_run *r)
{
	struct timespec ts = { 0, ER_POLL_NS };
	struct job_state st;
	char why[512];
	int phase = -1;

	while (r->job_id[0] != '\0' && !launch_cancel_requested()) {
		if (jobstore_read_state(r->job_id, &st, why, sizeof why) != JOBSTORE_OK)
			break;
		if (!job_phase_final(st.phase) && jobctl_refresh(&st, why, sizeof why) < 0) {
			job_state_free(&st);
			break;
		}
		phase = (int)st.phase;
		job_state_free(&st);
		if (job_phase_final((enum job_phase)phase))
			break;
		nanosleep(&ts, NULL);
	}
	if (phase == JOB_DONE)
		er_record_end(x, r, EXP_DONE, EXIT_OK, NULL, r->job_id, NAN);
	else
		er_record_end(x, r, EXP_INTERRUPTED, -1, "the experiment was stopped during "
		    "this run", "", NAN);
}
