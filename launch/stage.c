/* stage.c — the job's files to the nodes that lack them and its outputs back (stage.h). */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/file.h"
#include "common/fstree.h"
#include "common/log.h"
#include "common/proc.h"
#include "common/xmalloc.h"
#include "gen/embedded-sh-launch.h"
#include "launch/launch-int.h"
#include "launch/launch.h"
#include "launch/rank/rank-preload.h"
#include "launch/remote-cancel.h"
#include "launch/stage.h"
#include "remote/remote.h"

#define STAGE_DEADLINE	600.0	/* seconds a node's copies of one phase may take */
#define CLEAN_DEADLINE	30.0
#define DIRS_FILE	"remote-dirs"
#define REMOTE_JOBS	"/.gridsubmit/jobs/"
/* the binaries a node's bin/ may get: the program, gridsubmit-rank and its finalize library */
#define STAGE_BINS	3

int
stage_in_local(const struct gs_job *job, const struct job_state *st, char *why, size_t whylen)
{
	char *src, *dst, *base, msg[1024];
	size_t i;
	int rc = 0;

	for (i = 0; i < job->nstage_in && rc == 0; i++) {
		src = job_stage_in_source(job, i);
		base = job_path_base(job->stage_in[i]);
		xasprintf(&dst, "%s/%s", st->dir, base);
		if ((rc = fstree_copy(src, dst, msg, sizeof msg)) != 0)
			snprintf(why, whylen, "stage_in: %s", msg);
		free(src);
		free(dst);
		free(base);
	}
	return rc;
}

char *
stage_dir_name(const struct job_state *st, const char *token)
{
	char host[256], *p, *name;

	if (gethostname(host, sizeof host) != 0)
		snprintf(host, sizeof host, "host");
	host[64] = '\0';
	for (p = host; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '-' || *p == '.'))
			*p = '-';
	xasprintf(&name, "%s-%s-%.8s", *host != '\0' ? host : "host", st->id, token);
	return name;
}

