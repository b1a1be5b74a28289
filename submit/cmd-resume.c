/*
 * cmd-resume.c — gridsubmit resume: continue a job that failed, was cancelled, was stopped
 * at its time limit, or whose supervisor died, from its journal, in its own job directory
 * (doc/restarts.md). The time limit applies afresh (--time overrides it).
 *
 * The job is loaded from its directory's job.yaml and sites.yaml, which run as they are
 * (absolute paths, the stage_in copies beside them, and --scheme, --ranks and --restarts
 * of the submit written in): the original files are not read again, and may have
 * changed or gone. It is placed afresh (every node of the site file, live metrics unless
 * the job had --no-metrics), launched
 * and supervised in the foreground like run, with relaunches up to its restarts (or
 * --restarts), and reported like run. The resume is itself a restart: state.json's
 * restart_log and a restart event record it, and this process becomes the job's
 * supervisor. The master replays the journal and computes only what is missing.
 *
 * Refused (exit 7) for a job that is done and for a job whose supervisor still runs or
 * which still has processes here; a job whose supervisor died is recorded as failed
 * first. Exit status otherwise as run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker/broker.h"
#include "broker/errlist.h"
#include "common/log.h"
#include "common/pstat.h"
#include "common/xmalloc.h"
#include "common/text.h"
#include "launch/jobctl.h"
#include "submit/cmd.h"
#include "submit/jobrun.h"
#include "submit/opt-job.h"
#include "submit/userconf.h"

#define RESUME_REASON	"resumed by gridsubmit resume"

extern const struct cmd_entry cmd_resume_entry;

/* Why st cannot be resumed (a refusal for the user), or NULL when it can. */
static const char *
resume_refusal(const struct job_state *st, char *buf, size_t len)
{
	struct jobctl_proc *p = NULL;
	size_t n;

	if (st->phase == JOB_DONE) {
		snprintf(buf, len, "job %s is done: nothing to resume (its results are in %s)",
		    st->id, st->dir);
		return buf;
	}
	if (!job_phase_final(st->phase) && jobctl_supervisor_alive(st)) {
		snprintf(buf, len, "job %s is still %s under its supervisor (pid %ld): wait for "
		    "it, or cancel it first", st->id, job_phase_name(st->phase),
		    st->supervisor_pid);
		return buf;
	}
	/* a master still running would write the journal with us */
	if ((n = jobctl_processes(st, &p)) > 0) {
		snprintf(buf, len, "job %s still has %zu process%s here (%s): 'gridsubmit cancel "
		    "%s' stops them", st->id, n, n == 1 ? "" : "es", p[0].what, st->id);
		free(p);
		return buf;
	}
	return NULL;
}

/*
 * Make this process the job's supervisor, under the job directory's lock: whoever took it
 * first (another resume) is seen as a live supervisor by the other. EXIT_OK, or the exit
 * code with the refusal or error printed.
 */
static int
resume_claim(struct job_state *st)
{
	struct job_state now;
	char why[1024];
	const char *no;
	int fd;

	if ((fd = jobstore_lock(st->dir, why, sizeof why)) == -1) {
		log_warnx("%s", why);
		return EXIT_FAILED;
	}
	if (jobstore_read_state(st->dir, &now, why, sizeof why) != JOBSTORE_OK) {
		close(fd);
		log_warnx("%s", why);
		return EXIT_INPUT;
	}
	job_state_free(st);
	*st = now;
	if ((no = resume_refusal(st, why, sizeof why)) != NULL) {
		close(fd);
		log_warnx("%s", no);
		return EXIT_REFUSED;
	}
	st->supervisor_pid = (long)getpid();
	st->supervisor_start = pstat_start_time(getpid());
	st->mpiexec_pid = 0;
	st->mpiexec_start = 0;
	st->exit_code = -1;
	st->ended = 0;
	if (jobstore_set_phase(st, JOB_BROKERING, NULL) != 0) {
		log_warn("%s/state.json", st->dir);
		close(fd);
		return EXIT_FAILED;
	}
	close(fd);
	return EXIT_OK;
}

/*
 * The sites and the job from the job directory's job.yaml and sites.yaml, by their own
 * paths: they were written to run as they are (jobrun-jobfile.c), with the options of the
 * submit in them, so that the original files may have changed or gone. A job directory
 * without sites.yaml (made before they were written always) used the embedded default
 * unless state.json names a site file. 0, or -1 with the error said.
 */
