/*
 * jobrun-jobfile.c — the job directory's job.yaml and sites.yaml: a pair that runs as it
 * is, from any directory, as the same job (`gridsubmit run DIR/job.yaml --sites
 * DIR/sites.yaml`), and that `gridsubmit resume` loads by their own paths.
 *
 * job.yaml is the job file as it was loaded (or, for a run without one, the file the
 * command line stands for: jobrun_nofile_doc): the experiment's overlay laid over it, the
 * program made absolute, the stage_in items pointing at the copies staged into DIR (the
 * loader takes only relative stage_in items, and DIR keeps what the job read), the
 * name, the scheme and the overrides of the command line written in, and comments on
 * top saying where it came from. sites.yaml is the site file with its ssh configs made
 * absolute, or the embedded default's text. Both are written with libyaml's emitter from
 * the tree the loaders read (yaml-emit.h), atomically.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker/yaml-doc.h"
#include "broker/yaml-emit.h"
#include "common/file.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "submit/cmd.h"
#include "submit/jobrun.h"

/* The default site file as built into the program (sites-default.c). */
extern const char embedded_localhost_yaml[];
extern const size_t embedded_localhost_yaml_len;

/* s for a comment line: a control character (a newline would end it) shown as '?'. */
static char *
jf_comment_text(const char *s)
{
	char *out = xstrdup(s), *p;

	for (p = out; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return out;
}

/* Append a formatted comment line ("# ...\n") to *head, control characters shown as '?'. */
static void __attribute__((format(printf, 2, 3)))
jf_comment(char **head, const char *fmt, ...)
{
	va_list ap;
	char *line, *clean, *joined;

	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) == -1)
		fatal("vasprintf");
	va_end(ap);
	clean = jf_comment_text(line);
	xasprintf(&joined, "%s# %s\n", *head != NULL ? *head : "", clean);
	free(*head);
	free(line);
	free(clean);
	*head = joined;
}

/* A new scalar: plain (a number, a word) or quoted (a text that is never a null). */
static struct ydoc_node *
jf_scalar(const char *value, int plain)
{
	struct ydoc_node *n = ydoc_scalar_new(value, 0, 0, NULL);

	n->plain = plain;
	n->quoted = !plain;
	return n;
}

static struct ydoc_node *
jf_collection(enum ydoc_type type)
{
	struct ydoc_node *n = xcalloc(1, sizeof *n);

	n->type = type;
	return n;
}

/* The directory of file as the loaders resolve paths against it: absolute, no slash at the end. */
static char *
jf_dir_of(const char *file)
{
	const char *slash = strrchr(file, '/');
	char cwd[PATH_MAX], *dir;

	if (file[0] == '/')
		return xstrndup(file, slash == file ? 1 : (size_t)(slash - file));
	if (getcwd(cwd, sizeof cwd) == NULL)
		fatal("getcwd");
	if (slash == NULL)
		return xstrdup(cwd);
	xasprintf(&dir, "%s/%.*s", cwd, (int)(slash - file), file);
	return dir;
}

/* The parsed file (and its overlay), or fatal: it was loaded a moment ago. */
static struct ydoc_node *
jf_parse(const char *path, const char *buf, size_t len)
{
	struct ydoc_node *root;
	struct gs_error err;

	if ((root = ydoc_parse(path, buf, len, &err)) == NULL)
		fatalx("%s (it changed while the job was submitted?)", err.msg);
	return root;
}

/*
 * name: the job's (the default from the file name would change with the file's), first
 * in the file as a person reads it.
 */
static void
jf_set_name(struct ydoc_node *root, const char *name)
{
	struct ydoc_pair p;
	int had = ydoc_get(root, "name") != NULL;

	ydoc_set(root, "name", jf_scalar(name, 0));
	if (had)
		return;
	p = root->pairs[root->npairs - 1];
	memmove(&root->pairs[1], &root->pairs[0], (root->npairs - 1) * sizeof *root->pairs);
	root->pairs[0] = p;
}

