/*
 * cmd-status.c — gridsubmit status: the state of one job (the latest when no id is given).
 *
 * Shows the state and its reason, the program's exit status, ranks and the nodes they run
 * on, scheme, times (local, with their zone) and elapsed time, as list's fields say them
 * (submit/jobfield.h), the placement from DIR/rankmap (rank -> node, site, pf, pr), and
 * from DIR/events.jsonl the progress
 * (units done of N x rounds, what a resumed master replayed from its journal included),
 * the failed ranks and the requeued units of the last launch, and the restarts with their
 * reasons (state.json's restart_log, doc/restarts.md). A job whose
 * supervisor died before recording the end is recorded and shown as "failed (supervisor
 * died)", with the processes it left behind here counted, and for a multi-site job what
 * is known of its remote nodes: not checked since the supervisor died, or the result of
 * the last check by cancel (DIR/remote-check). status itself never connects to a node.
 * Each rank's end (state.json's rank_ends; while the job runs, DIR/rank-ends as the ranks
 * write it) goes beside its placement: for a program without libgrt, which has no events,
 * what is known of it (doc/restarts.md, "Every rank's end"). While the job runs, each
 * placed node's load and CPU busy share as its monitor last said them, with their age
 * (DIR/nodes, common/node-stat.h; doc/runtime.md, "Node loads"); nothing for a node
 * without a monitor, nor once the job is over.
 * --json prints one document (gridsubmit-json(5)).
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/events-read.h"
#include "common/clock.h"
#include "common/jsonout.h"
#include "common/node-stat.h"
#include "common/rank-end.h"
#include "common/rankmap.h"
#include "common/text.h"
#include "common/xmalloc.h"
#include "launch/jobctl-remote.h"
#include "launch/jobctl.h"
#include "store/jobstore.h"
#include "submit/cmd.h"
#include "submit/jobfield.h"

extern const struct cmd_entry cmd_status_entry;

struct status_rank {
	int rank;
	char node[EV_NODE_MAX];
	char site[EV_SITE_MAX];
	double pf, pr;
};

struct status_info {
	struct status_rank *place;	/* from the rankmap */
	int nplace;
	int have_start;		/* events: a start record was seen */
	long long done, total;	/* units */
	int rounds;
	int *failed;		/* ranks named by fail records, each once */
	int nfailed;
	long long requeued;
	long long bad_lines;	/* garbage lines skipped in events.jsonl */
	size_t leftover;	/* processes still running for a job whose supervisor died */
	int supervisor_alive;
	struct jobctl_node *nodes;	/* remote nodes, when something is known of them */
	size_t nnodes;
	double checked;		/* when cancel checked them, 0 for never */
	struct node_stat *stats;	/* running: the placed nodes' values from their monitors */
	size_t nstats;
	double now;		/* the wall time the ages are of */
};

/* DIR/rankmap (rankmap.h): the placement, cleaned for the terminal. */
static void
status_read_rankmap(const struct job_state *st, struct status_info *si)
{
	struct rankmap_row *rows;
	struct status_rank r;
	size_t n, i;

	if (rankmap_read(st->dir, &rows, &n) == -1 || n == 0) {
		free(rows);
		return;
	}
	si->place = xreallocarray(si->place, (size_t)si->nplace + n, sizeof *si->place);
	for (i = 0; i < n; i++) {
		r.rank = rows[i].rank;
		r.pf = rows[i].pf;
		r.pr = rows[i].pr;
		text_clean(r.node, sizeof r.node, rows[i].node, strlen(rows[i].node));
		text_clean(r.site, sizeof r.site, rows[i].site, strlen(rows[i].site));
		si->place[si->nplace++] = r;
	}
	free(rows);
}

static void
status_add_failed(struct status_info *si, int rank)
{
	int i;

	for (i = 0; i < si->nfailed; i++)
		if (si->failed[i] == rank)
			return;
	si->failed = xreallocarray(si->failed, (size_t)si->nfailed + 1, sizeof *si->failed);
	si->failed[si->nfailed++] = rank;
}

