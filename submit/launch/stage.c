/* stage.c — the job's files to the nodes that lack them and its outputs back (stage.h). */
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "fstree.h"
#include "launch.h"
#include "log.h"
#include "remote.h"
#include "stage.h"
#include "xmalloc.h"

#define STAGE_DEADLINE	600.0	/* seconds for all copies of one phase */
#define CLEAN_DEADLINE	30.0
#define DIRS_FILE	"remote-dirs"
#define REMOTE_JOBS	"/.gridsubmit/jobs/"

/* Where stage_in item i is read from: relative to the job file's directory (allocated). */
static char *
stage_in_source(const struct gs_job *job, size_t i)
{
	char *c = xstrdup(job->path), *src;
	size_t n;

	xasprintf(&src, "%s/%s", dirname(c), job->stage_in[i]);
	free(c);
	for (n = strlen(src); n > 1 && src[n - 1] == '/'; n--)
		src[n - 1] = '\0';
	return src;
}

int
stage_in_check(const struct gs_job *job, char *why, size_t whylen)
{
	struct stat sb;
	char *src;
	size_t i;
	int rc = 0;

	for (i = 0; i < job->nstage_in && rc == 0; i++) {
		src = stage_in_source(job, i);
		if (stat(src, &sb) == -1) {
			snprintf(why, whylen, "stage_in: %s: %s", src, strerror(errno));
			rc = -1;
		} else if (!S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode)) {
			snprintf(why, whylen, "stage_in: %s: not a regular file or directory", src);
			rc = -1;
		}
		free(src);
	}
	return rc;
}

