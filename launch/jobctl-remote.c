/*
 * jobctl-remote.c — a job's processes on its remote nodes (jobctl-remote.h).
 *
 * What identifies them on a node, whatever their process group or session (hydra gives
 * each rank's gridsubmit-rank a session of its own, so the proxy's group is not enough):
 * GRIDSUBMIT_JOB=TAG in the environment (every rank and whatever it starts; lease.h),
 * the hydra proxy that is a tagged process's parent, and the proxy the launcher recorded
 * in .remote/HOST.pgid (while it is a hydra proxy started when the file was written).
 * The check runs as one POSIX sh script per node (remote_cancel, sh/remote-cancel.sh; Linux
 * /proc, GNU or busybox grep -z): nothing of gridsubmit has to be installed there.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/file.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "launch/jobctl-remote.h"
#include "launch/launch-int.h"
#include "launch/launch.h"
#include "launch/lease.h"
#include "launch/remote-cancel.h"
#include "launch/stage.h"
#include "remote/remote.h"
#include "store/jobstore.h"

#define CHECK_FILE	"remote-check"
#define OUT_DIR		".remote-check"

const char *
jobctl_node_state_name(enum jobctl_node_state s)
{
	switch (s) {
	case JOBCTL_NODE_CLEAN:
		return "clean";
	case JOBCTL_NODE_LEFT:
		return "left";
	case JOBCTL_NODE_UNREACHABLE:
		return "unreachable";
	default:
		return "unchecked";
	}
}

static enum jobctl_node_state
jobctl_node_state_parse(const char *s)
{
	if (strcmp(s, "clean") == 0)
		return JOBCTL_NODE_CLEAN;
	if (strcmp(s, "left") == 0)
		return JOBCTL_NODE_LEFT;
	if (strcmp(s, "unreachable") == 0)
		return JOBCTL_NODE_UNREACHABLE;
	return JOBCTL_NODE_UNCHECKED;
}

static int
jobctl_remote_cmp_at(const void *a, const void *b, void *arg)
{
	const struct jobctl_node *v = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(v[x].host, v[y].host);

	return c != 0 ? c : (x > y) - (x < y);
}

/*
 * Keep the first of each host among the n nodes, in their order; returns how many are
 * left. Found over the hosts sorted: comparing each with every earlier one took a
 * quarter of a second of CPU for a hostfile of 10,000 nodes.
 */
static size_t
jobctl_remote_unique(struct jobctl_node *v, size_t n)
{
	unsigned char *drop;
	size_t *at, i, k;

	if (n < 2)
		return n;
	at = xreallocarray(NULL, n, sizeof *at);
	drop = xcalloc(n, 1);
	for (i = 0; i < n; i++)
		at[i] = i;
	qsort_r(at, n, sizeof *at, jobctl_remote_cmp_at, v);
	for (i = 1; i < n; i++)
		drop[at[i]] = strcmp(v[at[i - 1]].host, v[at[i]].host) == 0;
	for (i = k = 0; i < n; i++)
		if (!drop[i])
			v[k++] = v[i];
	free(drop);
	free(at);
	return k;
}

size_t
jobctl_remote_nodes(const struct job_state *st, struct jobctl_node **nodes)
{
	char *path, *line = NULL, *colon;
	size_t cap = 0, cap_nodes = 0, n = 0;
	FILE *f;

	*nodes = NULL;
	xasprintf(&path, "%s/hostfile", st->dir);
	f = fopen(path, "r");
	free(path);
	if (f == NULL)
		return 0;
	/* "host:slots [user=U]", one line per node in rank order (broker_write_hostfile) */
	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, " \t\n")] = '\0';
		if ((colon = strchr(line, ':')) != NULL)
			*colon = '\0';
		if (!remote_host_valid(line) || strlen(line) >= sizeof (*nodes)->host ||
		    remote_host_is_local(line))
			continue;
		if (n == cap_nodes) {
			cap_nodes = cap_nodes ? 2 * cap_nodes : 16;
			*nodes = xreallocarray(*nodes, cap_nodes, sizeof **nodes);
		}
		memset(&(*nodes)[n], 0, sizeof **nodes);
		snprintf((*nodes)[n].host, sizeof (*nodes)[n].host, "%s", line);
		n++;
	}
	free(line);
	fclose(f);
	return jobctl_remote_unique(*nodes, n);
}