/* Progress from events.jsonl; a torn last line is simply not read yet (evreader). */
static void
status_read_events(const struct job_state *st, struct status_info *si)
{
	struct evreader *r;
	struct event ev;
	char *path;
	int rc;

	xasprintf(&path, "%s/events.jsonl", st->dir);
	r = evreader_open(path);
	free(path);
	if (r == NULL)
		return;
	memset(&ev, 0, sizeof ev);
	while ((rc = evreader_next(r, &ev)) == 1) {
		switch (ev.kind) {
		case EV_START:
			si->have_start = 1;
			si->rounds = ev.rounds > 0 ? ev.rounds : 1;
			si->total = ev.n * si->rounds;
			si->done = 0;
			break;
		case EV_RESUME:
			/* what the journal held counts as done (doc/restarts.md) */
			si->done = ev.resumed_units;
			break;
		case EV_CHUNK:
			if (ev.count > 0)
				si->done += ev.count;
			break;
		case EV_FAIL:
			status_add_failed(si, ev.rank);
			si->requeued += ev.requeued;
			break;
		case EV_RESTART:
			/* a new launch: its own failed ranks and requeues */
			si->nfailed = 0;
			si->requeued = 0;
			break;
		default:
			break;
		}
		event_clear(&ev);
	}
	si->bad_lines = evreader_stats(r)->bad;
	evreader_free(r);
	/* a requeued chunk may come back twice */
	if (si->done > si->total)
		si->done = si->total;
	if (st->requeued > si->requeued)
		si->requeued = st->requeued;
}

/* By host, and among the same host by the order the check wrote them. */
static int
status_cmp_checked(const void *a, const void *b, void *arg)
{
	const struct jobctl_node *v = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(v[x].host, v[y].host);

	return c != 0 ? c : (x > y) - (x < y);
}

/*
 * Each node of si given what the check last wrote of its host (the later of two lines of
 * one host wins), found in the check's n lines sorted by host: a job of 10,000 nodes
 * compared each node with every line before.
 */
