/*
 * launchers/ssh.c — the "ssh" launcher: some ranks on other hosts, reached by hydra's ssh
 * launcher through DIR/ssh-launcher. Before mpiexec, every node is checked and staged to
 * (preflight.h, stage.h); while the job runs, its ranks hold a lease on this process
 * (lease.h), and rank 0 on a node without our job directory writes it through the relay
 * (relay.h); after it, nothing of the job is left on any node and the stage_out files are
 * collected. With plan->speculate, mpiexec starts while the nodes are checked in its own
 * ssh sessions (doc/architecture.md, "Speculative launch").
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker/broker.h"
#include "common/xmalloc.h"
#include "launch/gate.h"
#include "launch/launch-int.h"
#include "launch/launch.h"
#include "launch/lease.h"
#include "launch/preflight.h"
#include "launch/relay.h"
#include "launch/stage.h"
#include "remote/remote.h"

/* The launcher's own state, l->priv (the slurm launcher's too: it runs these steps). */
struct launch_ssh {
	struct gate gate;	/* rank 0's, for a speculative launch (path NULL: none) */
	int speculative;	/* 1: mpiexec starts before the checks (ssh_hold) */
	struct relay relay;	/* rank 0's, on a node without our job directory */
	int relayed;		/* 1: rank 0 was relayed: its master.status is on its node */
	struct preflight_setup checks;	/* what the nodes' sessions check */
	char *check_cmd;	/* the command they run (preflight_session_command) */
};

/* A rank on another host. */
static int
ssh_match(const struct launch_plan *plan)
{
	return broker_placement_remote(plan->sites, plan->place);
}

/* Forget the speculative launch's hold (gate, checks); mpiexec has ended or never ran. */
static void
ssh_unhold(struct launch *l)
{
	struct launch_ssh *s = l->priv;

	if (s == NULL)
		return;
	gate_close(&s->gate);
	s->speculative = 0;
	preflight_setup_free(&s->checks);
	free(s->check_cmd);
	s->check_cmd = NULL;
}

/* A preflight that did not pass: nothing stays on the nodes; cancelled, or failed (why). */
static int
ssh_preflight_failed(struct launch *l, char *why, size_t whylen)
{
	stage_cleanup(l->plan.st);
	if (launch_cancel_requested()) {
		snprintf(why, whylen, "cancelled during preflight");
		return LAUNCH_CANCELLED;
	}
	return LAUNCH_FAILED;
}

/*
 * DIR/.remote, where the launcher on a node that shares our file system records its
 * process group: made here when mpiexec starts before the preflight (which makes it too).
 */
static int
ssh_remote_marks_dir(const struct job_state *st, char *why, size_t whylen)
{
	char *path;
	int rc = 0;

	xasprintf(&path, "%s/.remote", st->dir);
	if (mkdir(path, 0700) == -1 && errno != EEXIST) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		rc = -1;
	}
	free(path);
	return rc;
}

/*
 * Ready a speculative launch: rank 0's gate, DIR/.remote where the nodes answer, and the
 * checks every node's session runs before its proxy (preflight-session.c). Rank 0 on
 * another host needs no gate (and could not wait at this host's FIFO): its own session
 * checks before its proxy starts, and hydra's PMI barrier holds every rank in MPI_Init
 * until every node's proxy is up. 0, or -1 when it cannot be had (the plain preflight
 * then runs, and reports what is wrong).
 */
static int
ssh_hold(struct launch *l, struct launch_hold *hold)
{
	const struct launch_plan *pl = &l->plan;
	struct launch_ssh *s = l->priv;
	char why[1024], ifname[64], addr[64];
	int r;

	if ((!launch_master_remote(pl) && gate_open(pl->st, &s->gate, why, sizeof why) != 0) ||
	    ssh_remote_marks_dir(pl->st, why, sizeof why) != 0 ||
	    preflight_setup_make(pl->sites, pl->job, pl->st, &s->checks, why, sizeof why) != 0)
		return -1;
	for (r = 0; r < pl->place->nranks; r++) {
		const char *host = broker_rank_host(pl->sites, pl->place, r);

		if (remote_host_is_local(host))
			continue;
		if (launch_route(s->checks.config, host, ifname, sizeof ifname, addr,
		    sizeof addr, why, sizeof why) == -1 ||
		    preflight_accept_start(&s->checks, addr, why, sizeof why) == -1)
			return -1;
		s->check_cmd = preflight_session_command(&s->checks, pl->st, addr);
		hold->gate = s->gate.path;
		hold->checks = s->check_cmd;
		s->speculative = 1;
		return 0;
	}
	return -1;
}

