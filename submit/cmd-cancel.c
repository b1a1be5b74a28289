/*
 * cmd-cancel.c — gridsubmit cancel: stop a job, and make sure nothing of it keeps running.
 *
 * A job with a live supervisor gets it SIGTERM: the supervisor stops mpiexec's process
 * group (SIGTERM, then SIGKILL) and records "cancelled". A supervisor that does not end
 * within CANCEL_SUPERVISOR_WAIT seconds is killed. Then, supervisor or not, every process
 * of the job still on this host (jobctl_processes, among the user's own only: mpiexec's
 * group while its leader is the recorded mpiexec, the gridsubmit-rank wrappers of the job
 * directory, their hydra proxies, the ranks' programs by the job's events file or tag;
 * doc/security.md) gets SIGTERM,
 * and SIGKILL after a grace period; whatever survives is named. When the supervisor could
 * not record the end, cancel records "cancelled" itself.
 * A multi-site job's remote nodes are then checked over ssh (jobctl-remote.c), in parallel
 * and within CANCEL_REMOTE_LIMIT seconds: the job's processes there are stopped the same
 * way, and a node that cannot be reached is named. That happens for every job cancelled
 * while it ran, and for an ended one whose supervisor died (it could not clean up) or
 * whose last check left a node unchecked or unclean; the result is in DIR/remote-check.
 * Several ids are cancelled one after the other; --json prints one document of what was
 * done to each (gridsubmit-json(5)).
 * Exit status: 0 when the job is stopped (or had already ended: said so) on every host, 1
 * when a process could not be stopped or a remote node could not be checked, 2 no such
 * job, 3 corrupt state; over several jobs, the first of 2, 3, 1 that any job has, else 0.
 */
#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonout.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "launch/jobctl-remote.h"
#include "launch/jobctl.h"
#include "launch/slurm-site.h"
#include "launch/stage.h"
#include "store/cancel-ask.h"
#include "store/jobstore.h"
#include "submit/cmd.h"
#include "submit/json-fail.h"

#define CANCEL_SUPERVISOR_WAIT	10.0	/* seconds for the supervisor to stop the job */
#define CANCEL_GRACE		5.0	/* seconds between SIGTERM and SIGKILL */
#define CANCEL_LIMIT		10.0	/* seconds before giving up on a process */
#define CANCEL_REMOTE_GRACE	3.0	/* on a node, seconds between SIGTERM and SIGKILL */
#define CANCEL_REMOTE_LIMIT	30.0	/* seconds for every node to answer (ssh connect: 10) */

extern const struct cmd_entry cmd_cancel_entry;

/* --from-console: F9 of the console runs this command (submit/top-job.c) */
static int cancel_from_console;

/*
 * Who cancels, for the job's reason (the supervisor reads it: store/cancel-ask.h):
 * "cancelled by gridsubmit cancel (pid 42, user ana)", or from the console.
 */
static void
cancel_who(char *who, size_t len)
{
	struct passwd *pw = getpwuid(getuid());
	char user[64];

	if (pw != NULL)
		snprintf(user, sizeof user, "%s", pw->pw_name);
	else
		snprintf(user, sizeof user, "%ld", (long)getuid());
	if (cancel_from_console)
		snprintf(who, len, "cancelled from the console (F9; pid %ld, user %s)",
		    (long)getpid(), user);
	else
		snprintf(who, len, "cancelled by gridsubmit cancel (pid %ld, user %s)",
		    (long)getpid(), user);
}

/*
 * SIGTERM to the supervisor, which cancels the job and records it; SIGKILL when it takes
 * too long. Returns 1 when the supervisor had to be killed.
 */
static int
cancel_supervisor(const struct job_state *st)
{
	pid_t pid = (pid_t)st->supervisor_pid;
	char who[CANCEL_ASK_MAX], why[1024];

	/* before the signal: the supervisor reads who sent it (store/cancel-ask.h) */
	cancel_who(who, sizeof who);
	if (cancel_ask_write(st, who, why, sizeof why) == -1)
		log_warnx("job %s: %s; it will be recorded as terminated by SIGTERM", st->id, why);
	if (kill(pid, SIGTERM) == -1 && errno != ESRCH)
		log_warn("job %s: cannot signal its supervisor (pid %ld)", st->id, (long)pid);
	if (jobctl_supervisor_wait(st, CANCEL_SUPERVISOR_WAIT)) {
		cancel_ask_forget(st);
		return 0;
	}
	log_warnx("job %s: the supervisor (pid %ld) did not stop the job within %.0f s; "
	    "killing it", st->id, (long)pid, CANCEL_SUPERVISOR_WAIT);
	kill(pid, SIGKILL);
	jobctl_supervisor_wait(st, 2.0);
	cancel_ask_forget(st);
	return 1;
}

