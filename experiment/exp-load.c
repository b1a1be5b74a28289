/*
 * exp-load.c — experiment files (doc/experiments.md, "The experiment file") into struct
 * exp. Everything is checked before the first run: keys, types, what each parameter sets,
 * the {names} of args, the baseline, the metrics' regular expressions, the report's
 * parameters and metrics, and every point's job with its overlay. Errors are located at
 * the node in the experiment file, as in site and job files.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "errlist.h"
#include "exp.h"
#include "grt-keys.h"
#include "job.h"
#include "log.h"
#include "suggest.h"
#include "xmalloc.h"

static const char *const el_top_keys[] = {
	"name", "job", "sites", "testbed", "matrix", "zip", "args", "repeat", "order", "seed",
	"baseline", "metrics", "report", NULL
};
static const char *const el_metric_keys[] = { "name", "regex", NULL };
static const char *const el_report_keys[] = { "table", "plots", NULL };
static const char *const el_table_keys[] = { "rows", "cols", "value", "stat", NULL };
static const char *const el_plot_keys[] = { "x", "y", "series", "errorbars", "file", NULL };
static const char *const el_orders[] = { "random", "sequential", NULL };
static const char *const el_stats[] = { "median", "mean", "min", "max", "sd", "n", NULL };
static const char *const el_bars[] = { "ci95", "sd", "minmax", "none", NULL };

/* The job file's top-level keys a parameter may set (runtime keys go under runtime:). */
static const char *const el_job_keys[] = {
	"ranks", "sites", "requirements", "rank_weights", "restarts", "program", "env", NULL
};
#define EL_RUNTIME_KEY(id, key)	key,
static const char *const el_runtime_keys[] = { GRT_RUNTIME_KEYS(EL_RUNTIME_KEY) NULL };
#undef EL_RUNTIME_KEY

/* Names args may use besides the parameters: the run's seed and repetition, the point. */
static const char *const el_builtin_names[] = { "seed", "rep", "point", NULL };

const char *const exp_builtin_metrics[] = {
	"makespan", "wall", "efficiency", "imbalance", "requeued", "failed_ranks",
	"migrations", "load_before", NULL
};

struct el_ctx {
	const char *name;	/* the file as given, for errors */
	int stored;		/* 1: the results directory's copy (exp_load_stored) */
	struct exp *e;
	struct gs_error *err;
	struct gs_errlist *errs;	/* a point's job file's errors (el_check_points) */
};

