/*
 * slurm-nodes.c — the inventory of the sites behind Slurm (slurm-site.h, doc/slurm.md,
 * "Which nodes"): Slurm's own view of their nodes, read through each site's login host,
 * all sites at once. Slurm 22.05's scontrol has no --json: `sinfo --json` gives the nodes
 * (openapi v0.0.38: name, cpus, real_memory, state, state_flags, reason, cpu_load,
 * features, partitions), and `sinfo --noheader --format=%P`, printed after it, marks the
 * default partition with a '*'. A site with `nodes: auto` gets a node per Slurm node of
 * its partition; every node of a Slurm site is then marked unavailable (down, drained,
 * not known to Slurm, not in the partition) or busy (allocated to others), with Slurm's
 * CPULoad as its load when no node_exporter answers (broker/rank.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <jansson.h>

#include "broker/slurm-nodes.h"
#include "common/clock.h"
#include "common/home.h"
#include "common/log.h"
#include "common/proc.h"
#include "common/xmalloc.h"
#include "remote/remote.h"

/* What runs on a login host: the nodes, then the partitions (the default one starred). */
#define SLURM_INVENTORY_CMD	"sinfo --json && sinfo --noheader --format=%P"

/* Slurm's NO_VAL and INFINITE (uint32): cpu_load when slurmd has not reported one. */
#define SLURM_NO_VAL32		4294967294.0

/* A string member of o, or NULL when it is missing, not a string or empty. */
static const char *
slurm_json_str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s != NULL && *s != '\0' ? s : NULL;
}

/* "idle", "idle+drain", "down+not_responding": the state, then its flags, lower case. */
static char *
slurm_json_state(const json_t *o)
{
	const char *st = slurm_json_str(o, "state");
	json_t *flags = json_object_get(o, "state_flags"), *f;
	size_t i, len;
	char *out, *p;

	len = strlen(st != NULL ? st : "unknown") + 1;
	json_array_foreach(flags, i, f)
		if (json_is_string(f))
			len += strlen(json_string_value(f)) + 1;
	out = xmalloc(len);
	snprintf(out, len, "%s", st != NULL ? st : "unknown");
	json_array_foreach(flags, i, f)
		if (json_is_string(f)) {
			strcat(out, "+");
			strcat(out, json_string_value(f));
		}
	for (p = out; *p != '\0'; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return out;
}

/* One element of "nodes"; -1 with why when it has no name. */
static int
slurm_json_node(const json_t *o, struct slurm_node *sn, char *why, size_t whylen)
{
	const json_t *parts, *p, *load;
	const char *s;
	size_t i;

	memset(sn, 0, sizeof *sn);
	if (!json_is_object(o) || (s = slurm_json_str(o, "name")) == NULL) {
		snprintf(why, whylen, "a node without a name in sinfo's output");
		return -1;
	}
	sn->name = xstrdup(s);
	sn->cpus = (int)json_integer_value(json_object_get(o, "cpus"));
	sn->mem_mb = json_number_value(json_object_get(o, "real_memory"));
	if ((s = slurm_json_str(o, "features")) != NULL)
		sn->features = xstrdup(s);
	sn->state = slurm_json_state(o);
	if ((s = slurm_json_str(o, "reason")) != NULL)
		sn->reason = xstrdup(s);
	/* hundredths of the load average, NO_VAL when slurmd has not reported it */
	load = json_object_get(o, "cpu_load");
	sn->cpu_load = json_is_number(load) && json_number_value(load) >= 0 &&
	    json_number_value(load) < SLURM_NO_VAL32 ? json_number_value(load) / 100 : -1;
	parts = json_object_get(o, "partitions");
	sn->partitions = xcalloc(json_array_size(parts) + 1, sizeof *sn->partitions);
	json_array_foreach(parts, i, p)
		if (json_is_string(p))
			sn->partitions[sn->npartitions++] = xstrdup(json_string_value(p));
	return 0;
}

/* The partition `sinfo --format=%P` starred, from the lines after the JSON; NULL: none. */
static char *
slurm_default_partition(const char *text)
{
	const char *line, *end;
	size_t len;

	for (line = text; *line != '\0'; line = *end != '\0' ? end + 1 : end) {
		end = line + strcspn(line, "\n");
		len = (size_t)(end - line);
		while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\r'))
			len--;
		while (len > 0 && (*line == ' ' || *line == '\t')) {
			line++;
			len--;
		}
		if (len > 1 && line[len - 1] == '*')
			return xstrndup(line, len - 1);
	}
	return NULL;
}

int
slurm_nodes_parse(const char *text, struct slurm_node **out, size_t *n,
    char **default_partition, char *why, size_t whylen)
{
	json_t *root, *nodes, *errs, *o;
	json_error_t jerr;
	size_t i;
	const char *msg;

	*out = NULL;
	*n = 0;
	if (default_partition != NULL)
		*default_partition = NULL;
	/* the JSON document first; what follows it is sinfo's list of partitions */
	if ((root = json_loads(text, JSON_DISABLE_EOF_CHECK, &jerr)) == NULL) {
		snprintf(why, whylen, "sinfo --json: not JSON (line %d: %s)", jerr.line, jerr.text);
		return -1;
	}
	errs = json_object_get(root, "errors");
	if (json_array_size(errs) > 0) {
		o = json_array_get(errs, 0);
		if ((msg = slurm_json_str(o, "description")) == NULL &&
		    (msg = slurm_json_str(o, "error")) == NULL)
			msg = "an error without a description";
		snprintf(why, whylen, "sinfo --json: %s", msg);
		json_decref(root);
		return -1;
	}
	if (!json_is_array(nodes = json_object_get(root, "nodes"))) {
		snprintf(why, whylen, "sinfo --json: no list of nodes");
		json_decref(root);
		return -1;
	}
	*out = xcalloc(json_array_size(nodes) + 1, sizeof **out);
	json_array_foreach(nodes, i, o) {
		if (slurm_json_node(o, &(*out)[*n], why, whylen) == -1) {
			slurm_nodes_free(*out, *n);
			*out = NULL;
			*n = 0;
			json_decref(root);
			return -1;
		}
		(*n)++;
	}
	if (default_partition != NULL)
		*default_partition = slurm_default_partition(text + jerr.position);
	json_decref(root);
	return 0;
}

void
slurm_nodes_free(struct slurm_node *nodes, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(nodes[i].name);
		free(nodes[i].features);
		free(nodes[i].state);
		free(nodes[i].reason);
		strv_free(nodes[i].partitions, nodes[i].npartitions);
	}
	free(nodes);
}

