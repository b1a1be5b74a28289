/*
 * exp-simopts.c — a simulated point's simulate parameters (experiment/exp-sim.c: links,
 * host_mhz, first_contact_ms, cfg) as the simulator's options, those that simulate's
 * --links, --host-mhz, --first-contact-ms and --cfg set: the experiment checked their
 * form; the settings of cfg are checked here as simulate checks --cfg (sim_cfg_check),
 * each error at its value in the experiment file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "submit/exp-run.h"

/* One setting of cfg at v, added to o; -1 with err located at v. */
static int
eso_cfg(struct sim_opts *o, const char *file, const struct ydoc_node *v,
    struct gs_error *err)
{
	char why[512];

	if (sim_cfg_check(v->value, why, sizeof why) != 0) {
		ydoc_error(err, file, v, "'cfg': %s", why);
		return -1;
	}
	o->cfg = xreallocarray(o->cfg, o->ncfg + 1, sizeof *o->cfg);
	o->cfg[o->ncfg++] = v->value;
	return 0;
}

int
exp_sim_opts(const struct exp *e, size_t point, const char *file, struct sim_opts *o,
    struct gs_error *err)
{
	const struct ydoc_node *v;
	size_t i, j;

	for (i = 0; i < e->nparams; i++) {
		if (e->params[i].target != EXP_SIM_KEY)
			continue;
		v = e->params[i].values[exp_point_index(e, point, i)];
		if (strcmp(e->params[i].name, "links") == 0)
			o->links = strcmp(v->value, "site") == 0 ? SIM_LINKS_SITE :
			    SIM_LINKS_NODE;
		else if (strcmp(e->params[i].name, "host_mhz") == 0)
			o->host_mhz = strtod(v->value, NULL);
		else if (strcmp(e->params[i].name, "first_contact_ms") == 0)
			o->first_contact_ms = strtod(v->value, NULL);
		else if (v->type == YDOC_SCALAR) {
			if (eso_cfg(o, file, v, err) != 0)
				return -1;
		} else
			for (j = 0; j < v->nitems; j++)
				if (eso_cfg(o, file, v->items[j], err) != 0)
					return -1;
	}
	return 0;
}
