/* cmd-run.c — submit a job and follow it in the foreground (being written). */
#include "cmd.h"

static int
cmd_run_exec(int argc, char **argv)
{
	cmd_getopt(argc, argv, "", NULL, &cmd_run_entry);
	return EXIT_FAILED;
}

const struct cmd_entry cmd_run_entry = {
	"run", "JOB.yaml [--sites F] [--scheme S] [--ranks N] [--top]",
	"submit a job and follow it in the foreground", "", cmd_run_exec
};