/* The keys an experiment's overlay sets, for the comment: "scheme, size, args". */
static char *
jf_overlay_keys(const struct ydoc_node *o)
{
	char *list = xstrdup(""), *t;
	const struct ydoc_node *rt;
	size_t i, j;

	for (i = 0; i < o->npairs; i++) {
		rt = o->pairs[i].value;
		if (strcmp(o->pairs[i].key->value, "runtime") == 0 && rt->type == YDOC_MAP) {
			for (j = 0; j < rt->npairs; j++) {
				xasprintf(&t, "%s%sruntime.%s", list, *list ? ", " : "",
				    rt->pairs[j].key->value);
				free(list);
				list = t;
			}
			continue;
		}
		xasprintf(&t, "%s%s%s", list, *list ? ", " : "", o->pairs[i].key->value);
		free(list);
		list = t;
	}
	return list;
}

/*
 * runtime.scheme of root set to the job's scheme (the job file's, --scheme's, the
 * configuration file's, else the runtime's default gss): the file then runs the same
 * under anyone's configuration. Returns where the scheme came from, for the comment.
 */
static const char *
jf_scheme(struct ydoc_node *root, const struct jobrun_args *a, const struct gs_job *job)
{
	struct ydoc_node *rt = ydoc_get(root, "runtime");
	const char *scheme = job_runtime_get(job, "scheme"), *from;

	if (a->scheme != NULL)
		from = "--scheme";
	else if (rt != NULL && ydoc_get(rt, "scheme") != NULL)
		from = a->overlay != NULL && ydoc_get(ydoc_get(a->overlay, "runtime"), "scheme") !=
		    NULL ? "the experiment" : "the job file";
	else if (scheme != NULL)
		from = "the configuration file";
	else
		from = "the runtime's default";
	if (rt == NULL) {
		rt = jf_collection(YDOC_MAP);
		ydoc_set(root, "runtime", rt);
	}
	ydoc_set(rt, "scheme", jf_scalar(scheme != NULL ? scheme : "gss", 1));
	return from;
}

/* stage_in: the copies in the job directory (their names there), sources in the comment. */
static void
jf_stage_in(struct ydoc_node *root, const struct gs_job *job, char **head)
{
	struct ydoc_node *seq;
	char *base, *src, *real;
	size_t i;

	if (job->nstage_in == 0)
		return;
	seq = jf_collection(YDOC_SEQ);
	seq->items = xcalloc(job->nstage_in + 1, sizeof *seq->items);
	jf_comment(head, "stage_in: the copies staged into this directory, made from:");
	for (i = 0; i < job->nstage_in; i++) {
		base = job_path_base(job->stage_in[i]);
		seq->items[i] = jf_scalar(base, 0);
		src = job_stage_in_source(job, i);
		real = realpath(src, NULL);
		jf_comment(head, "  %s <- %s", base, real != NULL ? real : src);
		free(real);
		free(src);
		free(base);
	}
	seq->nitems = seq->cap = job->nstage_in;
	ydoc_set(root, "stage_in", seq);
}

/* *s with " " and the printf of fmt appended (*s reallocated). */
static void __attribute__((format(printf, 2, 3)))
jf_append(char **s, const char *fmt, ...)
{
	va_list ap;
	char *w, *t;

	va_start(ap, fmt);
	if (vasprintf(&w, fmt, ap) == -1)
		fatal("vasprintf");
	va_end(ap);
	xasprintf(&t, "%s %s", *s, w);
	free(w);
	free(*s);
	*s = t;
}