void
exp_hash(const void *p, size_t len, char out[17])
{
	const unsigned char *b = p;
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= b[i];
		h *= 1099511628211ULL;
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

static int
el_in(const char *s, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

/* A name of the file's own: [A-Za-z_][A-Za-z0-9_]*, at most 64 bytes. */
static int
el_ident(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len > 64 || !((s[0] >= 'a' && s[0] <= 'z') ||
	    (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
		return 0;
	for (i = 1; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

/* A path relative to the experiment file's directory, resolved; it must exist. */
static char *
el_path(struct el_ctx *c, const char *key, const struct ydoc_node *n)
{
	const char *s, *slash;
	char *joined, *abs;

	if (ydoc_str(c->name, key, n, &s, c->err) == -1)
		return NULL;
	slash = strrchr(c->e->path, '/');
	if (s[0] == '/')
		joined = xstrdup(s);
	else
		xasprintf(&joined, "%.*s/%s", (int)(slash - c->e->path), c->e->path, s);
	if ((abs = realpath(joined, NULL)) == NULL && c->stored) {
		/* a report needs no job: the file may have gone since the runs */
		return joined;
	}
	if (abs == NULL)
		ydoc_error(c->err, c->name, n, "'%s': cannot open %s: %s", key, joined,
		    strerror(errno));
	free(joined);
	return abs;
}

/* A scalar's text, or a collection as JSON (for the store, the reports and {name}). */
static json_t *
el_json(const struct ydoc_node *n)
{
	json_t *j;
	size_t i;

	switch (n->type) {
	case YDOC_SCALAR:
		return json_string(n->value);
	case YDOC_SEQ:
		j = json_array();
		for (i = 0; i < n->nitems; i++)
			json_array_append_new(j, el_json(n->items[i]));
		return j;
	case YDOC_MAP:
		j = json_object();
		for (i = 0; i < n->npairs; i++)
			json_object_set_new(j, n->pairs[i].key->value, el_json(n->pairs[i].value));
		return j;
	}
	return json_null();
}

static char *
el_text(const struct ydoc_node *n)
{
	json_t *j;
	char *s;

	if (n->type == YDOC_SCALAR)
		return xstrdup(n->value);
	j = el_json(n);
	s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(j);
	if (s == NULL)
		fatalx("out of memory");
	return s;
}

/* matrix: or zip: — each key a parameter with a non-empty list of values. */
static int
el_params(struct el_ctx *c, const struct ydoc_node *map, const char *key)
{
	struct exp *e = c->e;
	size_t i, j;

	if (ydoc_want(c->name, key, map, YDOC_MAP, c->err) == -1)
		return -1;
	if (map->npairs == 0) {
		ydoc_error(c->err, c->name, map, "'%s' is empty: name at least one parameter "
		    "with a list of values", key);
		return -1;
	}
	e->params = xcalloc(map->npairs, sizeof *e->params);
	e->npoints = 1;
	for (i = 0; i < map->npairs; i++) {
		const struct ydoc_node *k = map->pairs[i].key, *v = map->pairs[i].value;
		struct exp_param *p = &e->params[i];

		if (!el_ident(k->value, k->len) || el_in(k->value, el_builtin_names)) {
			ydoc_error(c->err, c->name, k, "'%.64s' cannot name a parameter (letters, "
			    "digits and '_'; seed, rep and point are taken)", k->value);
			return -1;
		}
		p->name = xstrdup(k->value);
		p->key = k;
		e->nparams = i + 1;
		if (v->type != YDOC_SEQ || v->nitems == 0) {
			ydoc_error(c->err, c->name, v, "parameter '%s' needs a non-empty list of "
			    "values, as in %s: [a, b]", p->name, p->name);
			return -1;
		}
		p->target = el_in(p->name, el_runtime_keys) ? EXP_RUNTIME_KEY :
		    el_in(p->name, el_job_keys) ? EXP_JOB_KEY : EXP_FREE;
		p->values = xcalloc(v->nitems, sizeof *p->values);
		p->texts = xcalloc(v->nitems, sizeof *p->texts);
		for (j = 0; j < v->nitems; j++) {
			p->values[j] = v->items[j];
			p->texts[j] = el_text(v->items[j]);
			p->nvalues = j + 1;
		}
		if (e->zip && i > 0 && p->nvalues != e->params[0].nvalues) {
			ydoc_error(c->err, c->name, v, "zip: '%s' has %zu values, '%s' has %zu: "
			    "zip pairs the lists element by element, so they must be as long",
			    p->name, p->nvalues, e->params[0].name, e->params[0].nvalues);
			return -1;
		}
		if (!e->zip) {
			if (e->npoints > EXP_MAX_POINTS / p->nvalues) {
				ydoc_error(c->err, c->name, v, "the matrix has more than %d points",
				    EXP_MAX_POINTS);
				return -1;
			}
			e->npoints *= p->nvalues;
		}
	}
	if (e->zip)
		e->npoints = e->params[0].nvalues;
	return 0;
}

int
exp_param_find(const struct exp *e, const char *name)
{
	size_t i;

	for (i = 0; i < e->nparams; i++)
		if (strcmp(e->params[i].name, name) == 0)
			return (int)i;
	return -1;
}

/*
 * Each {name} of s: call f with the name (len bytes) and its offset; stop when f returns
 * non-zero and return that. A '{' that does not open a {name} is text.
 */
static int
el_each_name(const char *s, int (*f)(const char *, size_t, size_t, void *), void *arg)
{
	const char *p = s, *open, *close;
	int rc;

	while ((open = strchr(p, '{')) != NULL) {
		close = strchr(open + 1, '}');
		if (close == NULL)
			break;
		if (el_ident(open + 1, (size_t)(close - open - 1))) {
			if ((rc = f(open + 1, (size_t)(close - open - 1), (size_t)(open - s),
			    arg)) != 0)
				return rc;
			p = close + 1;
		} else
			p = open + 1;
	}
	return 0;
}

struct el_use {
	const struct exp *e;
	char *used;		/* per parameter: 1 when some {name} uses it */
	const char *bad;	/* the undefined name */
	size_t badlen;
};

static int
el_use_name(const char *name, size_t len, size_t off, void *arg)
{
	struct el_use *u = arg;
	char buf[72];
	int i;

	snprintf(buf, sizeof buf, "%.*s", (int)len, name);
	if ((i = exp_param_find(u->e, buf)) >= 0) {
		u->used[i] = 1;
		return 0;
	}
	if (el_in(buf, el_builtin_names))
		return 0;
	u->bad = name;
	u->badlen = len;
	return 1;
}

/* args: a list of texts whose {names} are parameters or built-ins; free names used. */
static int
el_args(struct el_ctx *c, const struct ydoc_node *n)
{
	struct exp *e = c->e;
	struct el_use u = { e, xcalloc(e->nparams + 1, 1), NULL, 0 };
	const char *s;
	size_t i;
	int rc = 0;

	if (n != NULL && ydoc_want(c->name, "args", n, YDOC_SEQ, c->err) == -1)
		rc = -1;
	for (i = 0; rc == 0 && n != NULL && i < n->nitems; i++) {
		if (ydoc_str(c->name, "args", n->items[i], &s, c->err) == -1)
			rc = -1;
		else if (el_each_name(s, el_use_name, &u) != 0) {
			ydoc_error(c->err, c->name, n->items[i], "'{%.*s}' is not defined: "
			    "name a parameter of the matrix, or seed, rep or point",
			    (int)u.badlen, u.bad);
			rc = -1;
		}
	}
	for (i = 0; rc == 0 && i < e->nparams; i++) {
		if (e->params[i].target != EXP_FREE || u.used[i])
			continue;
		ydoc_error(c->err, c->name, e->params[i].key, "parameter '%s' is neither a key "
		    "of the job (%s), nor of its runtime, nor used as {%s} in args",
		    e->params[i].name, "ranks, sites, rank_weights, ...", e->params[i].name);
		rc = -1;
	}
	free(u.used);
	e->args = n;
	return rc;
}

static int
el_metrics(struct el_ctx *c, const struct ydoc_node *n)
{
	struct exp *e = c->e;
	const struct ydoc_node *nn, *rn;
	const char *s;
	size_t i, j;
	int rc;

	if (ydoc_want(c->name, "metrics", n, YDOC_SEQ, c->err) == -1)
		return -1;
	e->metrics = xcalloc(n->nitems + 1, sizeof *e->metrics);
	for (i = 0; i < n->nitems; i++) {
		struct exp_metric *m = &e->metrics[i];
		char msg[256];

		if (ydoc_want(c->name, "metrics", n->items[i], YDOC_MAP, c->err) == -1 ||
		    ydoc_check_keys(c->name, n->items[i], el_metric_keys, c->err) == -1)
			return -1;
		if ((nn = ydoc_get(n->items[i], "name")) == NULL ||
		    (rn = ydoc_get(n->items[i], "regex")) == NULL) {
			ydoc_error(c->err, c->name, n->items[i], "a metric needs 'name' and "
			    "'regex', as in {name: mflops, regex: 'rate ([0-9.]+)'}");
			return -1;
		}
		if (ydoc_str(c->name, "name", nn, &s, c->err) == -1)
			return -1;
		if (!el_ident(s, strlen(s)) || el_in(s, exp_builtin_metrics)) {
			ydoc_error(c->err, c->name, nn, "'%.64s' cannot name a metric (letters, "
			    "digits and '_', not a built-in one such as makespan)", s);
			return -1;
		}
		for (j = 0; j < i; j++)
			if (strcmp(e->metrics[j].name, s) == 0) {
				ydoc_error(c->err, c->name, nn, "metric '%s' is defined twice", s);
				return -1;
			}
		if (ydoc_str(c->name, "regex", rn, &s, c->err) == -1)
			return -1;
		if ((rc = regcomp(&m->re, s, REG_EXTENDED)) != 0) {
			regerror(rc, &m->re, msg, sizeof msg);
			ydoc_error(c->err, c->name, rn, "'regex' does not compile: %s", msg);
			return -1;
		}
		m->name = xstrdup(nn->value);
		m->pattern = xstrdup(s);
		e->nmetrics = i + 1;
		if (m->re.re_nsub < 1) {
			ydoc_error(c->err, c->name, rn, "'regex' needs a group around the number, "
			    "as in 'rate ([0-9.]+)'");
			return -1;
		}
	}
	return 0;
}

/* A parameter name in the report: NULL allowed when optional. */
static int
el_report_param(struct el_ctx *c, const struct ydoc_node *map, const char *key,
    int optional, char **out)
{
	const struct ydoc_node *n = ydoc_get(map, key);
	const char *names[64], *s, *guess;
	size_t i;

	if (n == NULL) {
		if (optional)
			return 0;
		ydoc_error(c->err, c->name, map, "missing key '%s' (a parameter of the matrix)",
		    key);
		return -1;
	}
	if (ydoc_str(c->name, key, n, &s, c->err) == -1)
		return -1;
	if (exp_param_find(c->e, s) >= 0) {
		*out = xstrdup(s);
		return 0;
	}
	for (i = 0; i < c->e->nparams && i < 63; i++)
		names[i] = c->e->params[i].name;
	names[i] = NULL;
	guess = suggest_closest(s, names);
	ydoc_error(c->err, c->name, n, "'%s': '%.64s' is not a parameter of the matrix%s%s%s",
	    key, s, guess ? " (did you mean '" : "", guess ? guess : "", guess ? "'?)" : "");
	return -1;
}

static int
el_metric_known(const struct exp *e, const char *s)
{
	size_t i;

	if (el_in(s, exp_builtin_metrics))
		return 1;
	for (i = 0; i < e->nmetrics; i++)
		if (strcmp(e->metrics[i].name, s) == 0)
			return 1;
	return 0;
}

static int
el_report_metric(struct el_ctx *c, const struct ydoc_node *map, const char *key, char **out)
{
	const struct ydoc_node *n = ydoc_get(map, key);
	const char *s;

	if (n == NULL) {
		*out = xstrdup("makespan");
		return 0;
	}
	if (ydoc_str(c->name, key, n, &s, c->err) == -1)
		return -1;
	if (!el_metric_known(c->e, s)) {
		ydoc_error(c->err, c->name, n, "'%s': unknown metric '%.64s' (built-in: "
		    "makespan, wall, efficiency, imbalance, requeued, failed_ranks, migrations, "
		    "load_before; or one of metrics:)", key, s);
		return -1;
	}
	*out = xstrdup(s);
	return 0;
}

static int
el_word(struct el_ctx *c, const struct ydoc_node *map, const char *key,
    const char *const *words, char **out)
{
	const struct ydoc_node *n = ydoc_get(map, key);
	int i;

	if (n == NULL) {
		*out = xstrdup(words[0]);
		return 0;
	}
	if (ydoc_choice(c->name, key, n, words, &i, c->err) == -1)
		return -1;
	*out = xstrdup(words[i]);
	return 0;
}

/* A figure's file: a plain name ending in .png or .svg (both are written). */
static int
el_plot_file(struct el_ctx *c, const struct ydoc_node *map, char **out)
{
	const struct ydoc_node *n = ydoc_get(map, "file");
	const char *s, *dot;
	size_t i;

	if (n == NULL) {
		ydoc_error(c->err, c->name, map, "a plot needs 'file', as in file: fig6.png");
		return -1;
	}
	if (ydoc_str(c->name, "file", n, &s, c->err) == -1)
		return -1;
	dot = strrchr(s, '.');
	for (i = 0; s[i] != '\0'; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '-' || s[i] == '.'))
			break;
	if (s[i] != '\0' || s[0] == '.' || dot == NULL || dot == s || i > 64 ||
	    (strcmp(dot, ".png") != 0 && strcmp(dot, ".svg") != 0)) {
		ydoc_error(c->err, c->name, n, "'file' must be a name ending in .png or .svg "
		    "(letters, digits, '_', '-', '.'), not '%.64s'", s);
		return -1;
	}
	*out = xstrndup(s, (size_t)(dot - s));
	return 0;
}

static int
el_report(struct el_ctx *c, const struct ydoc_node *n)
{
	struct exp *e = c->e;
	const struct ydoc_node *t = n != NULL ? ydoc_get(n, "table") : NULL;
	const struct ydoc_node *pl = n != NULL ? ydoc_get(n, "plots") : NULL;
	size_t i;

	if (n != NULL && (ydoc_want(c->name, "report", n, YDOC_MAP, c->err) == -1 ||
	    ydoc_check_keys(c->name, n, el_report_keys, c->err) == -1))
		return -1;
	if (t != NULL) {
		if (ydoc_want(c->name, "table", t, YDOC_MAP, c->err) == -1 ||
		    ydoc_check_keys(c->name, t, el_table_keys, c->err) == -1 ||
		    el_report_param(c, t, "rows", 0, &e->table.rows) == -1 ||
		    el_report_param(c, t, "cols", 1, &e->table.cols) == -1)
			return -1;
	} else
		/* default: one row per value of the first parameter, one column per second */
		e->table.rows = xstrdup(e->params[0].name);
	if (t == NULL && e->nparams > 1)
		e->table.cols = xstrdup(e->params[1].name);
	if (el_report_metric(c, t, "value", &e->table.value) == -1 ||
	    el_word(c, t, "stat", el_stats, &e->table.stat) == -1)
		return -1;
	if (pl == NULL)
		return 0;
	if (ydoc_want(c->name, "plots", pl, YDOC_SEQ, c->err) == -1)
		return -1;
	e->plots = xcalloc(pl->nitems + 1, sizeof *e->plots);
	for (i = 0; i < pl->nitems; i++) {
		const struct ydoc_node *p = pl->items[i];
		struct exp_plot *o = &e->plots[i];

		e->nplots = i + 1;
		if (ydoc_want(c->name, "plots", p, YDOC_MAP, c->err) == -1 ||
		    ydoc_check_keys(c->name, p, el_plot_keys, c->err) == -1 ||
		    el_report_param(c, p, "x", 0, &o->x) == -1 ||
		    el_report_metric(c, p, "y", &o->y) == -1 ||
		    el_report_param(c, p, "series", 1, &o->series) == -1 ||
		    el_word(c, p, "errorbars", el_bars, &o->errorbars) == -1 ||
		    el_plot_file(c, p, &o->file) == -1)
			return -1;
	}
	return 0;
}

static int
el_baseline(struct el_ctx *c, const struct ydoc_node *n)
{
	struct exp *e = c->e;
	size_t i, j;
	int k;

	if (ydoc_want(c->name, "baseline", n, YDOC_MAP, c->err) == -1)
		return -1;
	e->baseline_keys = xcalloc(n->npairs + 1, sizeof *e->baseline_keys);
	e->baseline_vals = xcalloc(n->npairs + 1, sizeof *e->baseline_vals);
	for (i = 0; i < n->npairs; i++) {
		const struct ydoc_node *key = n->pairs[i].key, *v = n->pairs[i].value;
		char *text;

		if ((k = exp_param_find(e, key->value)) < 0) {
			ydoc_error(c->err, c->name, key, "baseline: '%.64s' is not a parameter of "
			    "the matrix", key->value);
			return -1;
		}
		text = el_text(v);
		for (j = 0; j < e->params[k].nvalues; j++)
			if (strcmp(e->params[k].texts[j], text) == 0)
				break;
		e->baseline_keys[i] = xstrdup(key->value);
		e->baseline_vals[i] = text;
		e->nbaseline = i + 1;
		if (j == e->params[k].nvalues) {
			ydoc_error(c->err, c->name, v, "baseline: '%.64s' is not one of the values "
			    "of '%s'", text, key->value);
			return -1;
		}
	}
	return 0;
}

static int
el_name(struct el_ctx *c, const struct ydoc_node *root)
{
	const struct ydoc_node *n = ydoc_get(root, "name");
	const char *s, *base;
	size_t i, len;

	if (n != NULL) {
		if (ydoc_str(c->name, "name", n, &s, c->err) == -1)
			return -1;
		len = strlen(s);
	} else {
		base = strrchr(c->e->path, '/') + 1;
		s = base;
		len = strcspn(base, ".");
	}
	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '-' || s[i] == '.'))
			break;
	if (i < len || len == 0 || len > 64 || s[0] == '.') {
		ydoc_error(c->err, c->name, n != NULL ? n : root, "'name' must be a name for "
		    "the results directory (letters, digits, '_', '-', '.'; at most 64), not "
		    "'%.64s'", s);
		return -1;
	}
	c->e->name = xstrndup(s, len);
	return 0;
}

/*
 * Every point's job loads with its overlay: a bad value is reported before any run. The
 * first point that does not load gives every error of its job file, in c->errs.
 */
static int
el_check_points(struct el_ctx *c)
{
	struct exp *e = c->e;
	struct ydoc_node *o;
	struct gs_job job;
	size_t p;
	int rc = 0;

	for (p = 0; p < e->npoints && rc == 0; p++) {
		o = exp_overlay(e, p, 1, 0);
		rc = job_load_file_overlay_errs(e->job, o, c->name, &job, c->errs);
		if (rc == 0)
			job_free(&job);
		ydoc_free(o);
	}
	return rc;
}

static int
el_load(struct el_ctx *c, const struct ydoc_node *root)
{
	struct exp *e = c->e;
	const struct ydoc_node *n, *m, *z;
	long long v;
	int i;

	if (ydoc_check_keys(c->name, root, el_top_keys, c->err) == -1 || el_name(c, root) == -1)
		return -1;
	if ((n = ydoc_get(root, "job")) == NULL) {
		ydoc_error(c->err, c->name, root, "missing key 'job' (the job file to run)");
		return -1;
	}
	if ((e->job = el_path(c, "job", n)) == NULL)
		return -1;
	if ((n = ydoc_get(root, "sites")) != NULL && ydoc_get(root, "testbed") != NULL) {
		ydoc_error(c->err, c->name, n, "give 'sites' or 'testbed', not both");
		return -1;
	}
	if (n == NULL && (n = ydoc_get(root, "testbed")) != NULL)
		e->testbed = 1;
	if (n != NULL && (e->sites = el_path(c, e->testbed ? "testbed" : "sites", n)) == NULL)
		return -1;
	m = ydoc_get(root, "matrix");
	z = ydoc_get(root, "zip");
	if ((m == NULL) == (z == NULL)) {
		ydoc_error(c->err, c->name, m != NULL ? m : root, m != NULL ? "give 'matrix' or "
		    "'zip', not both" : "missing key 'matrix' (the parameters to vary, as in "
		    "matrix: {scheme: [gss, pwd]})");
		return -1;
	}
	e->zip = z != NULL;
	if (el_params(c, m != NULL ? m : z, m != NULL ? "matrix" : "zip") == -1 ||
	    el_args(c, ydoc_get(root, "args")) == -1)
		return -1;
	e->repeat = 1;
	if ((n = ydoc_get(root, "repeat")) != NULL) {
		if (ydoc_int(c->name, "repeat", n, "a whole number from 1 to 10000", 1,
		    EXP_MAX_REPEAT, &v, c->err) == -1)
			return -1;
		e->repeat = (int)v;
	}
	if (e->npoints * (size_t)e->repeat > EXP_MAX_POINTS) {
		ydoc_error(c->err, c->name, root, "%zu points x %d repetitions is more than %d "
		    "runs", e->npoints, e->repeat, EXP_MAX_POINTS);
		return -1;
	}
	e->random_order = 1;
	if ((n = ydoc_get(root, "order")) != NULL) {
		if (ydoc_choice(c->name, "order", n, el_orders, &i, c->err) == -1)
			return -1;
		e->random_order = i == 0;
	}
	if ((n = ydoc_get(root, "seed")) != NULL) {
		if (ydoc_int(c->name, "seed", n, "a whole number from 0 to 2^53", 0,
		    1LL << 53, &v, c->err) == -1)
			return -1;
		e->have_seed = 1;
		e->seed = (uint64_t)v;
	}
	if ((n = ydoc_get(root, "baseline")) != NULL && el_baseline(c, n) == -1)
		return -1;
	if ((n = ydoc_get(root, "metrics")) != NULL && el_metrics(c, n) == -1)
		return -1;
	if (el_report(c, ydoc_get(root, "report")) == -1)
		return -1;
	return c->stored ? 0 : el_check_points(c);
}

/*
 * The experiment file's own error (it stops at the first) or a point's job file's errors
 * (every one), in errs.
 */
static int
el_load_file(const char *path, const char *as, int stored, struct exp *e,
    struct gs_errlist *errs)
{
	struct el_ctx c;
	struct gs_error err;
	char *buf;
	size_t len;

	memset(e, 0, sizeof *e);
	memset(&err, 0, sizeof err);
	errlist_init(errs, path);
	if (ydoc_read_file(path, &buf, &len, &err) == -1) {
		errlist_add(errs, &err);
		return -1;
	}
	if ((e->path = realpath(as, NULL)) == NULL && stored)
		e->path = xstrdup(as);
	if (e->path == NULL) {
		snprintf(err.msg, sizeof err.msg, "%s: %s", as, strerror(errno));
		errlist_add(errs, &err);
		free(buf);
		return -1;
	}
	exp_hash(buf, len, e->hash);
	e->root = ydoc_parse(path, buf, len, &err);
	free(buf);
	if (e->root == NULL) {
		errlist_add(errs, &err);
		exp_free(e);
		return -1;
	}
	c.name = path;
	c.stored = stored;
	c.e = e;
	c.err = &err;
	c.errs = errs;
	if (el_load(&c, e->root) == -1) {
		/* el_check_points filled errs with a job file's errors; else the error is ours */
		if (errs->n == 0)
			errlist_add(errs, &err);
		exp_free(e);
		return -1;
	}
	return 0;
}

int
exp_load_errs(const char *path, struct exp *e, struct gs_errlist *errs)
{
	return el_load_file(path, path, 0, e, errs);
}

int
exp_load(const char *path, struct exp *e, struct gs_error *err)
{
	struct gs_errlist errs;
	int rc;

	if ((rc = exp_load_errs(path, e, &errs)) == -1)
		errlist_first(&errs, err);
	return rc;
}

int
exp_load_stored(const char *copy, const char *orig, struct exp *e, struct gs_error *err)
{
	struct gs_errlist errs;
	int rc;

	if ((rc = el_load_file(copy, orig, 1, e, &errs)) == -1)
		errlist_first(&errs, err);
	return rc;
}

void
exp_free(struct exp *e)
{
	size_t i;

	for (i = 0; i < e->nparams; i++) {
		free(e->params[i].name);
		free(e->params[i].values);
		strv_free(e->params[i].texts, e->params[i].nvalues);
	}
	free(e->params);
	for (i = 0; i < e->nmetrics; i++) {
		free(e->metrics[i].name);
		if (e->metrics[i].pattern != NULL)
			regfree(&e->metrics[i].re);
		free(e->metrics[i].pattern);
	}
	free(e->metrics);
	for (i = 0; i < e->nplots; i++) {
		free(e->plots[i].x);
		free(e->plots[i].y);
		free(e->plots[i].series);
		free(e->plots[i].errorbars);
		free(e->plots[i].file);
	}
	free(e->plots);
	free(e->table.rows);
	free(e->table.cols);
	free(e->table.value);
	free(e->table.stat);
	strv_free(e->baseline_keys, e->nbaseline);
	strv_free(e->baseline_vals, e->nbaseline);
	free(e->path);
	free(e->name);
	free(e->job);
	free(e->sites);
	ydoc_free(e->root);
	memset(e, 0, sizeof *e);
}
