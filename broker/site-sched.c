/*
 * site-sched.c — a site behind a batch scheduler in a site file (gridsubmit-sites(5),
 * SCHEDULER; doc/slurm.md): its scheduler: map, checked where it is written, and
 * nodes: auto, whose nodes the inventory reads from Slurm later (slurm-site.h).
 */
#include <stdlib.h>
#include <string.h>

#include "broker/site-load-int.h"
#include "common/xmalloc.h"

static const char *const sl_sched_keys[] = {
	"type", "login", "partition", "account", "qos", "time", NULL
};

/*
 * scheduler: {type: slurm, login: HOST, partition, account, qos, time}: the site's nodes
 * are reached through Slurm on its login host (slurm-site.h), which is reached over ssh
 * with the site's merged ssh values v. s->sched is set whenever scheduler: is a mapping,
 * so that a wrong key inside it is not also reported as a missing scheduler.
 */
void
sl_sched(struct sl_ctx *c, const struct ydoc_node *map, struct gs_site *s,
    const struct sl_vals *v, const char *label)
{
	static const char *const words[] = { "partition", "account", "qos" };
	struct gs_sched *sc;
	const struct ydoc_node *n;
	const char *str;
	char **field[3], desc[96];
	long long secs;
	size_t i;

	if (errsink_check(&c->sink, ydoc_want(c->sink.name, "scheduler", map, YDOC_MAP,
	    &c->sink.err)) == -1)
		return;
	ydoc_check_keys_all(c->sink.name, map, sl_sched_keys, c->sink.errs);
	sc = s->sched = xcalloc(1, sizeof *sc);
	sc->loc.file = c->out->path;
	sc->loc.line = map->line;
	sc->loc.col = map->col;
	sl_ssh_fill(&sc->ssh, v);
	if ((n = ydoc_get(map, "type")) == NULL) {
		if (!ydoc_given(map, "type", sl_sched_keys))
			errsink_error(&c->sink, map, "the scheduler of %s has no 'type' (slurm)", label);
	} else if (errsink_check(&c->sink, ydoc_str(c->sink.name, "type", n, &str,
	    &c->sink.err)) == 0) {
		if (strcmp(str, "slurm") == 0)
			sc->type = xstrdup(str);
		else {
			ydoc_describe(n, desc, sizeof desc);
			errsink_error(&c->sink, n, "'type' must be slurm (the only scheduler gridsubmit "
			    "drives), not %s", desc);
		}
	}
	if ((n = ydoc_get(map, "login")) == NULL) {
		if (!ydoc_given(map, "login", sl_sched_keys))
			errsink_error(&c->sink, map, "the scheduler of %s has no 'login' (the host where "
			    "Slurm's commands run, reached over ssh)", label);
	} else if (errsink_check(&c->sink, ydoc_str(c->sink.name, "login", n, &str,
	    &c->sink.err)) == 0) {
		if (remote_host_valid(str))
			sc->login = xstrdup(str);
		else {
			ydoc_describe(n, desc, sizeof desc);
			errsink_error(&c->sink, n, "invalid host name %s for 'login' (letters, digits, '.' "
			    "and '-', not starting with '-')", desc);
		}
	}
	field[0] = &sc->partition;
	field[1] = &sc->account;
	field[2] = &sc->qos;
	for (i = 0; i < 3; i++)
		if ((n = ydoc_get(map, words[i])) != NULL && sl_str_word(c, words[i], n, "a Slurm "
		    "name (letters, digits, '.', '_' or '-', not starting with '-')", &str) == 0)
			*field[i] = xstrdup(str);
	if ((n = ydoc_get(map, "time")) != NULL && errsink_check(&c->sink, ydoc_str(c->sink.name,
	    "time", n, &str, &c->sink.err)) == 0) {
		if (slurm_time_parse(str, &secs) == 0)
			sc->time = xstrdup(str);
		else {
			ydoc_describe(n, desc, sizeof desc);
			errsink_error(&c->sink, n, "'time' must be a time limit as Slurm takes it (MM, "
			    "MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS, more than 0), not %s", desc);
		}
	}
}

/*
 * nodes: auto: the site's nodes are read from Slurm (slurm_inventory), each made from
 * sched->proto, the site's merged values: its cores and memory come from Slurm, its clock
 * cannot (so cpu_mhz must be set), slots 0 means "its CPUs", the monitor stays a template.
 */
void
sl_nodes_auto(struct sl_ctx *c, const struct ydoc_node *site, const struct ydoc_node *nodes,
    size_t idx, const struct sl_vals *v, const char *label)
{
	struct gs_sched *sc = c->out->sites[idx].sched;
	struct gs_node *p;

	if (sc == NULL) {
		/* a scheduler given but wrong has its own error */
		if (!ydoc_given(site, "scheduler", sl_site_keys))
			errsink_error(&c->sink, nodes, "'nodes: auto' needs a 'scheduler' on %s (the "
			    "nodes are read from it): list the nodes instead", label);
		return;
	}
	if (!v->has_cpu)
		errsink_error(&c->sink, nodes, "%s has 'nodes: auto' but no 'cpu_mhz': set it in the "
		    "site's or the top-level defaults (Slurm does not know a node's clock)", label);
	sc->auto_nodes = 1;
	p = &sc->proto;
	p->site = (int)idx;
	p->cpu_mhz = v->cpu_mhz;
	p->cores = v->has_cores ? v->cores : 0;
	p->slots = v->has_slots ? v->slots : 0;
	p->mem_mb = v->has_mem ? v->mem_mb : 0;
	p->arch = v->arch != NULL ? xstrdup(v->arch) : NULL;
	sl_ssh_fill(&p->ssh, v);
	p->monitor = v->monitor != NULL ? xstrdup(v->monitor) : NULL;
	p->emulate.cpu_scale = 1.0;
	p->emulate.load_interval = SL_LOAD_INTERVAL;
	p->sched_load = -1;
	p->loc = sc->loc;
}

void
sl_sched_free(struct gs_sched *sc)
{
	if (sc == NULL)
		return;
	free(sc->type);
	free(sc->login);
	sl_ssh_free(&sc->ssh);
	free(sc->partition);
	free(sc->account);
	free(sc->time);
	free(sc->qos);
	sl_node_free(&sc->proto);
	free(sc);
}
