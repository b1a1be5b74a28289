/*
 * site-load.c — site files (gridsubmit-sites(5)) into struct gs_sites: host ranges expanded,
 * defaults merged (node over site over top-level defaults), every value checked where it is
 * written so that an error names the line and column to fix. Like a compiler, the walk goes
 * on after an error, so that one run names every mistake of the file (errlist.h).
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "broker/errlist.h"
#include "broker/errsink.h"
#include "broker/host-probe.h"
#include "broker/site-load-int.h"
#include "broker/site.h"
#include "broker/yaml-doc.h"
#include "common/xmalloc.h"

static const char *const sl_top_keys[] = { "master", "defaults", "sites", NULL };
static const char *const sl_defaults_keys[] = {
	"ssh", "monitor", "cpu_mhz", "cores", "slots", "mem_mb", "arch", NULL
};
const char *const sl_site_keys[] = {
	"name", "link", "ssh", "monitor", "defaults", "scheduler", "nodes", NULL
};
static const char *const sl_link_keys[] = { "bandwidth_mbps", "latency_ms", NULL };
static const char *const sl_ssh_keys[] = {
	"user", "port", "host_key", "identity", "config", NULL
};
static const char *const sl_node_keys[] = {
	"host", "cpu_mhz", "cores", "slots", "mem_mb", "arch", "ssh", "monitor", "emulate", NULL
};
static const char *const sl_emulate_keys[] = {
	"cpu_scale", "load", "load_interval", "private_fs", NULL
};

static int
sl_word_valid(const char *s, size_t max)
{
	size_t n = 0;

	if (*s == '\0' || *s == '-')
		return 0;
	for (; *s != '\0'; s++, n++) {
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '.' || *s == '_' || *s == '-'))
			return 0;
	}
	return n <= max;
}

int
sl_str_word(struct sl_ctx *c, const char *key, const struct ydoc_node *v, const char *what,
    const char **out)
{
	const char *s;
	char desc[96];

	if (errsink_check(&c->sink, ydoc_str(c->sink.name, key, v, &s, &c->sink.err)) == -1)
		return -1;
	if (!sl_word_valid(s, 64)) {
		ydoc_describe(v, desc, sizeof desc);
		return errsink_error(&c->sink, v, "'%s' must be %s, not %s", key, what, desc);
	}
	*out = s;
	return 0;
}

/* http/https only (doc/reliability.md, "HTTP metrics"), and {host} the only placeholder. */
static int
sl_monitor(struct sl_ctx *c, const struct ydoc_node *v, const char **out)
{
	char desc[96];
	const char *s, *p;

	if (errsink_check(&c->sink, ydoc_str(c->sink.name, "monitor", v, &s, &c->sink.err)) == -1)
		return -1;
	ydoc_describe(v, desc, sizeof desc);
	if ((strncasecmp(s, "http://", 7) != 0 || s[7] == '\0') &&
	    (strncasecmp(s, "https://", 8) != 0 || s[8] == '\0'))
		return errsink_error(&c->sink, v, "'monitor' must be an http:// or https:// URL, not %s",
		    desc);
	for (p = s; *p != '\0'; p++) {
		if ((unsigned char)*p <= 0x20 || *p == 0x7f)
			return errsink_error(&c->sink, v, "'monitor' must be a URL without spaces or control "
			    "characters, not %s", desc);
		if (*p == '{' && strncmp(p, "{host}", 6) == 0) {
			p += 5;
			continue;
		}
		if (*p == '{' || *p == '}')
			return errsink_error(&c->sink, v,
			    "'monitor' may use only the placeholder {host}, not %s", desc);
	}
	*out = s;
	return 0;
}

char *
sites_monitor_expand(const char *tmpl, const char *host)
{
	size_t n = 0, hl = strlen(host);
	const char *p;
	char *out, *o;

	for (p = tmpl; *p != '\0'; p++, n++)
		if (strncmp(p, "{host}", 6) == 0) {
			n += hl;
			p += 5;
		}
	o = out = xmalloc(n + 1);
	for (p = tmpl; *p != '\0'; p++) {
		if (strncmp(p, "{host}", 6) == 0) {
			memcpy(o, host, hl);
			o += hl;
			p += 5;
		} else
			*o++ = *p;
	}
	*o = '\0';
	return out;
}