int
stage_dir_valid(const char *dir, const char *name)
{
	size_t len = strlen(dir), tail = strlen(REMOTE_JOBS) + strlen(name);
	const char *p;

	if (dir[0] != '/' || len <= tail || len > 512 || strstr(dir, "/../") != NULL ||
	    strstr(dir, "/./") != NULL || strcmp(dir + len - strlen(name), name) != 0 ||
	    strncmp(dir + len - tail, REMOTE_JOBS, strlen(REMOTE_JOBS)) != 0)
		return 0;
	for (p = dir; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/._-+@~", *p) != NULL))
			return 0;
	return 1;
}

/* A line of DIR/stage.log: what was copied where, how much, how long. */
static void
stage_log(const struct job_state *st, const char *fmt, ...)
{
	char *path;
	va_list ap;
	FILE *f;

	xasprintf(&path, "%s/stage.log", st->dir);
	if ((f = fopen(path, "a")) != NULL) {
		va_start(ap, fmt);
		vfprintf(f, fmt, ap);
		va_end(ap);
		fputc('\n', f);
		fclose(f);
	}
	free(path);
}

/*
 * scp -rp of the sources (files or directories) to one destination, with the ssh options
 * of remote.c.
 */
static char **
stage_scp_argv(const char *config, char *const srcs[], size_t nsrc, const char *to)
{
	char **v;
	size_t n, i;

	v = remote_tool_argv("scp", config, nsrc + 5, &n);
	v[n++] = xstrdup("-q");
	v[n++] = xstrdup("-r");
	v[n++] = xstrdup("-p");
	v[n++] = xstrdup("--");
	for (i = 0; i < nsrc; i++)
		v[n++] = xstrdup(srcs[i]);
	v[n++] = xstrdup(to);
	v[n] = NULL;
	return v;
}

/* The words of sh/stage-hash.sh for one directory (w: the next free word). */
static size_t
stage_hash_words(char **words, const char *dir)
{
	words[0] = "sh";
	words[1] = "-c";
	words[2] = (char *)sh_stage_hash;
	words[3] = "sh";
	words[4] = (char *)dir;
	return 5;
}

/*
 * Compare one node's answer (sh/stage-hash.sh, in the order of its words) with this
 * host's hashes: the name of the first file that differs, or NULL. *same: how many agreed.
 */
static const char *
stage_verify_answer(const struct stage_dir *d, const char *out, char (*hash)[65],
    size_t nloc, char *const names[], char *const rel[], size_t *same)
{
	const char *p = out;
	size_t i, len;

	*same = 0;
	for (i = 0; i < nloc; i++) {
		/* the node's answers come in the order of its words: skip what was not sent */
		if ((i == 0 && !d->program) || ((i == 1 || i == 2) && !d->rankexec))
			continue;
		len = strcspn(p, "\n");
		if (*p == '\0' || len < 64 || strncmp(p, hash[i], 64) != 0 ||
		    hash[i][0] == '\0')
			return i < STAGE_BINS ? names[i] : rel[i - STAGE_BINS];
		p += len + (p[len] == '\n');
		(*same)++;
	}
	return NULL;
}

/*
 * What arrived is what was sent: the sha256 of every file staged to each node (one ssh
 * each, in parallel) against this host's, both from sh/stage-hash.sh. A node with a
 * missing or different file fails. bins: gridsubmit-rank and its finalize library.
 * Returns the number of nodes that failed here.
 */
static int
stage_verify(const struct gs_job *job, const struct job_state *st, struct stage_dir **d,
    size_t n, const char *config, char *const bins[], char *const in[])
{
	size_t nloc = job->nstage_in + STAGE_BINS, i, k, w, same;
	char **loc = xcalloc(nloc + 6, sizeof *loc), (*hash)[65], **words, **rel;
	char *names[STAGE_BINS], *base = job_path_base(job->program), *l, *save = NULL;
	struct proc_task *t = xcalloc(n + 1, sizeof *t);
	const char *bad;
	struct proc_task pt;
	double t0;
	int nfail = 0;

	/* this host's: the program, gridsubmit-rank, its library, then the stage_in files */
	hash = xcalloc(nloc, sizeof *hash);
	w = stage_hash_words(loc, st->dir);
	loc[w++] = job->program;
	loc[w++] = bins[0];
	loc[w++] = bins[1];
	for (i = 0; i < job->nstage_in; i++)
		loc[w++] = in[i];
	if (proc_run(loc, 60, &pt) == 0)
		for (i = 0, l = strtok_r(pt.out, "\n", &save); i < nloc && l != NULL;
		    i++, l = strtok_r(NULL, "\n", &save))
			snprintf(hash[i], sizeof hash[i], "%.64s", l);
	proc_free(&pt, 1);
	xasprintf(&names[0], "bin/%s", base);
	names[1] = "bin/gridsubmit-rank";
	names[2] = "bin/" RANK_FINALIZE_LIB;
	rel = xcalloc(job->nstage_in + 1, sizeof *rel);
	for (i = 0; i < job->nstage_in; i++)
		rel[i] = in[i] + strlen(st->dir) + 1;
	words = xcalloc(nloc + 8, sizeof *words);
	for (k = 0; k < n; k++) {
		if (d[k]->failed)
			continue;
		w = stage_hash_words(words, d[k]->dir);
		if (d[k]->program)
			words[w++] = names[0];
		if (d[k]->rankexec) {
			words[w++] = names[1];
			words[w++] = names[2];
		}
		for (i = 0; i < job->nstage_in; i++)
			words[w++] = rel[i];
		words[w] = NULL;
		if (w > 5)	/* else nothing was staged there */
			t[k].argv = remote_ssh_argv(config, NULL, d[k]->host, words);
	}
	t0 = clock_mono();
	proc_run_wide(t, n, LAUNCH_FANOUT, STAGE_DEADLINE,
	    t0 + STAGE_DEADLINE * LAUNCH_FANOUT_ROUNDS(n), launch_cancel_requested);
	for (k = 0; k < n; k++) {
		if (t[k].argv == NULL)
			continue;
		bad = t[k].status == 0 ? stage_verify_answer(d[k], t[k].out, hash, nloc, names,
		    rel, &same) : NULL;
		if (t[k].status != 0) {
			same = 0;
			snprintf(d[k]->why, sizeof d[k]->why, "staging: cannot check the "
			    "copies in %s (ssh status %d)", d[k]->dir, t[k].status);
		} else if (bad != NULL)
			snprintf(d[k]->why, sizeof d[k]->why, "staging: %s/%s arrived "
			    "with a different sha256 than here", d[k]->dir, bad);
		if (t[k].status != 0 || bad != NULL) {
			d[k]->failed = 1;
			nfail++;
		}
		stage_log(st, "verify %s %zu %.3f %s", d[k]->host, same, t[k].ended - t0,
		    d[k]->failed ? "failed" : "ok");
	}
	proc_free(t, n);
	free(t);
	free(names[0]);
	free(base);
	free(words);
	free(rel);
	free(loc);
	free(hash);
	return nfail;
}

/*
 * One phase of stage_copy_in to every node that has not failed: 0 the binaries into
 * dir/bin, 1 the stage_in files (in) into dir. A node whose copy fails gets why.
 */
static int
stage_copy_phase(const struct gs_job *job, const struct job_state *st, struct stage_dir **d,
    size_t n, int phase, const char *config, char *const bins[], char *const in[])
{
	struct proc_task *t = xcalloc(n + 1, sizeof *t);
	long long *bytes = xcalloc(n + 1, sizeof *bytes);
	size_t *nfiles = xcalloc(n + 1, sizeof *nfiles), i, k, nsrc;
	const char *dest = phase == 0 ? "/bin" : "";
	char *to, *srcs[STAGE_BINS], line[400];
	int nfail = 0;
	double t0;

	for (k = 0; k < n; k++) {
		char *const *from = in;

		if (d[k]->failed)
			continue;
		nsrc = 0;
		if (phase == 0) {
			if (d[k]->program)
				srcs[nsrc++] = job->program;
			if (d[k]->rankexec) {
				srcs[nsrc++] = bins[0];
				srcs[nsrc++] = bins[1];
			}
			from = srcs;
		} else
			nsrc = job->nstage_in;
		if (nsrc == 0)
			continue;
		for (i = 0; i < nsrc; i++) {
			size_t files;

			bytes[k] += fstree_size(from[i], &files);
			nfiles[k] += files;
		}
		xasprintf(&to, "%s:%s%s/", remote_route_target(d[k]->host), d[k]->dir,
		    dest);
		t[k].argv = stage_scp_argv(config, from, nsrc, to);
		free(to);
	}
	t0 = clock_mono();
	proc_run_wide(t, n, LAUNCH_FANOUT, STAGE_DEADLINE,
	    t0 + STAGE_DEADLINE * LAUNCH_FANOUT_ROUNDS(n), launch_cancel_requested);
	for (k = 0; k < n; k++) {
		if (t[k].argv == NULL)
			continue;
		stage_log(st, "%s %s %zu %lld %.3f %s %s%s", phase == 0 ? "bin" : "in",
		    d[k]->host, nfiles[k], bytes[k], t[k].ended - t0, t[k].status == 0 ?
		    "ok" : "failed", d[k]->dir, dest);
		if (t[k].status == 0)
			continue;
		if (t[k].status == PROC_STOPPED)
			snprintf(line, sizeof line, "cancelled");
		else if (t[k].status == PROC_DEADLINE)
			snprintf(line, sizeof line, "not done within %.0f s", STAGE_DEADLINE);
		else
			proc_last_line(t[k].err, line, sizeof line);
		snprintf(d[k]->why, sizeof d[k]->why, "staging: copying %zu file%s (%lld "
		    "bytes) to %s%s failed: %s", nfiles[k], nfiles[k] == 1 ? "" : "s",
		    bytes[k], d[k]->dir, dest, line);
		d[k]->failed = 1;
		nfail++;
	}
	proc_free(t, n);
	free(t);
	free(bytes);
	free(nfiles);
	return nfail;
}

int
stage_copy_in(const struct gs_job *job, const struct job_state *st, struct stage_dir **d,
    size_t n)
{
	char *config, *bins[2], **in;
	int phase, nfail = 0;
	size_t i;

	bins[0] = launch_rank_wrapper();
	bins[1] = bins[0] != NULL ? launch_finalize_lib() : NULL;
	if (bins[1] == NULL) {
		for (i = 0; i < n; i++) {
			d[i]->failed = 1;
			snprintf(d[i]->why, sizeof d[i]->why, "%s", bins[0] == NULL ?
			    LAUNCH_NO_WRAPPER : LAUNCH_NO_FINALIZE);
		}
		free(bins[0]);
		return (int)n;
	}
	xasprintf(&config, "%s/ssh_config", st->dir);
	in = xcalloc(job->nstage_in + 1, sizeof *in);
	for (i = 0; i < job->nstage_in; i++) {
		char *b = job_path_base(job->stage_in[i]);

		xasprintf(&in[i], "%s/%s", st->dir, b);
		free(b);
	}
	for (phase = 0; phase < 2; phase++)
		nfail += stage_copy_phase(job, st, d, n, phase, config, bins, in);
	nfail += stage_verify(job, st, d, n, config, bins, in);
	for (i = 0; i < job->nstage_in; i++)
		free(in[i]);
	free(in);
	free(bins[0]);
	free(bins[1]);
	free(config);
	return nfail;
}

int
stage_dirs_write(const struct job_state *st, const struct stage_dir *d, size_t n)
{
	char *text = NULL, *path;
	size_t len = 0, i, count = 0;
	FILE *f;
	int rc;

	if ((f = open_memstream(&text, &len)) == NULL)
		return -1;
	fprintf(f, "# the job's own directories on nodes that do not share this one "
	    "(stage.h):\n# host directory program-staged gridsubmit-rank-staged\n");
	for (i = 0; i < n; i++) {
		if (d[i].host == NULL)
			continue;
		fprintf(f, "%s %s %d %d\n", d[i].host, d[i].dir, d[i].program, d[i].rankexec);
		count++;
	}
	fclose(f);
	if (count == 0) {
		xasprintf(&path, "%s/" DIRS_FILE, st->dir);
		rc = unlink(path) == -1 && errno != ENOENT ? -1 : 0;
		free(path);
	} else
		rc = file_write_atomic(st->dir, DIRS_FILE, text, len, 0644);
	free(text);
	return rc;
}

int
stage_dirs_read(const char *jobdir, struct stage_dir **out, size_t *n)
{
	char *path, *line = NULL, *save, *host, *dir, *prog, *rank;
	struct stage_dir *d = NULL;
	size_t cap = 0;
	FILE *f;

	*out = NULL;
	*n = 0;
	xasprintf(&path, "%s/" DIRS_FILE, jobdir);
	f = fopen(path, "r");
	free(path);
	if (f == NULL)
		return errno == ENOENT ? 0 : -1;
	while (getline(&line, &cap, f) > 0) {
		if (line[0] == '#')
			continue;
		save = NULL;
		if ((host = strtok_r(line, " \n", &save)) == NULL ||
		    (dir = strtok_r(NULL, " \n", &save)) == NULL ||
		    (prog = strtok_r(NULL, " \n", &save)) == NULL ||
		    (rank = strtok_r(NULL, " \n", &save)) == NULL || !remote_host_valid(host) ||
		    dir[0] != '/')
			continue;
		d = xreallocarray(d, *n + 1, sizeof *d);
		memset(&d[*n], 0, sizeof *d);
		d[*n].host = xstrdup(host);
		d[*n].dir = xstrdup(dir);
		d[*n].program = strcmp(prog, "1") == 0;
		d[*n].rankexec = strcmp(rank, "1") == 0;
		(*n)++;
	}
	free(line);
	fclose(f);
	*out = d;
	return 0;
}

const struct stage_dir *
stage_dirs_find(const struct stage_dir *d, size_t n, const char *host)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (d[i].host != NULL && strcmp(d[i].host, host) == 0)
			return &d[i];
	return NULL;
}