static int
ssh_preflight(struct launch *l, struct preflight *pf, char *why, size_t whylen)
{
	const struct launch_plan *pl = &l->plan;

	return preflight_run(pl->sites, pl->job, pl->ranking, pl->place, pl->st, pf, why,
	    whylen);
}

/*
 * After the plain preflight: the relay when rank 0's node has no share of our job
 * directory (launch-master.c), then DIR/hostfile, DIR/rankmap and mpiexec's command. 0, or
 * -1 with why (nothing left open).
 */
static int
ssh_command(struct launch *l, char *why, size_t whylen)
{
	struct launch_ssh *s = l->priv;
	struct launch_hold hold = { NULL, NULL, NULL };

	if (launch_master_relay(&l->plan, &s->relay, why, whylen) != 0)
		return -1;
	hold.relay = s->relay.lfd != -1 ? s->relay.addr : NULL;
	s->relayed = hold.relay != NULL;
	if (launch_write_command(l, s->relayed ? &hold : NULL, why, whylen) != 0) {
		relay_close(&s->relay, 0);
		s->relayed = 0;
		return -1;
	}
	return 0;
}

static int
ssh_prepare(struct launch *l, char *why, size_t whylen)
{
	struct launch_hold hold = { NULL, NULL, NULL };
	struct launch_ssh *s;
	struct preflight pf;

	l->priv = s = xcalloc(1, sizeof *s);
	s->gate.fd = -1;
	s->checks.fd = -1;
	relay_none(&s->relay);
	/* from here on, things exist on the nodes: a cancel must clean them up */
	launch_catch_signals();
	launch_phase(l, JOB_STAGING);
	/* speculative: the checks run in mpiexec's sessions, at start */
	if (!l->plan.speculate || ssh_hold(l, &hold) != 0) {
		ssh_unhold(l);
		if (ssh_preflight(l, &pf, why, whylen) != 0)
			return ssh_preflight_failed(l, why, whylen);
		if (ssh_command(l, why, whylen) != 0) {
			stage_cleanup(l->plan.st);
			return LAUNCH_FAILED;
		}
	} else if (launch_write_command(l, &hold, why, whylen) != 0) {
		ssh_unhold(l);
		stage_cleanup(l->plan.st);
		return LAUNCH_FAILED;
	}
	if (!s->speculative)
		launch_phase(l, JOB_LAUNCHING);
	return LAUNCH_OK;
}

/* mpiexec itself, with the ranks' lease open (lease.h); on failure nothing stays staged. */
static int
ssh_spawn(struct launch *l, char *why, size_t whylen)
{
	/* here, in the process that lives as long as the job: the ranks' lease */
	lease_open(l->argv);
	if ((l->pid = launch_proc_start(l->argv, l->env, l->plan.st)) == -1) {
		snprintf(why, whylen, "cannot start %s: %s", l->argv[0], strerror(errno));
		ssh_unhold(l);
		stage_cleanup(l->plan.st);
		return LAUNCH_FAILED;
	}
	return LAUNCH_OK;
}

/* mpiexec and whatever it started on the nodes go (for_good: launch_cleanup_remote). */
static void
ssh_stop(struct launch *l, int for_good)
{
	const struct launch_plan *pl = &l->plan;

	launch_proc_abort(l->pid);
	l->pid = -1;
	ssh_unhold(l);
	launch_cleanup_remote(pl->sites, pl->place, pl->st, for_good, NULL);
}

/*
 * The launch was called off before any rank got past MPI_Init: stopped, and no trace of
 * it may confuse the relaunch.
 */
static void
ssh_call_off(struct launch *l)
{
	struct job_state *st = l->plan.st;
	char *path;

	ssh_stop(l, launch_cancel_requested());
	xasprintf(&path, "%s/master.status", st->dir);
	unlink(path);
	free(path);
	st->mpiexec_pid = 0;
	st->mpiexec_start = 0;
}