int
stage_in_local(const struct gs_job *job, const struct job_state *st, char *why, size_t whylen)
{
	char *src, *dst, *base, msg[1024];
	size_t i;
	int rc = 0;

	for (i = 0; i < job->nstage_in && rc == 0; i++) {
		src = stage_in_source(job, i);
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

/* The last non-empty line of a file (scp's error), control bytes removed. */
static void
stage_last_line(const char *path, char *out, size_t outlen)
{
	char line[512];
	FILE *f;
	size_t i, n;

	snprintf(out, outlen, "no message");
	if ((f = fopen(path, "r")) == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL) {
		for (i = n = 0; line[i] != '\0'; i++)
			if ((unsigned char)line[i] >= 0x20 && line[i] != 0x7f)
				line[n++] = line[i];
		line[n] = '\0';
		if (n > 0)
			snprintf(out, outlen, "%.*s", (int)outlen - 1, line);
	}
	fclose(f);
}

/* scp -rp of the sources (files or directories) to one destination, with the ssh options of
 * remote.c. */
static char **
stage_scp_argv(const char *config, char *const srcs[], size_t nsrc, const char *to)
{
	char **v;
	size_t n = 0, i;

	for (i = 0; remote_ssh_options[i] != NULL; i++)
		;
	v = xcalloc(i + nsrc + 16, sizeof *v);
	v[n++] = xstrdup("scp");
	v[n++] = xstrdup("-q");
	v[n++] = xstrdup("-r");
	v[n++] = xstrdup("-p");
	v[n++] = xstrdup("-F");
	v[n++] = xstrdup(config);
	for (i = 0; remote_ssh_options[i] != NULL; i++)
		v[n++] = xstrdup(remote_ssh_options[i]);
	v[n++] = xstrdup("-o");
	xasprintf(&v[n++], "ControlPath=%s/%%C", remote_control_dir());
	v[n++] = xstrdup("--");
	for (i = 0; i < nsrc; i++)
		v[n++] = xstrdup(srcs[i]);
	v[n++] = xstrdup(to);
	v[n] = NULL;
	return v;
}

/*
 * What arrived is what was sent: the sha256 of every file staged to each node (one ssh
 * each, in parallel) against this host's, both from the same script; a directory's is the
 * sha256 of its files' sorted "sha256  ./path" lines. A node with a missing or different
 * file fails. Returns the number of nodes that failed here.
 */
static int
stage_verify(const struct gs_job *job, const struct job_state *st, struct stage_dir **d,
    size_t n, const char *config, const char *rankexec, char *const in[])
{
	static const char script[] =
	    "cd \"$1\" || exit 3; shift\n"
	    "for f; do\n"
	    "  if [ -d \"$f\" ]; then\n"
	    "    h=$(cd \"$f\" && find -L . -type f -exec sha256sum {} + | LC_ALL=C sort |\n"
	    "      sha256sum)\n"
	    "  elif ! h=$(sha256sum < \"$f\" 2>/dev/null); then\n"
	    "    h=-\n"
	    "  fi\n"
	    "  echo \"${h%% *}\"\n"
	    "done\n"
	    "echo END\n";
	size_t nloc = job->nstage_in + 2, i, k, w;
	char **loc = xcalloc(nloc + 6, sizeof *loc), (*hash)[65], **words, **argv, *outp;
	char *names[2], *base = job_path_base(job->program);
	pid_t *pids = xcalloc(n + 1, sizeof *pids);
	int *status = xcalloc(n + 1, sizeof *status), nfail = 0;
	double *ended = xcalloc(n + 1, sizeof *ended), t0;
	struct remote_out ro;

	/* this host's: the program, gridsubmit-rank, then the stage_in files */
	hash = xcalloc(nloc, sizeof *hash);
	loc[0] = "sh";
	loc[1] = "-c";
	loc[2] = (char *)script;
	loc[3] = "sh";
	loc[4] = st->dir;
	loc[5] = job->program;
	loc[6] = (char *)rankexec;
	for (i = 0; i < job->nstage_in; i++)
		loc[7 + i] = in[i];
	if (remote_run(loc, 60, &ro) == 0) {
		char *l, *save = NULL;

		for (i = 0, l = strtok_r(ro.out, "\n", &save); i < nloc && l != NULL;
		    i++, l = strtok_r(NULL, "\n", &save))
			snprintf(hash[i], sizeof hash[i], "%.64s", l);
	}
	remote_out_free(&ro);
	xasprintf(&names[0], "bin/%s", base);
	names[1] = "bin/gridsubmit-rank";
	words = xcalloc(nloc + 8, sizeof *words);
	for (k = 0; k < n; k++) {
		if (d[k]->failed)
			continue;
		w = 0;
		words[w++] = "sh";
		words[w++] = "-c";
		words[w++] = (char *)script;
		words[w++] = "sh";
		words[w++] = d[k]->dir;
		if (d[k]->program)
			words[w++] = names[0];
		if (d[k]->rankexec)
			words[w++] = names[1];
		for (i = 0; i < job->nstage_in; i++)
			words[w++] = in[i] + strlen(st->dir) + 1;
		words[w] = NULL;
		if (w == 5)
			continue;	/* nothing was staged there */
		xasprintf(&outp, "%s/.stage.%s.out", st->dir, d[k]->host);
		if ((argv = remote_ssh_argv(config, NULL, d[k]->host, words)) != NULL)
			pids[k] = remote_spawn(argv, outp, NULL);
		remote_argv_free(argv);
		free(outp);
	}
	t0 = clock_mono();
	remote_wait_all(pids, status, ended, n, t0 + STAGE_DEADLINE,
	    launch_cancel_requested);
	for (k = 0; k < n; k++) {
		char line[128], *bad = NULL;
		size_t j = 0;
		FILE *f;

		if (pids[k] == 0)
			continue;
		xasprintf(&outp, "%s/.stage.%s.out", st->dir, d[k]->host);
		f = status[k] == 0 ? fopen(outp, "r") : NULL;
		/* the node's answers come in the order of its words: skip what was not sent */
		for (i = 0; f != NULL && i < nloc; i++) {
			if ((i == 0 && !d[k]->program) || (i == 1 && !d[k]->rankexec))
				continue;
			if (fgets(line, sizeof line, f) == NULL ||
			    strncmp(line, hash[i], 64) != 0 || hash[i][0] == '\0') {
				bad = i == 0 ? names[0] : i == 1 ? names[1] :
				    in[i - 2] + strlen(st->dir) + 1;
				break;
			}
			j++;
		}
		if (f != NULL)
			fclose(f);
		if (status[k] != 0 || bad != NULL) {
			if (status[k] != 0)
				snprintf(d[k]->why, sizeof d[k]->why, "staging: cannot check the "
				    "copies in %s (ssh status %d)", d[k]->dir, status[k]);
			else
				snprintf(d[k]->why, sizeof d[k]->why, "staging: %s/%s arrived "
				    "with a different sha256 than here", d[k]->dir, bad);
			d[k]->failed = 1;
			nfail++;
		}
		stage_log(st, "verify %s %zu %.3f %s", d[k]->host, j, ended[k] - t0,
		    d[k]->failed ? "failed" : "ok");
		unlink(outp);
		free(outp);
	}
	free(names[0]);
	free(base);
	free(words);
	free(loc);
	free(hash);
	free(pids);
	free(status);
	free(ended);
	return nfail;
}

int
stage_copy_in(const struct gs_job *job, const struct job_state *st, struct stage_dir **d,
    size_t n)
{
	char *config, *rankexec, **argv, *to, *errp, **in, *srcs[2], line[400];
	pid_t *pids = xcalloc(n + 1, sizeof *pids);
	int *status = xcalloc(n + 1, sizeof *status), phase, nfail = 0;
	double *ended = xcalloc(n + 1, sizeof *ended), t0;
	long long *bytes = xcalloc(n + 1, sizeof *bytes);
	size_t *nfiles = xcalloc(n + 1, sizeof *nfiles), i, k, nsrc;

	xasprintf(&config, "%s/ssh_config", st->dir);
	rankexec = launch_rank_wrapper();
	in = xcalloc(job->nstage_in + 1, sizeof *in);
	for (i = 0; i < job->nstage_in; i++) {
		char *b = job_path_base(job->stage_in[i]);

		xasprintf(&in[i], "%s/%s", st->dir, b);
		free(b);
	}
	/* phase 0: the binaries into dir/bin; phase 1: the stage_in files into dir */
	for (phase = 0; phase < 2; phase++) {
		for (k = 0; k < n; k++) {
			char *const *from = in;

			pids[k] = 0;
			if (d[k]->failed)
				continue;
			nsrc = 0;
			if (phase == 0) {
				if (d[k]->program)
					srcs[nsrc++] = job->program;
				if (d[k]->rankexec)
					srcs[nsrc++] = rankexec;
				from = srcs;
			} else
				nsrc = job->nstage_in;
			if (nsrc == 0)
				continue;
			for (i = 0, bytes[k] = 0, nfiles[k] = 0; i < nsrc; i++) {
				size_t files;

				bytes[k] += fstree_size(from[i], &files);
				nfiles[k] += files;
			}
			xasprintf(&to, "%s:%s/%s", d[k]->host, d[k]->dir, phase == 0 ? "bin/" :
			    "");
			xasprintf(&errp, "%s/.stage.%s.err", st->dir, d[k]->host);
			argv = stage_scp_argv(config, from, nsrc, to);
			pids[k] = remote_spawn(argv, NULL, errp);
			remote_argv_free(argv);
			free(to);
			free(errp);
		}
		t0 = clock_mono();
		remote_wait_all(pids, status, ended, n, t0 + STAGE_DEADLINE,
	    launch_cancel_requested);
		for (k = 0; k < n; k++) {
			const char *dest = phase == 0 ? "/bin" : "";

			if (pids[k] == 0)
				continue;
			xasprintf(&errp, "%s/.stage.%s.err", st->dir, d[k]->host);
			stage_log(st, "%s %s %zu %lld %.3f %s %s%s", phase == 0 ? "bin" : "in",
			    d[k]->host, nfiles[k], bytes[k], ended[k] - t0, status[k] == 0 ?
			    "ok" : "failed", d[k]->dir, dest);
			if (status[k] != 0) {
				if (status[k] == -2)
					snprintf(line, sizeof line, "cancelled");
				else if (status[k] == -1)
					snprintf(line, sizeof line, "not done within %.0f s",
					    STAGE_DEADLINE);
				else
					stage_last_line(errp, line, sizeof line);
				snprintf(d[k]->why, sizeof d[k]->why, "staging: copying %zu "
				    "file%s (%lld bytes) to %s%s failed: %s", nfiles[k],
				    nfiles[k] == 1 ? "" : "s", bytes[k], d[k]->dir, dest, line);
				d[k]->failed = 1;
				nfail++;
			}
			unlink(errp);
			free(errp);
		}
	}
	nfail += stage_verify(job, st, d, n, config, rankexec, in);
	for (i = 0; i < job->nstage_in; i++)
		free(in[i]);
	free(in);
	free(rankexec);
	free(config);
	free(pids);
	free(status);
	free(ended);
	free(bytes);
	free(nfiles);
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
		fatal("open_memstream");
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
		rc = jobstore_write_file(st->dir, DIRS_FILE, text, len);
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
		    (rank = strtok_r(NULL, " \n", &save)) == NULL || !host_name_valid(host) ||
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

void
stage_out(const struct gs_sites *sites, const struct gs_placement *p, const struct gs_job *job,
    const struct job_state *st)
{
	static const char script[] =
	    "cd \"$1\" || exit 3; shift\n"
	    "for f; do if [ -f \"$f\" ] || [ -d \"$f\" ]; then echo yes; else echo no; fi; done\n"
	    "echo END\n";
	struct stage_dir *d, **use;
	size_t nd, nu = 0, i, k, nf = 0, w;
	char *config, **words, **argv, *outp, *local, (*dest)[PATH_MAX], **have;
	pid_t *pids;
	int *status, r, *taken;
	double *ended, t0;
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
	/* which of the files each has: one ssh each, in parallel */
	pids = xcalloc(nu * job->nstage_out + 1, sizeof *pids);
	status = xcalloc(nu * job->nstage_out + 1, sizeof *status);
	ended = xcalloc(nu * job->nstage_out + 1, sizeof *ended);
	have = xcalloc(nu + 1, sizeof *have);
	words = xcalloc(job->nstage_out + 6, sizeof *words);
	for (k = 0; k < nu; k++) {
		w = 0;
		words[w++] = "sh";
		words[w++] = "-c";
		words[w++] = (char *)script;
		words[w++] = "sh";
		words[w++] = use[k]->dir;
		for (i = 0; i < job->nstage_out; i++)
			words[w++] = job->stage_out[i];
		words[w] = NULL;
		xasprintf(&outp, "%s/.stage.%s.out", st->dir, use[k]->host);
		if ((argv = remote_ssh_argv(config, NULL, use[k]->host, words)) != NULL)
			pids[k] = remote_spawn(argv, outp, NULL);
		remote_argv_free(argv);
		free(outp);
	}
	remote_wait_all(pids, status, ended, nu, clock_mono() + CLEAN_DEADLINE, NULL);
	for (k = 0; k < nu; k++) {
		char line[16];
		FILE *f;

		have[k] = xcalloc(job->nstage_out + 1, 1);
		xasprintf(&outp, "%s/.stage.%s.out", st->dir, use[k]->host);
		if (status[k] == 0 && (f = fopen(outp, "r")) != NULL) {
			for (i = 0; i < job->nstage_out && fgets(line, sizeof line, f) != NULL;
			    i++)
				have[k][i] = strcmp(line, "yes\n") == 0;
			fclose(f);
		} else
			log_warnx("job %s: %s: cannot look for the stage_out files in %s (ssh "
			    "status %d)", st->id, use[k]->host, use[k]->dir, status[k]);
		unlink(outp);
		free(outp);
	}
	/* fetch: the first copy in rank order is NAME (unless DIR has it), others NAME.HOST */
	dest = xcalloc(nu * job->nstage_out + 1, sizeof *dest);
	taken = xcalloc(job->nstage_out + 1, sizeof *taken);
	memset(pids, 0, (nu * job->nstage_out + 1) * sizeof *pids);
	for (i = 0; i < job->nstage_out; i++) {
		xasprintf(&local, "%s/%s", st->dir, job->stage_out[i]);
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
			xasprintf(&from, "%s:%s/%s", use[k]->host, use[k]->dir,
			    job->stage_out[i]);
			xasprintf(&part, "%s.part", dest[nf]);
			src[0] = from;
			argv = stage_scp_argv(config, src, 1, part);
			pids[nf] = remote_spawn(argv, NULL, NULL);
			remote_argv_free(argv);
			free(from);
			free(part);
			nf++;
		}
		free(local);
	}
	t0 = clock_mono();
	remote_wait_all(pids, status, ended, nf, t0 + STAGE_DEADLINE, NULL);
	for (i = 0; i < nf; i++) {
		size_t files;
		char *part;

		xasprintf(&part, "%s.part", dest[i]);
		if (status[i] == 0 && rename(part, dest[i]) == 0)
			stage_log(st, "out %lld %.3f ok %s", fstree_size(dest[i], &files),
			    ended[i] - t0, dest[i]);
		else {
			fstree_remove(part);
			stage_log(st, "out 0 %.3f failed %s", ended[i] - t0, dest[i]);
			log_warnx("job %s: cannot fetch %s (scp status %d)", st->id, dest[i],
			    status[i]);
		}
		free(part);
	}
	for (k = 0; k < nu; k++)
		free(have[k]);
	free(have);
	free(words);
	free(dest);
	free(taken);
	free(pids);
	free(status);
	free(ended);
	free(use);
	free(config);
	stage_dirs_free(d, nd);
}

void
stage_cleanup(const struct job_state *st)
{
	/* kill what the launcher recorded, remove the directory and its parents if empty */
	static const char script[] =
	    "r=$1 h=$2\n"
	    "case $r in /*/.gridsubmit/jobs/?*) ;; *) exit 3 ;; esac\n"
	    "f=$r/.remote/$h.pgid\n"
	    ": 2>/dev/null >\"$r/.remote/$h.stop\"\n"
	    "if [ -r \"$f\" ]; then g=$(cat \"$f\")\n"
	    "  case $g in ''|*[!0-9]*) ;; *) kill -s TERM -- \"-$g\" 2>/dev/null && sleep 1;\n"
	    "    kill -s KILL -- \"-$g\" 2>/dev/null ;; esac\n"
	    "fi\n"
	    "rm -rf -- \"$r\" || exit 4\n"
	    "rmdir -- \"${r%/*}\" \"${r%/*/*}\" 2>/dev/null\n"
	    "exit 0\n";
	struct stage_dir *d;
	size_t nd, i;
	char *config, *words[7], **argv;
	pid_t *pids;
	int *status;
	double *ended;

	if (stage_dirs_read(st->dir, &d, &nd) == -1 || nd == 0)
		return;
	xasprintf(&config, "%s/ssh_config", st->dir);
	pids = xcalloc(nd + 1, sizeof *pids);
	status = xcalloc(nd + 1, sizeof *status);
	ended = xcalloc(nd + 1, sizeof *ended);
	for (i = 0; i < nd; i++) {
		words[0] = "sh";
		words[1] = "-c";
		words[2] = (char *)script;
		words[3] = "sh";
		words[4] = d[i].dir;
		words[5] = d[i].host;
		words[6] = NULL;
		if ((argv = remote_ssh_argv(config, NULL, d[i].host, words)) != NULL)
			pids[i] = remote_spawn(argv, NULL, NULL);
		remote_argv_free(argv);
	}
	remote_wait_all(pids, status, ended, nd, clock_mono() + CLEAN_DEADLINE, NULL);
	for (i = 0; i < nd; i++) {
		if (pids[i] > 0 && status[i] == 0) {
			stage_log(st, "removed %s %s", d[i].host, d[i].dir);
			free(d[i].host);
			d[i].host = NULL;	/* done: off the list */
		} else
			log_warnx("job %s: %s: cannot remove %s (ssh status %d): remove it by "
			    "hand", st->id, d[i].host, d[i].dir, status[i]);
	}
	if (stage_dirs_write(st, d, nd) == -1)
		log_warn("%s/" DIRS_FILE, st->dir);
	stage_dirs_free(d, nd);
	free(pids);
	free(status);
	free(ended);
	free(config);
}
