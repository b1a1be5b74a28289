/*
 * jobrun-restart.c — relaunching a job after a failure (doc/restarts.md): find the failed
 * nodes, place again without them, record the restart and prepare the new launch in the
 * same job directory, where the master resumes from its journal.
 *
 * A node is taken for failed on two kinds of evidence. Strong: it is out of reach (the
 * cleanup's ssh, its ranks' lease, an ssh probe: launch_lost_nodes). Weak: something of
 * the job died there while the node itself may be well (a `fail` event of the master
 * naming one of its ranks, a rank's wrapper reporting its program's death by a signal,
 * hydra's ssh to it failing during the launch). Both are left out; when the job cannot be
 * placed without them, the weak ones are taken back. Evidence that (nearly) every node
 * shares is none's (jobrun-shared.c). This host is never left out; the master's node on
 * another host is, and rank 0 then runs here.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker/broker.h"
#include "common/clock.h"
#include "common/events-read.h"
#include "common/log.h"
#include "common/rank-end.h"
#include "common/text.h"
#include "common/xmalloc.h"
#include "launch/launch.h"
#include "remote/remote.h"
#include "submit/jobrun.h"

#define RESTART_PROBE_TIMEOUT	5.0	/* seconds for every node to answer `ssh HOST true` */
#define RESTART_LINE_MAX	4096	/* bytes of a stderr line looked at */
#define RESTART_SCRATCH	"no journal: the program starts again from scratch"

static void
restart_find_free(struct restart_find *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->why[i]);
	free(f->why);
	free(f->strong);
	free(f->rank);
}

/*
 * 1 when the node may be left out: it had ranks and is not this host. Rank 0's node on
 * another host (the site file's master) may be: the relaunch runs rank 0 here then
 * (jobrun_master_place), where the journal is.
 */
static int
restart_may_exclude(const struct jobrun *jr, const struct restart_find *f, size_t node)
{
	if (node >= f->n || f->rank[node] < 0)
		return 0;
	return !remote_host_is_local(jr->sites.nodes[node].host);
}

/* A weak sign against the node of rank r (the first sign of a node is kept). */
static void
restart_weak(const struct jobrun *jr, struct restart_find *f, int r, const char *text)
{
	size_t node;

	if (r < 0 || r >= jr->place.nranks)
		return;
	node = jr->place.ranks[r].node;
	if (!restart_may_exclude(jr, f, node) || f->why[node] != NULL)
		return;
	f->why[node] = xstrdup(text);
}

/* The rank of the placement on host (its lowest), or -1. */
static int
restart_host_rank(const struct jobrun *jr, const char *host)
{
	int r;

	for (r = 0; r < jr->place.nranks; r++)
		if (jr->place.ranks[r].node != BROKER_NODE_NONE &&
		    strcmp(jr->sites.nodes[jr->place.ranks[r].node].host, host) == 0)
			return r;
	return -1;
}

/* The master's `fail` events since the last launch began. */
static void
restart_from_events(const struct jobrun *jr, struct restart_find *f)
{
	struct evreader *r;
	struct event ev;
	int *failed = xcalloc((size_t)jr->place.nranks + 1, sizeof *failed), i;
	char *path, (*why)[EV_TEXT_MAX];

	why = xcalloc((size_t)jr->place.nranks + 1, sizeof *why);
	xasprintf(&path, "%s/events.jsonl", jr->st.dir);
	r = evreader_open(path);
	free(path);
	memset(&ev, 0, sizeof ev);
	while (r != NULL && evreader_next(r, &ev) == 1) {
		if (ev.kind == EV_START || ev.kind == EV_RESTART)
			memset(failed, 0, ((size_t)jr->place.nranks + 1) * sizeof *failed);
		else if (ev.kind == EV_FAIL && ev.rank < jr->place.nranks && !failed[ev.rank]) {
			failed[ev.rank] = 1;
			snprintf(why[ev.rank], sizeof why[ev.rank], "%s", ev.text);
		}
		event_clear(&ev);
	}
	evreader_free(r);
	for (i = 0; i < jr->place.nranks; i++) {
		if (!failed[i])
			continue;
		xasprintf(&path, "rank %d failed (%s)", i, why[i][0] != '\0' ? why[i] :
		    "no reason given");
		restart_weak(jr, f, i, path);
		free(path);
	}
	free(failed);
	free(why);
}

/*
 * The launch's stderr: "gridsubmit-rank: rank R on HOST: PROG died of signal N" (the
 * rank's wrapper saw its program killed; not by SIGTERM, SIGHUP or SIGINT, which stop a
 * job's ranks when it ends) and "gridsubmit: ssh to HOST failed; ..." (hydra's launcher
 * could not reach the node).
 */
