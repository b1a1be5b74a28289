/*
 * stage.h — the job's files where the ranks need them: stage_in files (relative to the job
 * file) copied into the job directory, here and on every remote node that lacks them (same
 * content hash); the program and gridsubmit-rank staged into DIR/bin when a node lacks them;
 * stage_out files fetched back from the nodes when they are not here after the run.
 * Copies use scp with the ssh options and config of remote.c. The job directory has the
 * same absolute path on every host.
 */
#ifndef GS_STAGE_H
#define GS_STAGE_H

#include <stddef.h>

#include "broker.h"
#include "jobstore.h"

/* Copy the stage_in files into DIR (every job). 0, or -1 with why. */
int stage_in_local(const struct gs_job *job, const struct job_state *st, char *why,
    size_t whylen);

/*
 * Copy to every remote node of p what it lacks of: DIR's stage_in files and rankmap, and
 * with binaries, DIR/bin/PROGRAM and DIR/bin/gridsubmit-rank (made here first; then
 * job->program becomes DIR/bin/PROGRAM). 0, or -1 with why naming the node.
 */
int stage_remote(const struct gs_sites *sites, const struct gs_placement *p,
    struct gs_job *job, const struct job_state *st, int binaries, char *why, size_t whylen);

/* Fetch the stage_out files missing in DIR from the remote nodes (the first that has it). */
void stage_out(const struct gs_sites *sites, const struct gs_placement *p,
    const struct gs_job *job, const struct job_state *st);

#endif