/*
 * The speculative launch: mpiexec starts at once, as if every node shared our file system
 * and passed, with rank 0 held at the gate, and every node runs the preflight's checks in
 * its own session before its proxy. When every node answers that it passed and shares our
 * job directory, the gate opens: the preflight cost no ssh of its own. Otherwise the launch
 * is called off, the plain preflight runs (reports, stages, replaces), and the job
 * launches again with what it found.
 */
static int
ssh_speculate(struct launch *l, char *why, size_t whylen)
{
	const struct launch_plan *pl = &l->plan;
	struct launch_ssh *s = l->priv;
	struct preflight pf;
	char swhy[1024];
	int rc, go;

	if ((rc = ssh_spawn(l, why, whylen)) != LAUNCH_OK)
		return rc;
	launch_phase_mpiexec(l, JOB_STAGING);
	go = preflight_session_wait(pl->sites, pl->place, pl->st, &s->checks, l->pid, swhy,
	    sizeof swhy) == 0;
	gate_release(&s->gate, go);
	if (go)
		return LAUNCH_OK;
	ssh_call_off(l);
	if (launch_cancel_requested()) {
		snprintf(why, whylen, "%s", swhy);
		return ssh_preflight_failed(l, why, whylen);
	}
	if (ssh_preflight(l, &pf, why, whylen) != 0)
		return ssh_preflight_failed(l, why, whylen);
	if (pf.replaced || !pf.all_shared)
		fprintf(stderr, "gridsubmit: job %s: launching again with what the preflight "
		    "found (%s)\n", pl->st->id, pf.replaced ? "nodes replaced" : "files staged");
	else
		fprintf(stderr, "gridsubmit: job %s: launching again (%s; the preflight "
		    "found every node ready)\n", pl->st->id, swhy);
	if (ssh_command(l, why, whylen) != 0) {
		stage_cleanup(pl->st);
		return LAUNCH_FAILED;
	}
	launch_phase(l, JOB_LAUNCHING);
	return ssh_spawn(l, why, whylen);
}

static int
ssh_start(struct launch *l, char *why, size_t whylen)
{
	const struct launch_ssh *s = l->priv;

	if (s->speculative)
		return ssh_speculate(l, why, whylen);
	return ssh_spawn(l, why, whylen);
}

/* The relay's last frames: rank 0 has ended, or its node went silent (a bound). */
#define SSH_RELAY_DRAIN	5.0

static void
ssh_wait(struct launch *l)
{
	struct launch_ssh *s = l->priv;

	launch_proc_wait(l);
	ssh_unhold(l);
	relay_close(&s->relay, SSH_RELAY_DRAIN);
}

static void
ssh_cancel(struct launch *l)
{
	struct launch_ssh *s = l->priv;

	if (l->pid > 0 && launch_running(l->pid))
		ssh_stop(l, 1);
	ssh_unhold(l);
	if (s != NULL)
		relay_close(&s->relay, 0);
	stage_cleanup(l->plan.st);
}

/* No rank left on any host; outputs back from the nodes, their directories removed. */
static void
ssh_cleanup(struct launch *l)
{
	const struct launch_plan *pl = &l->plan;
	const struct launch_result *res = &l->res;
	const struct launch_ssh *s = l->priv;
	/* a cancel or the time limit: the job is stopped, its outputs are not collected */
	int stopped = res->cancelled || res->timed_out;

	if (stopped || res->killed_stragglers || res->mpiexec_status != 0) {
		/* which nodes it could not reach: a relaunch leaves them out (doc/restarts.md) */
		free(l->res.lost);
		l->res.lost = xcalloc(pl->sites->nnodes + 1, 1);
		launch_cleanup_remote(pl->sites, pl->place, pl->st, 1, l->res.lost);
	}
	if (!stopped && s->relayed)
		launch_master_fetch_status(l);
	if (!stopped)
		stage_out(pl->sites, pl->place, pl->job, pl->st);
	stage_cleanup(pl->st);
}

static void
ssh_release(struct launch *l)
{
	struct launch_ssh *s = l->priv;

	ssh_unhold(l);
	if (s != NULL)
		relay_close(&s->relay, 0);
	free(l->priv);
	l->priv = NULL;
}

const struct launcher launcher_ssh = {
	.name = "ssh",
	.match = ssh_match,
	.prepare = ssh_prepare,
	.start = ssh_start,
	.wait = ssh_wait,
	.cancel = ssh_cancel,
	.cleanup = ssh_cleanup,
	.release = ssh_release,
};