static void
restart_from_stderr(const struct jobrun *jr, struct restart_find *f)
{
	char *path, *line = NULL, host[256], text[128];
	size_t cap = 0;
	ssize_t len;
	FILE *fp;
	int r, sig;

	xasprintf(&path, "%s/stderr", jr->st.dir);
	fp = fopen(path, "r");
	free(path);
	if (fp == NULL)
		return;
	while ((len = getline(&line, &cap, fp)) > 0) {
		if (len > RESTART_LINE_MAX)
			continue;
		if (sscanf(line, "gridsubmit-rank: rank %d on %255[^:]:", &r, host) == 2 &&
		    strstr(line, " died of signal ") != NULL &&
		    sscanf(strstr(line, " died of signal ") + 16, "%d", &sig) == 1 &&
		    sig != SIGTERM && sig != SIGHUP && sig != SIGINT) {
			snprintf(text, sizeof text, "rank %d's program died of signal %d", r,
			    sig);
			restart_weak(jr, f, r, text);
		} else if (sscanf(line, "gridsubmit: ssh to %255s failed", host) == 1 &&
		    (r = restart_host_rank(jr, host)) >= 0) {
			snprintf(text, sizeof text, "hydra's ssh to rank %d's node failed", r);
			restart_weak(jr, f, r, text);
		}
	}
	free(line);
	fclose(fp);
}

/* Every sign of the last launch against its nodes (doc/restarts.md). */
static void
restart_find(struct jobrun *jr, struct restart_find *f)
{
	char **lost;
	size_t i;
	int r;

	f->n = jr->sites.nnodes;
	f->why = xcalloc(f->n + 1, sizeof *f->why);
	f->strong = xcalloc(f->n + 1, sizeof *f->strong);
	f->rank = xcalloc(f->n + 1, sizeof *f->rank);
	for (i = 0; i < f->n; i++)
		f->rank[i] = -1;
	for (r = jr->place.nranks - 1; r >= 0; r--)
		if (jr->place.ranks[r].node != BROKER_NODE_NONE)
			f->rank[jr->place.ranks[r].node] = r;
	lost = xcalloc(f->n + 1, sizeof *lost);
	if (broker_placement_remote(&jr->sites, &jr->place))
		launch_lost_nodes(&jr->launch, RESTART_PROBE_TIMEOUT, lost);
	for (i = 0; i < f->n; i++) {
		if (lost[i] != NULL && restart_may_exclude(jr, f, i)) {
			xasprintf(&f->why[i], "rank %d's node %s", f->rank[i], lost[i]);
			f->strong[i] = 1;
		}
		free(lost[i]);
	}
	free(lost);
	restart_from_events(jr, f);
	restart_from_stderr(jr, f);
}

/*
 * Rank and place the job again over the nodes not excluded: as many ranks as it asks for
 * when there are places, else as many as there are, down to its min_ranks. The new
 * ranking and placement replace jr's. 0, or -1 with why.
 */
static int
restart_replace(struct jobrun *jr, char *why, size_t whylen)
{
	struct gs_ranking rk;
	struct gs_placement pl;
	struct gs_error err;
	char *master = jr->sites.master != NULL ? xstrdup(jr->sites.master) : NULL, note[1024];
	int noted;

	/* a master node left out: rank 0 here (said only when the job is placed so) */
	noted = jobrun_master_place(&jr->sites, note, sizeof note);
	if (broker_rank(&jr->sites, &jr->job, &rk, &err) != 0) {
		snprintf(why, whylen, "%s", err.msg);
		free(jr->sites.master);
		jr->sites.master = master;
		return -1;
	}
	if (broker_place_job(&jr->sites, &rk, &jr->job, &pl, &err) != 0) {
		snprintf(why, whylen, "no placement without the failed nodes: %s", err.msg);
		broker_ranking_free(&rk);
		free(jr->sites.master);
		jr->sites.master = master;
		return -1;
	}
	if (noted)
		fprintf(stderr, "gridsubmit: job %s: %s\n", jr->st.id, note);
	free(master);
	broker_placement_free(&jr->place);
	broker_ranking_free(&jr->ranking);
	jr->place = pl;
	jr->ranking = rk;
	return 0;
}

/*
 * Leave out the failed nodes of f and place again: strong and weak ones, else (no
 * placement) the strong ones only. The nodes left out go to *ex (allocated host names,
 * *nex of them) and their reasons, "; "-joined, to text. 0, or -1 with why.
 */
