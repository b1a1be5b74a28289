/*
 * jobctl-remote.c — a job's processes on its remote nodes (jobctl-remote.h).
 *
 * What identifies them on a node, whatever their process group or session (hydra gives
 * each rank's gridsubmit-rank a session of its own, so the proxy's group is not enough):
 * GRIDSUBMIT_JOB=TAG in the environment (every rank and whatever it starts; lease.h),
 * the hydra proxy that is a tagged process's parent, and the proxy the launcher recorded
 * in .remote/HOST.pgid (while it is a hydra proxy started when the file was written).
 * The check runs as one POSIX sh script per node (Linux /proc, GNU or busybox grep -z):
 * nothing of gridsubmit has to be installed there.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "jobctl-remote.h"
#include "jobstore.h"
#include "launch.h"
#include "lease.h"
#include "log.h"
#include "remote.h"
#include "stage.h"
#include "xmalloc.h"

#define CHECK_FILE	"remote-check"
#define OUT_DIR		".remote-check"

/*
 * args: TAG PGIDFILE GRACE; prints "gs-found PID CMD" for what it found, "gs-left PID CMD"
 * for what it could not stop, then "gs-done FOUND LEFT"
 */
static const char jobctl_remote_script[] =
    "t=$1 f=$2 grace=$3\n"
    "hz=$(getconf CLK_TCK 2>/dev/null) || hz=100\n"
    "ns=$(readlink /proc/$$/ns/net 2>/dev/null)\n"
    "bt=$(sed -n 's/^btime //p' /proc/stat)\n"
    "gs_stat() {\n"
    "\ts=$(cat \"/proc/$1/stat\" 2>/dev/null) || return 1\n"
    "\ts=${s##*) }\n"
    "\tset -- $s\n"
    "\tgs_state=$1 gs_ppid=$2\n"
    "\tshift 19\n"
    "\tgs_start=$((bt + $1 / hz))\n"
    "}\n"
    "gs_proxy() {\n"
    "\tgs_stat \"$1\" && [ \"$gs_state\" != Z ] &&\n"
    "\t    [ \"$(cat \"/proc/$1/comm\" 2>/dev/null)\" = hydra_pmi_proxy ]\n"
    "}\n"
    "gs_find() {\n"
    "\tfor e in $(grep -lzxF -e \"GRIDSUBMIT_JOB=$t\" /proc/[0-9]*/environ 2>/dev/null); do\n"
    "\t\tp=${e#/proc/}\n"
    "\t\tp=${p%/environ}\n"
    "\t\tgs_stat \"$p\" || continue\n"
    "\t\t[ \"$(readlink \"/proc/$p/ns/net\" 2>/dev/null)\" = \"$ns\" ] || continue\n"
    "\t\t[ \"$gs_state\" = Z ] && continue\n"
    "\t\techo \"$p\"\n"
    "\t\tq=$gs_ppid\n"
    "\t\tgs_proxy \"$q\" && echo \"$q\"\n"
    "\tdone\n"
    "\tif [ -r \"$f\" ] && read -r g < \"$f\"; then\n"
    "\t\tcase $g in\n"
    "\t\t''|*[!0-9]*) ;;\n"
    "\t\t*)\tif gs_proxy \"$g\"; then\n"
    "\t\t\tm=$(stat -c %Y \"$f\" 2>/dev/null) || m=0\n"
    "\t\t\t[ $((gs_start - m)) -le 120 ] && [ $((m - gs_start)) -le 120 ] &&\n"
    "\t\t\t    echo \"$g\"\n"
    "\t\tfi ;;\n"
    "\t\tesac\n"
    "\tfi\n"
    "}\n"
    "gs_show() {\n"
    "\tl=$1\n"
    "\tshift\n"
    "\tfor p; do\n"
    "\t\techo \"$l $p $(tr '\\0' ' ' < \"/proc/$p/cmdline\" 2>/dev/null | cut -c1-100)\"\n"
    "\tdone\n"
    "}\n"
    "set -- $(gs_find | sort -un)\n"
    "n0=$#\n"
    "gs_show gs-found \"$@\"\n"
    "if [ $# -gt 0 ]; then\n"
    "\tkill -TERM \"$@\" 2>/dev/null\n"
    "\ti=0\n"
    "\twhile [ $i -lt $((grace * 5)) ]; do\n"
    "\t\tsleep 0.2\n"
    "\t\tset -- $(gs_find | sort -un)\n"
    "\t\t[ $# -eq 0 ] && break\n"
    "\t\ti=$((i + 1))\n"
    "\tdone\n"
    "\ti=0\n"
    "\twhile [ $# -gt 0 ] && [ $i -lt 10 ]; do\n"
    "\t\tkill -KILL \"$@\" 2>/dev/null\n"
    "\t\tsleep 0.2\n"
    "\t\tset -- $(gs_find | sort -un)\n"
    "\t\ti=$((i + 1))\n"
    "\tdone\n"
    "fi\n"
    "gs_show gs-left \"$@\"\n"
    "echo \"gs-done $n0 $#\"\n";

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