/*
 * ssh: {config: PATH}: an ssh_config file for the hosts, relative to the site file's
 * directory (a site file and its ssh config move together), made absolute here: ssh reads
 * a relative Include from ~/.ssh, and the jobs run elsewhere. It becomes an Include line in
 * each job's ssh_config, which takes no quoting: no blank, quote, '#' or '%'.
 */
static void
sl_ssh_config(struct sl_ctx *c, const struct ydoc_node *n, struct sl_vals *v)
{
	const char *path, *slash = strrchr(c->sink.name, '/'), *p;
	int dirlen = slash != NULL ? (int)(slash - c->sink.name) : 0, len = -1;
	char cwd[PATH_MAX], desc[96];

	if (errsink_check(&c->sink, ydoc_str(c->sink.name, "config", n, &path, &c->sink.err)) == -1)
		return;
	if (path[0] == '/')
		len = snprintf(v->config, sizeof v->config, "%s", path);
	else if (c->sink.name[0] == '/')
		len = snprintf(v->config, sizeof v->config, "%.*s/%s", dirlen, c->sink.name, path);
	else if (getcwd(cwd, sizeof cwd) != NULL)
		len = snprintf(v->config, sizeof v->config, "%s/%.*s%s%s", cwd, dirlen, c->sink.name,
		    slash != NULL ? "/" : "", path);
	for (p = v->config; len > 0 && *p != '\0'; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f || *p == '"' || *p == '\'' ||
		    *p == '#' || *p == '%')
			break;
	if (path[0] == '\0' || len <= 0 || (size_t)len >= sizeof v->config || *p != '\0') {
		ydoc_describe(n, desc, sizeof desc);
		errsink_error(&c->sink, n, "'config' must be an ssh_config file, relative to the site file "
		    "or absolute, whose full path has no blanks, quotes, '#' or '%%', not %s",
		    desc);
	}
}

static void
sl_ssh(struct sl_ctx *c, const struct ydoc_node *map, struct sl_vals *v)
{
	const struct ydoc_node *n;
	const char *s;
	long long ll;
	char desc[96];

	if (errsink_check(&c->sink, ydoc_want(c->sink.name, "ssh", map, YDOC_MAP, &c->sink.err)) == -1)
		return;
	ydoc_check_keys_all(c->sink.name, map, sl_ssh_keys, c->sink.errs);
	if ((n = ydoc_get(map, "user")) != NULL)
		sl_str_word(c, "user", n, "a user name (letters, digits, '.', '_' or '-', not "
		    "starting with '-')", &v->user);
	if ((n = ydoc_get(map, "port")) != NULL && errsink_check(&c->sink, ydoc_int(c->sink.name, "port", n,
	    "a whole number from 1 to 65535", 1, 65535, &ll, &c->sink.err)) == 0)
		v->port = (int)ll;
	if ((n = ydoc_get(map, "host_key")) != NULL &&
	    errsink_check(&c->sink, ydoc_str(c->sink.name, "host_key", n, &s, &c->sink.err)) == 0) {
		if (strcmp(s, "strict") == 0 || strcmp(s, "accept-new") == 0)
			v->host_key = s;
		else {
			ydoc_describe(n, desc, sizeof desc);
			errsink_error(&c->sink, n, "'host_key' must be strict or accept-new, not %s", desc);
		}
	}
	if ((n = ydoc_get(map, "identity")) != NULL &&
	    errsink_check(&c->sink, ydoc_str(c->sink.name, "identity", n, &s, &c->sink.err)) == 0) {
		if (ydoc_no_controls(s) && s[0] != '-')
			v->identity = s;
		else {
			ydoc_describe(n, desc, sizeof desc);
			errsink_error(&c->sink, n, "'identity' must be a key file name (no control characters, "
			    "not starting with '-'), not %s", desc);
		}
	}
	if ((n = ydoc_get(map, "config")) != NULL)
		sl_ssh_config(c, n, v);
}

/*
 * The keys shared by defaults and nodes (map's keys are known), laid over v. A value given
 * but wrong or misspelt still counts as given: its error is the one to fix, not a second
 * one on every node saying it is missing.
 */
static void
sl_vals(struct sl_ctx *c, const struct ydoc_node *map, const char *const *known,
    struct sl_vals *v)
{
	const struct ydoc_node *n;
	long long ll;