static void
status_merge_checked(struct status_info *si, const struct jobctl_node *last, size_t n)
{
	size_t *at, i, lo, hi, mid;
	int c;

	at = xreallocarray(NULL, n ? n : 1, sizeof *at);
	for (i = 0; i < n; i++)
		at[i] = i;
	qsort_r(at, n, sizeof *at, status_cmp_checked, (void *)last);
	for (i = 0; i < si->nnodes; i++) {
		/* the first line after every line of this host, then one back */
		for (lo = 0, hi = n; lo < hi; ) {
			mid = lo + (hi - lo) / 2;
			c = strcmp(last[at[mid]].host, si->nodes[i].host);
			if (c <= 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo > 0 && strcmp(last[at[lo - 1]].host, si->nodes[i].host) == 0)
			si->nodes[i] = last[at[lo - 1]];
	}
	free(at);
}

/*
 * The remote nodes: the last check by cancel, merged into the hostfile's list; or, when
 * the supervisor died and nobody checked, every node unchecked. Nothing for other jobs:
 * their supervisor is running them, or cleaned them up at the end.
 */
static void
status_read_remote(const struct job_state *st, struct status_info *si, int died)
{
	struct jobctl_node *last;
	size_t n;

	si->nnodes = jobctl_remote_nodes(st, &si->nodes);
	if (jobctl_remote_read(st, &last, &n, &si->checked) == 0) {
		status_merge_checked(si, last, n);
		free(last);
	} else if (!died) {
		free(si->nodes);
		si->nodes = NULL;
		si->nnodes = 0;
	}
}

static void
status_collect(const struct job_state *st, struct status_info *si)
{
	struct jobctl_proc *p;
	int died = st->phase == JOB_FAILED && st->reason != NULL &&
	    strcmp(st->reason, JOBCTL_SUPERVISOR_DIED) == 0;

	memset(si, 0, sizeof *si);
	status_read_rankmap(st, si);
	status_read_events(st, si);
	si->supervisor_alive = jobctl_supervisor_alive(st);
	if (died) {
		si->leftover = jobctl_processes(st, &p);
		free(p);
	}
	status_read_remote(st, si, died);
	si->now = clock_wall();
	if (si->supervisor_alive && !job_phase_final(st->phase) &&
	    node_stats_read(st->dir, &si->stats, &si->nstats) != 0)
		si->nstats = 0;
}

static void
status_free(struct status_info *si)
{
	free(si->place);
	free(si->failed);
	free(si->nodes);
	free(si->stats);
}

/* A string of the state file, cleaned for the terminal ("-" when there is none). */
static const char *
status_clean(const char *s, char *buf, size_t len)
{
	if (s == NULL)
		return "-";
	text_clean(buf, len, s, strlen(s));
	return buf;
}

/* Local time for people, with its zone (jobfield_time); "-" for not yet. */
static const char *
status_time(double t, char *buf, size_t len)
{
	jobfield_time(t, buf, len);
	return buf;
}

/* What is known of the remote nodes (status_read_remote), cleaned for the terminal. */
static void
status_print_remote(const struct job_state *st, const struct status_info *si)
{
	char h[256], d[512], t[64];
	size_t i, bad = 0;

	if (si->nnodes == 0)
		return;
	if (si->checked > 0)
		printf("  remote:     checked by cancel at %s:", status_time(si->checked, t,
		    sizeof t));
	else
		printf("  remote:     not checked since the supervisor died:");
	for (i = 0; i < si->nnodes; i++) {
		const struct jobctl_node *nd = &si->nodes[i];

		printf("%s %s %s", i > 0 ? "," : "", status_clean(nd->host, h, sizeof h),
		    jobctl_node_state_name(nd->state));
		if (nd->state == JOBCTL_NODE_LEFT || nd->state == JOBCTL_NODE_UNREACHABLE)
			printf(" (%s)", status_clean(nd->detail, d, sizeof d));
		if (nd->state != JOBCTL_NODE_CLEAN)
			bad++;
	}
	printf("\n");
	if (si->checked == 0)
		printf("  note: ranks on those nodes stop by themselves once they lose the job's "
		    "lease (at once, or after GRIDSUBMIT_LEASE_TIMEOUT, default 60 s, when "
		    "this host is unreachable); 'gridsubmit cancel %s' checks them and stops "
		    "what is left\n", st->id);
	else if (bad > 0)
		printf("  note: processes of the job may be left on %zu remote nodes; 'gridsubmit "
		    "cancel %s' checks them again\n", bad, st->id);
}

/* The relaunches (doc/restarts.md): how many, then each with its time and reason. */
static void
status_print_restarts(const struct job_state *st)
{
	char a[1024], h[256], t[64];
	size_t i, j;

	printf("  restarts:   %d", st->restarts);
	if (st->restarts_max > 0 || st->restarts > 0)
		printf(" (at most %d by one supervisor)", st->restarts_max);
	printf("\n");
	for (i = 0; i < st->nrestart_log; i++) {
		const struct job_restart *r = &st->restart_log[i];

		printf("    %zu. %s  %s", i + 1, status_time(r->time, t, sizeof t),
		    status_clean(r->reason, a, sizeof a));
		for (j = 0; j < r->nexcluded; j++)
			printf("%s%s", j == 0 ? " (without " : ", ",
			    status_clean(r->excluded[j], h, sizeof h));
		printf("%s\n", r->nexcluded > 0 ? ")" : "");
	}
}

/* The Slurm allocations (doc/slurm.md): id, site, nodes, Slurm's state and reason. */
static void
status_print_allocs(const struct job_state *st)
{
	char a[256], h[256];
	size_t i, j;

	for (i = 0; i < st->nallocs; i++) {
		const struct job_alloc *al = &st->allocs[i];

		printf("  slurm:      job %s on site %s (", status_clean(al->id, a, sizeof a),
		    status_clean(al->site, h, sizeof h));
		for (j = 0; j < al->nhosts; j++)
			printf("%s%s", j > 0 ? "," : "", status_clean(al->hosts[j], h, sizeof h));
		printf("): %s", status_clean(al->state, a, sizeof a));
		if (al->reason != NULL)
			printf(", %s", status_clean(al->reason, a, sizeof a));
		printf("%s\n", al->released == JOB_ALLOC_RELEASED ? "; released" :
		    al->released == JOB_ALLOC_ENDED ? "; ended by Slurm" : "");
	}
}

/*
 * A job still running has no rank_ends in its state.json yet: the ends so far, from
 * DIR/rank-ends, for the text and the JSON alike.
 */
static void
status_live_ends(struct job_state *st)
{
	struct rank_end *v;
	size_t n;

	if (st->nrank_ends > 0 || job_phase_final(st->phase) ||
	    rank_ends_read(st->dir, &v, &n) != 0)
		return;
	jobstore_rank_ends_set(st, v, n);
	free(v);
}

/* Rank r's end for the placement's "end" column: "exit 0", "signal 9", or "-". */
static const char *
status_end(const struct job_state *st, int r, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < st->nrank_ends; i++) {
		if (st->rank_ends[i].rank != r)
			continue;
		if (st->rank_ends[i].signal != 0)
			snprintf(buf, len, "signal %d", st->rank_ends[i].signal);
		else
			snprintf(buf, len, "exit %d", st->rank_ends[i].exit);
		return buf;
	}
	return "-";
}

