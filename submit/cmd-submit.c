/*
 * cmd-submit.c — gridsubmit submit: submit a job detached and print its id.
 *
 * Does what run does up to the launch in the foreground (load, rank, place, write the job
 * directory), so that input errors are reported here with their exit code. Then it forks
 * a supervisor in a session of its own (detach.h: stdin /dev/null, output to
 * DIR/supervisor.log) that launches mpiexec, supervises it and records the end. The id is
 * printed alone on stdout, and only once state.json naming the supervisor is on disk:
 * `id=$(gridsubmit submit job.yaml)` then `gridsubmit wait "$id"`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/jsonout.h"
#include "common/log.h"
#include "common/pstat.h"
#include "common/xmalloc.h"
#include "common/text.h"
#include "submit/cmd.h"
#include "submit/detach.h"
#include "submit/jobrun.h"
#include "submit/opt-job.h"
#include "submit/opt-nofile.h"

extern const struct cmd_entry cmd_submit_entry;

/* --json: getopt sets it (opt_job_parse takes run's options and leaves this one alone) */
static int submit_json;

/* run's options but --top: a submitted job is watched with gridsubmit top ID */
static const struct option submit_longopts[] = {
	{ "sites", required_argument, NULL, 's' },
	{ "scheme", required_argument, NULL, 'S' },
	{ "migration", required_argument, NULL, 'G' },
	{ "ranks", required_argument, NULL, 'n' },
	{ "name", required_argument, NULL, OPT_NOFILE_NAME },
	{ "stage-in", required_argument, NULL, OPT_NOFILE_STAGE_IN },
	{ "no-metrics", no_argument, NULL, 'M' },
	{ "restarts", required_argument, NULL, 'R' },
	{ "now", no_argument, NULL, 'W' },
	{ "time", required_argument, NULL, 'T' },
	{ "oversubscribe", no_argument, NULL, 'O' },
	{ "json", no_argument, &submit_json, 1 },
	{ NULL, 0, NULL, 0 }
};

/*
 * The supervisor (detach.h; its stdio: nothing from the terminal, everything to
 * DIR/supervisor.log): record itself in state.json (durably), tell the parent through
 * ok_fd, then launch and supervise the job. Returns its exit code.
 */
static int
cmd_submit_supervise(void *arg, int ok_fd)
{
	char n[48];
	struct jobrun *jr = arg;
	struct job_state *st = &jr->st;
	int code;

	st->supervisor_pid = (long)getpid();
	st->supervisor_start = pstat_start_time(getpid());
	if (jobstore_write_state(st) != 0) {
		log_warn("%s/state.json", st->dir);
		return EXIT_LAUNCH;
	}
	if (write(ok_fd, "k", 1) != 1)
		return EXIT_LAUNCH;
	close(ok_fd);
	printf("gridsubmit: job %s (%s): %s, scheme %s; supervisor pid %ld\n", st->id,
	    st->name, text_plural(n, sizeof n, st->ranks, "rank", NULL), st->scheme,
	    st->supervisor_pid);
	fflush(stdout);
	code = jobrun_execute(jr, 0);
	printf("gridsubmit: job %s %s (exit %d)%s%s\n", st->id, job_phase_name(st->phase), code,
	    st->reason != NULL ? ": " : "", st->reason != NULL ? st->reason : "");
	return code;
}

