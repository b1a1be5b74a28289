/*
 * cmd-run.c — gridsubmit run: submit a job and follow it in the foreground.
 *
 * Loads the sites (the embedded sites/localhost.yaml unless --sites) and the job (its file,
 * or without one the program after "--" and the options: jobrun-nofile.c), ranks the
 * nodes (live metrics where a monitor is set), places the ranks, writes the job directory
 * (job.yaml, hostfile, rankmap, state.json), launches mpiexec and supervises it; with --top
 * it shows the live console meanwhile. A job that fails because a node, a rank or the
 * master was lost is relaunched without the failed nodes, up to its restarts
 * (jobrun-restart.c). Exits 0 only when the job succeeded.
 *
 * stdout carries only the program's output (DIR/stdout), so `run job.yaml > out.txt` keeps
 * exactly that; every line of gridsubmit's own (the start, restarts, the end, where the
 * results are) goes to stderr, with a progress line meanwhile on a terminal (progress.h);
 * -q leaves only the errors.
 */
#include <stdio.h>

#include "common/text.h"
#include "submit/cmd.h"
#include "submit/jobrun.h"
#include "submit/opt-job.h"
#include "submit/opt-nofile.h"

/* submit's are the same but --top (cmd-submit.c); the values are opt_job_parse's */
static const struct option run_longopts[] = {
	{ "sites", required_argument, NULL, 's' },
	{ "scheme", required_argument, NULL, 'S' },
	{ "migration", required_argument, NULL, 'G' },
	{ "ranks", required_argument, NULL, 'n' },
	{ "name", required_argument, NULL, OPT_NOFILE_NAME },
	{ "stage-in", required_argument, NULL, OPT_NOFILE_STAGE_IN },
	{ "top", no_argument, NULL, 't' },
	{ "no-metrics", no_argument, NULL, 'M' },
	{ "restarts", required_argument, NULL, 'R' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "now", no_argument, NULL, 'W' },
	{ "time", required_argument, NULL, 'T' },
	{ "oversubscribe", no_argument, NULL, 'O' },
	{ NULL, 0, NULL, 0 }
};

static int
cmd_run_exec(int argc, char **argv)
{
	char n[48];
	struct jobrun_args a;
	struct jobrun jr;
	int top = 0, code;

	opt_job_parse(argc, argv, &cmd_run_entry, &a, &top);
	/* the supervisor is this process from the start: mpiexec may start with the preflight */
	a.speculate = 1;
	if ((code = jobrun_prepare(&a, &jr)) == EXIT_OK) {
		jr.quiet = a.quiet;
		if (!a.quiet)
			fprintf(stderr, "gridsubmit: job %s (%s): %s, scheme %s\n", jr.st.id,
			    jr.st.name, text_plural(n, sizeof n, jr.st.ranks, "rank", NULL),
			    jr.st.scheme);
		code = jobrun_follow(&jr, top);
	}
	jobrun_free(&jr);
	return code;
}

const struct cmd_entry cmd_run_entry = {
	"run", "{JOB.yaml [-- ARGS...] | -- PROGRAM [ARGS...]} [--sites F] [--scheme S] "
	"[--migration P] [-n N] [--name NAME] [--stage-in F]... [--restarts N] [--now] "
	"[--oversubscribe] [--time T] [--top] [--no-metrics] [-q]",
	"submit a job and follow it in the foreground",
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
	"      --now             start at once, even on slots other jobs hold (no queue)\n"
	"      --time T          wall-time limit in Slurm's formats (MM, MM:SS, HH:MM:SS,\n"
	"                        D-HH, D-HH:MM, D-HH:MM:SS), overriding the job\n"
	"                        file's time_limit: at T of running the job is stopped\n"
	"                        everywhere and recorded timeout (exit 8; doc/restarts.md)\n"
	"      --top             show the live console while the job runs\n"
	"      --no-metrics      rank with the site file's values only (no live metrics)\n"
	"  -q, --quiet           none of gridsubmit's own lines (the start, the end, where\n"
	"                        the results are, the progress) but errors\n"
	"stdout is the program's output only; gridsubmit's lines go to stderr, and on a\n"
	"terminal (without --top) a progress line: units done, rate, ETA, elapsed, restarts.\n"
	"JOB.yaml -- ARGS appends ARGS to the job file's args. Without a job file, the word\n"
	"after -- is the program (one without '/' looked up in PATH, as mpiexec does), the\n"
	"rest its args: gridsubmit run -n 2 -- ./prog --size 64\n"
	"Ctrl-C stops the job everywhere, records who stopped it and exits 130 (SIGTERM:\n"
	"143); a job cancelled by gridsubmit cancel or the console's F9 exits 6\n",
	cmd_run_exec, "s:n:q", run_longopts, NULL, CMD_OPERAND_YAML_PROGRAM
};