/*
 * Whether the remote nodes must be checked: the job ran until now (its supervisor, if
 * any, cleaned up without verifying), its supervisor died (nobody cleaned up), or the
 * last check did not find every node clean.
 */
static int
cancel_remote_needed(const struct job_state *st, int was_final)
{
	struct jobctl_node *last;
	size_t n, i;
	double when;
	int need = 0;

	if (!was_final || (st->reason != NULL && strcmp(st->reason, JOBCTL_SUPERVISOR_DIED) == 0))
		return 1;
	if (jobctl_remote_read(st, &last, &n, &when) == -1)
		return 0;
	for (i = 0; i < n; i++)
		if (last[i].state != JOBCTL_NODE_CLEAN)
			need = 1;
	free(last);
	return need;
}

/* One line for the nodes on stdout, a warning for each that is not clean. */
static void
cancel_remote_report(const struct job_state *st, const struct jobctl_node *nodes, size_t n)
{
	size_t i;

	printf("job %s: remote nodes:", st->id);
	for (i = 0; i < n; i++) {
		printf("%s %s %s", i > 0 ? "," : "", nodes[i].host,
		    jobctl_node_state_name(nodes[i].state));
		if (nodes[i].stopped > 0)
			printf(" (%d processes stopped)", nodes[i].stopped);
	}
	printf("\n");
	for (i = 0; i < n; i++) {
		if (nodes[i].state == JOBCTL_NODE_UNREACHABLE)
			log_warnx("job %s: %s: unreachable (%s): its processes could not be "
			    "checked; run gridsubmit cancel %s again once it answers", st->id,
			    nodes[i].host, nodes[i].detail, st->id);
		else if (nodes[i].state == JOBCTL_NODE_LEFT)
			log_warnx("job %s: %s: %d processes could not be stopped: %s", st->id,
			    nodes[i].host, nodes[i].left, nodes[i].detail);
	}
}

/* What cancelling one job did (cancel_job), for the text or the JSON. */
struct cancel_result {
	enum job_phase before;	/* the phase cancel found */
	int was_final;		/* it had ended already */
	int had_supervisor;
	int killed;		/* the supervisor had to be killed */
	size_t seen;		/* processes of the job found here */
	size_t nleft;		/* of which could not be stopped, listed in left */
	struct jobctl_proc *left;
	struct jobctl_node *nodes;	/* the remote nodes, checked when rchecked */
	size_t nnodes;
	size_t rbad;		/* nodes not checked or not clean */
	int rchecked;
	int rstopped;
	int record_failed;	/* the end could not be recorded */
	size_t nheld;		/* Slurm allocations still held, released here: */
	unsigned char *held;	/* 1 for each of them, by index in st->allocs */
};

/* Release the Slurm allocations still held (after the end is recorded: st is current). */
static void
cancel_slurm_release(struct job_state *st)
{
	char *config;

	xasprintf(&config, "%s/ssh_config", st->dir);
	slurm_release(st, config, 0);
	free(config);
}