	v->has_cpu |= ydoc_given(map, "cpu_mhz", known);
	v->has_cores |= ydoc_given(map, "cores", known);
	if ((n = ydoc_get(map, "cpu_mhz")) != NULL)
		errsink_check(&c->sink, ydoc_num(c->sink.name, "cpu_mhz", n, "a number > 0", 0, 1, 1e9, 0,
		    &v->cpu_mhz, &c->sink.err));
	if ((n = ydoc_get(map, "cores")) != NULL && errsink_check(&c->sink, ydoc_int(c->sink.name, "cores", n,
	    "a whole number >= 1", 1, INT_MAX, &ll, &c->sink.err)) == 0)
		v->cores = (int)ll;
	if ((n = ydoc_get(map, "slots")) != NULL) {
		if (errsink_check(&c->sink, ydoc_int(c->sink.name, "slots", n, "a whole number >= 1", 1, INT_MAX,
		    &ll, &c->sink.err)) == 0)
			v->slots = (int)ll;
		v->has_slots = 1;
	}
	if ((n = ydoc_get(map, "mem_mb")) != NULL) {
		errsink_check(&c->sink, ydoc_num(c->sink.name, "mem_mb", n, "a number >= 0", 0, 0, 1e15, 0,
		    &v->mem_mb, &c->sink.err));
		v->has_mem = 1;
	}
	if ((n = ydoc_get(map, "arch")) != NULL)
		sl_str_word(c, "arch", n, "an architecture name (letters, digits, '.', '_' or '-')",
		    &v->arch);
	if ((n = ydoc_get(map, "ssh")) != NULL)
		sl_ssh(c, n, v);
	if ((n = ydoc_get(map, "monitor")) != NULL)
		sl_monitor(c, n, &v->monitor);
}

static void
sl_defaults(struct sl_ctx *c, const struct ydoc_node *map, struct sl_vals *v)
{
	if (errsink_check(&c->sink, ydoc_want(c->sink.name, "defaults", map, YDOC_MAP, &c->sink.err)) == -1)
		return;
	ydoc_check_keys_all(c->sink.name, map, sl_defaults_keys, c->sink.errs);
	sl_vals(c, map, sl_defaults_keys, v);
}

static void
sl_emulate(struct sl_ctx *c, const struct ydoc_node *map, struct gs_emulate *e)
{
	const struct ydoc_node *n;

	if (errsink_check(&c->sink, ydoc_want(c->sink.name, "emulate", map, YDOC_MAP, &c->sink.err)) == -1)
		return;
	ydoc_check_keys_all(c->sink.name, map, sl_emulate_keys, c->sink.errs);
	if ((n = ydoc_get(map, "cpu_scale")) != NULL)
		errsink_check(&c->sink, ydoc_num(c->sink.name, "cpu_scale", n, "a number in (0, 1]", 0, 1, 1, 0,
		    &e->cpu_scale, &c->sink.err));
	if ((n = ydoc_get(map, "load")) != NULL)
		errsink_check(&c->sink, ydoc_num(c->sink.name, "load", n, "a number >= 0", 0, 0, 1e6, 0, &e->load,
		    &c->sink.err));
	if ((n = ydoc_get(map, "load_interval")) != NULL)
		errsink_check(&c->sink, ydoc_num(c->sink.name, "load_interval", n, "a number > 0", 0, 1, 1e9, 0,
		    &e->load_interval, &c->sink.err));
	if ((n = ydoc_get(map, "private_fs")) != NULL)
		errsink_check(&c->sink, ydoc_bool(c->sink.name, "private_fs", n, &e->private_fs, &c->sink.err));
}

void
sl_ssh_fill(struct remote_ssh *ssh, const struct sl_vals *v)
{
	ssh->user = v->user != NULL ? xstrdup(v->user) : NULL;
	ssh->port = v->port != 0 ? v->port : 22;
	ssh->host_key = xstrdup(v->host_key != NULL ? v->host_key : "strict");
	ssh->identity = v->identity != NULL ? xstrdup(v->identity) : NULL;
	ssh->config = v->config[0] != '\0' ? xstrdup(v->config) : NULL;
}

static void
sl_push_node(struct gs_sites *out, size_t *cap, const struct gs_node *n)
{
	if (out->nnodes == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		out->nodes = xreallocarray(out->nodes, *cap, sizeof *out->nodes);
	}
	out->nodes[out->nnodes++] = *n;
}

