/*
 * exp-load.c — experiment files (doc/experiments.md, "The experiment file") into struct
 * exp. Everything is checked before the first run: keys, types, what each parameter sets,
 * the values of the reserved parameter mode, the {names} of args, the baseline, the
 * metrics' regular expressions, the report's parameters and metrics, and every point's job
 * with its overlay. Errors are located at the node in the experiment file, as in site and
 * job files.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "broker/errlist.h"
#include "broker/errsink.h"
#include "broker/job.h"
#include "common/suggest.h"
#include "common/xmalloc.h"
#include "experiment/exp-claim.h"
#include "experiment/exp.h"
#include "grt/grt-keys.h"

static const char *const el_top_keys[] = {
	"name", "job", "sites", "testbed", "matrix", "zip", "args", "repeat", "order", "seed",
	"baseline", "metrics", "report", "claims", NULL
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
	"ranks", "sites", "requirements", "rank_weights", "restarts", "program", "env",
	"oversubscribe", NULL
};
#define EL_RUNTIME_KEY(id, key)	key,
static const char *const el_runtime_keys[] = { GRT_RUNTIME_KEYS(EL_RUNTIME_KEY) NULL };
#undef EL_RUNTIME_KEY

/* Names args may use besides the parameters: the run's seed and repetition, the point. */
static const char *const el_builtin_names[] = { "seed", "rep", "point", NULL };

/* The reserved parameter that says what a point's runs are (exp.h, enum exp_mode). */
#define EL_MODE	"mode"
const char *const exp_mode_names[] = { "run", "testbed", "simulate", NULL };

const char *const exp_builtin_metrics[] = {
	"makespan", "wall", "efficiency", "imbalance", "requeued", "failed_ranks",
	"migrations", "load_before", "sd_exe_first", "sd_exe_last", "sd_exe_fall", "drop_round",
	"move_s", "move_mbps", NULL
};

struct el_ctx {
	struct gs_errsink sink;	/* the file's name and its errors */
	int stored;		/* 1: the results directory's copy (exp_load_stored) */
	struct exp *e;
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

/* 1 when a parameter's name is one the file may use (el_params says why not). */
static int
el_param_name_ok(const char *s)
{
	return el_ident(s, strlen(s)) && !el_in(s, el_builtin_names);
}

/* A path relative to the experiment file's directory, resolved; it must exist. */
static char *
el_path(struct el_ctx *c, const char *key, const struct ydoc_node *n)
{
	const char *s, *slash;
	char *joined, *abs;

	if (errsink_check(&c->sink, ydoc_str(c->sink.name, key, n, &s, &c->sink.err)) == -1)
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
		errsink_error(&c->sink, n, "'%s': cannot open %s: %s", key, joined, strerror(errno));
	free(joined);
	return abs;
}

/*
 * A scalar's text, or a collection as JSON (for the store, the reports and {name}); NULL
 * when jansson runs out of memory.
 */
static json_t *
el_json(const struct ydoc_node *n)
{
	json_t *j = NULL;
	size_t i;
	int rc = 0;

	switch (n->type) {
	case YDOC_SCALAR:
		return json_string(n->value);
	case YDOC_SEQ:
		if ((j = json_array()) != NULL)
			for (i = 0; i < n->nitems && rc == 0; i++)
				rc = json_array_append_new(j, el_json(n->items[i]));
		break;
	case YDOC_MAP:
		if ((j = json_object()) != NULL)
			for (i = 0; i < n->npairs && rc == 0; i++)
				rc = json_object_set_new(j, n->pairs[i].key->value,
				    el_json(n->pairs[i].value));
		break;
	}
	if (rc != 0) {
		json_decref(j);
		return NULL;
	}
	return j;
}

/*
 * A parameter's value as the store and the claims compare it (allocated): a scalar's text,
 * a collection as compact JSON in the file's order; NULL when jansson runs out of memory.
 */
char *
exp_value_text(const struct ydoc_node *n)
{
	json_t *j;
	char *s;

	if (n->type == YDOC_SCALAR)
		return xstrdup(n->value);
	j = el_json(n);
	s = j != NULL ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	json_decref(j);
	return s;
}

/*
 * exp_value_text, where jansson out of memory is an error of the load, at n, not an exit
 * (a library's callers decide); the text is then empty and the load goes on.
 */
static char *
el_text(struct el_ctx *c, const struct ydoc_node *n)
{
	char *s;

	if ((s = exp_value_text(n)) == NULL) {
		errsink_error(&c->sink, n, "out of memory writing the value as JSON");
		s = xstrdup("");
	}
	return s;
}

/*
 * One parameter of matrix: or zip: (key k, values v) into p. A wrong name or list is an
 * error, and the parameter is still kept by its name (with no values for a wrong list),
 * so that what refers to it is not reported as well. -1 when it is wrong.
 */
static int
el_param(struct el_ctx *c, const struct ydoc_node *k, const struct ydoc_node *v,
    struct exp_param *p)
{
	size_t j;
	int rc = 0;

