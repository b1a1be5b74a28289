/*
 * job-load.c — job files (gridsubmit-sites(5), JOB FILES) into struct gs_job, and the
 * documents a command line stands for (run -- PROGRAM) through the same checks.
 * The requirements expression is kept as text (expr.c parses it); the runtime parameters
 * are checked by job-runtime.c, kept as the strings every rank receives as GRT_<KEY>. The
 * walk goes on after an error, so that one run names every mistake of the file (errlist.h):
 * the requirements expression's too, and, for a file read from disk, its program and
 * stage_in files, each at its value, rather than later and one at a time.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker/errlist.h"
#include "broker/errsink.h"
#include "broker/expr.h"
#include "broker/job.h"
#include "broker/job-load-int.h"
#include "broker/yaml-doc.h"
#include "common/suggest.h"
#include "common/xmalloc.h"

static const char *const jl_top_keys[] = {
	"name", "program", "args", "ranks", "sites", "requirements", "rank_weights", "runtime",
	"env", "stage_in", "stage_out", "restarts", "keep_journal", "time_limit",
	"oversubscribe", "lease_timeout", NULL
};
static const char *const jl_ranks_keys[] = { "min", "max", NULL };
static const char *const jl_weights_keys[] = { "cpu", "bandwidth", NULL };

#define JL_DEFAULT_RANKS	2
#define JL_DEFAULT_RESTARTS	3	/* doc/restarts.md */
#define JL_MAX_RESTARTS		1000
#define JL_DEFAULT_LEASE	10	/* seconds (doc/restarts.md, "The lease") */
#define JL_MAX_LEASE		3600
#define JL_MAX_RANKS		1000000
#define JL_WEIGHT_EPS		1e-9

struct jl_ctx {
	struct gs_errsink sink;	/* the file's name and its errors */
	struct gs_job *job;
	int files;		/* 1: a file read from disk: check what it names there */
	const struct gs_sites *known;	/* the site file the job goes with, or NULL */
};

/* Lexically clean an absolute path: no "//", "." or ".." components left. */
static char *
jl_path_clean(const char *path)
{
	char *out = xmalloc(strlen(path) + 2);
	size_t o = 0;
	const char *p = path, *e;

	while (*p != '\0') {
		while (*p == '/')
			p++;
		if (*p == '\0')
			break;
		e = strchr(p, '/');
		if (e == NULL)
			e = p + strlen(p);
		if (e - p == 1 && p[0] == '.')
			;
		else if (e - p == 2 && p[0] == '.' && p[1] == '.') {
			while (o > 0 && out[o - 1] != '/')
				o--;
			if (o > 0)
				o--;	/* the '/' before the dropped component */
		} else {
			out[o++] = '/';
			memcpy(out + o, p, (size_t)(e - p));
			o += (size_t)(e - p);
		}
		p = e;
	}
	if (o == 0)
		out[o++] = '/';
	out[o] = '\0';
	return out;
}

/* program relative to the job file's directory (the file name relative to the cwd). */
static char *
jl_program_path(const char *jobfile, const char *program)
{
	char cwd[PATH_MAX], *dir, *joined, *clean;
	const char *slash;

	if (program[0] == '/')
		return jl_path_clean(program);
	slash = strrchr(jobfile, '/');
	if (jobfile[0] == '/')
		dir = xstrndup(jobfile, (size_t)(slash - jobfile));
	else {
		if (getcwd(cwd, sizeof cwd) == NULL)
			snprintf(cwd, sizeof cwd, "/");
		if (slash != NULL)
			xasprintf(&dir, "%s/%.*s", cwd, (int)(slash - jobfile), jobfile);
		else
			dir = xstrdup(cwd);
	}
	xasprintf(&joined, "%s/%s", dir, program);
	clean = jl_path_clean(joined);
	free(dir);
	free(joined);
	return clean;
}

static char *
jl_default_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base != NULL ? base + 1 : path;
	len = strlen(base);
	if (len > 5 && strcmp(base + len - 5, ".yaml") == 0)
		len -= 5;
	else if (len > 4 && strcmp(base + len - 4, ".yml") == 0)
		len -= 4;
	if (len == 0)
		return xstrdup("job");
	return xstrndup(base, len);
}

static int
jl_fail(struct jl_ctx *c, const char *key, const struct ydoc_node *n, const char *what)
{
	char desc[96];

	ydoc_describe(n, desc, sizeof desc);
	return errsink_error(&c->sink, n, "'%s' must be %s, not %s", key, what, desc);
}

