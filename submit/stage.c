/* stage.c — stage_in files, binaries and the rank map to the nodes; stage_out back (stage.h). */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch.h"
#include "log.h"
#include "remote.h"
#include "stage.h"
#include "xmalloc.h"

#define STAGE_DEADLINE	600.0

static const char stage_hash_script[] =
    "d=$1; shift\n"
    "for f in \"$@\"; do\n"
    "  [ -d \"${f%/*}\" ] || mkdir -p \"${f%/*}\" 2>/dev/null\n"
    "  if [ -f \"$f\" ] && h=$(sha256sum < \"$f\" 2>/dev/null); then echo \"${h%% *}\";\n"
    "  else echo -; fi\n"
    "done\n"
    "echo END\n";

static int
stage_copy(const char *from, const char *to, mode_t mode, char *why, size_t whylen)
{
	char buf[65536], *tmp;
	int in, out;
	ssize_t n;

	if ((in = open(from, O_RDONLY | O_CLOEXEC)) == -1) {
		snprintf(why, whylen, "stage: %s: %s", from, strerror(errno));
		return -1;
	}
	xasprintf(&tmp, "%s.tmp", to);
	if ((out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)) == -1) {
		snprintf(why, whylen, "stage: %s: %s", tmp, strerror(errno));
		close(in);
		free(tmp);
		return -1;
	}
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n)
			n = -1;
	close(in);
	if (n < 0 || fchmod(out, mode) == -1 || close(out) == -1 || rename(tmp, to) == -1) {
		snprintf(why, whylen, "stage: %s: %s", to, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

static char *
stage_base(const char *path)
{
	char *c = xstrdup(path), *b = xstrdup(basename(c));

	free(c);
	return b;
}

int
stage_in_local(const struct gs_job *job, const struct job_state *st, char *why, size_t whylen)
{
	char *jobdir, *c, *src, *dst, *base;
	size_t i;
	int rc = 0;

	c = xstrdup(job->path);
	jobdir = xstrdup(dirname(c));
	free(c);
	for (i = 0; i < job->nstage_in && rc == 0; i++) {
		const char *name = job->stage_in[i];

		if (name[0] == '/')
			src = xstrdup(name);
		else
			xasprintf(&src, "%s/%s", jobdir, name);
		base = stage_base(name);
		xasprintf(&dst, "%s/%s", st->dir, base);
		rc = stage_copy(src, dst, 0644, why, whylen);
		free(src);
		free(dst);
		free(base);
	}
	free(jobdir);
	return rc;
}

/* ssh's options for scp: the same as for ssh (remote.c). */
static char **
stage_scp_argv(const char *config, const char *from, const char *to)
{
	char **v;
	size_t n = 0, i;

	for (i = 0; remote_ssh_options[i] != NULL; i++)
		;
	v = xcalloc(i + 16, sizeof *v);
	v[n++] = xstrdup("scp");
	v[n++] = xstrdup("-q");
	v[n++] = xstrdup("-p");
	v[n++] = xstrdup("-F");
	v[n++] = xstrdup(config);
	for (i = 0; remote_ssh_options[i] != NULL; i++)
		v[n++] = xstrdup(remote_ssh_options[i]);
	v[n++] = xstrdup("-o");
	xasprintf(&v[n++], "ControlPath=%s/%%C", remote_control_dir());
	v[n++] = xstrdup("--");
	v[n++] = xstrdup(from);
	v[n++] = xstrdup(to);
	v[n] = NULL;
	return v;
}

/* The distinct remote nodes of p. */
static size_t
stage_nodes(const struct gs_sites *sites, const struct gs_placement *p, size_t **out)
{
	size_t *v = xcalloc((size_t)p->nranks + 1, sizeof *v), n = 0, k;
	int r;

	for (r = 0; r < p->nranks; r++) {
		size_t node = p->ranks[r].node;

		if (node == BROKER_NODE_NONE || launch_host_is_local(sites->nodes[node].host))
			continue;
		for (k = 0; k < n && v[k] != node; k++)
			;
		if (k == n)
			v[n++] = node;
	}
	*out = v;
	return n;
}

int
stage_remote(const struct gs_sites *sites, const struct gs_placement *p, struct gs_job *job,
    const struct job_state *st, int binaries, char *why, size_t whylen)
{
	char **files = NULL, **argv, *config, *bin, *base, (*hashes)[65], *words[64];
	size_t nf = 0, nn, i, k, w;
	size_t *nodes;
	struct remote_out ro;
	pid_t *pids;
	int *status, rc = 0, np;

	if ((nn = stage_nodes(sites, p, &nodes)) == 0) {
		free(nodes);
		return 0;
	}
	xasprintf(&config, "%s/ssh_config", st->dir);
	files = xcalloc(job->nstage_in + 4, sizeof *files);
	for (i = 0; i < job->nstage_in; i++) {
		base = stage_base(job->stage_in[i]);
		xasprintf(&files[nf++], "%s/%s", st->dir, base);
		free(base);
	}
	xasprintf(&files[nf++], "%s/rankmap", st->dir);
	if (binaries) {
		char *rankexec = launch_rank_wrapper();

		xasprintf(&bin, "%s/bin", st->dir);
		if (mkdir(bin, 0755) == -1 && errno != EEXIST)
			fatal("%s", bin);
		base = stage_base(job->program);
		xasprintf(&files[nf], "%s/%s", bin, base);
		if (stage_copy(job->program, files[nf], 0755, why, whylen) == -1)
			rc = -1;
		free(job->program);
		job->program = xstrdup(files[nf++]);
		xasprintf(&files[nf], "%s/gridsubmit-rank", bin);
		if (rc == 0 && stage_copy(rankexec, files[nf], 0755, why, whylen) == -1)
			rc = -1;
		nf++;
		free(base);
		free(bin);
		free(rankexec);
	}
	hashes = xcalloc(nf, sizeof *hashes);
	if (rc == 0) {
		char **hv = xcalloc(nf + 2, sizeof *hv);

		hv[0] = "sha256sum";
		for (i = 0; i < nf; i++)
			hv[i + 1] = files[i];
		if (remote_run(hv, 60, &ro) != 0) {
			snprintf(why, whylen, "stage: cannot hash the files to stage: %s", ro.err);
			rc = -1;
		} else {
			char *line, *save = NULL;

			for (i = 0, line = strtok_r(ro.out, "\n", &save); i < nf && line != NULL;
			    i++, line = strtok_r(NULL, "\n", &save))
				snprintf(hashes[i], sizeof hashes[i], "%.64s", line);
		}
		remote_out_free(&ro);
		free(hv);
	}
	pids = xcalloc(nn * (nf + 1) + 1, sizeof *pids);
	status = xcalloc(nn * (nf + 1) + 1, sizeof *status);
	for (k = 0; k < nn && rc == 0; k++) {
		const char *host = sites->nodes[nodes[k]].host;
		char *line, *save = NULL;

		/* what the node has (one ssh; the shared connection makes it cheap) */
		w = 0;
		words[w++] = "sh";
		words[w++] = "-c";
		words[w++] = (char *)stage_hash_script;
		words[w++] = "sh";
		words[w++] = st->dir;
		for (i = 0; i < nf && w < 62; i++)
			words[w++] = files[i];
		words[w] = NULL;
		if ((argv = remote_ssh_argv(config, NULL, host, words)) == NULL)
			continue;
		if (remote_run(argv, 30, &ro) != 0 || strstr(ro.out, "END") == NULL) {
			snprintf(why, whylen, "stage: %s: cannot list its files (ssh status %d)",
			    host, ro.status);
			rc = -1;
		}
		remote_argv_free(argv);
		np = 0;
		for (i = 0, line = strtok_r(ro.out, "\n", &save); rc == 0 && i < nf &&
		    line != NULL; i++, line = strtok_r(NULL, "\n", &save)) {
			char *to;

			/* same content there (or the same file: a shared file system) */
			if (strcmp(line, hashes[i]) == 0)
				continue;
			xasprintf(&to, "%s:%s", host, files[i]);
			argv = stage_scp_argv(config, files[i], to);
			pids[np++] = remote_spawn(argv, NULL, NULL);
			remote_argv_free(argv);
			free(to);
		}
		remote_out_free(&ro);
		remote_wait_all(pids, status, (size_t)np, remote_now() + STAGE_DEADLINE);
		for (i = 0; i < (size_t)np && rc == 0; i++) {
			if (status[i] != 0) {
				snprintf(why, whylen, "stage: copying to %s failed (scp status %d)",
				    host, status[i]);
				rc = -1;
			}
		}
	}
	for (i = 0; i < nf; i++)
		free(files[i]);
	free(files);
	free(hashes);
	free(pids);
	free(status);
	free(nodes);
	free(config);
	return rc;
}

void
stage_out(const struct gs_sites *sites, const struct gs_placement *p, const struct gs_job *job,
    const struct job_state *st)
{
	char *config, *local, *from, *base, **argv;
	struct remote_out ro;
	size_t *nodes, nn, i, k;
	struct stat sb;

	nn = stage_nodes(sites, p, &nodes);
	xasprintf(&config, "%s/ssh_config", st->dir);
	for (i = 0; i < job->nstage_out; i++) {
		base = stage_base(job->stage_out[i]);
		xasprintf(&local, "%s/%s", st->dir, base);
		for (k = 0; k < nn && stat(local, &sb) == -1; k++) {
			xasprintf(&from, "%s:%s", sites->nodes[nodes[k]].host, local);
			argv = stage_scp_argv(config, from, local);
			remote_run(argv, STAGE_DEADLINE, &ro);
			remote_out_free(&ro);
			remote_argv_free(argv);
			free(from);
		}
		free(local);
		free(base);
	}
	free(nodes);
	free(config);
}