static int
cmd_submit_exec(int argc, char **argv)
{
	struct detach d = { .append = 1, .session = 1 };
	struct jobrun_args a;
	struct jobrun jr;
	char said[8], why[512], *log;
	int code;

	opt_job_parse(argc, argv, &cmd_submit_entry, &a, NULL);
	if ((code = jobrun_prepare(&a, &jr)) != EXIT_OK) {
		jobrun_free(&jr);
		return code;
	}
	xasprintf(&log, "%s/supervisor.log", jr.st.dir);
	d.log = log;
	detach_start(&d, cmd_submit_supervise, &jr, said, sizeof said);
	free(log);
	if (said[0] != 'k') {
		/* the supervisor died before it was recorded: the job will never run */
		log_warnx("job %s: the supervisor did not start; see %s/supervisor.log",
		    jr.st.id, jr.st.dir);
		if (jobstore_record_end(&jr.st, JOB_FAILED, "the supervisor did not start", why,
		    sizeof why) == -1)
			log_warnx("%s", why);
		jobrun_free(&jr);
		return EXIT_LAUNCH;
	}
	if (submit_json ? jsonout_print(json_pack("{s:o, s:s, s:s, s:i, s:o, s:o}", "id",
	    jsonout_id(jr.st.id), "dir", jr.st.dir, "state", job_phase_name(jr.st.phase),
	    "ranks", jr.st.ranks, "scheme", jsonout_str(jr.st.scheme), "name",
	    jsonout_str(jr.st.name))) != 0 : printf("%s\n", jr.st.id) < 0 ||
	    fflush(stdout) == EOF || ferror(stdout)) {
		log_warnx("job %s submitted, but its id could not be printed", jr.st.id);
		jobrun_free(&jr);
		return EXIT_FAILED;
	}
	jobrun_free(&jr);
	return EXIT_OK;
}

const struct cmd_entry cmd_submit_entry = {
	"submit", "{JOB.yaml [-- ARGS...] | -- PROGRAM [ARGS...]} [--sites F] [--scheme S] "
	"[--migration P] [-n N] [--name NAME] [--stage-in F]... [--restarts N] [--now] "
	"[--oversubscribe] [--time T] [--no-metrics] [--json]",
	"submit a job detached and print its id",
	"  -s, --sites F         site file, or NAME of a user or installed one (default:\n"
	"                        the configuration file's sites, else the embedded\n"
	"                        sites/localhost.yaml)\n"
	"      --scheme S        load-balancing scheme, overriding the job file's runtime.scheme\n"
	"                        (else the configuration file's scheme, else gss)\n"
	"      --migration P     task-migration policy (none, load-diff, load-abs), overriding\n"
	"                        the job file's runtime.migration (doc/tasks.md)\n"
	"  -n, --ranks N         MPI processes, the master included, overriding the job file\n"
	"                        (without one: 1, as srun; a libgrt program's master then\n"
	"                        computes alone)\n"
	"      --name NAME       the job's name, overriding the job file's name (without one:\n"
	"                        the program's base name)\n"
	"      --stage-in F      copy file or directory F (from the current directory) into\n"
	"                        the job directory and to nodes that lack it, after the job\n"
	"                        file's stage_in; repeatable\n"
	"      --restarts N      relaunches after a failure (0-1000), overriding the job\n"
	"                        file's restarts (default 3; see doc/restarts.md)\n"
	"      --oversubscribe   run more ranks than the nodes' slots (cores, unless\n"
	"                        the site file sets slots), as oversubscribe: true does\n"
	"      --no-metrics      rank with the site file's values only (no live metrics)\n"
	"      --json            print one JSON document instead of the id: id, dir, state,\n"
	"                        ranks, scheme, name (gridsubmit-json(5))\n"
	"      --now             start at once, even on slots other jobs hold (no queue)\n"
	"      --time T          wall-time limit in Slurm's formats (MM, MM:SS, HH:MM:SS,\n"
	"                        D-HH, D-HH:MM, D-HH:MM:SS), overriding the job\n"
	"                        file's time_limit: at T of running the job is stopped\n"
	"                        everywhere and recorded timeout (exit 8; doc/restarts.md)\n"
	"prints the job id alone on stdout once the job is recorded; errors before that\n"
	"exit as run does (3 input, 4 no placement, 5 launch); the supervisor's own log is\n"
	"DIR/supervisor.log. Follow with status, wait, logs, top; stop with cancel; continue\n"
	"a job that failed or whose supervisor died with resume. The operands are run's: a\n"
	"job file, or -- PROGRAM [ARGS...] without one.\n",
	cmd_submit_exec, "s:n:", submit_longopts, NULL, CMD_OPERAND_YAML_PROGRAM
};
