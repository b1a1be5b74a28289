/*
 * opt-job.h — the options that more than one command takes for a job (opt-job.c): the
 * whole set of run and submit, and the checked values of --scheme (run, submit, simulate,
 * schedule) and --migration (run, submit). A usage error ends the program (cmd.h).
 */
#ifndef GS_OPT_JOB_H
#define GS_OPT_JOB_H

#include "submit/cmd.h"
#include "submit/jobrun.h"

/*
 * Parse the options of run and submit into a (top is NULL for submit: no --top), as the
 * command's entry lists them: --sites, --scheme, --migration, --ranks, --no-metrics,
 * --restarts (a->restarts, else -1), --now, --time, --oversubscribe, --name and
 * --stage-in (opt-nofile.h), and run's --top and -q; then the one job file; then, after
 * "--", the words to append to the job file's args (a->more_args), or without a job file
 * the program and its args.
 */
void opt_job_parse(int argc, char **argv, const struct cmd_entry *cmd, struct jobrun_args *a,
    int *top);

/*
 * The scheme a --scheme option names (any case), canonical; otherwise a usage error of
 * cmd: "unknown scheme 'gs' (did you mean 'gss'?)", or the list of schemes. The one check
 * of --scheme for every command that takes it.
 */
const char *opt_scheme(const struct cmd_entry *cmd, const char *arg);

/*
 * The task-migration policy a --migration option names (none, load-diff, load-abs; any
 * case), canonical; otherwise a usage error of cmd: "unknown policy 'load-dif' (did you
 * mean 'load-diff'?)". rotate, the runtime's policy for the tests, is refused here as in
 * job files.
 */
const char *opt_migration(const struct cmd_entry *cmd, const char *arg);

/*
 * A --time option's value (run, submit, resume), returned as it is when it is a time
 * limit in one of Slurm's formats (broker/site.h, slurm_time_parse); otherwise a usage
 * error of cmd naming the option and the formats.
 */
const char *opt_time(const struct cmd_entry *cmd, const char *arg);

#endif