/*
 * A list of strings, each checked by ok() when given. A wrong item is an error of its own
 * and a NULL in *out (so that items and nodes keep their indices); *nout is the list's
 * length. -1 when the list is not a list or an item is wrong.
 */
static int
jl_strings(struct jl_ctx *c, const char *key, const struct ydoc_node *n, char ***out,
    size_t *nout, int (*ok)(const char *), const char *what)
{
	const char *s;
	size_t i;
	int rc = 0;

	if (errsink_check(&c->sink, ydoc_want(c->sink.name, key, n, YDOC_SEQ, &c->sink.err)) == -1)
		return -1;
	*out = xcalloc(n->nitems + 1, sizeof **out);
	*nout = n->nitems;
	for (i = 0; i < n->nitems; i++) {
		if (errsink_check(&c->sink, ydoc_str(c->sink.name, key, n->items[i], &s, &c->sink.err)) == -1)
			rc = -1;
		else if (ok != NULL && !ok(s))
			rc = jl_fail(c, key, n->items[i], what);
		else
			(*out)[i] = xstrdup(s);
	}
	return rc;
}

static int
jl_site_name_ok(const char *s)
{
	if (*s == '\0' || *s == '-' || strlen(s) > 64)
		return 0;
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '.' || *s == '_' || *s == '-'))
			return 0;
	return 1;
}

/* Staged files stay inside the job directory: relative, and no ".." component. */
static int
jl_stage_ok(const char *s)
{
	const char *p = s;

	if (*s == '\0' || *s == '/' || !ydoc_no_controls(s))
		return 0;
	while (*p != '\0') {
		size_t len = strcspn(p, "/");

		if (len == 2 && p[0] == '.' && p[1] == '.')
			return 0;
		p += len;
		if (*p == '/')
			p++;
	}
	return 1;
}

char *
job_path_base(const char *path)
{
	size_t n = strlen(path);
	const char *b;

	while (n > 1 && path[n - 1] == '/')
		n--;
	for (b = path + n; b > path && b[-1] != '/'; b--)
		;
	return xstrndup(b, (size_t)(path + n - b));
}

/*
 * Every stage_in lands in the job directory under its last component: that name must be
 * a name (not "." or hidden), not one of gridsubmit's own, and no two items may share it
 * (the second would silently replace the first). Items that were wrong already (NULL) are
 * left out.
 */
static void
jl_stage_names(struct jl_ctx *c, const struct ydoc_node *n, char *const *in, size_t nin)
{
	char **base = xcalloc(nin + 1, sizeof *base);
	size_t i, j;

	for (i = 0; i < nin; i++) {
		if (in[i] == NULL)
			continue;
		base[i] = job_path_base(in[i]);
		if (base[i][0] == '\0' || base[i][0] == '.') {
			errsink_error(&c->sink, n->items[i], "'stage_in' item '%s' would be staged as a hidden or "
			    "empty name; name a file or directory", in[i]);
			continue;
		}
		if (job_stage_name_ours(base[i])) {
			errsink_error(&c->sink, n->items[i], "'stage_in' item '%s' would replace gridsubmit's own "
			    "'%s' in the job directory; rename it", in[i], base[i]);
			continue;
		}
		for (j = 0; j < i; j++)
			if (base[j] != NULL && strcmp(base[j], base[i]) == 0) {
				errsink_error(&c->sink, n->items[i], "'stage_in' items '%s' and '%s' (line %d) "
				    "would both be staged as '%s'; rename one", in[i], in[j],
				    n->items[j]->line, base[i]);
				break;
			}
	}
	for (i = 0; i < nin; i++)
		free(base[i]);
	free(base);
}

/* Every stage_in item a file read from disk names, each missing one located at its item. */
static void
jl_stage_files(struct jl_ctx *c, const struct ydoc_node *n)
{
	char why[PATH_MAX + 128];
	size_t i;

	for (i = 0; c->files && i < c->job->nstage_in; i++)
		if (c->job->stage_in[i] != NULL &&
		    job_stage_in_item_check(c->job, i, why, sizeof why) != 0)
			errsink_error(&c->sink, n->items[i], "'stage_in' item '%s' cannot be staged: %s",
			    c->job->stage_in[i], why);
}