/*
 * A node entry's host range expanded into names; -1 (the error kept) when it cannot be,
 * or when a name is not a host name or the file would hold more than SL_MAX_NODES nodes.
 */
static int
sl_hosts(struct sl_ctx *c, const struct ydoc_node *hn, const char *pattern, char ***names)
{
	char why[256], desc[96];
	int count, i;

	if ((count = hostrange_expand(pattern, names, why, sizeof why)) == -1) {
		ydoc_describe(hn, desc, sizeof desc);
		return errsink_error(&c->sink, hn, "bad host range %s: %s", desc, why);
	}
	for (i = 0; i < count; i++) {
		if (!remote_host_valid((*names)[i])) {
			struct ydoc_node tmp = *hn;

			tmp.value = (*names)[i];
			tmp.len = strlen((*names)[i]);
			ydoc_describe(&tmp, desc, sizeof desc);
			errsink_error(&c->sink, hn, "invalid host name %s (letters, digits, '.' and '-', not "
			    "starting with '-', labels of at most 63 characters)", desc);
			hostrange_free(*names, count);
			return -1;
		}
	}
	if (c->out->nnodes + (size_t)count > SL_MAX_NODES) {
		if (!c->too_many)
			errsink_error(&c->sink, hn, "more than %d nodes in one site file", SL_MAX_NODES);
		c->too_many = 1;
		hostrange_free(*names, count);
		return -1;
	}
	return count;
}

/*
 * Where a node's values come from (site.h, enum gs_src): given in the file; else read
 * from this host when the node is this host (host-probe.c fills them after the load);
 * else left to its monitor (metrics.c fills them when it answers); mem_mb, which a file
 * may leave out with neither, is then unknown (0).
 */
static void
sl_node_sources(struct gs_node *node, const struct sl_vals *v)
{
	enum gs_src left = remote_host_is_local(node->host) ? GS_SRC_HOST :
	    v->monitor != NULL ? GS_SRC_MONITOR : GS_SRC_NONE;

	node->cores_src = v->has_cores ? GS_SRC_SITE : left;
	node->mhz_src = v->has_cpu ? GS_SRC_SITE : left;
	node->mem_src = v->has_mem ? GS_SRC_SITE : left;
}

/*
 * A node entry's hosts as nodes with the merged values v. A host named before is an error
 * (said once for the entry: a duplicated range would repeat it for every name).
 */
static void
sl_add_nodes(struct sl_ctx *c, const struct ydoc_node *hn, char **names, int count,
    size_t site, const struct sl_vals *v, const struct gs_emulate *emu, size_t *cap)
{
	int i, said = 0;

	for (i = 0; i < count; i++) {
		struct gs_node node;
		const struct gs_loc *at;
		size_t idx = c->out->nnodes;
		long prev;

		memset(&node, 0, sizeof node);
		node.host = names[i];
		names[i] = NULL;
		node.site = (int)site;
		node.cpu_mhz = v->cpu_mhz;
		node.cores = v->cores;
		node.slots = v->has_slots ? v->slots : v->cores;
		node.slots_auto = !v->has_slots;
		node.mem_mb = v->has_mem ? v->mem_mb : 0;
		sl_node_sources(&node, v);
		node.arch = v->arch != NULL ? xstrdup(v->arch) : NULL;
		sl_ssh_fill(&node.ssh, v);
		node.monitor = v->monitor != NULL ? sites_monitor_expand(v->monitor, node.host) : NULL;
		node.emulate = *emu;
		node.sched_load = -1;
		node.loc.file = c->out->path;
		node.loc.line = hn->line;
		node.loc.col = hn->col;
		sl_push_node(c->out, cap, &node);
		if ((prev = ydoc_strset_add(&c->hosts, node.host, idx)) == -1 || said)
			continue;
		said = 1;
		at = &c->out->nodes[prev].loc;
		if (at->line == hn->line && at->col == hn->col)
			errsink_error(&c->sink, hn, "duplicate host '%s' (the range names it twice)", node.host);
		else
			errsink_error(&c->sink, hn, "duplicate host '%s' (also at line %d, col %d)", node.host,
			    at->line, at->col);
	}
}

/*
 * 1 when the values a node entry leaves out can be found elsewhere: it has a monitor, or
 * its host is this host (a range never is).
 */
static int
sl_values_found(const struct sl_vals *v, const char *pattern)
{
	return v->monitor != NULL || (pattern != NULL && strchr(pattern, '[') == NULL &&
	    remote_host_is_local(pattern));
}

