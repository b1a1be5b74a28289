/*
 * stage.h — the job's files where its ranks run (doc/testbed.md, "Launch over ssh",
 * item "Staging").
 *
 * Rank 0 and every node that shares this host's file system (preflight reads back a token
 * written in the job directory DIR) run in DIR itself. Every other node gets a job
 * directory of its own, ~/.gridsubmit/jobs/HOST-ID-TOKEN under the remote user's home
 * (made by preflight; HOST is this host, TOKEN 8 random hex digits), where its ranks run:
 * the stage_in files are copied into it, and the program and gridsubmit-rank (with the
 * libgridsubmit-finalize.so it preloads, launch/rank/rank-preload.h) into its bin/ unless
 * the node has them at the same path with the same sha256. All copies are
 * scp with the ssh options and config of remote.c (over the job's shared connections).
 * DIR/remote-dirs lists those directories, one "HOST DIR PROGRAM RANKEXEC" line each (the
 * last two 1 when staged into DIR/bin), for the launcher, the cleanup and `cancel`;
 * DIR/stage.log records every copy (what, bytes, seconds). After the run the stage_out
 * files are collected back and the remote directories removed, whatever the job's end.
 */
#ifndef GS_STAGE_H
#define GS_STAGE_H

#include <stddef.h>

#include "broker/broker.h"
#include "store/jobstore.h"

/* One node's own job directory (a line of DIR/remote-dirs). */
struct stage_dir {
	char *host;
	char *dir;		/* absolute, ends in /.gridsubmit/jobs/NAME */
	int program;		/* 1: the program is staged as dir/bin/BASENAME */
	int rankexec;		/* 1: gridsubmit-rank is staged as dir/bin/gridsubmit-rank,
				 * with dir/bin/libgridsubmit-finalize.so */
	int failed;		/* stage_copy_in: 1 when a copy failed, why says which */
	char why[512];
};

/*
 * Copy the stage_in files and directories into DIR (every job, before anything remote),
 * each whole or not at all (common/fstree.h), from where the job file has them
 * (job_stage_in_source). 0, or -1 + why.
 */
int stage_in_local(const struct gs_job *job, const struct job_state *st, char *why,
    size_t whylen);

/* NAME of the remote directories of this job: HOST-ID-TOKEN8 (allocated). */
char *stage_dir_name(const struct job_state *st, const char *token);

/* 1 when dir, as a node reported it, is usable: absolute, plain characters, and .../NAME. */
int stage_dir_valid(const char *dir, const char *name);

/*
 * Copy to each of the n nodes (in parallel) what it lacks: the program and gridsubmit-rank
 * with its finalize library into dir/bin (when flagged), then DIR's stage_in files into dir. A node whose copy fails
 * gets failed = 1 and why (naming it and the copy); a cancel signal stops every copy.
 * Returns the number of nodes that failed.
 */
int stage_copy_in(const struct gs_job *job, const struct job_state *st, struct stage_dir **d,
    size_t n);

/* DIR/remote-dirs: write the n entries that have a host (unlink when none); read; find. */
int stage_dirs_write(const struct job_state *st, const struct stage_dir *d, size_t n);
int stage_dirs_read(const char *jobdir, struct stage_dir **d, size_t *n);
const struct stage_dir *stage_dirs_find(const struct stage_dir *d, size_t n,
    const char *host);
void stage_dirs_free(struct stage_dir *d, size_t n);

/*
 * Collect the stage_out files and directories from the nodes with their own directory
 * (a directory whole, with scp -r): one that is in
 * DIR after the run (written by rank 0, or by a node sharing the file system) stays; else
 * the copy of the node with the lowest rank becomes DIR/NAME; copies on further nodes are
 * kept as DIR/NAME.HOST, so that nothing is lost when the remote directories go.
 */
void stage_out(const struct gs_sites *sites, const struct gs_placement *p,
    const struct gs_job *job, const struct job_state *st);

/*
 * Remove every remote directory of DIR/remote-dirs (after killing what the launcher
 * recorded there), in parallel, within ~30 s; what cannot be removed stays listed, with
 * a warning. Safe to call more than once, and from another process (cancel).
 */
void stage_cleanup(const struct job_state *st);

#endif
