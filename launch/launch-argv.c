/* launch-argv.c — the mpiexec argument vector of a placed job */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broker/site.h"
#include "common/rank-end.h"
#include "common/xmalloc.h"
#include "gen/gs-config.h"
#include "launch/launch-int.h"
#include "launch/launch.h"
#include "launch/lease-proto.h"
#include "launch/lease.h"
#include "launch/relay.h"
#include "launch/stage.h"
#include "remote/remote.h"
#include "simulate/simulate.h"

struct argv_builder {
	char **v;
	size_t n;
	size_t cap;
};

static void
argv_add(struct argv_builder *b, const char *s)
{
	if (b->n + 2 > b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->v = xreallocarray(b->v, b->cap, sizeof *b->v);
	}
	b->v[b->n++] = xstrdup(s);
	b->v[b->n] = NULL;
}

static void
argv_genv(struct argv_builder *b, const char *key, const char *value)
{
	argv_add(b, "-genv");
	argv_add(b, key);
	argv_add(b, value);
}

/* The job directory of rank r's host when it is not ours (DIR/remote-dirs), else NULL. */
static const struct stage_dir *
launch_rank_dir(const struct gs_sites *sites, const struct gs_placement *p, int r,
    const struct stage_dir *sd, size_t nsd)
{
	const char *host = broker_rank_host(sites, p, r);

	if (nsd == 0 || remote_host_is_local(host))
		return NULL;
	return stage_dirs_find(sd, nsd, host);
}

static char *
launch_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return xstrdup(slash != NULL ? slash + 1 : path);
}

static int
launch_env_has(const struct gs_job *job, const char *key)
{
	size_t i;

	for (i = 0; i < job->nenv; i++)
		if (strcmp(job->env[i].key, key) == 0)
			return 1;
	return 0;
}

/*
 * hydra's ssh side: our launcher script, the interface toward the nodes, no environment
 * but what we list, and what ties the remote ranks to the job. 0, or -1 with why.
 */
static int
argv_ssh(struct argv_builder *b, struct argv_builder *env, const struct gs_sites *sites,
    const struct gs_placement *p, const struct job_state *st, const struct launch_hold *hold,
    char *why, size_t whylen)
{
	struct launch_net net;
	char *path, *key;

	if (launch_ssh_setup(sites, p, st, hold != NULL ? hold->checks : NULL, &net,
	    why, whylen) == -1) {
		launch_net_free(&net);
		return -1;
	}
	argv_add(b, "-launcher");
	argv_add(b, "ssh");
	argv_add(b, "-launcher-exec");
	xasprintf(&path, "%s/ssh-launcher", st->dir);
	argv_add(b, path);
	free(path);
	/* hydra's ports: only on the interface toward the nodes (doc/reliability.md, "SSH") */
	argv_add(b, "-iface");
	argv_add(b, net.iface);
	/*
	 * hydra forwards the whole environment otherwise: only what we list, and of
	 * mpiexec's own environment only the lease's secret, whose value travels on hydra's
	 * control connection to the proxies and so is in no argv here or on a node
	 */
	argv_add(b, "-genvlist");
	argv_add(b, LEASE_SECRET_ENV);
	/* what ties the remote ranks to the job: the tag and the lease (lease.h) */
	if ((key = lease_tag_new(st, why, whylen)) == NULL) {
		launch_net_free(&net);
		return -1;
	}
	argv_genv(b, LEASE_TAG_ENV, key);
	free(key);
	xasprintf(&key, "%s:0", net.addr);
	argv_genv(b, LEASE_ENV, key);
	free(key);
	/*
	 * UCX of the ranks here on that interface alone: mpiexec's own environment, which
	 * hydra's local proxy passes on to the ranks of this host whatever -genvnone says,
	 * and no ssh carries to a node (a job's own -genv UCX_NET_DEVICES wins over it). On a
	 * host with other networks (another testbed's bridge, a VPN), UCX would offer the
	 * nodes addresses they cannot reach, and their MPI_Init would fail.
	 */
	xasprintf(&key, "UCX_NET_DEVICES=%s", net.iface);
	argv_add(env, key);
	free(key);
	launch_net_free(&net);
	return 0;
}

/* "K=V", one argument: the environment that env(1) gives smpirun */
static void
argv_kv(struct argv_builder *b, const char *key, const char *value)
{
	char *kv;

	xasprintf(&kv, "%s=%s", key, value);
	argv_add(b, kv);
	free(kv);
}

/* How argv_env passes a variable, and what it passes besides the runtime's. */
struct argv_envspec {
	void (*put)(struct argv_builder *, const char *, const char *);
	int remote;	/* ranks on other hosts: TCP only (UCX_TLS) */
	int hydra;	/* under hydra: the time origin of relaunches, PMI's finalize */
};

