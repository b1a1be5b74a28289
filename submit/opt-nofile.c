/*
 * opt-nofile.c — the options of run and submit for a job without a job file, kept apart
 * from opt-job.c's: --name, --stage-in, and which operands make a job (opt-nofile.h).
 * They are only collected here (but for a program given where the job file goes, told
 * apart at once); jobrun-nofile.c checks what they name.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "broker/job.h"
#include "common/xmalloc.h"
#include "submit/cmd.h"
#include "submit/jobrun.h"
#include "submit/opt-nofile.h"

void
opt_nofile_option(int c, const char *arg, struct jobrun_args *a)
{
	if (c == OPT_NOFILE_NAME) {
		a->name = arg;
		return;
	}
	a->stage_in = xreallocarray(a->stage_in, (size_t)a->nstage_in + 1, sizeof *a->stage_in);
	a->stage_in[a->nstage_in++] = arg;
}

/*
 * 1 when path is a program rather than a job file: it may be executed and starts as one
 * (job_program_starts_as_one). srun's and mpiexec's habit is the program as the operand.
 */
static int
opt_nofile_is_program(const char *path)
{
	return access(path, X_OK) == 0 && job_program_starts_as_one(path);
}

void
opt_nofile_operands(const struct cmd_entry *cmd, int argc, char **argv,
    struct jobrun_args *a)
{
	a->cmd = cmd->name;
	if (optind < argc && opt_nofile_is_program(argv[optind]))
		cmd_usage_error(cmd, "%s is a program, not a job file: put -- before it "
		    "(gridsubmit %s -- %s%s%s)", argv[optind], cmd->name,
		    strchr(argv[optind], '/') != NULL ? "" : "./", argv[optind],
		    optind < argc - 1 ? " ..." : "");
	if (optind == argc - 1) {
		a->job = argv[optind];
		return;
	}
	if (optind < argc)
		cmd_usage_error(cmd, "one job file at a time");
	if (a->more_args == NULL)
		cmd_usage_error(cmd, "missing JOB.yaml or -- PROGRAM");
	if (a->nmore_args == 0)
		cmd_usage_error(cmd, "missing PROGRAM after --");
	a->job = NULL;
}