	p->name = xstrdup(k->value);
	p->key = k;
	if (!el_param_name_ok(k->value))
		rc = errsink_error(&c->sink, k, "'%.64s' cannot name a parameter (letters, digits and '_'; "
		    "seed, rep and point are taken)", k->value);
	p->target = el_in(p->name, el_runtime_keys) ? EXP_RUNTIME_KEY :
	    el_in(p->name, el_job_keys) ? EXP_JOB_KEY : exp_site_param(p->name) ?
	    EXP_SITE_KEY : exp_sim_param(p->name) ? EXP_SIM_KEY : EXP_FREE;
	if (v->type != YDOC_SEQ || v->nitems == 0)
		return errsink_error(&c->sink, v, "parameter '%.64s' needs a non-empty list of values, as "
		    "in %.64s: [a, b]", p->name, p->name);
	p->values = xcalloc(v->nitems, sizeof *p->values);
	p->texts = xcalloc(v->nitems, sizeof *p->texts);
	for (j = 0; j < v->nitems; j++) {
		p->values[j] = v->items[j];
		p->texts[j] = el_text(c, v->items[j]);
		p->nvalues = j + 1;
	}
	return rc;
}

/*
 * The values of the parameter mode: each run, testbed or simulate, and testbed only for an
 * experiment with testbed:. Every wrong value is reported, at the value. -1 when one is.
 */
static int
el_mode(struct el_ctx *c, const struct exp_param *p)
{
	const struct ydoc_node *v;
	const char *guess;
	size_t j;
	int rc = 0;

	for (j = 0; j < p->nvalues; j++) {
		v = p->values[j];
		if (v->type == YDOC_SCALAR && el_in(p->texts[j], exp_mode_names)) {
			if (strcmp(p->texts[j], exp_mode_names[EXP_MODE_TESTBED]) == 0 &&
			    !c->e->testbed)
				rc = errsink_error(&c->sink, v, "mode 'testbed' needs the experiment's "
				    "'testbed:' key (the site file to bring up as a testbed); without "
				    "one, use run or simulate");
			continue;
		}
		guess = v->type == YDOC_SCALAR ? suggest_closest(p->texts[j], exp_mode_names) :
		    NULL;
		rc = errsink_error(&c->sink, v, "'mode' must be run, testbed or simulate, not "
		    "'%.64s'%s%s%s", p->texts[j], guess ? " (did you mean '" : "",
		    guess ? guess : "", guess ? "'?)" : "");
	}
	return rc;
}

/*
 * matrix: or zip: — each key a parameter with a non-empty list of values. Every wrong
 * parameter is reported; the number of points is known (npoints > 0) only when all are
 * right.
 */
static void
el_params(struct el_ctx *c, const struct ydoc_node *map, const char *key)
{
	struct exp *e = c->e;
	const struct exp_param *first;
	size_t i, npoints = 1;
	int bad = 0;

	if (errsink_check(&c->sink, ydoc_want(c->sink.name, key, map, YDOC_MAP, &c->sink.err)) == -1)
		return;
	if (map->npairs == 0) {
		errsink_error(&c->sink, map, "'%s' is empty: name at least one parameter with a list of "
		    "values", key);
		return;
	}
	e->params = xcalloc(map->npairs, sizeof *e->params);
	for (i = 0; i < map->npairs; i++) {
		const struct ydoc_node *v = map->pairs[i].value;
		struct exp_param *p = &e->params[i];

		e->nparams = i + 1;
		if (strcmp(map->pairs[i].key->value, EL_MODE) == 0)
			e->mode_param = (int)i;
		if (el_param(c, map->pairs[i].key, v, p) == -1) {
			bad = 1;
			continue;
		}
		if ((int)i == e->mode_param && el_mode(c, p) == -1)
			bad = 1;
		first = &e->params[0];
		if (e->zip && i > 0 && first->nvalues > 0 && p->nvalues != first->nvalues) {
			bad = errsink_error(&c->sink, v, "zip: '%s' has %zu values, '%s' has %zu: zip pairs the "
			    "lists element by element, so they must be as long", p->name,
			    p->nvalues, first->name, first->nvalues);
			continue;
		}
		if (!e->zip && npoints > 0) {
			if (npoints > EXP_MAX_POINTS / p->nvalues) {
				bad = errsink_error(&c->sink, v, "the matrix has more than %d points",
				    EXP_MAX_POINTS);
				npoints = 0;	/* said once */
			} else
				npoints *= p->nvalues;
		}
	}
	if (!bad)
		e->npoints = e->zip ? e->params[0].nvalues : npoints;
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

enum exp_mode
exp_point_mode(const struct exp *e, size_t point)
{
	const char *s;
	int i;

	if (e->mode_param < 0)
		return EXP_MODE_RUN;
	s = exp_point_text(e, point, (size_t)e->mode_param);
	for (i = 0; exp_mode_names[i] != NULL; i++)
		if (strcmp(s, exp_mode_names[i]) == 0)
			break;
	/* el_mode let no other value through */
	return (enum exp_mode)i;
}

int
exp_has_real_points(const struct exp *e)
{
	size_t p;

	for (p = 0; p < e->npoints; p++)
		if (exp_point_mode(e, p) != EXP_MODE_SIMULATE)
			return 1;
	return 0;
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
	struct el_ctx *c;
	const struct ydoc_node *arg;	/* the item of args being read */
	char *used;		/* per parameter: 1 when some {name} uses it */
};

/* One {name} of an args item: a parameter (now used), a built-in, or an error. */
static int
el_use_name(const char *name, size_t len, size_t off, void *arg)
{
	struct el_use *u = arg;
	char buf[72];
	int i;

	snprintf(buf, sizeof buf, "%.*s", (int)len, name);
	if ((i = exp_param_find(u->c->e, buf)) >= 0)
		u->used[i] = 1;
	else if (!el_in(buf, el_builtin_names))
		errsink_error(&u->c->sink, u->arg, "'{%s}' is not defined: name a parameter of the matrix, "
		    "or seed, rep or point", buf);
	return 0;
}

/* args: a list of texts whose {names} are parameters or built-ins; free names used. */
static void
el_args(struct el_ctx *c, const struct ydoc_node *n)
{
	struct exp *e = c->e;
	struct el_use u = { c, NULL, xcalloc(e->nparams + 1, 1) };
	const char *s;
	size_t i;
	int ok = 1;

	if (n != NULL && errsink_check(&c->sink, ydoc_want(c->sink.name, "args", n, YDOC_SEQ, &c->sink.err)) == -1)
		ok = 0;
	for (i = 0; ok && n != NULL && i < n->nitems; i++) {
		u.arg = n->items[i];
		if (errsink_check(&c->sink, ydoc_str(c->sink.name, "args", n->items[i], &s, &c->sink.err)) == -1)
			ok = 0;
		else
			el_each_name(s, el_use_name, &u);
	}
	/* a wrong args or parameter name already has its error: unused says nothing more */
	for (i = 0; ok && i < e->nparams; i++) {
		if (e->params[i].target != EXP_FREE || u.used[i] || (int)i == e->mode_param ||
		    !el_param_name_ok(e->params[i].name))
			continue;
		errsink_error(&c->sink, e->params[i].key, "parameter '%s' is neither a key of the job (%s), "
		    "nor of its runtime, nor used as {%s} in args", e->params[i].name,
		    "ranks, sites, rank_weights, ...", e->params[i].name);
	}
	free(u.used);
	if (ok)
		e->args = n;
}

/* One item of metrics: into m; every mistake of it reported. -1 when it is wrong. */
static int
el_metric(struct el_ctx *c, const struct ydoc_node *item, size_t i)
{
	struct exp *e = c->e;
	struct exp_metric *m = &e->metrics[i];
	const struct ydoc_node *nn, *rn;
	const char *s;
	char msg[256];
	size_t j;
	int rc = 0, rerr;

	if (errsink_check(&c->sink, ydoc_want(c->sink.name, "metrics", item, YDOC_MAP, &c->sink.err)) == -1)
		return -1;
	if (ydoc_check_keys_all(c->sink.name, item, el_metric_keys, c->sink.errs) == -1)
		rc = -1;
	nn = ydoc_get(item, "name");
	rn = ydoc_get(item, "regex");
	if ((nn == NULL && !ydoc_given(item, "name", el_metric_keys)) ||
	    (rn == NULL && !ydoc_given(item, "regex", el_metric_keys)))
		rc = errsink_error(&c->sink, item, "a metric needs 'name' and 'regex', as in {name: mflops, "
		    "regex: 'rate ([0-9.]+)'}");
	if (nn != NULL && errsink_check(&c->sink, ydoc_str(c->sink.name, "name", nn, &s, &c->sink.err)) == 0) {
		for (j = 0; j < i; j++)
			if (e->metrics[j].name != NULL && strcmp(e->metrics[j].name, s) == 0)
				break;
		if (!el_ident(s, strlen(s)) || el_in(s, exp_builtin_metrics))
			rc = errsink_error(&c->sink, nn, "'%.64s' cannot name a metric (letters, digits and "
			    "'_', not a built-in one such as makespan)", s);
		else if (j < i)
			rc = errsink_error(&c->sink, nn, "metric '%s' is defined twice", s);
		else
			m->name = xstrdup(s);
	} else if (nn != NULL)
		rc = -1;
	if (rn == NULL)
		return -1;
	if (errsink_check(&c->sink, ydoc_str(c->sink.name, "regex", rn, &s, &c->sink.err)) == -1)
		return -1;
	if ((rerr = regcomp(&m->re, s, REG_EXTENDED)) != 0) {
		regerror(rerr, &m->re, msg, sizeof msg);
		return errsink_error(&c->sink, rn, "'regex' does not compile: %s", msg);
	}
	m->pattern = xstrdup(s);
	if (m->re.re_nsub < 1)
		return errsink_error(&c->sink, rn, "'regex' needs a group around the number, as in "
		    "'rate ([0-9.]+)'");
	return rc;
}

static void
el_metrics(struct el_ctx *c, const struct ydoc_node *n)
{
	struct exp *e = c->e;
	size_t i;

	if (errsink_check(&c->sink, ydoc_want(c->sink.name, "metrics", n, YDOC_SEQ, &c->sink.err)) == -1)
		return;
	e->metrics = xcalloc(n->nitems + 1, sizeof *e->metrics);
	e->nmetrics = n->nitems;
	for (i = 0; i < n->nitems; i++)
		el_metric(c, n->items[i], i);
}

/*
 * A parameter name in the report (map's keys are known): NULL allowed when optional. 0,
 * or -1 with the error kept.
 */
static int
el_report_param(struct el_ctx *c, const struct ydoc_node *map, const char *const *known,
    const char *key, int optional, char **out)
{
	const struct ydoc_node *n = ydoc_get(map, key);
	const char *names[64], *s, *guess;
	size_t i;

	if (n == NULL) {
		if (optional || ydoc_given(map, key, known))
			return 0;
		return errsink_error(&c->sink, map, "missing key '%s' (a parameter of the matrix)", key);
	}
	if (errsink_check(&c->sink, ydoc_str(c->sink.name, key, n, &s, &c->sink.err)) == -1)
		return -1;
	if (exp_param_find(c->e, s) >= 0) {
		*out = xstrdup(s);
		return 0;
	}
	for (i = 0; i < c->e->nparams && i < 63; i++)
		names[i] = c->e->params[i].name;
	names[i] = NULL;
	guess = suggest_closest(s, names);
	return errsink_error(&c->sink, n, "'%s': '%.64s' is not a parameter of the matrix%s%s%s", key, s,
	    guess ? " (did you mean '" : "", guess ? guess : "", guess ? "'?)" : "");
}

/* A metric name in the report: key's value, else makespan. */
static void
el_report_metric(struct el_ctx *c, const struct ydoc_node *map, const char *key, char **out)
{
	const struct ydoc_node *n = ydoc_get(map, key);
	const char *s;
	size_t i;

	if (n == NULL) {
		*out = xstrdup("makespan");
		return;
	}
	if (errsink_check(&c->sink, ydoc_str(c->sink.name, key, n, &s, &c->sink.err)) == -1)
		return;
	for (i = 0; i < c->e->nmetrics; i++)
		if (c->e->metrics[i].name != NULL && strcmp(c->e->metrics[i].name, s) == 0)
			break;
	if (!el_in(s, exp_builtin_metrics) && i == c->e->nmetrics) {
		errsink_error(&c->sink, n, "'%s': unknown metric '%.64s' (built-in: makespan, wall, "
		    "efficiency, imbalance, requeued, failed_ranks, migrations, load_before; or "
		    "one of metrics:)", key, s);
		return;
	}
	*out = xstrdup(s);
}

/* One of words as key's value, else the first. */
static void
el_word(struct el_ctx *c, const struct ydoc_node *map, const char *key,
    const char *const *words, char **out)
{
	const struct ydoc_node *n = ydoc_get(map, key);
	int i = 0;

	if (n != NULL && errsink_check(&c->sink, ydoc_choice(c->sink.name, key, n, words, &i, &c->sink.err)) == -1)
		return;
	*out = xstrdup(words[i]);
}

/* A figure's file: a plain name ending in .png or .svg (both are written). */
static void
el_plot_file(struct el_ctx *c, const struct ydoc_node *map, char **out)
{
	const struct ydoc_node *n = ydoc_get(map, "file");
	const char *s, *dot;
	size_t i;

	if (n == NULL) {
		if (!ydoc_given(map, "file", el_plot_keys))
			errsink_error(&c->sink, map, "a plot needs 'file', as in file: fig6.png");
		return;
	}
	if (errsink_check(&c->sink, ydoc_str(c->sink.name, "file", n, &s, &c->sink.err)) == -1)
		return;
	dot = strrchr(s, '.');
	for (i = 0; s[i] != '\0'; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '-' || s[i] == '.'))
			break;
	if (s[i] != '\0' || s[0] == '.' || dot == NULL || dot == s || i > 64 ||
	    (strcmp(dot, ".png") != 0 && strcmp(dot, ".svg") != 0)) {
		errsink_error(&c->sink, n, "'file' must be a name ending in .png or .svg (letters, digits, "
		    "'_', '-', '.'), not '%.64s'", s);
		return;
	}
	*out = xstrndup(s, (size_t)(dot - s));
}

/* report: table: (default: the first parameter by the second) */
static void
el_table(struct el_ctx *c, const struct ydoc_node *t)
{
	struct exp *e = c->e;

	if (t != NULL) {
		if (errsink_check(&c->sink, ydoc_want(c->sink.name, "table", t, YDOC_MAP, &c->sink.err)) == -1)
			return;
		ydoc_check_keys_all(c->sink.name, t, el_table_keys, c->sink.errs);
		el_report_param(c, t, el_table_keys, "rows", 0, &e->table.rows);
		el_report_param(c, t, el_table_keys, "cols", 1, &e->table.cols);
	} else if (e->nparams > 0) {
		/* one row per value of the first parameter, one column per second */
		e->table.rows = xstrdup(e->params[0].name);
		if (e->nparams > 1)
			e->table.cols = xstrdup(e->params[1].name);
	}
	el_report_metric(c, t, "value", &e->table.value);
	el_word(c, t, "stat", el_stats, &e->table.stat);
}

static void
el_report(struct el_ctx *c, const struct ydoc_node *n)
{
	struct exp *e = c->e;
	const struct ydoc_node *pl;
	size_t i;

	if (n != NULL) {
		if (errsink_check(&c->sink, ydoc_want(c->sink.name, "report", n, YDOC_MAP, &c->sink.err)) == -1)
			return;
		ydoc_check_keys_all(c->sink.name, n, el_report_keys, c->sink.errs);
	}
	el_table(c, ydoc_get(n, "table"));
	if ((pl = ydoc_get(n, "plots")) == NULL ||
	    errsink_check(&c->sink, ydoc_want(c->sink.name, "plots", pl, YDOC_SEQ, &c->sink.err)) == -1)
		return;
	e->plots = xcalloc(pl->nitems + 1, sizeof *e->plots);
	e->nplots = pl->nitems;
	for (i = 0; i < pl->nitems; i++) {
		const struct ydoc_node *p = pl->items[i];
		struct exp_plot *o = &e->plots[i];

		if (errsink_check(&c->sink, ydoc_want(c->sink.name, "plots", p, YDOC_MAP, &c->sink.err)) == -1)
			continue;
		ydoc_check_keys_all(c->sink.name, p, el_plot_keys, c->sink.errs);
		el_report_param(c, p, el_plot_keys, "x", 0, &o->x);
		el_report_metric(c, p, "y", &o->y);
		el_report_param(c, p, el_plot_keys, "series", 1, &o->series);
		el_word(c, p, "errorbars", el_bars, &o->errorbars);
		el_plot_file(c, p, &o->file);
	}
}

static void
el_baseline(struct el_ctx *c, const struct ydoc_node *n)
{
	struct exp *e = c->e;
	size_t i, j;
	int k;

	if (errsink_check(&c->sink, ydoc_want(c->sink.name, "baseline", n, YDOC_MAP, &c->sink.err)) == -1)
		return;
	e->baseline_keys = xcalloc(n->npairs + 1, sizeof *e->baseline_keys);
	e->baseline_vals = xcalloc(n->npairs + 1, sizeof *e->baseline_vals);
	for (i = 0; i < n->npairs; i++) {
		const struct ydoc_node *key = n->pairs[i].key, *v = n->pairs[i].value;
		char *text;

		if ((k = exp_param_find(e, key->value)) < 0) {
			errsink_error(&c->sink, key, "baseline: '%.64s' is not a parameter of the matrix",
			    key->value);
			continue;
		}
		text = el_text(c, v);
		e->baseline_keys[e->nbaseline] = xstrdup(key->value);
		e->baseline_vals[e->nbaseline++] = text;
		/* a parameter without values has its error already */
		if (e->params[k].nvalues == 0)
			continue;
		for (j = 0; j < e->params[k].nvalues; j++)
			if (strcmp(e->params[k].texts[j], text) == 0)
				break;
		if (j == e->params[k].nvalues)
			errsink_error(&c->sink, v, "baseline: '%.64s' is not one of the values of '%s'", text,
			    key->value);
	}
}

static void
el_name(struct el_ctx *c, const struct ydoc_node *root)
{
	const struct ydoc_node *n = ydoc_get(root, "name");
	const char *s, *base;
	size_t i, len;

	if (n != NULL) {
		if (errsink_check(&c->sink, ydoc_str(c->sink.name, "name", n, &s, &c->sink.err)) == -1)
			return;
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
		errsink_error(&c->sink, n != NULL ? n : root, "'name' must be a name for the results "
		    "directory (letters, digits, '_', '-', '.'; at most 64), not '%.64s'", s);
		return;
	}
	c->e->name = xstrndup(s, len);
}

/*
 * Every point's job loads with its overlay: a bad value is reported before any run. The
 * first point that does not load gives every error of its job file, in c->sink.errs.
 */
static void
el_check_points(struct el_ctx *c)
{
	struct exp *e = c->e;
	struct ydoc_node *o;
	struct gs_job job;
	size_t p;
	int rc = 0;

	for (p = 0; p < e->npoints && rc == 0; p++) {
		o = exp_overlay(e, p, 1, 0);
		rc = job_load_file_overlay_errs(e->job, o, c->sink.name, &job, c->sink.errs);
		if (rc == 0)
			job_free(&job);
		ydoc_free(o);
	}
}

/* job:, and sites: or testbed: */
static void
el_files(struct el_ctx *c, const struct ydoc_node *root)
{
	struct exp *e = c->e;
	const struct ydoc_node *n, *tb;

	if ((n = ydoc_get(root, "job")) != NULL)
		e->job = el_path(c, "job", n);
	else if (!ydoc_given(root, "job", el_top_keys))
		errsink_error(&c->sink, root, "missing key 'job' (the job file to run)");
	n = ydoc_get(root, "sites");
	tb = ydoc_get(root, "testbed");
	if (n != NULL && tb != NULL) {
		errsink_error(&c->sink, n, "give 'sites' or 'testbed', not both");
		return;
	}
	if (n == NULL && tb != NULL) {
		n = tb;
		e->testbed = 1;
	}
	if (n != NULL)
		e->sites = el_path(c, e->testbed ? "testbed" : "sites", n);
}

/* repeat: (exp-repeat.c), order: and seed: */
static void
el_runs(struct el_ctx *c, const struct ydoc_node *root)
{
	struct exp *e = c->e;
	const struct ydoc_node *n;
	long long v;
	int i;

	exp_repeat_load(e, &c->sink, ydoc_get(root, "repeat"));
	e->random_order = 1;
	if ((n = ydoc_get(root, "order")) != NULL && errsink_check(&c->sink, ydoc_choice(c->sink.name, "order",
	    n, el_orders, &i, &c->sink.err)) == 0)
		e->random_order = i == 0;
	if ((n = ydoc_get(root, "seed")) != NULL && errsink_check(&c->sink, ydoc_int(c->sink.name, "seed", n,
	    "a whole number from 0 to 2^53", 0, 1LL << 53, &v, &c->sink.err)) == 0) {
		e->have_seed = 1;
		e->seed = (uint64_t)v;
	}
}

/* Every key of the file, each mistake kept; the points only once the file has none. */
static void
el_load(struct el_ctx *c, const struct ydoc_node *root)
{
	struct exp *e = c->e;
	const struct ydoc_node *n, *m, *z;

	ydoc_check_keys_all(c->sink.name, root, el_top_keys, c->sink.errs);
	el_name(c, root);
	el_files(c, root);
	m = ydoc_get(root, "matrix");
	z = ydoc_get(root, "zip");
	if (m != NULL && z != NULL)
		errsink_error(&c->sink, m, "give 'matrix' or 'zip', not both");
	else if (m == NULL && z == NULL) {
		if (!ydoc_given(root, "matrix", el_top_keys) &&
		    !ydoc_given(root, "zip", el_top_keys))
			errsink_error(&c->sink, root, "missing key 'matrix' (the parameters to vary, as in "
			    "matrix: {scheme: [gss, pwd]})");
	} else {
		e->zip = z != NULL;
		el_params(c, m != NULL ? m : z, m != NULL ? "matrix" : "zip");
	}
	el_args(c, ydoc_get(root, "args"));
	el_runs(c, root);
	/* a report needs no site file: it may have gone since the runs */
	if (!c->stored)
		exp_site_check(e, &c->sink);
	exp_sim_check(e, &c->sink);
	if ((n = ydoc_get(root, "baseline")) != NULL)
		el_baseline(c, n);
	if ((n = ydoc_get(root, "metrics")) != NULL)
		el_metrics(c, n);
	el_report(c, ydoc_get(root, "report"));
	if ((n = ydoc_get(root, "claims")) != NULL)
		exp_claims_load(&c->sink, e, n);
	if (c->sink.errs->n == 0 && !c->stored && e->job != NULL)
		el_check_points(c);
}

/*
 * Every error of the experiment file (as the site and job loaders give theirs), or, when
 * it has none, every error of the job file the first failing point loads; in errs.
 */
static int
el_load_file(const char *path, const char *as, int stored, struct exp *e,
    struct gs_errlist *errs)
{
	struct el_ctx c;
	char *buf;
	size_t len;

