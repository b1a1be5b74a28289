/*
 * exp-site.c — a site file's keys as an experiment's parameters (doc/experiments.md, "Site
 * parameters"): a testbed node's emulate: keys (load, load_interval, cpu_scale) and a
 * site's link: figures (bandwidth_mbps, latency_ms), under the names the site file uses.
 * A value is laid over every node (emulate) or every site (link) of the experiment's site
 * file; a mapping of site names to values over those sites alone ({tiger-a: 0.5}), the
 * others keeping the file's. A point's runs get the file so overlaid (exp_site_write),
 * which a testbed brings up (submit/exp-sites.c) and a simulation reads, as job keys are
 * laid over the job file. Values are checked here against the site file's own ranges
 * (broker/site-load.c), at their place in the experiment file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broker/errlist.h"
#include "broker/errsink.h"
#include "broker/site.h"
#include "broker/yaml-emit.h"
#include "common/suggest.h"
#include "common/xmalloc.h"
#include "experiment/exp.h"

/* A site parameter: where it goes in the site file and the range the site file allows. */
struct xs_key {
	const char *name;
	int link;		/* 1: the site's link:, 0: each node's emulate: */
	double lo, hi;
	int lo_open;
	const char *what;
};

static const struct xs_key xs_keys[] = {
	{ "load", 0, 0, 1e6, 0, "a number >= 0 (background jobs)" },
	{ "load_interval", 0, 0, 1e9, 1, "a number > 0 (seconds)" },
	{ "cpu_scale", 0, 0, 1, 1, "a number in (0, 1]" },
	{ "bandwidth_mbps", 1, 0, 1e12, 1, "a number > 0 (Mbit/s)" },
	{ "latency_ms", 1, 0, 1e9, 0, "a number >= 0 (ms, one way)" },
	{ NULL, 0, 0, 0, 0, NULL }
};

static const struct xs_key *
xs_find(const char *name)
{
	const struct xs_key *k;

	for (k = xs_keys; k->name != NULL; k++)
		if (strcmp(name, k->name) == 0)
			return k;
	return NULL;
}

int
exp_site_param(const char *name)
{
	return xs_find(name) != NULL;
}

int
exp_site_has(const struct exp *e)
{
	size_t i;

	for (i = 0; i < e->nparams; i++)
		if (e->params[i].target == EXP_SITE_KEY)
			return 1;
	return 0;
}

/* A number in k's range at v; -1 with the error kept. */
static int
xs_number(struct gs_errsink *sink, const struct xs_key *k, const struct ydoc_node *v)
{
	double d;

	return errsink_check(sink, ydoc_num(sink->name, k->name, v, k->what, k->lo,
	    k->lo_open, k->hi, 0, &d, &sink->err));
}

/* A site name of a mapping value: one of the site file's, else an error with the closest. */
static int
xs_site_name(struct gs_errsink *sink, const struct ydoc_node *key, const char **names)
{
	const char *guess;
	size_t i;

	for (i = 0; names[i] != NULL; i++)
		if (strcmp(names[i], key->value) == 0)
			return 0;
	guess = suggest_closest(key->value, names);
	return errsink_error(sink, key, "'%.64s' is not a site of the site file%s%s%s",
	    key->value, guess ? " (did you mean '" : "", guess ? guess : "",
	    guess ? "'?)" : "");
}

/* Every value of site parameter q: a number, or a mapping of site names to numbers. */
static int
xs_values(struct gs_errsink *sink, const struct exp_param *q, const char **names)
{
	const struct xs_key *k = xs_find(q->name);
	const struct ydoc_node *v;
	size_t j, i;
	int rc = 0;

	for (j = 0; j < q->nvalues; j++) {
		v = q->values[j];
		if (v->type == YDOC_SCALAR) {
			rc |= xs_number(sink, k, v);
			continue;
		}
		if (v->type != YDOC_MAP || v->npairs == 0) {
			rc = errsink_error(sink, v, "'%s' must be a number, or a mapping of site "
			    "names to numbers ({SITE: VALUE}), not %s", q->name,
			    v->type == YDOC_SEQ ? "a list" : "an empty mapping");
			continue;
		}
		for (i = 0; i < v->npairs; i++) {
			rc |= xs_site_name(sink, v->pairs[i].key, names);
			rc |= xs_number(sink, k, v->pairs[i].value);
		}
	}
	return rc;
}

/* Which points share their site parameters' values: each point's first such point. */
static void
xs_groups(struct exp *e)
{
	size_t p, q, i;

	e->site_group = xcalloc(e->npoints + 1, sizeof *e->site_group);
	for (p = 0; p < e->npoints; p++) {
		for (q = 0; q < p; q++) {
			for (i = 0; i < e->nparams; i++)
				if (e->params[i].target == EXP_SITE_KEY &&
				    exp_point_index(e, p, i) != exp_point_index(e, q, i))
					break;
			if (i == e->nparams)
				break;
		}
		e->site_group[p] = q;
	}
}