/* The job's environment: the runtime's parameters, its files, the job file's env. */
static void
argv_env(struct argv_builder *b, const struct gs_job *job, const struct job_state *st,
    const struct argv_envspec *how)
{
	char *key, *path, *k;
	const char *mig;
	size_t i;

	/*
	 * UCX sees all hosts of a testbed as one machine and would use shared memory between
	 * them (doc/testbed.md): TCP only, so that traffic crosses the (shaped) links.
	 */
	if (how->remote && !launch_env_has(job, "UCX_TLS"))
		how->put(b, "UCX_TLS", "self,tcp");
	/*
	 * Every rank on this host: UCX's network devices are loopback alone. UCX opens every
	 * interface it lists, and one that goes away meanwhile (a container's or a testbed's
	 * veth) fails MPI_Init with "No such device" (doc/reliability.md, "UCX").
	 */
	if (how->hydra && !how->remote && !launch_env_has(job, "UCX_NET_DEVICES"))
		how->put(b, "UCX_NET_DEVICES", "lo");
	/* the runtime's parameters (grt.h): GRT_<KEY> for every runtime: key of the job */
	for (i = 0; i < job->nruntime; i++) {
		xasprintf(&key, "GRT_%s", job->runtime[i].key);
		for (k = key; *k != '\0'; k++)
			if (*k >= 'a' && *k <= 'z')
				*k = (char)(*k - 'a' + 'A');
		how->put(b, key, job->runtime[i].value);
		free(key);
	}
	xasprintf(&path, "%s/events.jsonl", st->dir);
	how->put(b, "GRT_EVENTS", path);
	free(path);
	xasprintf(&path, "%s/rankmap", st->dir);
	how->put(b, "GRT_RANKMAP", path);
	free(path);
	/* the node loads the supervisor writes for a migration policy (jobrun-loads.c) */
	if ((mig = job_runtime_get(job, "migration")) != NULL && strcmp(mig, "none") != 0) {
		xasprintf(&path, "%s/loads", st->dir);
		how->put(b, "GRT_LOADS", path);
		free(path);
	}
	/* the master's journal and the time origin of every launch (doc/restarts.md) */
	xasprintf(&path, "%s/journal", st->dir);
	how->put(b, "GRT_JOURNAL", path);
	free(path);
	if (how->hydra && st->t0 > 0) {
		long long ms = llround(st->t0 * 1000);

		xasprintf(&path, "%lld.%03lld000", ms / 1000, ms % 1000);
		how->put(b, "GRT_T0", path);
		free(path);
	}
	how->put(b, "GRT_JOB", st->id);
	/* -disable-auto-cleanup is on: grt_end() may skip MPI_Finalize (runtime/core/grt-end.c) */
	if (how->hydra)
		how->put(b, "GRT_FINALIZE", "skip");
	for (i = 0; i < job->nenv; i++)
		how->put(b, job->env[i].key, job->env[i].value);
}

static void
argv_env1(struct argv_builder *b, const char *key, const char *value)
{
	argv_add(b, "-env");
	argv_add(b, key);
	argv_add(b, value);
}

/*
 * Rank 0's block on a node without our job directory, with a relay (relay.h): its libgrt
 * gets the relay's address, and the rank map and journal it fetches from it go to the
 * node's own directory d (-env: this block only, over the -genv of every rank). The
 * relay's address carries its key: it goes into mpiexec's environment (env), which hydra
 * hands to this block alone by name (-envlist) over its control connection, so the key is
 * in no argv here or on the node.
 */
static void
argv_relay(struct argv_builder *b, struct argv_builder *env, const struct stage_dir *d,
    const char *relay)
{
	char *path;

	/* a block's -envlist replaces -genvlist for it: the lease's secret is named again */
	argv_add(b, "-envlist");
	argv_add(b, LEASE_SECRET_ENV "," RELAY_ENV);
	argv_kv(env, RELAY_ENV, relay);
	xasprintf(&path, "%s/rankmap", d->dir);
	argv_env1(b, "GRT_RANKMAP", path);
	free(path);
	xasprintf(&path, "%s/journal", d->dir);
	argv_env1(b, "GRT_JOURNAL", path);
	free(path);
}

/*
 * One block of ranks: -n K -wdir DIR [-env ...] WRAPPER --status ... [--ends
 * DIR/rank-ends] [--gate G] -- PROGRAM ARGS. relay: the block holds rank 0 and
 * hold->relay applies to it.
 */