size_t
jobctl_remote_nodes(const struct job_state *st, struct jobctl_node **nodes)
{
	char *path, *line = NULL, *colon;
	size_t cap = 0, n = 0, i;
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
		if (!host_name_valid(line) || strlen(line) >= sizeof (*nodes)->host ||
		    launch_host_is_local(line))
			continue;
		for (i = 0; i < n && strcmp((*nodes)[i].host, line) != 0; i++)
			;
		if (i < n)
			continue;
		*nodes = xreallocarray(*nodes, n + 1, sizeof **nodes);
		memset(&(*nodes)[n], 0, sizeof **nodes);
		snprintf((*nodes)[n].host, sizeof (*nodes)[n].host, "%s", line);
		n++;
	}
	free(line);
	fclose(f);
	return n;
}

/* The ssh of remote.c, but a connection of its own: a shared one may hang on a dead link. */
static char **
jobctl_remote_argv(const char *config, const char *host, char *const words[])
{
	static const char *const own[] = { "-o", "ControlMaster=no", "-o", "ControlPath=none" };
	char **v, **w;
	size_t n, i, k;

	if ((v = remote_ssh_argv(config, NULL, host, words)) == NULL)
		return NULL;
	for (n = 0; v[n] != NULL; n++)
		;
	/* ssh takes the first value given for an option: ours go before remote.c's */
	w = xcalloc(n + 5, sizeof *w);
	w[0] = v[0];
	for (k = 0; k < 4; k++)
		w[1 + k] = xstrdup(own[k]);
	for (i = 1; i < n; i++)
		w[i + 4] = v[i];
	free(v);
	return w;
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

static char *
jobctl_remote_slurp(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f, *mem;
	char chunk[4096];
	size_t k;

	if ((mem = open_memstream(&buf, &len)) == NULL)
		fatal("open_memstream");
	if ((f = fopen(path, "r")) != NULL) {
		while ((k = fread(chunk, 1, sizeof chunk, f)) > 0 && len < (1 << 20))
			fwrite(chunk, 1, k, mem);
		fclose(f);
	}
	fclose(mem);
	return buf;
}

/* One node's answer (its stdout and stderr files, ssh's status) into nd. */
static void
jobctl_remote_result(struct jobctl_node *nd, const char *outpath, const char *errpath,
    int status, double limit)
{
	char *out = jobctl_remote_slurp(outpath), *err, *p, *nl, cmd[160];
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
	if (status == -1) {
		snprintf(nd->detail, sizeof nd->detail, "no answer within %.0f s", limit);
		return;
	}
	err = jobctl_remote_slurp(errpath);
	jobctl_remote_why(err, nd->detail, sizeof nd->detail);
	jobctl_remote_plain(nd->detail);
	free(err);
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

	if ((f = open_memstream(&buf, &len)) == NULL)
		fatal("open_memstream");
	fprintf(f, "# checked %.3f by gridsubmit cancel: host state stopped left detail\n",
	    clock_wall());
	for (i = 0; i < n; i++)
		fprintf(f, "%s %s %d %d %s\n", nodes[i].host,
		    jobctl_node_state_name(nodes[i].state), nodes[i].stopped, nodes[i].left,
		    nodes[i].detail[0] != '\0' ? nodes[i].detail : "-");
	fclose(f);
	if (jobstore_write_file(st->dir, CHECK_FILE, buf, len) != 0)
		log_warn("%s/%s", st->dir, CHECK_FILE);
	free(buf);
}

size_t
jobctl_remote_stop(const struct job_state *st, struct jobctl_node *nodes, size_t n,
    double grace, double limit)
{
	struct stage_dir *sd = NULL;
	const struct stage_dir *d;
	char tag[128], *config, *outdir, *pgid, gbuf[32], **argv, *words[8];
	char **outs, **errs;
	pid_t *pids;
	int *status;
	size_t i, bad = 0, nsd = 0;

	if (n == 0)
		return 0;
	/* a job from before tags: match nothing by environment, the recorded proxy still */
	if (lease_tag_read(st->dir, tag, sizeof tag) == -1)
		snprintf(tag, sizeof tag, "-");
	if (stage_dirs_read(st->dir, &sd, &nsd) == -1)
		nsd = 0;
	xasprintf(&config, "%s/ssh_config", st->dir);
	xasprintf(&outdir, "%s/%s", st->dir, OUT_DIR);
	if (mkdir(outdir, 0700) == -1 && errno != EEXIST)
		log_warn("%s", outdir);
	snprintf(gbuf, sizeof gbuf, "%.0f", grace);
	pids = xcalloc(n, sizeof *pids);
	status = xcalloc(n, sizeof *status);
	outs = xcalloc(n, sizeof *outs);
	errs = xcalloc(n, sizeof *errs);
	for (i = 0; i < n; i++) {
		/* a node with a job directory of its own has its record there (stage.h) */
		d = stage_dirs_find(sd, nsd, nodes[i].host);
		xasprintf(&pgid, "%s/.remote/%s.pgid", d != NULL ? d->dir : st->dir,
		    nodes[i].host);
		words[0] = "sh";
		words[1] = "-c";
		words[2] = (char *)jobctl_remote_script;
		words[3] = "sh";
		words[4] = tag;
		words[5] = pgid;
		words[6] = gbuf;
		words[7] = NULL;
		xasprintf(&outs[i], "%s/%s.out", outdir, nodes[i].host);
		xasprintf(&errs[i], "%s/%s.err", outdir, nodes[i].host);
		argv = jobctl_remote_argv(config, nodes[i].host, words);
		free(pgid);
		if (argv == NULL) {
			nodes[i].state = JOBCTL_NODE_UNREACHABLE;
			snprintf(nodes[i].detail, sizeof nodes[i].detail, "invalid host name");
			continue;
		}
		pids[i] = remote_spawn(argv, outs[i], errs[i]);
		remote_argv_free(argv);
	}
	remote_wait_all(pids, status, NULL, n, clock_mono() + limit, NULL);
	for (i = 0; i < n; i++) {
		if (pids[i] > 0)
			jobctl_remote_result(&nodes[i], outs[i], errs[i], status[i], limit);
		if (nodes[i].state != JOBCTL_NODE_CLEAN)
			bad++;
		free(outs[i]);
		free(errs[i]);
	}
	jobctl_remote_write(st, nodes, n);
	stage_dirs_free(sd, nsd);
	free(outs);
	free(errs);
	free(pids);
	free(status);
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
		    &off) != 4 || !host_name_valid(host))
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
