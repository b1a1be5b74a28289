/*
 * cmd-experiment.h — what the experiment command's files share (cmd-experiment.c runs an
 * experiment, cmd-experiment-show.c reads stored ones, cmd-experiment-repro.c writes the
 * reproduction document of several).
 */
#ifndef GS_CMD_EXPERIMENT_H
#define GS_CMD_EXPERIMENT_H

#include <stdint.h>

#include "submit/cmd.h"

#include "experiment/exp-store.h"
#include "experiment/exp.h"

extern const struct cmd_entry cmd_experiment_entry;

/* $GRIDSUBMIT_HOME/experiments/NAME (allocated). */
char *cmd_experiment_dir(const char *name);

/* Write every report of e from the store s into dir; -1 when one failed (said). */
int cmd_experiment_report(const struct exp *e, struct exp_store *s, const char *dir,
    uint64_t seed);

/* experiment report|list|show|reproduction (argv[0] is the word). */
int cmd_experiment_stored(int argc, char **argv);

/* An experiment opened from its store: the model from the kept copy, and the runs. */
struct cmd_exp_stored {
	struct exp e;
	struct exp_store *s;
	char *dir;
	uint64_t seed;
	struct exp_run *runs;
	size_t nruns;
	const char **names;
	size_t nnames;
};

/*
 * Open the stored experiment arg (its NAME or its file) into c: EXIT_OK, or the exit code
 * with the reason said on stderr. cmd_experiment_close frees c either way.
 */
int cmd_experiment_open(const char *arg, struct cmd_exp_stored *c);
void cmd_experiment_close(struct cmd_exp_stored *c);

/* experiment reproduction [--out FILE] NAME... (cmd-experiment-repro.c). */
int cmd_experiment_repro(int argc, char **argv);

#endif