/* One entry of a site's nodes: its host range expanded into nodes with merged values. */
static void
sl_node(struct sl_ctx *c, const struct ydoc_node *map, size_t site, const struct sl_vals *sv,
    size_t *cap)
{
	struct sl_vals v = *sv;
	struct gs_emulate emu = { 1.0, 0.0, SL_LOAD_INTERVAL, 0 };
	const struct ydoc_node *hn, *n;
	const char *pattern = NULL;
	char desc[96], label[160];
	char **names = NULL;
	int count;

	if (map->type != YDOC_MAP) {
		/* the list itself is right; its entry is not */
		ydoc_describe(map, desc, sizeof desc);
		errsink_error(&c->sink, map, "a node must be a mapping such as {host: n1, cpu_mhz: 2000, "
		    "cores: 4}, not %s", desc);
		c->hosts_unknown = 1;
		return;
	}
	ydoc_check_keys_all(c->sink.name, map, sl_node_keys, c->sink.errs);
	if ((hn = ydoc_get(map, "host")) != NULL)
		errsink_check(&c->sink, ydoc_str(c->sink.name, "host", hn, &pattern, &c->sink.err));
	else if (!ydoc_given(map, "host", sl_node_keys))
		errsink_error(&c->sink, map, "a node needs a 'host' (a name or a range such as n[01-16])");
	sl_vals(c, map, sl_node_keys, &v);
	if ((n = ydoc_get(map, "emulate")) != NULL)
		sl_emulate(c, n, &emu);
	if (pattern != NULL)
		snprintf(label, sizeof label, "node '%.128s'", pattern);
	else
		snprintf(label, sizeof label, "the node");
	/* this host is read (host-probe.c), a node with a monitor asks it (metrics.c) */
	if (!v.has_cpu && !sl_values_found(&v, pattern))
		errsink_error(&c->sink, map, "%s has no 'cpu_mhz': set it on the node or in defaults, "
		    "or give the node a monitor that serves it", label);
	if (!v.has_cores && !sl_values_found(&v, pattern))
		errsink_error(&c->sink, map, "%s has no 'cores': set it on the node or in defaults, "
		    "or give the node a monitor that serves it", label);
	if (pattern == NULL || (count = sl_hosts(c, hn, pattern, &names)) == -1) {
		c->hosts_unknown = 1;
		return;
	}
	sl_add_nodes(c, hn, names, count, site, &v, &emu, cap);
	hostrange_free(names, count);
}

static void
sl_link(struct sl_ctx *c, const struct ydoc_node *link, struct gs_site *s, const char *label)
{
	const struct ydoc_node *n;

	if (errsink_check(&c->sink, ydoc_want(c->sink.name, "link", link, YDOC_MAP, &c->sink.err)) == -1)
		return;
	ydoc_check_keys_all(c->sink.name, link, sl_link_keys, c->sink.errs);
	if ((n = ydoc_get(link, "bandwidth_mbps")) != NULL)
		errsink_check(&c->sink, ydoc_num(c->sink.name, "bandwidth_mbps", n, "a number > 0", 0, 1, 1e12, 0,
		    &s->bandwidth_mbps, &c->sink.err));
	else if (!ydoc_given(link, "bandwidth_mbps", sl_link_keys))
		errsink_error(&c->sink, link, "the link of %s has no 'bandwidth_mbps'", label);
	if ((n = ydoc_get(link, "latency_ms")) != NULL)
		errsink_check(&c->sink, ydoc_num(c->sink.name, "latency_ms", n, "a number >= 0", 0, 0, 1e9, 0,
		    &s->latency_ms, &c->sink.err));
}