/* "--scheme pwd --ranks 3 --restarts 2 --time 10:00", or "none". Allocated. */
static char *
jf_overrides(const struct jobrun_args *a)
{
	char *s = xstrdup(""), *t;
	int i;

	if (a->name != NULL)
		jf_append(&s, "--name %s", a->name);
	for (i = 0; i < a->nstage_in; i++)
		jf_append(&s, "--stage-in %s", a->stage_in[i]);
	if (a->scheme != NULL)
		jf_append(&s, "--scheme %s", a->scheme);
	if (a->migration != NULL)
		jf_append(&s, "--migration %s", a->migration);
	if (a->ranks > 0)
		jf_append(&s, "--ranks %d", a->ranks);
	if (a->restarts >= 0)
		jf_append(&s, "--restarts %d", a->restarts);
	if (a->time != NULL)
		jf_append(&s, "--time %s", a->time);
	if (a->oversubscribe)
		jf_append(&s, "--oversubscribe");
	if (!a->metrics)
		jf_append(&s, "--no-metrics (not a key of the job file)");
	/* without a job file, the words after "--" are the program and its args: the file's */
	if (a->job != NULL && a->nmore_args > 0)
		jf_append(&s, "-- %d more args", a->nmore_args);
	if (*s == '\0') {
		free(s);
		return xstrdup("none");
	}
	t = xstrdup(s + 1);
	free(s);
	return t;
}

/* args: the job file's and those after "--" on the command line. */
static void
jf_args(struct ydoc_node *root, const struct jobrun_args *a, const struct gs_job *job)
{
	struct ydoc_node *seq;
	size_t i;

	if (a->job == NULL || a->nmore_args == 0)
		return;
	seq = jf_collection(YDOC_SEQ);
	seq->items = xcalloc(job->nargs + 1, sizeof *seq->items);
	for (i = 0; i < job->nargs; i++)
		seq->items[i] = jf_scalar(job->args[i], 0);
	seq->nitems = seq->cap = job->nargs;
	ydoc_set(root, "args", seq);
}

/* DIR/job.yaml: the job as loaded, runnable as it is (the file's comment above). */
static void
jf_write_job(const struct jobrun_args *a, struct jobrun *jr)
{
	const struct gs_job *job = &jr->job;
	const struct job_state *st = &jr->st;
	struct ydoc_node *root;
	char *buf, *head = NULL, *out, *t, num[32];
	const char *from;
	size_t len;
	struct gs_error err;

	if (a->job == NULL)
		root = jobrun_nofile_doc(a, job->program);
	else {
		if (ydoc_read_file(job->path, &buf, &len, &err) == -1)
			fatalx("%s", err.msg);
		root = jf_parse(job->path, buf, len);
		free(buf);
	}
	if (a->overlay != NULL)
		ydoc_merge(root, a->overlay, a->overlay_origin);
	jf_comment(&head, "gridsubmit job %s: the job as it ran, runnable as it is from any "
	    "directory:", st->id);
	jf_comment(&head, "  gridsubmit run %s/job.yaml --sites %s/sites.yaml", st->dir,
	    st->dir);
	if (a->job == NULL)
		jf_comment(&head, "made from: the command line, no job file (-- PROGRAM ARGS)");
	else
		jf_comment(&head, "made from: %s", st->job_file != NULL ? st->job_file :
		    job->path);
	if (a->overlay != NULL) {
		t = jf_overlay_keys(a->overlay);
		jf_comment(&head, "experiment: %s sets %s", a->overlay_origin != NULL ?
		    a->overlay_origin : "-", t);
		free(t);
	}
	t = jf_overrides(a);
	jf_comment(&head, "command line: %s", t);
	free(t);
	jf_set_name(root, job->name);
	jf_comment(&head, "program: %s (absolute)", job->program);
	ydoc_set(root, "program", jf_scalar(job->program, 0));
	jf_args(root, a, job);
	if (a->ranks > 0) {
		snprintf(num, sizeof num, "%d", a->ranks);
		ydoc_set(root, "ranks", jf_scalar(num, 1));
	}
	if (a->restarts >= 0) {
		snprintf(num, sizeof num, "%d", a->restarts);
		ydoc_set(root, "restarts", jf_scalar(num, 1));
	}
	if (a->time != NULL)
		ydoc_set(root, "time_limit", jf_scalar(a->time, 0));
	if (a->oversubscribe)
		ydoc_set(root, "oversubscribe", jf_scalar("true", 1));
	from = jf_scheme(root, a, job);
	/* jf_scheme made runtime: */
	if (a->migration != NULL)
		ydoc_set(ydoc_get(root, "runtime"), "migration", jf_scalar(a->migration, 1));
	jf_comment(&head, "runtime.scheme: %s (from %s)", job_runtime_get(job, "scheme") !=
	    NULL ? job_runtime_get(job, "scheme") : "gss", from);
	jf_stage_in(root, job, &head);
	if (ydoc_emit(root, head, &out, &len) == -1)
		fatalx("%s/job.yaml: the job file cannot be written as YAML", st->dir);
	if (file_write_atomic(st->dir, "job.yaml", out, len, 0644) != 0)
		fatal("%s/job.yaml", st->dir);
	ydoc_free(root);
	free(head);
	free(out);
}

