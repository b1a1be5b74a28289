/*
 * cmd-experiment.h — what the experiment command's files share (cmd-experiment.c runs an
 * experiment, cmd-experiment-show.c reads stored ones).
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

/* experiment report|list|show (argv[0] is the word). */
int cmd_experiment_stored(int argc, char **argv);

#endif