/* How many ranks have ended, and the first that failed. */
static void
status_print_ends(const struct job_state *st)
{
	const struct rank_end *f = rank_ends_first_failure(st->rank_ends, st->nrank_ends);
	char text[256];

	printf("  rank ends:  %zu of %d", st->nrank_ends, st->ranks);
	if (f != NULL) {
		rank_end_text(f, text, sizeof text);
		printf("; first failure: %s", text);
	}
	printf("\n");
}

/* A field of jobfield.h as text, into buf. */
static const char *
status_field(const struct job_state *st, const struct jobfield_info *ji, enum job_field f,
    char *buf, size_t len)
{
	jobfield_text(st, ji, f, buf, len);
	return buf;
}

static void
status_print_text(const struct job_state *st, const struct status_info *si,
    const struct jobfield_info *ji)
{
	char a[256], b[256], t[64];
	size_t k;
	int i;

	printf("job %s (%s)\n", st->id, status_clean(st->name, a, sizeof a));
	printf("  state:      %s", job_phase_name(st->phase));
	if (st->reason != NULL)
		printf(" (%s)", status_clean(st->reason, b, sizeof b));
	printf("\n");
	printf("  exit:       %s\n", status_field(st, ji, JF_EXIT, a, sizeof a));
	printf("  ranks:      %d", st->ranks);
	if (ji->nodes >= 0)
		printf(" on %d node%s", ji->nodes, ji->nodes == 1 ? "" : "s");
	printf("\n");
	/* a program that never started libgrt had no scheme: it ran as mpiexec runs it */
	printf("  scheme:     %s\n", si->have_start || !job_phase_final(st->phase) ?
	    status_clean(st->scheme, a, sizeof a) : "- (no libgrt)");
	printf("  submitted:  %s\n", status_time(st->submitted, t, sizeof t));
	printf("  started:    %s\n", status_time(st->started, t, sizeof t));
	printf("  ended:      %s", status_time(st->ended, t, sizeof t));
	if (st->ended > 0 && st->submitted > 0)
		printf(" (%.2f s after submit)", st->ended - st->submitted);
	printf("\n");
	printf("  elapsed:    %s%s\n", status_field(st, ji, JF_ELAPSED, a, sizeof a),
	    st->phase == JOB_RUNNING ? " so far" : "");
	/* the makespan of a job that completed: one stopped or failed has none */
	if (st->phase == JOB_DONE && (si->have_start || st->makespan > 0))
		printf("  makespan:   %.3f s\n", st->makespan);
	if (si->have_start) {
		printf("  progress:   %lld/%lld units (%.0f%%)%s\n", si->done, si->total,
		    si->total > 0 ? 100.0 * (double)si->done / (double)si->total : 100.0,
		    si->rounds > 1 ? ", over all rounds" : "");
		printf("  failed:     %s", si->nfailed == 0 ? "no rank" : "ranks");
		for (i = 0; i < si->nfailed; i++)
			printf("%s%d", i == 0 ? " " : ", ", si->failed[i]);
		printf("; %lld units requeued\n", si->requeued);
	} else
		printf("  progress:   %s\n", job_phase_final(st->phase) ? "no libgrt events: "
		    "judged by its ranks' exit statuses" : "no libgrt events (a program without "
		    "libgrt, or not started yet)");
	status_print_ends(st);
	status_print_restarts(st);
	status_print_allocs(st);
	printf("  supervisor: pid %ld%s\n", st->supervisor_pid,
	    si->supervisor_alive ? " (running)" : "");
	printf("  directory:  %s\n", st->dir);
	if (si->nplace > 0) {
		printf("  placement:\n    %4s  %-24s %-16s %7s %7s  %s\n", "rank", "node", "site",
		    "pf", "pr", "end");
		for (i = 0; i < si->nplace; i++)
			printf("    %4d  %-24s %-16s %7.3f %7.3f  %s\n", si->place[i].rank,
			    si->place[i].node, si->place[i].site, si->place[i].pf,
			    si->place[i].pr, status_end(st, si->place[i].rank, a, sizeof a));
	}
	if (si->nstats > 0)
		printf("  nodes:\n");
	for (k = 0; k < si->nstats; k++) {
		node_stat_text(&si->stats[k], si->now, a, sizeof a);
		printf("    %-24s %s\n", si->stats[k].node, a);
	}
	if (si->bad_lines > 0)
		printf("  note: %lld unreadable lines in events.jsonl were skipped\n",
		    si->bad_lines);
	if (si->leftover > 0)
		printf("  note: %zu processes of the job still run; 'gridsubmit cancel %s' stops "
		    "them\n", si->leftover, st->id);
	status_print_remote(st, si);
}