static int
jl_env_name_ok(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return 0;
	if (strlen(s) > 255)
		return 0;
	for (s++; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

static void
jl_ranks(struct jl_ctx *c, const struct ydoc_node *n)
{
	const struct ydoc_node *mn, *mx;
	long long lo, hi = JL_MAX_RANKS;
	char what[96];
	int max_ok = 0;

	if (n->type != YDOC_MAP) {
		if (errsink_check(&c->sink, ydoc_int(c->sink.name, "ranks", n, "a whole number >= 1 or {min: N, "
		    "max: M}", 1, JL_MAX_RANKS, &hi, &c->sink.err)) == 0)
			c->job->ranks = c->job->min_ranks = (int)hi;
		return;
	}
	ydoc_check_keys_all(c->sink.name, n, jl_ranks_keys, c->sink.errs);
	mn = ydoc_get(n, "min");
	mx = ydoc_get(n, "max");
	if ((mn == NULL && !ydoc_given(n, "min", jl_ranks_keys)) ||
	    (mx == NULL && !ydoc_given(n, "max", jl_ranks_keys)))
		errsink_error(&c->sink, n, "'ranks' needs both 'min' and 'max'");
	if (mx != NULL && errsink_check(&c->sink, ydoc_int(c->sink.name, "max", mx, "a whole number >= 1", 1,
	    JL_MAX_RANKS, &hi, &c->sink.err)) == 0) {
		c->job->ranks = (int)hi;
		max_ok = 1;
	}
	if (mn == NULL)
		return;
	/* a max that is wrong bounds nothing: min is then checked on its own */
	if (max_ok)
		snprintf(what, sizeof what, "a whole number from 1 to max (%lld)", hi);
	else
		snprintf(what, sizeof what, "a whole number >= 1");
	if (errsink_check(&c->sink, ydoc_int(c->sink.name, "min", mn, what, 1, hi, &lo, &c->sink.err)) == 0)
		c->job->min_ranks = (int)lo;
}

static void
jl_weights(struct jl_ctx *c, const struct ydoc_node *n)
{
	const struct ydoc_node *cpu, *bw;
	double w1 = 1, w2 = 0;
	int bad = 0;

	if (errsink_check(&c->sink, ydoc_want(c->sink.name, "rank_weights", n, YDOC_MAP, &c->sink.err)) == -1)
		return;
	ydoc_check_keys_all(c->sink.name, n, jl_weights_keys, c->sink.errs);
	cpu = ydoc_get(n, "cpu");
	bw = ydoc_get(n, "bandwidth");
	if (cpu != NULL && errsink_check(&c->sink, ydoc_num(c->sink.name, "cpu", cpu, "a number in [0, 1]", 0, 0,
	    1, 0, &w1, &c->sink.err)) == -1)
		bad = 1;
	if (bw != NULL && errsink_check(&c->sink, ydoc_num(c->sink.name, "bandwidth", bw, "a number in [0, 1]",
	    0, 0, 1, 0, &w2, &c->sink.err)) == -1)
		bad = 1;
	if (bad)
		return;
	/* w1 + w2 = 1 (seed 002, eq. 2): one weight given fixes the other */
	if (cpu != NULL && bw == NULL)
		w2 = 1 - w1;
	else if (cpu == NULL && bw != NULL)
		w1 = 1 - w2;
	else if (cpu != NULL && bw != NULL && fabs(w1 + w2 - 1) > JL_WEIGHT_EPS) {
		errsink_error(&c->sink, n, "'rank_weights' cpu + bandwidth must be 1, not %s + %s = %.12g",
		    cpu->value, bw->value, w1 + w2);
		return;
	}
	c->job->w1 = w1;
	c->job->w2 = w2;
}

static void
jl_env(struct jl_ctx *c, const struct ydoc_node *map)
{
	struct gs_job *job = c->job;
	const char *val;
	size_t i;

	if (errsink_check(&c->sink, ydoc_want(c->sink.name, "env", map, YDOC_MAP, &c->sink.err)) == -1)
		return;
	job->env = xcalloc(map->npairs + 1, sizeof *job->env);
	job->nenv = map->npairs;
	for (i = 0; i < map->npairs; i++) {
		const struct ydoc_node *k = map->pairs[i].key, *v = map->pairs[i].value;
		char desc[96];

		if (!jl_env_name_ok(k->value)) {
			ydoc_describe(k, desc, sizeof desc);
			errsink_error(&c->sink, k, "%s is not an environment name (letters, digits and '_', not "
			    "starting with a digit)", desc);
		}
		if (errsink_check(&c->sink, ydoc_str(c->sink.name, k->value, v, &val, &c->sink.err)) == 0) {
			job->env[i].key = xstrdup(k->value);
			job->env[i].value = xstrdup(val);
		}
	}
}

/*
 * restarts: N (relaunches after a failure), keep_journal: true|false, oversubscribe:
 * true|false (more ranks than slots: broker_place_job) and lease_timeout: seconds of a
 * node's silence on the lease that lose it during a launch.
 */
static void
jl_restarts(struct jl_ctx *c, const struct ydoc_node *root)
{
	const struct ydoc_node *n;
	long long v;

	if ((n = ydoc_get(root, "restarts")) != NULL && errsink_check(&c->sink, ydoc_int(c->sink.name,
	    "restarts", n, "a whole number from 0 to 1000 (relaunches after a failure)", 0,
	    JL_MAX_RESTARTS, &v, &c->sink.err)) == 0)
		c->job->restarts = (int)v;
	if ((n = ydoc_get(root, "lease_timeout")) != NULL && errsink_check(&c->sink,
	    ydoc_int(c->sink.name, "lease_timeout", n, "a whole number of seconds from 3 to 3600 "
	    "(a node's silence on the lease)", 3, JL_MAX_LEASE, &v, &c->sink.err)) == 0)
		c->job->lease_timeout = (int)v;
	if ((n = ydoc_get(root, "keep_journal")) != NULL)
		errsink_check(&c->sink, ydoc_bool(c->sink.name, "keep_journal", n, &c->job->keep_journal, &c->sink.err));
	if ((n = ydoc_get(root, "oversubscribe")) != NULL)
		errsink_check(&c->sink, ydoc_bool(c->sink.name, "oversubscribe", n,
		    &c->job->oversubscribe, &c->sink.err));
}

/* time_limit: the job's time on a Slurm site, in one of Slurm's formats. */
static void
jl_time_limit(struct jl_ctx *c, const struct ydoc_node *n)
{
	const char *s;
	long long secs;

	if (errsink_check(&c->sink, ydoc_str(c->sink.name, "time_limit", n, &s, &c->sink.err)) == -1)
		return;
	if (slurm_time_parse(s, &secs) == -1)
		jl_fail(c, "time_limit", n, "a time limit as Slurm takes it (MM, MM:SS, HH:MM:SS, "
		    "D-HH, D-HH:MM or D-HH:MM:SS, more than 0)");
	else
		c->job->time_limit = xstrdup(s);
}

int
job_name_ok(const char *s)
{
	return strlen(s) <= 128 && strchr(s, '/') == NULL && ydoc_no_controls(s);
}

static void
jl_name(struct jl_ctx *c, const struct ydoc_node *root)
{
	const struct ydoc_node *n;
	const char *s;

	if ((n = ydoc_get(root, "name")) == NULL)
		c->job->name = jl_default_name(c->sink.name);
	else if (errsink_check(&c->sink, ydoc_str(c->sink.name, "name", n, &s, &c->sink.err)) == -1)
		return;
	else if (!job_name_ok(s))
		jl_fail(c, "name", n, JOB_NAME_WHAT);
	else
		c->job->name = xstrdup(s);
}

/* The program a file names, located at its value: what the launch would find too late. */
static void
jl_program_file(struct jl_ctx *c, const struct ydoc_node *n)
{
	char why[PATH_MAX + 128];

	if (c->files && job_program_check(c->job->program, c->job->program, why, sizeof why) != 0)
		errsink_error(&c->sink, n, "'program' cannot be started: %s", why);
}

static void
jl_program(struct jl_ctx *c, const struct ydoc_node *root)
{
	const struct ydoc_node *n;
	const char *s;

	if ((n = ydoc_get(root, "program")) == NULL) {
		if (!ydoc_given(root, "program", jl_top_keys))
			errsink_error(&c->sink, root, "missing key 'program' (the MPI program to run)");
	} else if (errsink_check(&c->sink, ydoc_str(c->sink.name, "program", n, &s, &c->sink.err)) == -1)
		return;
	else if (!ydoc_no_controls(s))
		jl_fail(c, "program", n, "a file name without control characters");
	else {
		c->job->program = jl_program_path(c->sink.name, s);
		jl_program_file(c, n);
	}
}

/*
 * A site the job names is one of the site file's, when the loader was given it: a typo
 * would otherwise filter every node out (broker_rank says so too, later, for a job
 * loaded without it).
 */
static void
jl_site_known(struct jl_ctx *c, const struct ydoc_node *item, const char *name)
{
	const struct gs_sites *k = c->known;
	const char **names, *guess;
	size_t j;

	for (j = 0; j < k->nsites; j++)
		if (strcmp(name, k->sites[j].name) == 0)
			return;
	names = xcalloc(k->nsites + 1, sizeof *names);
	for (j = 0; j < k->nsites; j++)
		names[j] = k->sites[j].name;
	if ((guess = suggest_closest(name, names)) != NULL)
		errsink_error(&c->sink, item, "no site '%s' in %s (did you mean '%s'?)", name,
		    k->path != NULL ? k->path : "the site file", guess);
	else
		errsink_error(&c->sink, item, "no site '%s' in %s", name,
		    k->path != NULL ? k->path : "the site file");
	free(names);
}

/* sites: [...]: names, each once. */
static void
jl_sites(struct jl_ctx *c, const struct ydoc_node *n)
{
	struct gs_job *job = c->job;
	struct ydoc_strset seen;
	size_t i;

	if (jl_strings(c, "sites", n, &job->sites, &job->nsites, jl_site_name_ok,
	    "a site name (letters, digits, '.', '_' or '-')") == -1 && job->sites == NULL)
		return;
	if (job->nsites == 0) {
		errsink_error(&c->sink, n, "'sites' is an empty list: leave it out to use every site");
		return;
	}
	ydoc_strset_init(&seen);
	for (i = 0; i < job->nsites; i++)
		if (job->sites[i] != NULL && ydoc_strset_add(&seen, job->sites[i], i) != -1)
			errsink_error(&c->sink, n->items[i], "site '%s' is listed twice in 'sites'",
			    job->sites[i]);
		else if (job->sites[i] != NULL && c->known != NULL)
			jl_site_known(c, n->items[i], job->sites[i]);
	ydoc_strset_free(&seen);
}

/*
 * The expression parsed now, so that its mistake is one of the file's: located at the
 * mistake's column when the text is on the value's line (as broker_rank locates it), else
 * at the value, with the mistake's place in the text.
 */
static void
jl_requirements_parse(struct jl_ctx *c, const struct ydoc_node *n)
{
	const struct gs_loc *l = &c->job->requirements_loc;
	struct ydoc_node at = *n;
	struct expr_error xerr;
	struct expr *e;

	if ((e = expr_parse(c->job->requirements, &xerr)) != NULL) {
		expr_free(e);
		return;
	}
	if (l->line > 0) {
		at.col = l->col + xerr.col - 1;
		errsink_error(&c->sink, &at, "requirements: %s", xerr.msg);
	} else
		errsink_error(&c->sink, n, "requirements: at character %d of the expression: %s",
		    xerr.col, xerr.msg);
}

static void
jl_requirements(struct jl_ctx *c, const struct ydoc_node *n)
{
	struct gs_job *job = c->job;
	const char *s;

	if (errsink_check(&c->sink, ydoc_str(c->sink.name, "requirements", n, &s, &c->sink.err)) == -1)
		return;
	job->requirements = xstrdup(s);
	if (n->plain || n->quoted) {
		job->requirements_loc.file = job->path;
		job->requirements_loc.line = n->line;
		job->requirements_loc.col = n->col + (n->quoted ? 1 : 0);
	}
	jl_requirements_parse(c, n);
}

static void
jl_load(struct jl_ctx *c, const struct ydoc_node *root)
{
	struct gs_job *job = c->job;
	const struct ydoc_node *n;

	ydoc_check_keys_all(c->sink.name, root, jl_top_keys, c->sink.errs);
	jl_name(c, root);
	jl_program(c, root);
	if ((n = ydoc_get(root, "args")) != NULL)
		jl_strings(c, "args", n, &job->args, &job->nargs, NULL, NULL);
	if ((n = ydoc_get(root, "ranks")) != NULL)
		jl_ranks(c, n);
	if ((n = ydoc_get(root, "sites")) != NULL)
		jl_sites(c, n);
	if ((n = ydoc_get(root, "requirements")) != NULL)
		jl_requirements(c, n);
	if ((n = ydoc_get(root, "rank_weights")) != NULL)
		jl_weights(c, n);
	if ((n = ydoc_get(root, "runtime")) != NULL)
		job_runtime_load(&c->sink, c->job, n);
	if ((n = ydoc_get(root, "env")) != NULL)
		jl_env(c, n);
	if ((n = ydoc_get(root, "stage_in")) != NULL && (jl_strings(c, "stage_in", n,
	    &job->stage_in, &job->nstage_in, jl_stage_ok, "a relative path without '..' (files "
	    "and directories are staged from the job file's directory)") == 0 ||
	    job->stage_in != NULL)) {
		jl_stage_names(c, n, job->stage_in, job->nstage_in);
		jl_stage_files(c, n);
	}
	if ((n = ydoc_get(root, "stage_out")) != NULL)
		jl_strings(c, "stage_out", n, &job->stage_out, &job->nstage_out, jl_stage_ok,
		    "a relative path without '..' (files are staged into the job's directory)");
	jl_restarts(c, root);
	if ((n = ydoc_get(root, "time_limit")) != NULL)
		jl_time_limit(c, n);
}

/* The tree root, named name (a file's name, or what a document stands for), into out. */
static int
jl_load_root(const char *name, const struct ydoc_node *root, int files,
    const struct gs_sites *known, struct gs_job *out, struct gs_errlist *errs)
{
	struct jl_ctx c;

	memset(&c, 0, sizeof c);
	out->path = xstrdup(name);
	out->ranks = out->min_ranks = JL_DEFAULT_RANKS;
	out->restarts = JL_DEFAULT_RESTARTS;
	out->lease_timeout = JL_DEFAULT_LEASE;
	out->w1 = 1;
	out->w2 = 0;
	out->loc.file = out->path;
	out->loc.line = root->line;
	out->loc.col = root->col;
	c.sink.name = name;
	c.job = out;
	c.sink.errs = errs;
	c.files = files;
	c.known = known;
	jl_load(&c, root);
	if (errs->n == 0)
		return 0;
	job_free(out);
	return -1;
}

static int
jl_load_overlay(const char *name, const char *buf, size_t len, const struct ydoc_node *overlay,
    const char *origin, int files, const struct gs_sites *known, struct gs_job *out,
    struct gs_errlist *errs)
{
	struct ydoc_node *root;
	struct gs_error err;
	int rc;

	memset(out, 0, sizeof *out);
	memset(&err, 0, sizeof err);
	errlist_init(errs, name);
	if ((root = ydoc_parse(name, buf, len, &err)) == NULL) {
		errlist_add(errs, &err);
		return -1;
	}
	if (overlay != NULL)
		ydoc_merge(root, overlay, origin);
	rc = jl_load_root(name, root, files, known, out, errs);
	ydoc_free(root);
	return rc;
}

int
job_load_doc_errs(const char *name, const struct ydoc_node *doc, struct gs_job *out,
    struct gs_errlist *errs)
{
	memset(out, 0, sizeof *out);
	errlist_init(errs, name);
	return jl_load_root(name, doc, 0, NULL, out, errs);
}

int
job_load_buffer_errs(const char *name, const char *buf, size_t len, struct gs_job *out,
    struct gs_errlist *errs)
{
	return jl_load_overlay(name, buf, len, NULL, NULL, 0, NULL, out, errs);
}

int
job_load_file_overlay_errs(const char *path, const struct ydoc_node *overlay,
    const char *origin, struct gs_job *out, struct gs_errlist *errs)
{
	return job_load_file_sites_errs(path, overlay, origin, NULL, out, errs);
}

int
job_load_file_sites_errs(const char *path, const struct ydoc_node *overlay,
    const char *origin, const struct gs_sites *known, struct gs_job *out,
    struct gs_errlist *errs)
{
	struct gs_error err;
	char *buf;
	size_t len;
	int rc;

	memset(out, 0, sizeof *out);
	memset(&err, 0, sizeof err);
	if (ydoc_read_file(path, &buf, &len, &err) == -1) {
		errlist_init(errs, path);
		errlist_add(errs, &err);
		return -1;
	}
	rc = jl_load_overlay(path, buf, len, overlay, origin, 1, known, out, errs);
	free(buf);
	return rc;
}

int
job_load_file_errs(const char *path, struct gs_job *out, struct gs_errlist *errs)
{
	return job_load_file_overlay_errs(path, NULL, NULL, out, errs);
}

static void
jl_free_kv(struct gs_kv *kv, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

void
job_free(struct gs_job *job)
{
	if (job == NULL)
		return;
	free(job->path);
	free(job->name);
	free(job->program);
	strv_free(job->args, job->nargs);
	strv_free(job->sites, job->nsites);
	free(job->requirements);
	jl_free_kv(job->runtime, job->nruntime);
	jl_free_kv(job->env, job->nenv);
	strv_free(job->stage_in, job->nstage_in);
	strv_free(job->stage_out, job->nstage_out);
	free(job->time_limit);
	memset(job, 0, sizeof *job);
}
