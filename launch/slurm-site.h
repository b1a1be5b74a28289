/*
 * slurm-site.h — launching on sites behind Slurm (doc/slurm.md): a site whose site file
 * says `scheduler: {type: slurm, login: HOST, ...}` has its nodes held by an allocation for
 * the job (sbatch holding the placed nodes), and every command on those nodes, hydra's
 * proxies included, run by `srun --jobid=ID --overlap` from the login host (the routes of
 * remote/remote.h). Everything goes over ssh to the login host, with the job's ssh options
 * (remote/remote.h). Which nodes such a site has is the broker's (broker/slurm-nodes.h).
 */
#ifndef GS_SLURM_SITE_H
#define GS_SLURM_SITE_H

#include <sys/types.h>

#include <stddef.h>

#include "broker/site.h"

/* --- allocations (slurm-alloc.c) ----------------------------------------------------- */

struct gs_job;
struct gs_placement;
struct job_state;
struct job_alloc;

/* 1 when a rank of p runs on a node of a Slurm site. */
int slurm_placement_uses(const struct gs_sites *sites, const struct gs_placement *p);

/*
 * Hold the placed nodes of every Slurm site of p: one sbatch per site through its login
 * host (the job's ssh config), for exactly those nodes, whole, named gridsubmit-ID, its
 * time limit the job's time_limit, else the site's time. Each allocation goes into st's
 * state.json as soon as Slurm names it; the job is then pending ("waiting for Slurm job
 * 1234 on site hpc: Resources", in state.json and, unless quiet, on stderr) until all of
 * them run, and their nodes get their routes (remote.h). LAUNCH_OK, or LAUNCH_FAILED /
 * LAUNCH_CANCELLED (a cancel signal) with why; then nothing stays allocated.
 */
int slurm_allocate(const struct gs_sites *sites, const struct gs_job *job,
    const struct gs_placement *p, struct job_state *st, const char *config, int quiet,
    char *why, size_t whylen);

/*
 * Release every allocation of st still held: one Slurm ended is marked so (with its
 * state and reason: its nodes are lost ones; after a failed launch, settle seconds are
 * given to Slurm to say so), the others are scancelled, then waited for (up to 15 s)
 * until Slurm has ended them, when nothing of the job runs on their nodes; one whose
 * scancel failed stays held (said on stderr), for a later cancel. st is written; the
 * routes are gone.
 */
#define SLURM_SETTLE	5.0
/*
 * The settle after a launch that ran into an allocation's time limit (slurm_time_reached):
 * Slurm signals the steps first and records TIMEOUT only after its KillWait and the
 * steps' end, later still on a loaded host; released before, the allocation would be
 * "CANCELLED" and the job relaunched into the same limit.
 */
#define SLURM_SETTLE_LIMIT	30.0
void slurm_release(struct job_state *st, const char *config, double settle);

/*
 * 1 when a launch that ran ran seconds reached the time limit of an allocation it held:
 * the smallest of its Slurm sites' (the job's time_limit, else the site's time), less
 * SLURM_SETTLE for the clocks' and Slurm's slack; 0 with no such limit.
 */
int slurm_time_reached(const struct gs_sites *sites, const struct gs_job *job,
    const struct gs_placement *p, double ran);

/* The routes of the allocations of st still held (for `cancel`, in another process). */
void slurm_routes(const struct job_state *st);

/*
 * st's allocations as its state.json has them now (a supervisor may have released them
 * since st was read); returns how many are still held.
 */
size_t slurm_held_refresh(struct job_state *st);

/* --- while the job runs (slurm-watch.c) -------------------------------------------- */

/*
 * A child process looks at st's allocations held at the start every 2 s through their
 * login hosts (config: the job's ssh config); slurm_watch_poll, which never waits, marks
 * each one Slurm has ended since (JOB_ALLOC_ENDED, with Slurm's state and reason: its
 * nodes are lost ones), says so on stderr and writes state.json; it returns how many.
 * slurm_watch_start: 0, or -1 (errno; nothing started). slurm_watch_stop ends the child.
 */
struct slurm_watch {
	pid_t pid;
	int fd;			/* the child's lines */
	char buf[1024];
	size_t len;
};
int slurm_watch_start(struct slurm_watch *w, struct job_state *st, const char *config);
size_t slurm_watch_poll(struct slurm_watch *w, struct job_state *st);
void slurm_watch_stop(struct slurm_watch *w);

/* Slurm's state and reason for a (squeue through its login host). 0, or -1 with why. */
int slurm_alloc_look(struct job_alloc *a, const char *config, char *why, size_t whylen);
/* 1 when Slurm will not run a any more (ended, failed, cancelled, timed out). */
int slurm_alloc_over(const struct job_alloc *a);

#endif
