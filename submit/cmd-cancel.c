/*
 * cmd-cancel.c — gridsubmit cancel: stop a job, and make sure nothing of it keeps running.
 *
 * A job with a live supervisor gets it SIGTERM: the supervisor stops mpiexec's process
 * group (SIGTERM, then SIGKILL) and records "cancelled". A supervisor that does not end
 * within CANCEL_SUPERVISOR_WAIT seconds is killed. Then, supervisor or not, every process
 * of the job still on this host (jobctl_processes: mpiexec's group, the gridsubmit-rank
 * wrappers of the job directory, their hydra proxies, the ranks' programs) gets SIGTERM,
 * and SIGKILL after a grace period; whatever survives is named. When the supervisor could
 * not record the end, cancel records "cancelled" itself.
 * A multi-site job's remote nodes are then checked over ssh (jobctl-remote.c), in parallel
 * and within CANCEL_REMOTE_LIMIT seconds: the job's processes there are stopped the same
 * way, and a node that cannot be reached is named. That happens for every job cancelled
 * while it ran, and for an ended one whose supervisor died (it could not clean up) or
 * whose last check left a node unchecked or unclean; the result is in DIR/remote-check.
 * Exit status: 0 when the job is stopped (or had already ended: said so) on every host, 1
 * when a process could not be stopped or a remote node could not be checked, 2 no such
 * job, 3 corrupt state.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "cmd.h"
#include "jobctl-remote.h"
#include "jobctl.h"
#include "jobstore.h"
#include "log.h"
#include "stage.h"

#define CANCEL_SUPERVISOR_WAIT	10.0	/* seconds for the supervisor to stop the job */
#define CANCEL_GRACE		5.0	/* seconds between SIGTERM and SIGKILL */
#define CANCEL_LIMIT		10.0	/* seconds before giving up on a process */
#define CANCEL_POLL_NS		100000000L
#define CANCEL_REMOTE_GRACE	3.0	/* on a node, seconds between SIGTERM and SIGKILL */
#define CANCEL_REMOTE_LIMIT	30.0	/* seconds for every node to answer (ssh connect: 10) */

extern const struct cmd_entry cmd_cancel_entry;

/* Wait up to secs for the supervisor to end; 1 when it did. */
static int
cancel_wait_supervisor(const struct job_state *st, double secs)
{
	struct timespec ts = { 0, CANCEL_POLL_NS };
	double until = clock_mono() + secs;

	while (jobctl_supervisor_alive(st)) {
		if (clock_mono() > until)
			return 0;
		nanosleep(&ts, NULL);
	}
	return 1;
}

/*
 * SIGTERM to the supervisor, which cancels the job and records it; SIGKILL when it takes
 * too long. Returns 1 when the supervisor had to be killed.
 */