/*
 * Every ssh: {config: PATH} under n made absolute against dir, as the site loader
 * resolves it (relative to the site file's directory). Returns how many were changed.
 */
static int
jf_ssh_configs(struct ydoc_node *n, const char *dir)
{
	struct ydoc_node *cfg;
	char *abs;
	size_t i;
	int changed = 0;

	if (n->type == YDOC_SEQ)
		for (i = 0; i < n->nitems; i++)
			changed += jf_ssh_configs(n->items[i], dir);
	if (n->type != YDOC_MAP)
		return changed;
	for (i = 0; i < n->npairs; i++)
		changed += jf_ssh_configs(n->pairs[i].value, dir);
	cfg = ydoc_get(ydoc_get(n, "ssh"), "config");
	if (cfg == NULL || cfg->type != YDOC_SCALAR || cfg->value[0] == '/' ||
	    ydoc_is_null(cfg))
		return changed;
	xasprintf(&abs, "%s/%s", dir, cfg->value);
	free(cfg->value);
	cfg->value = abs;
	cfg->len = strlen(abs);
	cfg->plain = 0;
	cfg->quoted = 1;
	return changed + 1;
}

/* DIR/sites.yaml: the site file the job was placed on (or the embedded default's text). */
static void
jf_write_sites(struct jobrun *jr)
{
	const struct job_state *st = &jr->st;
	struct ydoc_node *root;
	struct gs_error err;
	char *buf, *head = NULL, *out, *dir, *real;
	size_t len;

	jf_comment(&head, "gridsubmit job %s: the site file it was placed on, beside its "
	    "job.yaml", st->id);
	if (st->sites_file == NULL) {
		jf_comment(&head, "made from: the embedded default, sites/localhost.yaml");
		root = jf_parse(jr->sites.path, embedded_localhost_yaml,
		    embedded_localhost_yaml_len);
	} else {
		jf_comment(&head, "made from: %s", st->sites_file);
		if (ydoc_read_file(jr->sites.path, &buf, &len, &err) == -1)
			fatalx("%s", err.msg);
		root = jf_parse(jr->sites.path, buf, len);
		free(buf);
		dir = jf_dir_of(jr->sites.path);
		/* the same directory, without the "x/../" a relative --sites may leave */
		if ((real = realpath(dir, NULL)) != NULL) {
			free(dir);
			dir = real;
		}
		if (jf_ssh_configs(root, dir) > 0)
			jf_comment(&head, "ssh config paths: made absolute (against %s)", dir);
		free(dir);
	}
	if (ydoc_emit(root, head, &out, &len) == -1)
		fatalx("%s/sites.yaml: the site file cannot be written as YAML", st->dir);
	if (file_write_atomic(st->dir, "sites.yaml", out, len, 0644) != 0)
		fatal("%s/sites.yaml", st->dir);
	ydoc_free(root);
	free(head);
	free(out);
}

void
jobrun_write_files(const struct jobrun_args *a, struct jobrun *jr)
{
	jf_write_job(a, jr);
	jf_write_sites(jr);
}
