/*
 * cmd.h — the sub-command table of gridsubmit and the helpers every cmd-*.c uses.
 * Each cmd-NAME.c defines one `const struct cmd_entry cmd_NAME_entry` and main.c lists it.
 */
#ifndef GS_CMD_H
#define GS_CMD_H

#include <getopt.h>
#include <stdio.h>

/* Exit codes, documented in README.md and gridsubmit(1). */
enum {
	EXIT_OK = 0,
	EXIT_FAILED = 1,	/* the job or the action failed */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_INPUT = 3,		/* a site, job or event file is invalid */
	EXIT_NOPLACE = 4,	/* no placement: too few nodes pass the requirements */
	EXIT_LAUNCH = 5,	/* launch failed: mpiexec, ssh, preflight, staging */
	EXIT_CANCELLED = 6,	/* the job was cancelled */
	EXIT_REFUSED = 7,	/* the job's state does not allow it (resume of a done job) */
	EXIT_TIMEOUT = 8,	/* the job reached its time limit and was stopped */
};

/* What a command's operands are, for the shell completion (gridsubmit __complete). */
enum cmd_operand {
	CMD_OPERAND_NONE,	/* no operand */
	CMD_OPERAND_YAML,	/* a job or experiment file */
	CMD_OPERAND_YAML_PROGRAM,	/* a job file, or none and "-- PROGRAM [ARGS...]" */
	CMD_OPERAND_JOB,	/* a job id */
	CMD_OPERAND_SITES,	/* a site file, or NAME of a user or installed one */
};

struct cmd_entry {
	const char *name;
	const char *args;	/* synopsis after the name: "JOB.yaml [--sites F]" */
	const char *summary;	/* one line for gridsubmit --help */
	/*
	 * For gridsubmit help NAME: the options, one per line, indented, then notes, from
	 * the first line that is not indented (printed after -h, --help)
	 */
	const char *help;
	int (*exec)(int argc, char **argv);	/* argv[0] is the command name */
	/*
	 * The options as getopt_long takes them, "--help" aside: cmd_getopt parses with these
	 * and the completion lists them, so what is offered is what is accepted.
	 */
	const char *shortopts;			/* "s:n:", or NULL for none */
	const struct option *longopts;		/* NULL-terminated, or NULL for none */
	const char *const *actions;	/* the words the first operand may be, or NULL */
	enum cmd_operand operand;	/* what the (other) operands are */
};

extern const struct cmd_entry *const cmd_table[];
extern const struct cmd_entry cmd_run_entry;

/*
 * gridsubmit __complete WHAT (complete.c): the words of the shell completion, from the
 * tables themselves; argv[0] is WHAT. Returns the exit code.
 */
int complete_exec(int argc, char **argv);

/* Print the command's help (synopsis, summary, options, -h, notes) to f. */
void cmd_print_help(const struct cmd_entry *cmd, FILE *f);

/*
 * getopt_long over the command's shortopts and longopts, with "--help"/"-h" handled (help
 * to stdout, exit 0) and errors turned into a usage message that names the closest valid
 * option (exit 2). Returns like getopt_long: the option's value, or -1 at the end of
 * options.
 */
int cmd_getopt(int argc, char **argv, const struct cmd_entry *cmd);

/* 1 when word is one of the command's actions ("check" of sites), else 0. */
int cmd_is_action(const struct cmd_entry *cmd, const char *word);

/*
 * word is none of the command's actions: a usage error with the nearest action ("did you
 * mean 'show'?"), or, when none is near, expected ("expected check or show").
 */
void cmd_unknown_action(const struct cmd_entry *cmd, const char *word, const char *expected)
    __attribute__((__noreturn__));

/* "gridsubmit CMD: message" + "usage: ..." on stderr, then exit(EXIT_USAGE). */
void cmd_usage_error(const struct cmd_entry *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), __noreturn__));

/* Strict number parsing of option values (usage error naming the option when bad). */
long long cmd_parse_int(const struct cmd_entry *cmd, const char *opt, const char *s,
    long long min, long long max);
double cmd_parse_double(const struct cmd_entry *cmd, const char *opt, const char *s,
    double min, double max);

/*
 * The job a command names: its id (or the latest job when arg is NULL), its state read
 * and, when refresh is 1, refreshed (jobctl_refresh). Errors are printed ("gridsubmit:
 * job 12: no such job"); returns EXIT_OK, EXIT_USAGE (not a job id, no such job, no job
 * at all), EXIT_INPUT (state.json missing, torn or corrupt) or EXIT_FAILED (the store
 * cannot be used: no place for it, world-writable).
 */
struct job_state;
int cmd_open_job(const char *arg, struct job_state *st, int refresh);
/*
 * What a --json document says of arg when cmd_open_job gave code (not EXIT_OK): "no such
 * job", "not a job id", "state.json is unreadable or corrupt" or "the job store cannot be
 * used" (gridsubmit-json(5)).
 */
const char *cmd_open_job_error(const char *arg, int code);

/*
 * The exit code of a job that has ended in state phase (a value of enum job_phase): 0
 * done, 6 cancelled, 8 timeout, 1 failed; the one mapping of status's and wait's.
 */
int cmd_phase_exit(int phase);

/* The state directory (common/home.h); when it cannot be used, says why and exits 1. */
const char *cmd_home(void);

/* The same for a command that only reads: never made (a missing one holds nothing). */
const char *cmd_home_find(void);

#endif