/* Stop the job st names, here and on its remote nodes, and record it cancelled. */
static void
cancel_job(struct job_state *st, struct cancel_result *r)
{
	char why[1024], who[CANCEL_ASK_MAX], *reason;
	size_t i;

	memset(r, 0, sizeof *r);
	r->before = st->phase;
	r->was_final = job_phase_final(st->phase);
	if (!r->was_final && jobctl_supervisor_alive(st)) {
		r->had_supervisor = 1;
		r->killed = cancel_supervisor(st);
	}
	r->nleft = jobctl_stop(st, CANCEL_GRACE, CANCEL_LIMIT, &r->left, &r->seen);
	/* a supervisor that died left its Slurm allocations: their nodes through srun */
	if ((r->nheld = slurm_held_refresh(st)) > 0) {
		r->held = xcalloc(st->nallocs, 1);
		for (i = 0; i < st->nallocs; i++)
			r->held[i] = st->allocs[i].released == JOB_ALLOC_HELD;
		slurm_routes(st);
	}
	if ((r->nnodes = jobctl_remote_nodes(st, &r->nodes)) > 0 &&
	    cancel_remote_needed(st, r->was_final)) {
		r->rbad = jobctl_remote_stop(st, r->nodes, r->nnodes, CANCEL_REMOTE_GRACE,
		    CANCEL_REMOTE_LIMIT);
		r->rchecked = 1;
		for (i = 0; i < r->nnodes; i++)
			r->rstopped += r->nodes[i].stopped;
		/* the nodes' own job directories, which a dead supervisor left (stage.h) */
		if (!r->had_supervisor || r->killed)
			stage_cleanup(st);
	}
	/* what the supervisor did not record itself (it records who cancelled) */
	cancel_who(who, sizeof who);
	xasprintf(&reason, "%s%s", who, r->killed ? "; the supervisor did not stop and was "
	    "killed" : r->had_supervisor ? "" : "; the supervisor was not running");
	if (!r->was_final && jobstore_record_end(st, JOB_CANCELLED, reason, why,
	    sizeof why) == -1) {
		log_warnx("job %s: %s", st->id, why);
		r->record_failed = 1;
	}
	free(reason);
	if (r->nheld > 0)
		cancel_slurm_release(st);
	for (i = 0; i < r->nleft; i++)
		log_warnx("job %s: process %s could not be stopped", st->id, r->left[i].what);
	if (r->nleft > 0)
		log_warnx("job %s: %zu processes are still running; check them with ps and kill "
		    "them by hand", st->id, r->nleft);
}

/* What was done, in one word of gridsubmit-json(5). */
static const char *
cancel_action(const struct job_state *st, const struct cancel_result *r)
{
	if (r->was_final)
		return "already_ended";
	return st->phase == JOB_CANCELLED ? "cancelled" : "ended_first";
}

static void
cancel_print_text(const struct job_state *st, const struct cancel_result *r)
{
	size_t i;

	if (r->was_final)
		printf("job %s had already ended (%s)%s", st->id, job_phase_name(r->before),
		    r->seen > 0 ? "" : r->rstopped > 0 || r->rbad > 0 ? "\n" :
		    "; nothing to cancel\n");
	else if (st->phase == JOB_CANCELLED)
		printf("job %s cancelled%s", st->id, r->seen > 0 ? "" : "\n");
	else
		printf("job %s ended (%s) before it could be cancelled%s", st->id,
		    job_phase_name(st->phase), r->seen > 0 ? "" : "\n");
	if (r->seen > 0)
		printf("; %zu processes %s left behind were stopped\n", r->seen - r->nleft,
		    r->was_final || !r->had_supervisor ? "it had" : "the supervisor had");
	if (r->rchecked)
		cancel_remote_report(st, r->nodes, r->nnodes);
	for (i = 0; i < st->nallocs && r->nheld > 0; i++)
		if (r->held[i] && st->allocs[i].released == JOB_ALLOC_RELEASED)
			printf("job %s: Slurm job %s on site %s released\n", st->id,
			    st->allocs[i].id, st->allocs[i].site);
	fflush(stdout);
}

static json_t *
cancel_json(const struct job_state *st, const struct cancel_result *r, int code)
{
	json_t *left = json_array(), *nodes, *released = json_array();
	size_t i;

	for (i = 0; i < r->nleft; i++)
		json_array_append_new(left, json_string(r->left[i].what));
	nodes = json_array();
	for (i = 0; r->rchecked && i < r->nnodes; i++)
		json_array_append_new(nodes, json_pack("{s:s, s:s, s:i, s:i, s:s}",
		    "host", r->nodes[i].host, "state", jobctl_node_state_name(r->nodes[i].state),
		    "stopped", r->nodes[i].stopped, "left", r->nodes[i].left,
		    "detail", r->nodes[i].detail));
	for (i = 0; i < st->nallocs && r->nheld > 0; i++)
		if (r->held[i] && st->allocs[i].released == JOB_ALLOC_RELEASED)
			json_array_append_new(released, json_string(st->allocs[i].id));
	return json_pack("{s:o, s:s, s:s, s:o, s:o, s:b, s:I, s:o, s:o, s:o, s:i}",
	    "id", jsonout_id(st->id), "action", cancel_action(st, r),
	    "state", job_phase_name(st->phase), "reason", jsonout_str(st->reason),
	    "ended", jobstore_json_time(st->ended), "supervisor_killed", r->killed,
	    "processes_stopped", (json_int_t)(r->seen - r->nleft), "processes_left", left,
	    "remote_nodes", nodes, "slurm_released", released, "exit_code", code);
}

