/*
 * site-load-int.h — what the site-file loader's files share (site-load.c, the sites and
 * nodes; site-sched.c, a site's scheduler): the walk's context, the values that merge
 * from defaults to site to node, and the helpers both use. Not an interface of the broker.
 */
#ifndef GS_SITE_LOAD_INT_H
#define GS_SITE_LOAD_INT_H

#include <limits.h>

#include "broker/errsink.h"
#include "broker/site.h"
#include "broker/yaml-doc.h"

/* A site file of a million nodes is a typo (or an attack), not a grid. */
#define SL_MAX_NODES		100000

/* Mean seconds between background load arrivals when a node sets load but no interval. */
#define SL_LOAD_INTERVAL	10.0

/* The values that merge from top-level defaults to site to node; NULL / has_* = 0: unset. */
struct sl_vals {
	int has_cpu, has_cores, has_slots, has_mem;
	double cpu_mhz, mem_mb;
	int cores, slots;
	const char *arch;
	const char *monitor;
	const char *user;
	int port;
	const char *host_key;
	const char *identity;
	char config[PATH_MAX];		/* absolute; "" when unset */
};

struct sl_ctx {
	struct gs_errsink sink;	/* the file's name and its errors */
	struct gs_sites *out;
	struct ydoc_strset hosts;	/* host -> node index */
	struct ydoc_strset sites;	/* site name -> site index */
	int hosts_unknown;	/* 1: some node's hosts could not be read (no check of master) */
	int too_many;		/* 1: SL_MAX_NODES was reached (said once) */
};

extern const char *const sl_site_keys[];

/*
 * A word (letters, digits, '.', '_', '-'; not starting with '-') into *out, which is left
 * alone when it is not one; 0, or -1 (said).
 */
int sl_str_word(struct sl_ctx *c, const char *key, const struct ydoc_node *v,
    const char *what, const char **out);
/* A host's ssh settings from the merged values v. */
void sl_ssh_fill(struct remote_ssh *ssh, const struct sl_vals *v);
void sl_ssh_free(struct remote_ssh *ssh);
void sl_node_free(struct gs_node *n);

/* site-sched.c: scheduler: of a site, nodes: auto, and freeing a scheduler */
void sl_sched(struct sl_ctx *c, const struct ydoc_node *map, struct gs_site *s,
    const struct sl_vals *v, const char *label);
void sl_nodes_auto(struct sl_ctx *c, const struct ydoc_node *site,
    const struct ydoc_node *nodes, size_t idx, const struct sl_vals *v, const char *label);
void sl_sched_free(struct gs_sched *sc);

#endif