static int
restart_exclude(struct jobrun *jr, const struct restart_find *f, char ***ex, size_t *nex,
    char **text, char *why, size_t whylen)
{
	size_t i, k;
	int pass, rc = 0;

	*ex = xcalloc(f->n + 1, sizeof **ex);
	for (pass = 0; pass < 2; pass++) {
		*nex = 0;
		for (i = 0; i < f->n; i++) {
			if (f->why[i] == NULL || (pass == 1 && !f->strong[i]))
				continue;
			free(jr->sites.nodes[i].excluded);
			jr->sites.nodes[i].excluded = xstrdup(f->why[i]);
			(*ex)[(*nex)++] = jr->sites.nodes[i].host;
		}
		/* nothing (more) to leave out: the same placement again */
		if (*nex == 0) {
			rc = 0;
			break;
		}
		if ((rc = restart_replace(jr, why, whylen)) == 0)
			break;
		for (i = 0; i < f->n; i++)
			if (f->why[i] != NULL && !f->strong[i]) {
				free(jr->sites.nodes[i].excluded);
				jr->sites.nodes[i].excluded = NULL;
			}
	}
	*text = NULL;
	for (k = 0; rc == 0 && k < *nex; k++)
		for (i = 0; i < f->n; i++)
			if (jr->sites.nodes[i].host == (*ex)[k])
				xasprintf(text, "%s%s%s", *text != NULL ? *text : "",
				    *text != NULL ? "; " : "", f->why[i]);
	return rc;
}

/*
 * 1 when the relaunch starts the program from its beginning: the launch never started
 * libgrt, and no earlier launch left a journal (a libgrt program that died before its
 * start record still resumes from one).
 */
static int
restart_from_scratch(const struct jobrun *jr)
{
	struct stat sb;
	char *path;
	int none;

	if (!jr->plain)
		return 0;
	xasprintf(&path, "%s/journal", jr->st.dir);
	none = stat(path, &sb) == -1;
	free(path);
	return none;
}

int
jobrun_restart(struct jobrun *jr, const char *reason, int restartable)
{
	struct restart_find f;
	struct launch_plan plan;
	char why[4096], msg[8192], note[2048], **ex = NULL, *text = NULL, *p;
	size_t nex = 0;
	int rc;

	if (launch_cancel_requested())
		return jobrun_cancel_record(&jr->st, NULL, why, sizeof why);
	if (!restartable) {
		snprintf(msg, sizeof msg, "%s; no restart: the program failed by itself",
		    reason);
		return jobrun_fail(jr, EXIT_FAILED, msg, 0);
	}
	if (jr->restarts_here >= jr->restarts_max) {
		if (jr->restarts_max == 0)
			snprintf(msg, sizeof msg, "%s; no restart allowed (restarts: 0)", reason);
		else
			snprintf(msg, sizeof msg, "%s; no restart left (%d of %d used)", reason,
			    jr->restarts_here, jr->restarts_max);
		return jobrun_fail(jr, EXIT_FAILED, msg, 0);
	}
	restart_find(jr, &f);
	/*
	 * evidence the nodes share is none's: relaunched on them once, then final (which of
	 * the two rules applies can differ between launches: how many nodes' ranks died
	 * before mpiexec stopped the others is a race)
	 */
	if (jobrun_shared(jr, &f, note, sizeof note) != JOBRUN_SHARED_NONE &&
	    jr->shared_relaunched++ > 0) {
		restart_find_free(&f);
		snprintf(msg, sizeof msg, "%s; cannot relaunch: %s, again after a relaunch "
		    "that kept those nodes", reason, note);
		return jobrun_fail(jr, EXIT_FAILED, msg, 0);
	}
	rc = restart_exclude(jr, &f, &ex, &nex, &text, why, sizeof why);
	restart_find_free(&f);
	if (rc != 0) {
		snprintf(msg, sizeof msg, "%s; cannot relaunch: %s", reason, why);
		free(ex);
		return jobrun_fail(jr, EXIT_FAILED, msg, 0);
	}
	if (*note != '\0') {
		xasprintf(&p, "%s; %s", text != NULL ? text : reason, note);
		free(text);
		text = p;
	}
	jr->restarts_here++;
	/* without libgrt there is no journal to resume from: said where the restart is */
	if (restart_from_scratch(jr)) {
		xasprintf(&p, "%s; %s", text != NULL ? text : reason, RESTART_SCRATCH);
		free(text);
		text = p;
	}
	jobrun_restart_record(jr, text != NULL ? text : reason, ex, nex, 0);
	free(text);
	free(ex);
	launch_free(&jr->launch);
	plan = (struct launch_plan){ &jr->sites, &jr->job, &jr->ranking, &jr->place, &jr->st,
	    jr->speculate, jr->sim, jr->quiet };
	switch (launch_prepare(&jr->launch, &plan, why, sizeof why)) {
	case LAUNCH_OK:
		return EXIT_OK;
	case LAUNCH_CANCELLED:
		return jobrun_cancel_record(&jr->st, why, msg, sizeof msg);
	default:
		return jobrun_fail(jr, EXIT_LAUNCH, why, 1);
	}
}