/* The last line of text that looks like ssh's own error, else the last non-empty one. */
static void
jobctl_remote_why(const char *text, char *buf, size_t len)
{
	const char *p = text, *nl, *last = NULL, *ssh = NULL;
	size_t n, k;

	while (*p != '\0') {
		nl = strchr(p, '\n');
		n = nl != NULL ? (size_t)(nl - p) : strlen(p);
		if (n > 0) {
			last = p;
			if (strncmp(p, "ssh:", 4) == 0 || strstr(p, "Permission denied") != NULL)
				ssh = p;
		}
		p += n + (nl != NULL);
	}
	if (ssh != NULL)
		last = ssh;
	if (last == NULL) {
		snprintf(buf, len, "ssh said nothing");
		return;
	}
	n = strcspn(last, "\n");
	for (k = 0; k < n && k + 1 < len; k++)
		buf[k] = (unsigned char)last[k] < ' ' ? ' ' : last[k];
	while (k > 0 && buf[k - 1] == ' ')
		k--;
	buf[k] = '\0';
}

/* Details come from the nodes and go to terminals and JSON: printable ASCII only. */
static void
jobctl_remote_plain(char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < ' ' || (unsigned char)*s >= 0x7f)
			*s = '?';
}

/* One node's answer (its stdout and stderr, ssh's status) into nd. */
static void
jobctl_remote_result(struct jobctl_node *nd, const char *text, const char *err, int status,
    double limit)
{
	char *out = xstrdup(text), *p, *nl, cmd[160];
	size_t off = 0;
	long pid;
	int found = -1, left = -1;

	for (p = out; p != NULL && *p != '\0'; p = nl != NULL ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl != NULL)
			*nl = '\0';
		if (sscanf(p, "gs-done %d %d", &found, &left) == 2)
			continue;
		if (sscanf(p, "gs-left %ld %159[^\n]", &pid, cmd) >= 1 && off < sizeof nd->detail)
			off += (size_t)snprintf(nd->detail + off, sizeof nd->detail - off,
			    "%s%ld %s", off > 0 ? "; " : "", pid, cmd);
	}
	free(out);
	jobctl_remote_plain(nd->detail);
	if (status == 0 && found >= 0 && left >= 0) {
		nd->left = left;
		nd->stopped = found > left ? found - left : 0;
		nd->state = left == 0 ? JOBCTL_NODE_CLEAN : JOBCTL_NODE_LEFT;
		if (left == 0)
			nd->detail[0] = '\0';
		return;
	}
	nd->state = JOBCTL_NODE_UNREACHABLE;
	if (status == PROC_DEADLINE) {
		snprintf(nd->detail, sizeof nd->detail, "no answer within %.0f s", limit);
		return;
	}
	jobctl_remote_why(err, nd->detail, sizeof nd->detail);
	jobctl_remote_plain(nd->detail);
	if (status != 255) {
		char tmp[sizeof nd->detail];

		snprintf(tmp, sizeof tmp, "the check failed (status %d): %s", status, nd->detail);
		snprintf(nd->detail, sizeof nd->detail, "%s", tmp);
	}
}

/* DIR/remote-check: "# checked T", then "HOST STATE STOPPED LEFT DETAIL" per node. */
static void
jobctl_remote_write(const struct job_state *st, const struct jobctl_node *nodes, size_t n)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f;

	if ((f = open_memstream(&buf, &len)) == NULL) {
		log_warn("%s/%s", st->dir, CHECK_FILE);
		return;
	}
	fprintf(f, "# checked %.3f by gridsubmit cancel: host state stopped left detail\n",
	    clock_wall());
	for (i = 0; i < n; i++)
		fprintf(f, "%s %s %d %d %s\n", nodes[i].host,
		    jobctl_node_state_name(nodes[i].state), nodes[i].stopped, nodes[i].left,
		    nodes[i].detail[0] != '\0' ? nodes[i].detail : "-");
	fclose(f);
	if (file_write_atomic(st->dir, CHECK_FILE, buf, len, 0644) != 0)
		log_warn("%s/%s", st->dir, CHECK_FILE);
	free(buf);
}

