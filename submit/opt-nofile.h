/*
 * opt-nofile.h — the options of run and submit for a job without a job file
 * (opt-nofile.c): --name and --stage-in, and the operands, one job file or none with
 * "-- PROGRAM [ARGS...]". Checked when the job is loaded (jobrun-nofile.c).
 */
#ifndef GS_OPT_NOFILE_H
#define GS_OPT_NOFILE_H

#include "submit/cmd.h"
#include "submit/jobrun.h"

/* getopt's values of --name and --stage-in in the commands' option tables */
#define OPT_NOFILE_NAME		'N'
#define OPT_NOFILE_STAGE_IN	'I'

/* --name (c OPT_NOFILE_NAME) or one more --stage-in (OPT_NOFILE_STAGE_IN) into a. */
void opt_nofile_option(int c, const char *arg, struct jobrun_args *a);

/*
 * The operands left after the options (argv[optind..argc-1], "--" and what follows it
 * already in a->more_args): the one job file; or none, when "--" names the program
 * (a->job NULL). Otherwise a usage error of cmd: "missing JOB.yaml or -- PROGRAM", "one
 * job file at a time", "missing PROGRAM after --", or, for a program where the job file
 * goes (srun's habit), "/bin/echo is a program, not a job file: put -- before it".
 */
void opt_nofile_operands(const struct cmd_entry *cmd, int argc, char **argv,
    struct jobrun_args *a);

#endif
