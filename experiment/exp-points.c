/*
 * exp-points.c — an experiment's points: which value of each parameter a point takes (the
 * matrix's cross product, the first parameter varying slowest, or zip's pairs), the
 * overlay a run of the point lays over the job file, and the point's baseline.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "experiment/exp.h"

size_t
exp_point_index(const struct exp *e, size_t point, size_t param)
{
	size_t i, stride = 1;

	if (e->zip)
		return point;
	for (i = e->nparams; i-- > param + 1;)
		stride *= e->params[i].nvalues;
	return point / stride % e->params[param].nvalues;
}

const char *
exp_point_text(const struct exp *e, size_t point, size_t param)
{
	return e->params[param].texts[exp_point_index(e, point, param)];
}

/* A plain scalar's number, as YAML 1.2's core schema reads one, or NULL when not one. */
static json_t *
ep_number(const char *s)
{
	char *end;
	long long i;
	double d;

	if (*s == '\0' || strspn(s, "0123456789+-.eE") != strlen(s))
		return NULL;
	errno = 0;
	i = strtoll(s, &end, 10);
	if (*end == '\0' && errno == 0)
		return json_integer((json_int_t)i);
	d = strtod(s, &end);
	return *end == '\0' && isfinite(d) ? json_real(d) : NULL;
}

/* n as exp_point_json says. */
static json_t *
ep_json(const struct ydoc_node *n)
{
	json_t *j = NULL, *num;
	size_t i;
	int rc = 0;

	switch (n->type) {
	case YDOC_SCALAR:
		if (!n->plain)
			return json_string(n->value);
		if ((num = ep_number(n->value)) != NULL)
			return num;
		if (strcmp(n->value, "true") == 0 || strcmp(n->value, "false") == 0)
			return json_boolean(n->value[0] == 't');
		if (n->value[0] == '\0' || strcmp(n->value, "~") == 0 ||
		    strcmp(n->value, "null") == 0)
			return json_null();
		return json_string(n->value);
	case YDOC_SEQ:
		if ((j = json_array()) != NULL)
			for (i = 0; i < n->nitems && rc == 0; i++)
				rc = json_array_append_new(j, ep_json(n->items[i]));
		break;
	case YDOC_MAP:
		if ((j = json_object()) != NULL)
			for (i = 0; i < n->npairs && rc == 0; i++)
				rc = json_object_set_new(j, n->pairs[i].key->value,
				    ep_json(n->pairs[i].value));
		break;
	}
	if (rc != 0) {
		json_decref(j);
		return NULL;
	}
	return j;
}

json_t *
exp_point_json(const struct exp *e, size_t point, size_t param)
{
	return ep_json(e->params[param].values[exp_point_index(e, point, param)]);
}

char *
exp_point_label(const struct exp *e, size_t point)
{
	char *s = xstrdup(""), *t;
	size_t i;

	for (i = 0; i < e->nparams; i++) {
		xasprintf(&t, "%s%s%s=%s", s, i ? " " : "", e->params[i].name,
		    exp_point_text(e, point, i));
		free(s);
		s = t;
	}
	return s;
}

size_t
exp_baseline_point(const struct exp *e, size_t point)
{
	size_t p, i, j;

	if (e->nbaseline == 0)
		return (size_t)-1;
	for (p = 0; p < e->npoints; p++) {
		for (i = 0; i < e->nparams; i++) {
			const char *want = exp_point_text(e, point, i);

			for (j = 0; j < e->nbaseline; j++)
				if (strcmp(e->baseline_keys[j], e->params[i].name) == 0)
					want = e->baseline_vals[j];
			if (strcmp(exp_point_text(e, p, i), want) != 0)
				break;
		}
		if (i == e->nparams)
			return p;
	}
	return (size_t)-1;
}

static void
ep_add(struct ydoc_node *map, struct ydoc_node *key, struct ydoc_node *value)
{
	map->pairs = xreallocarray(map->pairs, map->npairs + 1, sizeof *map->pairs);
	map->pairs[map->npairs].key = key;
	map->pairs[map->npairs].value = value;
	map->npairs++;
	map->cap = map->npairs;
}