/*
 * The status document (gridsubmit-json(5)): the job's state as state.json holds it
 * (jobstore_state_json), then what status finds live; jsonout_print puts schema_version
 * first. NULL when it cannot be built (jsonout_print says so).
 */
static json_t *
status_json(const struct job_state *st, const struct status_info *si,
    const struct jobfield_info *ji)
{
	json_t *o, *live, *rankmap, *failed, *progress, *nodes, *stats;
	int i, final = job_phase_final(st->phase);
	size_t k;

	rankmap = json_array();
	for (i = 0; i < si->nplace; i++)
		json_array_append_new(rankmap, json_pack("{s:i, s:s, s:s, s:o, s:o}",
		    "rank", si->place[i].rank, "node", si->place[i].node,
		    "site", si->place[i].site, "pf", jsonout_num(si->place[i].pf),
		    "pr", jsonout_num(si->place[i].pr)));
	failed = json_array();
	for (i = 0; i < si->nfailed; i++)
		json_array_append_new(failed, json_integer(si->failed[i]));
	nodes = json_array();
	for (k = 0; k < si->nnodes; k++)
		json_array_append_new(nodes, json_pack("{s:s, s:s, s:i, s:i, s:s}",
		    "host", si->nodes[k].host, "state", jobctl_node_state_name(si->nodes[k].state),
		    "stopped", si->nodes[k].stopped, "left", si->nodes[k].left,
		    "detail", si->nodes[k].detail));
	stats = json_array();
	for (k = 0; k < si->nstats; k++)
		json_array_append_new(stats, json_pack("{s:s, s:o, s:o, s:o}",
		    "node", si->stats[k].node, "load1", jsonout_num(si->stats[k].load1),
		    "cpu_busy_pct", si->stats[k].cpu_busy >= 0 ?
		    jsonout_num(100 * si->stats[k].cpu_busy) : json_null(),
		    "age", jsonout_num(si->now > si->stats[k].time ?
		    si->now - si->stats[k].time : 0)));
	progress = si->have_start ? json_pack("{s:I, s:I, s:i}",
	    "units_done", (json_int_t)si->done, "units_total", (json_int_t)si->total,
	    "rounds", si->rounds) : json_null();
	live = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:o, s:I, s:s, s:o, s:o, "
	    "s:o, s:o}",
	    "elapsed", jobfield_json(st, ji, JF_ELAPSED),
	    "exit", jobfield_json(st, ji, JF_EXIT),
	    "nodes", jobfield_json(st, ji, JF_NODES),
	    "makespan", st->phase == JOB_DONE ? jsonout_num(st->makespan) : json_null(),
	    "exit_code", final ? json_integer(cmd_phase_exit(st->phase)) : json_null(),
	    "mpiexec_exit", st->exit_code >= 0 ? json_integer(st->exit_code) : json_null(),
	    "progress", progress,
	    "failed_ranks", failed,
	    "requeued", (json_int_t)si->requeued,
	    "rankmap", rankmap,
	    "leftover_processes", (json_int_t)si->leftover,
	    "dir", st->dir,
	    "supervisor_alive", json_boolean(si->supervisor_alive),
	    "remote_nodes", nodes,
	    "remote_checked", jobstore_json_time(si->checked),
	    "node_values", stats);
	o = jobstore_state_json(st);
	if (o != NULL && (live == NULL || json_object_update(o, live) != 0)) {
		json_decref(o);
		o = NULL;
	}
	json_decref(live);
	return o;
}