void
stage_dirs_free(struct stage_dir *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(d[i].host);
		free(d[i].dir);
	}
	free(d);
}

/* mkdir -p of the parents of path, below DIR (stage_out names may have directories). */
static void
stage_parents(const char *path)
{
	char *c = xstrdup(path), *p;

	for (p = strchr(c + 1, '/'); p != NULL; p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(c, 0755);
		*p = '/';
	}
	free(c);
}

/*
 * Which of the stage_out files each of the nu nodes has: one ssh each, in parallel.
 * have[k][i]: node k has file i (allocated).
 */
static char **
stage_out_have(const struct gs_job *job, const struct job_state *st, struct stage_dir **use,
    size_t nu, const char *config)
{
	struct proc_task *t = xcalloc(nu + 1, sizeof *t);
	char **have = xcalloc(nu + 1, sizeof *have), **words;
	size_t i, k, w, len;
	const char *p;

	words = xcalloc(job->nstage_out + 6, sizeof *words);
	for (k = 0; k < nu; k++) {
		w = 0;
		words[w++] = "sh";
		words[w++] = "-c";
		words[w++] = (char *)sh_stage_have;
		words[w++] = "sh";
		words[w++] = use[k]->dir;
		for (i = 0; i < job->nstage_out; i++)
			words[w++] = job->stage_out[i];
		words[w] = NULL;
		t[k].argv = remote_ssh_argv(config, NULL, use[k]->host, words);
	}
	proc_run_all(t, nu, clock_mono() + CLEAN_DEADLINE, NULL);
	for (k = 0; k < nu; k++) {
		have[k] = xcalloc(job->nstage_out + 1, 1);
		if (t[k].argv == NULL || t[k].status != 0) {
			log_warnx("job %s: %s: cannot look for the stage_out files in %s (ssh "
			    "status %d)", st->id, use[k]->host, use[k]->dir, t[k].status);
			continue;
		}
		for (i = 0, p = t[k].out; i < job->nstage_out && *p != '\0'; i++) {
			len = strcspn(p, "\n");
			have[k][i] = len == 3 && strncmp(p, "yes", 3) == 0 && p[len] == '\n';
			p += len + (p[len] == '\n');
		}
	}
	proc_free(t, nu);
	free(t);
	free(words);
	return have;
}