/*
 * Cancel the job arg names; its result goes to jobs (--json) or stdout. Returns its exit
 * status: 0, 1 (something is left or unchecked), 2 no such job, 3 corrupt state.
 */
static int
cancel_one(const char *arg, json_t *jobs)
{
	struct job_state st;
	struct cancel_result r;
	int code;

	/* no refresh: a job whose supervisor is dead is cancelled here, not "failed" */
	if ((code = cmd_open_job(arg, &st, 0)) != EXIT_OK) {
		if (jobs != NULL)
			json_array_append_new(jobs, json_pack("{s:o, s:s, s:o, s:i}", "id",
			    jsonout_id(arg), "arg", arg, "error",
			    jsonout_error(code, cmd_open_job_error(arg, code)), "exit_code", code));
		return code;
	}
	cancel_job(&st, &r);
	code = r.nleft > 0 || r.rbad > 0 || r.record_failed ? EXIT_FAILED : EXIT_OK;
	if (jobs != NULL)
		json_array_append_new(jobs, cancel_json(&st, &r, code));
	else
		cancel_print_text(&st, &r);
	free(r.left);
	free(r.nodes);
	free(r.held);
	job_state_free(&st);
	return code;
}

static const struct option cancel_longopts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "from-console", no_argument, NULL, 'c' },
	{ NULL, 0, NULL, 0 }
};

/*
 * Every job named, in order. Exit status: 2 when an id names no job, else 3 when a
 * state.json is unreadable, else 1 when anything of a job is left or unchecked, else 0.
 */
static int
cmd_cancel_exec(int argc, char **argv)
{
	json_t *jobs = NULL;
	int c, i, rc, code = EXIT_OK;

	while ((c = cmd_getopt(argc, argv, &cmd_cancel_entry)) != -1)
		if (c == 'j')
			jobs = json_array();
		else if (c == 'c')
			cancel_from_console = 1;
	if (optind >= argc)
		cmd_usage_error(&cmd_cancel_entry, "missing job id");
	for (i = optind; i < argc; i++) {
		rc = cancel_one(argv[i], jobs);
		if (rc == EXIT_USAGE || (rc == EXIT_INPUT && code != EXIT_USAGE) ||
		    (rc == EXIT_FAILED && code == EXIT_OK))
			code = rc;
	}
	if (jobs != NULL && jsonout_print(json_fail_doc(json_pack("{s:o, s:i}", "jobs", jobs,
	    "exit_code", code), code)) != 0 && code == EXIT_OK)
		code = EXIT_FAILED;
	return code;
}

const struct cmd_entry cmd_cancel_entry = {
	"cancel", "ID... [--json] [--from-console]",
	"stop jobs: every process of them, verified",
	"  ID...                 the jobs, cancelled one after the other\n"
	"      --json            one JSON document (gridsubmit-json(5)): per job what was\n"
	"                        done, what was stopped and what is left\n"
	"      --from-console    the reason says the console cancelled (what its F9 runs)\n"
	"the supervisor stops mpiexec's process group (SIGTERM, then SIGKILL) and records\n"
	"'cancelled' with who cancelled (this command's pid and user); then every process\n"
	"of the job still on this host is stopped and checked (up to about 10 s), also\n"
	"when the supervisor had died. A multi-site job's\n"
	"remote nodes are checked over ssh the same way, in parallel (up to about 30 s),\n"
	"also for an ended job whose supervisor died; unreachable nodes are named.\n"
	"exit status: 0 the jobs are stopped or had already ended, 1 a process could not be\n"
	"stopped or a remote node could not be checked, 2 no such job, 3 a job's\n"
	"state.json is unreadable or corrupt; with several jobs, 2 if an id names no job\n"
	"(the others are still cancelled), else 3, else 1, else 0\n",
	cmd_cancel_exec, NULL, cancel_longopts, NULL, CMD_OPERAND_JOB
};