void
jobrun_event_append(const struct job_state *st, json_t *o, const char *kind)
{
	char *path, *text, last;
	struct stat sb;
	int fd;

	if (o == NULL || (text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(9))) == NULL)
		fatalx("cannot build the %s event", kind);
	json_decref(o);
	xasprintf(&path, "%s/events.jsonl", st->dir);
	if ((fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644)) == -1 ||
	    fstat(fd, &sb) == -1 ||
	    (sb.st_size > 0 && pread(fd, &last, 1, sb.st_size - 1) == 1 && last != '\n' &&
	    write(fd, "\n", 1) != 1) ||
	    write(fd, text, strlen(text)) != (ssize_t)strlen(text) || write(fd, "\n", 1) != 1 ||
	    fsync(fd) == -1)
		log_warn("job %s: %s: cannot append the %s event", st->id, path, kind);
	if (fd != -1)
		close(fd);
	free(path);
	free(text);
}

/* The restart event (doc/restarts.md): its number, reason and the nodes left out. */
static void
restart_event(const struct job_state *st, const char *reason, char *const *ex, size_t nex)
{
	json_t *hosts = json_array();
	double t = st->t0 > 0 ? clock_wall() - st->t0 : 0;
	size_t i;

	for (i = 0; i < nex; i++)
		json_array_append_new(hosts, json_string(ex[i]));
	jobrun_event_append(st, json_pack("{s:i, s:f, s:s, s:i, s:s, s:o}", "v", 1, "t",
	    t > 0 ? t : 0.0, "ev", "restart", "n", st->restarts, "reason", reason, "excluded",
	    hosts), "restart");
}

/* The last launch's traces out of the way of the next one (doc/restarts.md). */
static void
restart_tidy(const struct job_state *st)
{
	static const char *const kept[] = { "stdout", "stderr", RANK_ENDS_FILE };
	char *from, *to;
	struct dirent *de;
	size_t i;
	DIR *d;

	for (i = 0; i < sizeof kept / sizeof kept[0]; i++) {
		xasprintf(&from, "%s/%s", st->dir, kept[i]);
		xasprintf(&to, "%s/%s.%d", st->dir, kept[i], st->restarts);
		if (rename(from, to) == -1 && errno != ENOENT)
			log_warn("job %s: cannot keep %s as %s", st->id, from, to);
		free(from);
		free(to);
	}
	xasprintf(&from, "%s/master.status", st->dir);
	unlink(from);
	free(from);
	/* what a cancel found on the nodes is of the launch before (status shows it) */
	xasprintf(&from, "%s/remote-check", st->dir);
	unlink(from);
	free(from);
	/* the nodes' marks of the last launch: a stop mark would stop the next one */
	xasprintf(&from, "%s/.remote", st->dir);
	if ((d = opendir(from)) != NULL) {
		while ((de = readdir(d)) != NULL)
			if (de->d_name[0] != '.')
				unlinkat(dirfd(d), de->d_name, 0);
		closedir(d);
	}
	free(from);
}

void
jobrun_restart_record(struct jobrun *jr, const char *reason, char *const *excluded,
    size_t nexcluded, int resumed)
{
	struct job_state *st = &jr->st;
	char clean[1024], *list = NULL, *p;
	size_t i;

	text_clean(clean, sizeof clean, reason, strlen(reason));
	st->restarts++;
	jobstore_restart_add(st, clock_wall(), clean, excluded, nexcluded);
	if (jobstore_write_state(st) != 0)
		log_warn("job %s: %s/state.json", st->id, st->dir);
	restart_event(st, clean, excluded, nexcluded);
	restart_tidy(st);
	for (i = 0; i < nexcluded; i++) {
		xasprintf(&p, "%s%s%s", list != NULL ? list : "", list != NULL ? ", " : "",
		    excluded[i]);
		free(list);
		list = p;
	}
	/* a resume is said by its command, with the placement, in one line */
	if (!resumed) {
		fprintf(stderr, "gridsubmit: job %s: restart %d of %d %s%s: %s\n", st->id,
		    jr->restarts_here, jr->restarts_max, list != NULL ? "without " :
		    "on the same nodes", list != NULL ? list : "", clean);
		fflush(stderr);
	}
	free(list);
}