void
stage_out(const struct gs_sites *sites, const struct gs_placement *p, const struct gs_job *job,
    const struct job_state *st)
{
	struct stage_dir *d, **use;
	size_t nd, nu = 0, i, k, nf = 0, len;
	char *config, *local, (*dest)[PATH_MAX], **have;
	struct proc_task *t;
	int r, *taken;
	double t0;
	struct stat sb;

	if (job->nstage_out == 0 || stage_dirs_read(st->dir, &d, &nd) == -1 || nd == 0)
		return;
	xasprintf(&config, "%s/ssh_config", st->dir);
	/* the nodes with their own directory that ran ranks, in rank order */
	use = xcalloc(nd + 1, sizeof *use);
	for (r = 0; r < p->nranks; r++) {
		const struct stage_dir *sd;

		if (p->ranks[r].node == BROKER_NODE_NONE || (sd = stage_dirs_find(d, nd,
		    sites->nodes[p->ranks[r].node].host)) == NULL)
			continue;
		for (k = 0; k < nu && use[k] != sd; k++)
			;
		if (k == nu)
			use[nu++] = (struct stage_dir *)sd;
	}
	have = stage_out_have(job, st, use, nu, config);
	/* fetch: the first copy in rank order is NAME (unless DIR has it), others NAME.HOST */
	t = xcalloc(nu * job->nstage_out + 1, sizeof *t);
	dest = xcalloc(nu * job->nstage_out + 1, sizeof *dest);
	taken = xcalloc(job->nstage_out + 1, sizeof *taken);
	for (i = 0; i < job->nstage_out; i++) {
		/* "res/" names the directory res: its copies are res and res.HOST, not in it */
		len = strlen(job->stage_out[i]);
		while (len > 1 && job->stage_out[i][len - 1] == '/')
			len--;
		xasprintf(&local, "%s/%.*s", st->dir, (int)len, job->stage_out[i]);
		taken[i] = stat(local, &sb) == 0;
		for (k = 0; k < nu; k++) {
			char *from, *part, *src[1];

			if (!have[k][i])
				continue;
			if (taken[i])
				snprintf(dest[nf], sizeof dest[nf], "%s.%s", local, use[k]->host);
			else
				snprintf(dest[nf], sizeof dest[nf], "%s", local);
			taken[i] = 1;
			stage_parents(dest[nf]);
			xasprintf(&from, "%s:%s/%s", remote_route_target(use[k]->host), use[k]->dir,
			    job->stage_out[i]);
			xasprintf(&part, "%s.part", dest[nf]);
			src[0] = from;
			t[nf++].argv = stage_scp_argv(config, src, 1, part);
			free(from);
			free(part);
		}
		free(local);
	}
	t0 = clock_mono();
	proc_run_all(t, nf, t0 + STAGE_DEADLINE, NULL);
	for (i = 0; i < nf; i++) {
		size_t files;
		char *part;

		xasprintf(&part, "%s.part", dest[i]);
		if (t[i].status == 0 && rename(part, dest[i]) == 0)
			stage_log(st, "out %lld %.3f ok %s", fstree_size(dest[i], &files),
			    t[i].ended - t0, dest[i]);
		else {
			fstree_remove(part);
			stage_log(st, "out 0 %.3f failed %s", t[i].ended - t0, dest[i]);
			log_warnx("job %s: cannot fetch %s (scp status %d)", st->id, dest[i],
			    t[i].status);
		}
		free(part);
	}
	proc_free(t, nf);
	for (k = 0; k < nu; k++)
		free(have[k]);
	free(have);
	free(t);
	free(dest);
	free(taken);
	free(use);
	free(config);
	stage_dirs_free(d, nd);
}