/* 1 when the '+'-joined state has the word w. */
static int
slurm_state_has(const char *state, const char *w)
{
	size_t len = strlen(w);
	const char *p;

	for (p = state; (p = strstr(p, w)) != NULL; p += len)
		if ((p == state || p[-1] == '+') && (p[len] == '\0' || p[len] == '+'))
			return 1;
	return 0;
}

static int
slurm_in_partition(const struct slurm_node *sn, const char *partition)
{
	size_t i;

	if (partition == NULL)
		return 1;
	for (i = 0; i < sn->npartitions; i++)
		if (strcmp(sn->partitions[i], partition) == 0)
			return 1;
	return 0;
}

/* Why Slurm cannot give the node (allocated), or NULL. */
static char *
slurm_why_unavailable(const struct slurm_node *sn)
{
	const char *reason = sn->reason;
	char *why;

	if (slurm_state_has(sn->state, "down") || slurm_state_has(sn->state, "not_responding"))
		xasprintf(&why, "down: %s", reason != NULL ? reason : "not responding");
	else if (slurm_state_has(sn->state, "drain") || slurm_state_has(sn->state, "drained") ||
	    slurm_state_has(sn->state, "fail"))
		xasprintf(&why, "drained: %s", reason != NULL ? reason : "no reason given");
	else if (slurm_state_has(sn->state, "future") || slurm_state_has(sn->state, "unknown") ||
	    slurm_state_has(sn->state, "error") || slurm_state_has(sn->state, "maintenance"))
		xasprintf(&why, "%s%s%s", sn->state, reason != NULL ? ": " : "",
		    reason != NULL ? reason : "");
	else
		return NULL;
	return why;
}