static int
cancel_supervisor(const struct job_state *st)
{
	pid_t pid = (pid_t)st->supervisor_pid;

	if (kill(pid, SIGTERM) == -1 && errno != ESRCH)
		log_warn("job %s: cannot signal its supervisor (pid %ld)", st->id, (long)pid);
	if (cancel_wait_supervisor(st, CANCEL_SUPERVISOR_WAIT))
		return 0;
	log_warnx("job %s: the supervisor (pid %ld) did not stop the job within %.0f s; "
	    "killing it", st->id, (long)pid, CANCEL_SUPERVISOR_WAIT);
	kill(pid, SIGKILL);
	cancel_wait_supervisor(st, 2.0);
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

static int
cmd_cancel_exec(int argc, char **argv)
{
	struct job_state st;
	struct jobctl_proc *left;
	struct jobctl_node *nodes = NULL;
	enum job_phase before;
	size_t nleft, seen, i, nnodes, rbad = 0;
	char why[1024];
	int code, was_final, killed = 0, had_supervisor = 0, rc, rchecked = 0, rstopped = 0;

	while (cmd_getopt(argc, argv, &cmd_cancel_entry) != -1)
		;
	if (optind != argc - 1)
		cmd_usage_error(&cmd_cancel_entry, optind >= argc ? "missing job id" :
		    "one job id at a time");
	/* no refresh: a job whose supervisor is dead is cancelled here, not "failed" */
	if ((code = jobctl_open(argv[optind], &st, 0)) != EXIT_OK)
		return code;
	before = st.phase;
	was_final = job_phase_final(st.phase);
	if (!was_final && jobctl_supervisor_alive(&st)) {
		had_supervisor = 1;
		killed = cancel_supervisor(&st);
	}

	nleft = jobctl_stop(&st, CANCEL_GRACE, CANCEL_LIMIT, &left, &seen);
	if ((nnodes = jobctl_remote_nodes(&st, &nodes)) > 0 && cancel_remote_needed(&st,
	    was_final)) {
		rbad = jobctl_remote_stop(&st, nodes, nnodes, CANCEL_REMOTE_GRACE,
		    CANCEL_REMOTE_LIMIT);
		rchecked = 1;
		for (i = 0; i < nnodes; i++)
			rstopped += nodes[i].stopped;
		/* the nodes' own job directories, which a dead supervisor left (stage.h) */
		if (!had_supervisor || killed)
			stage_cleanup(&st);
	}

	rc = 0;
	if (!was_final) {
		rc = jobstore_record_end(&st, JOB_CANCELLED, killed ?
		    "cancelled; the supervisor did not stop and was killed" : had_supervisor ?
		    "cancelled" : "cancelled; the supervisor was not running", why, sizeof why);
		if (rc == -1)
			log_warnx("job %s: %s", st.id, why);
	}
	for (i = 0; i < nleft; i++)
		log_warnx("job %s: process %s could not be stopped", st.id, left[i].what);
	free(left);

	if (was_final)
		printf("job %s had already ended (%s)%s", st.id, job_phase_name(before),
		    seen > 0 ? "" : rstopped > 0 || rbad > 0 ? "\n" : "; nothing to cancel\n");
	else if (st.phase == JOB_CANCELLED)
		printf("job %s cancelled%s", st.id, seen > 0 ? "" : "\n");
	else
		printf("job %s ended (%s) before it could be cancelled%s", st.id,
		    job_phase_name(st.phase), seen > 0 ? "" : "\n");
	if (seen > 0)
		printf("; %zu processes %s left behind were stopped\n", seen - nleft,
		    was_final || !had_supervisor ? "it had" : "the supervisor had");
	if (rchecked)
		cancel_remote_report(&st, nodes, nnodes);
	free(nodes);
	if (nleft > 0) {
		log_warnx("job %s: %zu processes are still running; check them with ps and kill "
		    "them by hand", st.id, nleft);
		code = EXIT_FAILED;
	} else if (rbad > 0 || rc == -1)
		code = EXIT_FAILED;
	else
		code = EXIT_OK;
	job_state_free(&st);
	return code;
}

const struct cmd_entry cmd_cancel_entry = {
	"cancel", "ID",
	"stop a job: every process of it, verified",
	"  ID                    the job\n"
	"the supervisor stops mpiexec's process group (SIGTERM, then SIGKILL) and records\n"
	"'cancelled'; then every process of the job still on this host is stopped and\n"
	"checked (up to about 10 s), also when the supervisor had died. A multi-site job's\n"
	"remote nodes are checked over ssh the same way, in parallel (up to about 30 s),\n"
	"also for an ended job whose supervisor died; unreachable nodes are named.\n"
	"exit status: 0 the job is stopped or had already ended, 1 a process could not be\n"
	"stopped or a remote node could not be checked, 2 no such job, 3 the job's\n"
	"state.json is unreadable or corrupt\n",
	cmd_cancel_exec, NULL, NULL, NULL, CMD_OPERAND_JOB
};