void
stage_cleanup(const struct job_state *st)
{
	/* kill what the launcher recorded, remove the directory and its parents if empty */
	struct remote_cancel_how how = { .mark = 1, .remove = 1, .limit = CLEAN_DEADLINE };
	struct remote_cancel_node *nodes;
	struct stage_dir *d;
	size_t nd, i;
	char *config;

	if (stage_dirs_read(st->dir, &d, &nd) == -1 || nd == 0)
		return;
	xasprintf(&config, "%s/ssh_config", st->dir);
	nodes = xcalloc(nd + 1, sizeof *nodes);
	for (i = 0; i < nd; i++) {
		nodes[i].host = d[i].host;
		nodes[i].dir = d[i].dir;
	}
	remote_cancel(config, &how, nodes, nd);
	for (i = 0; i < nd; i++) {
		if (nodes[i].sent && nodes[i].task.status == 0) {
			stage_log(st, "removed %s %s", d[i].host, d[i].dir);
			free(d[i].host);
			d[i].host = NULL;	/* done: off the list */
		} else
			log_warnx("job %s: %s: cannot remove %s (ssh status %d): remove it by "
			    "hand", st->id, d[i].host, d[i].dir, nodes[i].task.status);
	}
	if (stage_dirs_write(st, d, nd) == -1)
		log_warn("%s/" DIRS_FILE, st->dir);
	remote_cancel_free(nodes, nd);
	free(nodes);
	stage_dirs_free(d, nd);
	free(config);
}