/* A site's name, its index in out->sites (a new site, even when the name is wrong). */
static size_t
sl_site_new(struct sl_ctx *c, const struct ydoc_node *map, const char **name)
{
	struct gs_sites *out = c->out;
	const struct ydoc_node *n;
	struct gs_site *s;
	size_t idx = out->nsites;
	long prev = -1;

	*name = NULL;
	if ((n = ydoc_get(map, "name")) == NULL) {
		if (!ydoc_given(map, "name", sl_site_keys))
			errsink_error(&c->sink, map, "a site needs a 'name'");
	} else if (sl_str_word(c, "name", n, "a site name (letters, digits, '.', '_' or '-')",
	    name) == 0 && (prev = ydoc_strset_find(&c->sites, *name)) != -1)
		errsink_error(&c->sink, n, "duplicate site '%s' (also at line %d, col %d)", *name,
		    out->sites[prev].loc.line, out->sites[prev].loc.col);
	out->sites = xreallocarray(out->sites, out->nsites + 1, sizeof *out->sites);
	s = &out->sites[out->nsites++];
	memset(s, 0, sizeof *s);
	s->name = xstrdup(*name != NULL ? *name : "");
	if (*name != NULL && prev == -1)
		ydoc_strset_add(&c->sites, s->name, idx);
	s->loc.file = out->path;
	s->loc.line = n != NULL ? n->line : map->line;
	s->loc.col = n != NULL ? n->col : map->col;
	return idx;
}

static void
sl_site(struct sl_ctx *c, const struct ydoc_node *map, const struct sl_vals *top,
    size_t *cap)
{
	struct sl_vals v = *top;
	const struct ydoc_node *n, *nodes;
	const char *name;
	char desc[96], label[96];
	size_t i, idx;

	if (map->type != YDOC_MAP) {
		ydoc_describe(map, desc, sizeof desc);
		errsink_error(&c->sink, map, "a site must be a mapping with name, link and nodes, not %s",
		    desc);
		c->hosts_unknown = 1;
		return;
	}
	ydoc_check_keys_all(c->sink.name, map, sl_site_keys, c->sink.errs);
	idx = sl_site_new(c, map, &name);
	if (name != NULL)
		snprintf(label, sizeof label, "site '%s'", name);
	else
		snprintf(label, sizeof label, "the site");

	if ((n = ydoc_get(map, "link")) != NULL)
		sl_link(c, n, &c->out->sites[idx], label);
	else if (!ydoc_given(map, "link", sl_site_keys))
		errsink_error(&c->sink, map, "%s has no 'link' (bandwidth_mbps and latency_ms to the master)",
		    label);

	/* site defaults, then the site's own ssh and monitor over them */
	if ((n = ydoc_get(map, "defaults")) != NULL)
		sl_defaults(c, n, &v);
	if ((n = ydoc_get(map, "ssh")) != NULL)
		sl_ssh(c, n, &v);
	if ((n = ydoc_get(map, "monitor")) != NULL)
		sl_monitor(c, n, &v.monitor);
	if ((n = ydoc_get(map, "scheduler")) != NULL)
		sl_sched(c, n, &c->out->sites[idx], &v, label);

	if ((nodes = ydoc_get(map, "nodes")) != NULL && nodes->type == YDOC_SCALAR &&
	    nodes->plain && strcmp(nodes->value, "auto") == 0)
		sl_nodes_auto(c, map, nodes, idx, &v, label);
	else if (nodes == NULL) {
		if (!ydoc_given(map, "nodes", sl_site_keys))
			errsink_error(&c->sink, map, "%s has no 'nodes'", label);
		c->hosts_unknown = 1;
	} else if (nodes->type == YDOC_SCALAR && !ydoc_is_null(nodes)) {
		ydoc_describe(nodes, desc, sizeof desc);
		errsink_error(&c->sink, nodes, "'nodes' must be a list of nodes, or auto on a site "
		    "with a scheduler, not %s", desc);
		c->hosts_unknown = 1;
	} else if (errsink_check(&c->sink, ydoc_want(c->sink.name, "nodes", nodes, YDOC_SEQ, &c->sink.err)) == -1)
		c->hosts_unknown = 1;
	else if (nodes->nitems == 0)
		errsink_error(&c->sink, nodes, "%s has an empty list of nodes", label);
	else
		for (i = 0; i < nodes->nitems; i++)
			sl_node(c, nodes->items[i], idx, &v, cap);
}

/* master: a host name; NULL when it is not one (the error kept). */
static const char *
sl_master(struct sl_ctx *c, const struct ydoc_node *master)
{
	const char *mname;
	char desc[96];

	if (errsink_check(&c->sink, ydoc_str(c->sink.name, "master", master, &mname, &c->sink.err)) == -1)
		return NULL;
	if (remote_host_valid(mname))
		return mname;
	ydoc_describe(master, desc, sizeof desc);
	errsink_error(&c->sink, master, "invalid host name %s for 'master' (letters, digits, '.' and '-', "
	    "not starting with '-')", desc);
	return NULL;
}

