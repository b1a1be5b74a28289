/* launch-cleanup.c — after a multi-site job: nothing of it left on any node */

#include "clock.h"
#include "launch.h"
#include "log.h"
#include "remote.h"
#include "stage.h"
#include "xmalloc.h"

/*
 * A launcher session with checks that has ended (DIR/.remote/HOST.ended) without recording
 * a process group in DIR started nothing there: its shell stops before the proxy unless
 * the pgid was written first (launch_write_launcher). Its node needs no cleanup, which
 * matters for an unreachable one: that ssh would only wait for its timeout again.
 */
static int
launch_session_left_nothing(const struct job_state *st, const char *host)
{
	char *ended, *pgid;
	int nothing;

	xasprintf(&ended, "%s/.remote/%s.ended", st->dir, host);
	xasprintf(&pgid, "%s/.remote/%s.pgid", st->dir, host);
	nothing = access(ended, F_OK) == 0 && access(pgid, F_OK) == -1;
	free(ended);
	free(pgid);
	return nothing;
}

/*
 * After the job (ended, failed or cancelled): on every remote node of the placement, kill
 * the process group of the job's proxy (JOBDIR/.remote/HOST.pgid, written by the
 * launcher), whatever of it is left: no rank is ever left behind on any host
 * (RELIABILITY.md, 5). With for_good, it leaves JOBDIR/.remote/HOST.stop before it looks:
 * a launcher session that was still on its way (a cancel right after launch) writes its
 * pgid, then sees the mark and never starts the proxy. Without (a speculative launch
 * called off before a relaunch, whose mpiexec is already dead: a late proxy finds no one
 * to connect to and ends by itself), no mark stays to stop the relaunch. In parallel,
 * bounded by the ssh timeout.
 */
void
launch_cleanup_remote(const struct gs_sites *sites, const struct gs_placement *p,
    const struct job_state *st, int for_good)
{
	static const char script[] =
	    "f=$1; [ \"$2\" = mark ] && : 2>/dev/null >\"${f%.pgid}.stop\"; "
	    "[ -r \"$f\" ] || exit 0; g=$(cat \"$f\"); "
	    "case $g in ''|*[!0-9]*) exit 0 ;; esac; "
	    "kill -s TERM -- \"-$g\" 2>/dev/null && sleep 1; kill -s KILL -- \"-$g\" 2>/dev/null; "
	    "rm -f \"$f\"; exit 0";
	char *config, *words[7], **argv;
	struct stage_dir *sd = NULL;
	const struct stage_dir *d;
	pid_t *pids;
	int *status, r, n = 0;
	size_t i, nsd = 0;
	int *seen;

	if (!launch_is_remote(sites, p))
		return;
	/* a node with a job directory of its own has its record there (stage.h) */
	if (stage_dirs_read(st->dir, &sd, &nsd) == -1)
		nsd = 0;
	xasprintf(&config, "%s/ssh_config", st->dir);
	pids = xcalloc((size_t)p->nranks, sizeof *pids);
	status = xcalloc((size_t)p->nranks, sizeof *status);
	seen = xcalloc(sites->nnodes + 1, sizeof *seen);
	for (r = 0; r < p->nranks; r++) {
		size_t node = p->ranks[r].node;
		const char *host;

		if (node == BROKER_NODE_NONE || seen[node])
			continue;
		seen[node] = 1;
		host = sites->nodes[node].host;
		if (launch_host_is_local(host))
			continue;
		d = stage_dirs_find(sd, nsd, host);
		if (d == NULL && launch_session_left_nothing(st, host))
			continue;
		words[0] = "sh";
		words[1] = "-c";
		words[2] = (char *)script;
		words[3] = "sh";
		xasprintf(&words[4], "%s/.remote/%s.pgid", d != NULL ? d->dir : st->dir, host);
		words[5] = for_good ? "mark" : "nomark";
		words[6] = NULL;
		argv = remote_ssh_argv(config, NULL, host, words);
		free(words[4]);
		if (argv == NULL)
			continue;
		pids[n++] = remote_spawn(argv, NULL, NULL);
		remote_argv_free(argv);
	}
	remote_wait_all(pids, status, NULL, (size_t)n, clock_mono() + 20, NULL);
	for (i = 0; i < (size_t)n; i++)
		if (status[i] != 0)
			log_warnx("job %s: cleanup on a node failed (ssh status %d): ranks may "
			    "be left there", st->id, status[i]);
	free(seen);
	free(pids);
	free(status);
	free(config);
	stage_dirs_free(sd, nsd);
}