/* Slurm's view of one node of the site onto n. */
static void
slurm_mark(struct gs_node *n, const struct slurm_node *sn)
{
	free(n->unavailable);
	free(n->features);
	n->unavailable = slurm_why_unavailable(sn);
	n->busy = n->unavailable == NULL && (slurm_state_has(sn->state, "allocated") ||
	    slurm_state_has(sn->state, "mixed") || slurm_state_has(sn->state, "completing"));
	n->sched_load = sn->cpu_load;
	n->features = sn->features != NULL ? xstrdup(sn->features) : NULL;
}

/* A node of a `nodes: auto` site from its proto and Slurm's node, at index at. */
static void
slurm_insert_node(struct gs_sites *sites, size_t at, const struct gs_sched *sc,
    const struct slurm_node *sn)
{
	const struct gs_node *p = &sc->proto;
	struct gs_node *n;

	sites->nodes = xreallocarray(sites->nodes, sites->nnodes + 1, sizeof *sites->nodes);
	memmove(&sites->nodes[at + 1], &sites->nodes[at],
	    (sites->nnodes - at) * sizeof *sites->nodes);
	sites->nnodes++;
	n = &sites->nodes[at];
	*n = *p;
	n->host = xstrdup(sn->name);
	n->cores = sn->cpus > 0 ? sn->cpus : 1;
	n->slots = p->slots > 0 ? p->slots : n->cores;
	n->mem_mb = sn->mem_mb;
	n->arch = p->arch != NULL ? xstrdup(p->arch) : NULL;
	n->ssh.user = p->ssh.user != NULL ? xstrdup(p->ssh.user) : NULL;
	n->ssh.host_key = p->ssh.host_key != NULL ? xstrdup(p->ssh.host_key) : NULL;
	n->ssh.identity = p->ssh.identity != NULL ? xstrdup(p->ssh.identity) : NULL;
	n->ssh.config = p->ssh.config != NULL ? xstrdup(p->ssh.config) : NULL;
	n->monitor = p->monitor != NULL ? sites_monitor_expand(p->monitor, sn->name) : NULL;
	n->loc = sc->loc;
	n->unavailable = n->features = NULL;
}

/* The site of the node named host, or -1. */
static int
slurm_host_site(const struct gs_sites *sites, const char *host)
{
	size_t i;

	for (i = 0; i < sites->nnodes; i++)
		if (strcasecmp(sites->nodes[i].host, host) == 0)
			return sites->nodes[i].site;
	return -1;
}

int
slurm_site_apply(struct gs_sites *sites, size_t site, const struct slurm_node *sn, size_t nsn,
    const char *default_partition)
{
	const struct gs_sched *sc = sites->sites[site].sched;
	const char *part = sc->partition != NULL ? sc->partition : default_partition;
	size_t i, j, at, added = 0, present = 0;
	int found, other;

	if (sc->auto_nodes) {
		/* after the nodes of the sites before it: the site file's order */
		for (at = 0; at < sites->nnodes && (size_t)sites->nodes[at].site <= site; at++)
			;
		for (j = 0; j < nsn; j++) {
			if (!slurm_in_partition(&sn[j], part))
				continue;
			/* read again (a second placement): the node is there */
			if ((other = slurm_host_site(sites, sn[j].name)) == (int)site) {
				present++;
				continue;
			}
			if (!remote_host_valid(sn[j].name) || other != -1) {
				log_warnx("site %s: Slurm node %s left out: %s",
				    sites->sites[site].name, sn[j].name, other != -1 ?
				    "a host of another site" : "not a valid host name");
				continue;
			}
			slurm_insert_node(sites, at + added++, sc, &sn[j]);
		}
		if (added + present == 0)
			log_warnx("site %s: Slurm on %s has no node in partition %s",
			    sites->sites[site].name, sc->login, part != NULL ? part : "(any)");
	}
	for (i = 0; i < sites->nnodes; i++) {
		struct gs_node *n = &sites->nodes[i];

		if ((size_t)n->site != site)
			continue;
		for (j = 0, found = 0; j < nsn && !found; j++)
			if (strcasecmp(sn[j].name, n->host) == 0) {
				found = 1;
				slurm_mark(n, &sn[j]);
				if (n->unavailable == NULL && !slurm_in_partition(&sn[j], part)) {
					xasprintf(&n->unavailable, "not in partition %s", part);
					n->busy = 0;
				}
			}
		if (!found) {
			free(n->unavailable);
			xasprintf(&n->unavailable, "not a node of Slurm on %s", sc->login);
			n->busy = 0;
		}
	}
	return (int)added;
}