static void
sl_load(struct sl_ctx *c, const struct ydoc_node *root)
{
	struct sl_vals top;
	const struct ydoc_node *n, *sites, *master;
	const char *mname = NULL;
	size_t i, cap = 0;

	memset(&top, 0, sizeof top);
	ydoc_check_keys_all(c->sink.name, root, sl_top_keys, c->sink.errs);
	if ((master = ydoc_get(root, "master")) != NULL)
		mname = sl_master(c, master);
	if ((n = ydoc_get(root, "defaults")) != NULL)
		sl_defaults(c, n, &top);
	if ((sites = ydoc_get(root, "sites")) == NULL) {
		if (!ydoc_given(root, "sites", sl_top_keys))
			errsink_error(&c->sink, root, "missing key 'sites' (the list of sites)");
		c->hosts_unknown = 1;
	} else if (errsink_check(&c->sink, ydoc_want(c->sink.name, "sites", sites, YDOC_SEQ, &c->sink.err)) == -1)
		c->hosts_unknown = 1;
	else if (sites->nitems == 0)
		errsink_error(&c->sink, sites, "'sites' is an empty list");
	else
		for (i = 0; i < sites->nitems; i++)
			sl_site(c, sites->items[i], &top, &cap);

	/* with hosts left unread, the master may be one of them: no second error */
	if (mname == NULL || c->hosts_unknown)
		return;
	if (ydoc_strset_find(&c->hosts, mname) == -1)
		errsink_error(&c->sink, master, "master '%s' is not a host of any site", mname);
	else
		c->out->master = xstrdup(mname);
}

int
sites_load_buffer_errs(const char *name, const char *buf, size_t len, struct gs_sites *out,
    struct gs_errlist *errs)
{
	struct ydoc_node *root;
	struct sl_ctx c;

	memset(out, 0, sizeof *out);
	memset(&c, 0, sizeof c);
	errlist_init(errs, name);
	if ((root = ydoc_parse(name, buf, len, &c.sink.err)) == NULL) {
		errlist_add(errs, &c.sink.err);
		return -1;
	}
	out->path = xstrdup(name);
	c.sink.name = name;
	c.out = out;
	c.sink.errs = errs;
	ydoc_strset_init(&c.hosts);
	ydoc_strset_init(&c.sites);
	sl_load(&c, root);
	if (errs->n == 0)
		host_probe_fill(out);
	ydoc_strset_free(&c.hosts);
	ydoc_strset_free(&c.sites);
	ydoc_free(root);
	if (errs->n == 0)
		return 0;
	sites_free(out);
	return -1;
}

int
sites_load_file_errs(const char *path, struct gs_sites *out, struct gs_errlist *errs)
{
	struct gs_error err;
	char *file, *buf;
	size_t len;
	int rc;

	memset(out, 0, sizeof *out);
	memset(&err, 0, sizeof err);
	errlist_init(errs, path);
	if ((file = sites_find(path, &err)) == NULL) {
		/* no file to locate it in: said as gridsubmit's own, as its other errors are */
		memmove(err.msg + 12, err.msg, sizeof err.msg - 12);
		memcpy(err.msg, "gridsubmit: ", 12);
		err.msg[sizeof err.msg - 1] = '\0';
		errlist_add(errs, &err);
		return -1;
	}
	if (ydoc_read_file(file, &buf, &len, &err) == -1) {
		errlist_add(errs, &err);
		free(file);
		return -1;
	}
	rc = sites_load_buffer_errs(file, buf, len, out, errs);
	free(buf);
	free(file);
	return rc;
}

void
sl_ssh_free(struct remote_ssh *ssh)
{
	free(ssh->user);
	free(ssh->host_key);
	free(ssh->identity);
	free(ssh->config);
}

void
sl_node_free(struct gs_node *n)
{
	free(n->host);
	free(n->arch);
	sl_ssh_free(&n->ssh);
	free(n->monitor);
	free(n->stale);
	free(n->excluded);
	free(n->unavailable);
	free(n->features);
}

void
sites_free(struct gs_sites *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nnodes; i++)
		sl_node_free(&s->nodes[i]);
	free(s->nodes);
	for (i = 0; i < s->nsites; i++) {
		free(s->sites[i].name);
		sl_sched_free(s->sites[i].sched);
	}
	free(s->sites);
	free(s->master);
	free(s->path);
	memset(s, 0, sizeof *s);
}
