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
 * Exit status: 0 when the job is stopped (or had already ended: said so), 1 when a
 * process could not be stopped, 2 no such job, 3 corrupt state.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "jobctl.h"
#include "jobstore.h"
#include "log.h"

#define CANCEL_SUPERVISOR_WAIT	10.0	/* seconds for the supervisor to stop the job */
#define CANCEL_GRACE		5.0	/* seconds between SIGTERM and SIGKILL */
#define CANCEL_LIMIT		10.0	/* seconds before giving up on a process */
#define CANCEL_POLL_NS		100000000L

extern const struct cmd_entry cmd_cancel_entry;

static double
cancel_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Wait up to secs for the supervisor to end; 1 when it did. */
static int
cancel_wait_supervisor(const struct job_state *st, double secs)
{
	struct timespec ts = { 0, CANCEL_POLL_NS };
	double until = cancel_now() + secs;

	while (jobctl_supervisor_alive(st)) {
		if (cancel_now() > until)
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

static int
cmd_cancel_exec(int argc, char **argv)
{
	struct job_state st;
	struct jobctl_proc *left;
	enum job_phase before;
	size_t nleft, seen, i;
	char why[1024];
	int code, was_final, killed = 0, had_supervisor = 0, rc;

	while (cmd_getopt(argc, argv, "", NULL, &cmd_cancel_entry) != -1)
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
		    seen > 0 ? "" : "; nothing to cancel\n");
	else if (st.phase == JOB_CANCELLED)
		printf("job %s cancelled%s", st.id, seen > 0 ? "" : "\n");
	else
		printf("job %s ended (%s) before it could be cancelled%s", st.id,
		    job_phase_name(st.phase), seen > 0 ? "" : "\n");
	if (seen > 0)
		printf("; %zu processes %s left behind were stopped\n", seen - nleft,
		    was_final || !had_supervisor ? "it had" : "the supervisor had");
	if (nleft > 0) {
		log_warnx("job %s: %zu processes are still running; check them with ps and kill "
		    "them by hand", st.id, nleft);
		code = EXIT_FAILED;
	} else if (rc == -1)
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
	"checked (up to about 10 s), also when the supervisor had died.\n"
	"exit status: 0 the job is stopped or had already ended, 1 a process could not be\n"
	"stopped, 2 no such job, 3 the job's state.json is unreadable or corrupt\n",
	cmd_cancel_exec
};
