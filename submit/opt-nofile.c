/*
 * opt-nofile.c — the options of run and submit for a job without a job file, kept apart
 * from opt-job.c's: --name, --stage-in, and which operands make a job (opt-nofile.h).
 * They are only collected here; jobrun-nofile.c checks what they name.
 */
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

void
opt_nofile_operands(const struct cmd_entry *cmd, int argc, char **argv,
    struct jobrun_args *a)
{
	a->cmd = cmd->name;
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