static int
resume_load(struct jobrun *jr)
{
	struct job_state *st = &jr->st;
	struct gs_errlist errs;
	char *path;
	int rc;

	xasprintf(&path, "%s/sites.yaml", st->dir);
	if (access(path, F_OK) == 0 || st->sites_file != NULL)
		rc = sites_load_file_errs(path, &jr->sites, &errs);
	else
		rc = sites_load_default_errs(&jr->sites, &errs);
	free(path);
	if (rc != 0) {
		errlist_print(&errs, stderr);
		return -1;
	}
	xasprintf(&path, "%s/job.yaml", st->dir);
	rc = job_load_file_errs(path, &jr->job, &errs);
	free(path);
	if (rc != 0) {
		errlist_print(&errs, stderr);
		sites_free(&jr->sites);
		return -1;
	}
	/* the loader checked the program and the stage_in files with the rest */
	jr->loaded = 1;
	return 0;
}

static const struct option resume_longopts[] = {
	{ "restarts", required_argument, NULL, 'R' },
	{ "top", no_argument, NULL, 't' },
	{ "time", required_argument, NULL, 'T' },
	{ NULL, 0, NULL, 0 }
};

static int
cmd_resume_exec(int argc, char **argv)
{
	char n[48];
	struct jobrun jr;
	const char *limit = NULL;
	int c, code, top = 0, restarts = -1;

	while ((c = cmd_getopt(argc, argv, &cmd_resume_entry)) != -1) {
		if (c == 'R')
			restarts = (int)cmd_parse_int(&cmd_resume_entry, "--restarts", optarg, 0,
			    1000);
		else if (c == 't')
			top = 1;
		else if (c == 'T')
			limit = opt_time(&cmd_resume_entry, optarg);
	}
	if (optind != argc - 1)
		cmd_usage_error(&cmd_resume_entry, optind >= argc ? "missing job id" :
		    "one job id at a time");
	/* its metrics_timeout applies to the placing: an invalid file stops us first */
	if (userconf() == NULL)
		return EXIT_INPUT;
	memset(&jr, 0, sizeof jr);
	jr.top_saved_err = -1;
	/* a job whose supervisor died is recorded failed first (jobctl_refresh) */
	if ((code = cmd_open_job(argv[optind], &jr.st, 1)) != EXIT_OK ||
	    (code = resume_claim(&jr.st)) != EXIT_OK) {
		jobrun_free(&jr);
		return code;
	}
	if (resume_load(&jr) != 0) {
		code = jobrun_fail(&jr, EXIT_INPUT, "resume: the job's files cannot be loaded", 1);
		jobrun_free(&jr);
		return code;
	}
	jr.speculate = 1;
	jr.metrics = !jr.st.no_metrics;
	jr.restarts_max = jr.st.restarts_max = restarts >= 0 ? restarts : jr.job.restarts;
	/* the limit afresh: the job file's (job.yaml holds a --time of the submit), or --time */
	if (limit != NULL) {
		free(jr.job.time_limit);
		jr.job.time_limit = xstrdup(limit);
	}
	jobrun_restart_record(&jr, RESUME_REASON, NULL, 0, 1);
	if ((code = jobrun_place(&jr)) == EXIT_OK) {
		fprintf(stderr, "gridsubmit: job %s (%s): resumed (restart %d), %s, scheme %s\n",
		    jr.st.id, jr.st.name != NULL ? jr.st.name : "-", jr.st.restarts,
		    text_plural(n, sizeof n, jr.place.nranks, "rank", NULL),
		    jr.st.scheme != NULL ? jr.st.scheme : "-");
		code = jobrun_follow(&jr, top);
	}
	jobrun_free(&jr);
	return code;
}

const struct cmd_entry cmd_resume_entry = {
	"resume", "ID [--restarts N] [--time T] [--top]",
	"continue a failed, cancelled, timed-out or orphaned job from its journal",
	"  ID                    the job: failed, cancelled, stopped at its time limit, or\n"
	"                        whose supervisor died\n"
	"      --restarts N      relaunches after a failure (0-1000), overriding the job\n"
	"                        file's restarts (default 3; see doc/restarts.md)\n"
	"      --time T          wall-time limit of this resume (Slurm's formats), overriding\n"
	"                        the job's time_limit, which otherwise applies afresh\n"
	"      --top             show the live console while the job runs\n"
	"the job is loaded from the copies in its directory, placed again over every node of\n"
	"its site file, and launched and followed like run; its master replays the journal\n"
	"and computes only what is missing. The resume counts as a restart (status shows it).\n"
	"exit status: as run (0 done, 1 failed, 3 input, 4 no placement, 5 launch, 6\n"
	"cancelled, 8 timeout, 128+N stopped by signal N: Ctrl-C 130); 2 no such job;\n"
	"7 refused: the job is done, its supervisor still runs, or processes of it still\n"
	"run here ('gridsubmit cancel ID' stops them)\n",
	cmd_resume_exec, NULL, resume_longopts, NULL, CMD_OPERAND_JOB
};