static void
argv_block(struct argv_builder *b, struct argv_builder *env, const struct gs_job *job,
    const struct job_state *st, const struct stage_dir *d, int nranks, const char *wrapper,
    const char *base, const struct launch_hold *hold, int relay)
{
	char nbuf[32], *path;
	size_t i;

	snprintf(nbuf, sizeof nbuf, "%d", nranks);
	argv_add(b, "-n");
	argv_add(b, nbuf);
	argv_add(b, "-wdir");
	argv_add(b, d != NULL ? d->dir : st->dir);
	if (relay)
		argv_relay(b, env, d, hold->relay);
	if (d != NULL && d->rankexec) {
		xasprintf(&path, "%s/bin/gridsubmit-rank", d->dir);
		argv_add(b, path);
		free(path);
	} else
		argv_add(b, wrapper);
	/* rank 0's, fetched from the node after the run when it is relayed */
	argv_add(b, "--status");
	xasprintf(&path, "%s/master.status", relay ? d->dir : st->dir);
	argv_add(b, path);
	free(path);
	/* the ranks in a directory of their own send their ends on the lease instead */
	if (d == NULL) {
		argv_add(b, "--ends");
		xasprintf(&path, "%s/%s", st->dir, RANK_ENDS_FILE);
		argv_add(b, path);
		free(path);
	}
	if (hold != NULL && hold->gate != NULL) {
		argv_add(b, "--gate");
		argv_add(b, hold->gate);
	}
	argv_add(b, "--");
	if (d != NULL && d->program) {
		xasprintf(&path, "%s/bin/%s", d->dir, base);
		argv_add(b, path);
		free(path);
	} else
		argv_add(b, job->program);
	for (i = 0; i < job->nargs; i++)
		argv_add(b, job->args[i]);
}

/*
 * The ranks, as one block of consecutive ranks per job directory: DIR for this host and
 * the nodes sharing it, a node's own directory otherwise (DIR/remote-dirs, with the
 * program and gridsubmit-rank staged in its bin/ when it lacked them). hydra gives the
 * ranks of "-n K ... : -n K ..." blocks to the hostfile's slots in order, and the
 * hostfile lists the nodes in rank order (broker_write_hostfile). 0, or -1 with why.
 */
static int
argv_ranks(struct argv_builder *b, struct argv_builder *env, const struct gs_sites *sites,
    const struct gs_job *job, const struct gs_placement *p, const struct job_state *st,
    const struct launch_hold *hold, char *why, size_t whylen)
{
	struct stage_dir *sd;
	char *wrapper, *base;
	size_t nsd;
	int r, next;

	if ((wrapper = launch_rank_wrapper()) == NULL) {
		snprintf(why, whylen, "%s", LAUNCH_NO_WRAPPER);
		return -1;
	}
	if (stage_dirs_read(st->dir, &sd, &nsd) == -1) {
		snprintf(why, whylen, "%s/remote-dirs: %s", st->dir, strerror(errno));
		free(wrapper);
		return -1;
	}
	base = launch_basename(job->program);
	for (r = 0; r < p->nranks; r = next) {
		const struct stage_dir *d = launch_rank_dir(sites, p, r, sd, nsd);

		for (next = r + 1; next < p->nranks &&
		    launch_rank_dir(sites, p, next, sd, nsd) == d; next++)
			;
		if (r > 0)
			argv_add(b, ":");
		argv_block(b, env, job, st, d, next - r, wrapper, base, hold,
		    r == 0 && d != NULL && hold != NULL && hold->relay != NULL);
	}
	free(wrapper);
	free(base);
	stage_dirs_free(sd, nsd);
	return 0;
}

char **
launch_argv(const struct gs_sites *sites, const struct gs_job *job, const struct gs_placement *p,
    const struct job_state *st, const struct launch_hold *hold, char ***env, char *why,
    size_t whylen)
{
	struct argv_builder b = { NULL, 0, 0 }, e = { NULL, 0, 0 };
	int remote = broker_placement_remote(sites, p);
	char *path;

	argv_add(&b, GS_MPIEXEC);
	/* a rank that exits must not take the job down: libgrt requeues its units */
	argv_add(&b, "-disable-auto-cleanup");
	if (!remote) {
		argv_add(&b, "-launcher");
		argv_add(&b, "fork");
	} else if (argv_ssh(&b, &e, sites, p, st, hold, why, whylen) != 0) {
		launch_argv_free(b.v);
		launch_argv_free(e.v);
		return NULL;
	}
	xasprintf(&path, "%s/hostfile", st->dir);
	argv_add(&b, "-f");
	argv_add(&b, path);
	free(path);
	argv_env(&b, job, st, &(struct argv_envspec){ argv_genv, remote, 1 });
	if (argv_ranks(&b, &e, sites, job, p, st, hold, why, whylen) != 0) {
		launch_argv_free(b.v);
		launch_argv_free(e.v);
		return NULL;
	}
	*env = e.v;
	return b.v;
}