/* Every node of the site unavailable: its login host could not be read. */
static void
slurm_site_unread(struct gs_sites *sites, size_t site, const char *why)
{
	const struct gs_sched *sc = sites->sites[site].sched;
	size_t i;

	log_warnx("site %s: Slurm on %s could not be read: %s", sites->sites[site].name,
	    sc->login, why);
	for (i = 0; i < sites->nnodes; i++) {
		struct gs_node *n = &sites->nodes[i];

		if ((size_t)n->site != site)
			continue;
		free(n->unavailable);
		xasprintf(&n->unavailable, "Slurm on %s could not be read: %s", sc->login, why);
		n->busy = 0;
	}
}

/* Why a login host's ssh failed: its last line of stderr, else the status. */
static void
slurm_task_why(const struct proc_task *t, double timeout, char *why, size_t whylen)
{
	char line[512];

	proc_last_line(t->err, line, sizeof line);
	if (t->status == PROC_DEADLINE)
		snprintf(why, whylen, "no answer within %g s", timeout);
	else if (line[0] != '\0')
		snprintf(why, whylen, "%s", line);
	else
		snprintf(why, whylen, "ssh or sinfo exited with %d", t->status);
}

int
slurm_inventory(struct gs_sites *sites, double timeout)
{
	struct proc_task *tasks;
	struct slurm_node *sn;
	char *config, *part, why[1024];
	const char *state;
	size_t i, nsn;
	int fd, failed = 0, any = 0;

	for (i = 0; i < sites->nsites; i++)
		if (sites->sites[i].sched != NULL && sites->sites[i].sched->login != NULL)
			any = 1;
	if (!any)
		return 0;
	/* the login hosts' ssh settings in a private file, gone when they have answered */
	config = NULL;
	fd = -1;
	if ((state = home_root(why, sizeof why)) != NULL)
		xasprintf(&config, "%s/slurm-inventory.XXXXXX", state);
	if (config == NULL || (fd = mkstemp(config)) == -1 || close(fd) == -1 ||
	    sites_write_ssh_config(sites, config, why, sizeof why) == -1) {
		if (config != NULL && fd == -1)
			snprintf(why, sizeof why, "%s: cannot create it", config);
		for (i = 0; i < sites->nsites; i++)
			if (sites->sites[i].sched != NULL && sites->sites[i].sched->login != NULL) {
				slurm_site_unread(sites, i, why);
				failed++;
			}
		if (fd != -1)
			unlink(config);
		free(config);
		return failed;
	}
	tasks = xcalloc(sites->nsites, sizeof *tasks);
	for (i = 0; i < sites->nsites; i++) {
		const struct gs_sched *sc = sites->sites[i].sched;

		if (sc != NULL && sc->login != NULL)
			tasks[i].argv = remote_ssh_argv_raw(config, sc->ssh.user, sc->login,
			    SLURM_INVENTORY_CMD);
	}
	proc_run_all(tasks, sites->nsites, clock_mono() + timeout, NULL);
	unlink(config);
	free(config);
	for (i = 0; i < sites->nsites; i++) {
		const struct gs_sched *sc = sites->sites[i].sched;

		if (sc == NULL || sc->login == NULL)
			continue;
		if (tasks[i].argv == NULL)
			snprintf(why, sizeof why, "invalid ssh user or host name");
		else if (tasks[i].status != 0)
			slurm_task_why(&tasks[i], timeout, why, sizeof why);
		else if (slurm_nodes_parse(tasks[i].out, &sn, &nsn, &part, why, sizeof why) == 0) {
			slurm_site_apply(sites, i, sn, nsn, part);
			slurm_nodes_free(sn, nsn);
			free(part);
			continue;
		}
		slurm_site_unread(sites, i, why);
		failed++;
	}
	proc_free(tasks, sites->nsites);
	free(tasks);
	return failed;
}