static const struct option status_longopts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ NULL, 0, NULL, 0 }
};

static int
cmd_status_exec(int argc, char **argv)
{
	struct job_state st;
	struct status_info si;
	struct jobfield_info ji;
	int c, json = 0, code;

	while ((c = cmd_getopt(argc, argv, &cmd_status_entry)) != -1)
		if (c == 'j')
			json = 1;
	if (argc - optind > 1)
		cmd_usage_error(&cmd_status_entry, "one job id at a time");
	if ((code = cmd_open_job(optind < argc ? argv[optind] : NULL, &st, 1)) != EXIT_OK)
		return code;
	status_live_ends(&st);
	status_collect(&st, &si);
	jobfield_info(&st, &ji);
	if (json)
		code = jsonout_print(status_json(&st, &si, &ji)) == 0 ? EXIT_OK : EXIT_FAILED;
	else
		status_print_text(&st, &si, &ji);
	status_free(&si);
	job_state_free(&st);
	return code;
}

const struct cmd_entry cmd_status_entry = {
	"status", "[ID] [--json]",
	"show a job's state, placement and progress (the latest job by default)",
	"  ID                    the job (default: the latest)\n"
	"      --json            one JSON document (gridsubmit-json(5)) instead of text\n"
	"a job whose supervisor died is shown, and recorded, as 'failed (supervisor died)',\n"
	"with its remote nodes as not checked (or as the last cancel found them);\n"
	"'gridsubmit cancel ID' stops what it left running, here and on the nodes.\n"
	"each rank's end (exit status or signal) is shown beside its placement; while the\n"
	"job runs, each placed node's load and CPU busy share from its monitor, with their age.\n"
	"exit status: 0, 2 no such job, 3 the job's state.json is unreadable or corrupt\n",
	cmd_status_exec, NULL, status_longopts, NULL, CMD_OPERAND_JOB
};