static struct ydoc_node *
ep_collection(enum ydoc_type type, const struct ydoc_node *at)
{
	struct ydoc_node *n = xcalloc(1, sizeof *n);

	n->type = type;
	n->line = at->line;
	n->col = at->col;
	return n;
}

/* s with each {name} replaced: a parameter's text at the point, or seed, rep, point. */
static char *
ep_substitute(const struct exp *e, const char *s, size_t point, int rep, uint64_t seed)
{
	char *out = xstrdup(""), *t, name[72], num[32];
	const char *p = s, *open, *close, *val;
	int i;

	while ((open = strchr(p, '{')) != NULL && (close = strchr(open + 1, '}')) != NULL) {
		snprintf(name, sizeof name, "%.*s", (int)(close - open - 1), open + 1);
		val = NULL;
		if ((i = exp_param_find(e, name)) >= 0)
			val = exp_point_text(e, point, (size_t)i);
		else if (strcmp(name, "seed") == 0)
			snprintf(num, sizeof num, "%" PRIu64, seed), val = num;
		else if (strcmp(name, "rep") == 0)
			snprintf(num, sizeof num, "%d", rep), val = num;
		else if (strcmp(name, "point") == 0)
			snprintf(num, sizeof num, "%zu", point + 1), val = num;
		/* not a {name} (exp_load_errs checked every one): the '{' is text */
		xasprintf(&t, "%s%.*s%s", out, (int)(open - p), p, val != NULL ? val : "{");
		free(out);
		out = t;
		p = val != NULL ? close + 1 : open + 1;
	}
	xasprintf(&t, "%s%s", out, p);
	free(out);
	return t;
}

struct ydoc_node *
exp_overlay(const struct exp *e, size_t point, int rep, uint64_t seed)
{
	struct ydoc_node *o = ep_collection(YDOC_MAP, e->root), *rt = NULL, *args;
	size_t i;

	for (i = 0; i < e->nparams; i++) {
		const struct exp_param *p = &e->params[i];
		const struct ydoc_node *v = p->values[exp_point_index(e, point, i)];
		struct ydoc_node *key = ydoc_scalar_new(p->name, p->key->line, p->key->col, NULL);

		/* site and simulate parameters are the runner's (exp-site.c, exp-sim.c) */
		if (p->target == EXP_FREE || p->target == EXP_SITE_KEY ||
		    p->target == EXP_SIM_KEY) {
			ydoc_free(key);
			continue;
		}
		if (p->target == EXP_JOB_KEY) {
			ep_add(o, key, ydoc_copy(v, NULL));
			continue;
		}
		if (rt == NULL) {
			rt = ep_collection(YDOC_MAP, p->key);
			ep_add(o, ydoc_scalar_new("runtime", p->key->line, p->key->col, NULL), rt);
		}
		ep_add(rt, key, ydoc_copy(v, NULL));
	}
	if (e->args != NULL) {
		args = ep_collection(YDOC_SEQ, e->args);
		args->items = xcalloc(e->args->nitems + 1, sizeof *args->items);
		for (i = 0; i < e->args->nitems; i++) {
			const struct ydoc_node *a = e->args->items[i];
			char *s = ep_substitute(e, a->value, point, rep, seed);

			args->items[i] = ydoc_scalar_new(s, a->line, a->col, NULL);
			free(s);
		}
		args->nitems = args->cap = e->args->nitems;
		ep_add(o, ydoc_scalar_new("args", e->args->line, e->args->col, NULL), args);
	}
	return o;
}

char *
exp_point_settings(const struct exp *e, size_t point, enum exp_target target)
{
	char *s = xstrdup(""), *t;
	size_t i;

	for (i = 0; i < e->nparams; i++) {
		if (e->params[i].target != target)
			continue;
		xasprintf(&t, "%s%s%s=%s", s, *s ? " " : "", e->params[i].name,
		    exp_point_text(e, point, i));
		free(s);
		s = t;
	}
	return s;
}
