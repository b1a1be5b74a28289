/*
 * exp-sim.c — simulate's options as an experiment's parameters (doc/experiments.md,
 * "Simulation's options"): links, host_mhz, first_contact_ms and cfg take, for a point of
 * mode simulate, the place of `gridsubmit simulate`'s --links, --host-mhz,
 * --first-contact-ms and --cfg. A point of another mode ignores them (--dry-run says so),
 * since a matrix crossing mode with them gives such points whatever one does; an
 * experiment with no simulated point at all has them by mistake and is refused. Values
 * are checked here, at their place in the experiment file; submit/exp-simopts.c turns a
 * point's into the simulator's options.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broker/errsink.h"
#include "common/suggest.h"
#include "common/xmalloc.h"
#include "experiment/exp.h"

static const char *const es_names[] = {
	"links", "host_mhz", "first_contact_ms", "cfg", NULL
};
static const char *const es_links[] = { "node", "site", NULL };

int
exp_sim_param(const char *name)
{
	size_t i;

	for (i = 0; es_names[i] != NULL; i++)
		if (strcmp(name, es_names[i]) == 0)
			return 1;
	return 0;
}

/* One SimGrid setting of cfg: a NAME:VALUE text (simulate checks its value further). */
static int
es_cfg_item(struct gs_errsink *sink, const struct ydoc_node *v)
{
	const char *s;

	if (errsink_check(sink, ydoc_str(sink->name, "cfg", v, &s, &sink->err)) == -1)
		return -1;
	if (strchr(s, ':') == NULL || s[0] == ':')
		return errsink_error(sink, v, "'cfg': '%.64s' is not NAME:VALUE (a SimGrid "
		    "setting, e.g. smpi/iprobe:1e-5)", s);
	return 0;
}

/* One value of simulate parameter name, at v; -1 when it is wrong (kept in sink). */
static int
es_value(struct gs_errsink *sink, const char *name, const struct ydoc_node *v)
{
	const char *guess;
	double d;
	size_t i;
	int rc = 0;

	if (strcmp(name, "links") == 0) {
		if (v->type == YDOC_SCALAR && (strcmp(v->value, "node") == 0 ||
		    strcmp(v->value, "site") == 0))
			return 0;
		guess = v->type == YDOC_SCALAR ? suggest_closest(v->value, es_links) : NULL;
		return errsink_error(sink, v, "'links' must be node or site, not '%.64s'%s%s%s",
		    v->type == YDOC_SCALAR ? v->value : "a collection", guess ?
		    " (did you mean '" : "", guess ? guess : "", guess ? "'?)" : "");
	}
	if (strcmp(name, "host_mhz") == 0)
		return errsink_check(sink, ydoc_num(sink->name, name, v, "a number from 1 to "
		    "1000000 (MHz)", 1, 0, 1e6, 0, &d, &sink->err));
	if (strcmp(name, "first_contact_ms") == 0)
		return errsink_check(sink, ydoc_num(sink->name, name, v, "a number from 0 to "
		    "1000000 (ms)", 0, 0, 1e6, 0, &d, &sink->err));
	if (v->type != YDOC_SEQ)
		return es_cfg_item(sink, v);
	for (i = 0; i < v->nitems; i++)
		if (es_cfg_item(sink, v->items[i]) == -1)
			rc = -1;
	return rc;
}

int
exp_sim_check(struct exp *e, struct gs_errsink *sink)
{
	size_t i, j, p;
	int rc = 0, sim = 0;

	for (p = 0; p < e->npoints && !sim; p++)
		sim = exp_point_mode(e, p) == EXP_MODE_SIMULATE;
	for (i = 0; i < e->nparams; i++) {
		const struct exp_param *q = &e->params[i];

		if (q->target != EXP_SIM_KEY)
			continue;
		if (!sim && e->npoints > 0)
			rc = errsink_error(sink, q->key, "'%s' is an option of simulate, and no "
			    "point is simulated: add mode: [simulate] (or a list with it) to the "
			    "matrix, or drop '%s'", q->name, q->name);
		for (j = 0; j < q->nvalues; j++)
			if (es_value(sink, q->name, q->values[j]) == -1)
				rc = -1;
	}
	return rc;
}