/*
 * The SimGrid settings of every simulation (doc/simulate.md, "SMPI settings"): this host's
 * flops, the CM02 network model (a link's declared bandwidth and latency, no TCP fudge
 * factors), messages up to 64 KiB sent eagerly, as MPICH sends its small ones, a
 * microsecond for an MPI_Iprobe or MPI_Test that finds nothing (SimGrid's 100 us default is
 * a hundred times what a probe costs MPICH here), every time: SimGrid otherwise multiplies
 * it by the empty probes of all ranks since one found something, and the task runtime's
 * workers, which look once between two steps, paid up to 1.6 ms a look on 1,600 steps;
 * no time added to MPI_Wtime's (SimGrid grows what it adds with every call: 2.4 us of
 * the master's time a result, where the native call costs tens of nanoseconds);
 * SimGrid's notes of every setting changed are left out of DIR/stderr.
 */
static const char *const argv_smpi_cfg[] = {
	"--cfg=network/model:CM02",
	"--cfg=smpi/async-small-thresh:65536",
	"--cfg=smpi/send-is-detached-thresh:65536",
	"--cfg=smpi/iprobe:1e-6",
	"--cfg=smpi/test:1e-6",
	"--cfg=smpi/wtime:0",
	"--cfg=smpi/grow-injected-times:no",
	"--log=xbt_cfg.thres:warning",
	NULL
};

char **
launch_argv_smpi(const struct gs_job *job, const struct gs_placement *p,
    const struct job_state *st, const struct sim_opts *sim, const char *program)
{
	struct argv_builder b = { NULL, 0, 0 };
	long long limit;
	char *arg;
	size_t i;

	/* in the job directory, where the ranks' files go, as under hydra's -wdir */
	argv_add(&b, "/usr/bin/env");
	argv_add(&b, "-C");
	argv_add(&b, st->dir);
	argv_env(&b, job, st, &(struct argv_envspec){ argv_kv, 0, 0 });
	/*
	 * smpirun's temporary files (the unrolled hostfile, the copies of the program it
	 * loads) in the job directory: through TMPDIR, which smpirun 3.32 reads; its -tmpdir
	 * option takes its value as the program's name
	 */
	xasprintf(&arg, "%s/.smpi", st->dir);
	argv_kv(&b, "TMPDIR", arg);
	free(arg);
	/*
	 * the job's time limit in simulated seconds: libgrt's master ends the run there, with
	 * an end record saying so (doc/simulate.md, "The time limit")
	 */
	if (job->time_limit != NULL && slurm_time_parse(job->time_limit, &limit) == 0) {
		xasprintf(&arg, "%lld", limit);
		argv_kv(&b, "GRT_TIME_LIMIT", arg);
		free(arg);
	}
	/* a rank's first contact, in seconds, when not the runtime's own (grt-comm-block.c) */
	if (sim->first_contact_ms >= 0) {
		xasprintf(&arg, "%.17g", sim->first_contact_ms / 1000);
		argv_kv(&b, "GRT_SMPI_FIRST_CONTACT", arg);
		free(arg);
	}
	argv_add(&b, GS_SMPIRUN);
	xasprintf(&arg, "%s/platform.xml", st->dir);
	argv_add(&b, "-platform");
	argv_add(&b, arg);
	free(arg);
	xasprintf(&arg, "%s/hostfile.smpi", st->dir);
	argv_add(&b, "-hostfile");
	argv_add(&b, arg);
	free(arg);
	xasprintf(&arg, "%d", p->nranks);
	argv_add(&b, "-np");
	argv_add(&b, arg);
	free(arg);
	xasprintf(&arg, "--cfg=smpi/host-speed:%.17gf", SIM_HOST_FLOPS);
	argv_add(&b, arg);
	free(arg);
	for (i = 0; argv_smpi_cfg[i] != NULL; i++)
		argv_add(&b, argv_smpi_cfg[i]);
	for (i = 0; i < sim->ncfg; i++) {
		xasprintf(&arg, "--cfg=%s", sim->cfg[i]);
		argv_add(&b, arg);
		free(arg);
	}
	argv_add(&b, program);
	for (i = 0; i < job->nargs; i++)
		argv_add(&b, job->args[i]);
	return b.v;
}

void
launch_argv_free(char **argv)
{
	char **a;

	for (a = argv; a != NULL && *a != NULL; a++)
		free(*a);
	free(argv);
}