	memset(e, 0, sizeof *e);
	e->mode_param = -1;
	memset(&c, 0, sizeof c);
	errlist_init(errs, path);
	if (ydoc_read_file(path, &buf, &len, &c.sink.err) == -1) {
		errlist_add(errs, &c.sink.err);
		return -1;
	}
	if ((e->path = realpath(as, NULL)) == NULL && stored)
		e->path = xstrdup(as);
	if (e->path == NULL) {
		snprintf(c.sink.err.msg, sizeof c.sink.err.msg, "%s: %s", as, strerror(errno));
		errlist_add(errs, &c.sink.err);
		free(buf);
		return -1;
	}
	exp_hash(buf, len, e->hash);
	e->root = ydoc_parse(path, buf, len, &c.sink.err);
	free(buf);
	if (e->root == NULL) {
		errlist_add(errs, &c.sink.err);
		exp_free(e);
		return -1;
	}
	c.sink.name = path;
	c.stored = stored;
	c.e = e;
	c.sink.errs = errs;
	el_load(&c, e->root);
	if (errs->n == 0)
		return 0;
	exp_free(e);
	return -1;
}

int
exp_load_errs(const char *path, struct exp *e, struct gs_errlist *errs)
{
	return el_load_file(path, path, 0, e, errs);
}

int
exp_load_stored(const char *copy, const char *orig, struct exp *e, struct gs_errlist *errs)
{
	return el_load_file(copy, orig, 1, e, errs);
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
	free(e->run_first);
	free(e->site_group);
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
	exp_claims_free(e);
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