/* A node's raw answer, DIR/.remote-check/HOST.SUFFIX: what the check found, for a person. */
static void
jobctl_remote_keep(const char *outdir, const char *host, const char *suffix,
    const char *text)
{
	size_t len = strlen(text);
	char *path;
	int fd;

	xasprintf(&path, "%s/%s.%s", outdir, host, suffix);
	/* a new file: whatever is there (a planted link) is removed, never written through */
	unlink(path);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0600)) == -1 ||
	    write(fd, text, len) != (ssize_t)len)
		log_warn("%s", path);
	if (fd != -1)
		close(fd);
	free(path);
}

size_t
jobctl_remote_stop(const struct job_state *st, struct jobctl_node *nodes, size_t n,
    double grace, double limit)
{
	struct remote_cancel_how how = { .grace = grace, .own_connection = 1, .limit = limit };
	struct remote_cancel_node *rc;
	struct stage_dir *sd = NULL;
	const struct stage_dir *d;
	char tag[128], *config, *outdir;
	size_t i, bad = 0, nsd = 0;

	if (n == 0)
		return 0;
	/* a job from before tags: match nothing by environment, the recorded proxy still */
	if (lease_tag_read(st->dir, tag, sizeof tag) == -1)
		snprintf(tag, sizeof tag, "-");
	how.tag = tag;
	if (stage_dirs_read(st->dir, &sd, &nsd) == -1)
		nsd = 0;
	xasprintf(&config, "%s/ssh_config", st->dir);
	xasprintf(&outdir, "%s/%s", st->dir, OUT_DIR);
	if (mkdir(outdir, 0700) == -1 && errno != EEXIST)
		log_warn("%s", outdir);
	rc = xcalloc(n, sizeof *rc);
	for (i = 0; i < n; i++) {
		/* a node with a job directory of its own has its record there (stage.h) */
		d = stage_dirs_find(sd, nsd, nodes[i].host);
		rc[i].host = nodes[i].host;
		rc[i].dir = d != NULL ? d->dir : st->dir;
	}
	remote_cancel(config, &how, rc, n);
	for (i = 0; i < n; i++) {
		if (!rc[i].sent) {
			nodes[i].state = JOBCTL_NODE_UNREACHABLE;
			snprintf(nodes[i].detail, sizeof nodes[i].detail, "invalid host name");
		} else {
			jobctl_remote_keep(outdir, nodes[i].host, "out", rc[i].task.out);
			jobctl_remote_keep(outdir, nodes[i].host, "err", rc[i].task.err);
			jobctl_remote_result(&nodes[i], rc[i].task.out, rc[i].task.err,
			    rc[i].task.status, limit);
		}
		if (nodes[i].state != JOBCTL_NODE_CLEAN)
			bad++;
	}
	jobctl_remote_write(st, nodes, n);
	remote_cancel_free(rc, n);
	free(rc);
	stage_dirs_free(sd, nsd);
	free(outdir);
	free(config);
	return bad;
}

int
jobctl_remote_read(const struct job_state *st, struct jobctl_node **nodes, size_t *n,
    double *when)
{
	char *path, *line = NULL, host[256], state[32];
	struct jobctl_node nd;
	size_t cap = 0;
	int off;
	FILE *f;

	*nodes = NULL;
	*n = 0;
	*when = 0;
	xasprintf(&path, "%s/%s", st->dir, CHECK_FILE);
	f = fopen(path, "r");
	free(path);
	if (f == NULL)
		return -1;
	while (getline(&line, &cap, f) > 0 && *n < 100000) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#') {
			sscanf(line, "# checked %lf", when);
			continue;
		}
		memset(&nd, 0, sizeof nd);
		if (sscanf(line, "%255s %31s %d %d %n", host, state, &nd.stopped, &nd.left,
		    &off) != 4 || !remote_host_valid(host))
			continue;
		snprintf(nd.host, sizeof nd.host, "%s", host);
		nd.state = jobctl_node_state_parse(state);
		snprintf(nd.detail, sizeof nd.detail, "%s", strcmp(line + off, "-") == 0 ? "" :
		    line + off);
		jobctl_remote_plain(nd.detail);
		*nodes = xreallocarray(*nodes, *n + 1, sizeof **nodes);
		(*nodes)[(*n)++] = nd;
	}
	free(line);
	fclose(f);
	return 0;
}