int
exp_site_check(struct exp *e, struct gs_errsink *sink)
{
	struct gs_errlist errs;
	struct gs_sites sites;
	const char **names;
	size_t i, p;
	int rc = 0, loaded, useful = 0;

	if (!exp_site_has(e))
		return 0;
	loaded = e->sites != NULL && sites_load_file_errs(e->sites, &sites, &errs) == 0;
	names = xcalloc(loaded ? sites.nsites + 1 : 1, sizeof *names);
	for (i = 0; loaded && i < sites.nsites; i++)
		names[i] = sites.sites[i].name;
	for (p = 0; p < e->npoints; p++)
		useful |= e->testbed || exp_point_mode(e, p) == EXP_MODE_SIMULATE;
	for (i = 0; i < e->nparams; i++) {
		const struct exp_param *q = &e->params[i];

		if (q->target != EXP_SITE_KEY)
			continue;
		if (e->sites == NULL && (ydoc_get(e->root, "sites") != NULL ||
		    ydoc_get(e->root, "testbed") != NULL))
			rc = -1;	/* the file named there has its error already */
		else if (e->sites == NULL)
			rc = errsink_error(sink, q->key, "'%s' is a key of the site file: give the "
			    "experiment 'testbed:' or 'sites:' (the file to lay it over)", q->name);
		else if (!loaded)
			rc = errsink_error(sink, q->key, "'%s': the site file %s does not load: "
			    "run 'gridsubmit rank' with it to see why", q->name, e->sites);
		else if (!useful && e->npoints > 0)
			rc = errsink_error(sink, q->key, "'%s' acts on a testbed or in simulation, "
			    "and this experiment has neither: give it 'testbed:' instead of "
			    "'sites:', or mode: [simulate]", q->name);
		else
			rc |= xs_values(sink, q, names);
	}
	free(names);
	if (loaded)
		sites_free(&sites);
	if (rc == 0)
		xs_groups(e);
	return rc;
}

/* map's mapping under key, made empty when it has none (or has something else). */
static struct ydoc_node *
xs_submap(struct ydoc_node *map, const char *key)
{
	struct ydoc_node *n = ydoc_get(map, key);

	if (n != NULL && n->type == YDOC_MAP)
		return n;
	n = xcalloc(1, sizeof *n);
	n->type = YDOC_MAP;
	n->line = map->line;
	n->col = map->col;
	ydoc_set(map, key, n);
	return n;
}

/* Parameter q's value v laid over one site (its link, or each of its nodes' emulate:). */
static void
xs_lay_site(struct ydoc_node *site, const struct xs_key *k, const struct ydoc_node *v)
{
	struct ydoc_node *nodes;
	size_t i;

	if (v->type == YDOC_MAP) {
		const struct ydoc_node *name = ydoc_get(site, "name");

		if (name == NULL || name->type != YDOC_SCALAR ||
		    (v = ydoc_get(v, name->value)) == NULL)
			return;
	}
	if (k->link) {
		ydoc_set(xs_submap(site, "link"), k->name, ydoc_copy(v, NULL));
		return;
	}
	/* nodes: auto (a Slurm site's, from sinfo) has no node to emulate */
	if ((nodes = ydoc_get(site, "nodes")) == NULL || nodes->type != YDOC_SEQ)
		return;
	for (i = 0; i < nodes->nitems; i++)
		if (nodes->items[i]->type == YDOC_MAP)
			ydoc_set(xs_submap(nodes->items[i], "emulate"), k->name,
			    ydoc_copy(v, NULL));
}

int
exp_site_write(const struct exp *e, size_t point, const char *in, const char *dir,
    const char *name, char *why, size_t whylen)
{
	struct ydoc_node *root, *sites;
	struct gs_error err;
	char *buf, *head, *label;
	size_t len, i, j;
	int rc;

	if (ydoc_read_file(in, &buf, &len, &err) == -1) {
		snprintf(why, whylen, "%s", err.msg);
		return -1;
	}
	root = ydoc_parse(in, buf, len, &err);
	free(buf);
	if (root == NULL) {
		snprintf(why, whylen, "%s", err.msg);
		return -1;
	}
	if ((sites = ydoc_get(root, "sites")) != NULL && sites->type == YDOC_SEQ)
		for (i = 0; i < e->nparams; i++) {
			if (e->params[i].target != EXP_SITE_KEY)
				continue;
			for (j = 0; j < sites->nitems; j++)
				if (sites->items[j]->type == YDOC_MAP)
					xs_lay_site(sites->items[j], xs_find(e->params[i].name),
					    e->params[i].values[exp_point_index(e, point, i)]);
		}
	label = exp_point_settings(e, point, EXP_SITE_KEY);
	xasprintf(&head, "# %s with the parameters of experiment %s laid over it: %s\n", in,
	    e->name, label);
	free(label);
	rc = ydoc_emit(root, head, &buf, &len);
	free(head);
	ydoc_free(root);
	if (rc != 0) {
		snprintf(why, whylen, "%s: cannot be written back as YAML", in);
		return -1;
	}
	rc = exp_write_file(dir, name, buf, len, why, whylen);
	free(buf);
	return rc;
}
