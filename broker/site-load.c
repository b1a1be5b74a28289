/*
 * site-load.c — site files (gridsubmit-sites(5)) into struct gs_sites: host ranges expanded,
 * defaults merged (node over site over top-level defaults), every value checked where it is
 * written so that an error names the line and column to fix.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "site.h"
#include "xmalloc.h"
#include "yaml-doc.h"

static const char *const sl_top_keys[] = { "master", "defaults", "sites", NULL };
static const char *const sl_defaults_keys[] = {
	"ssh", "monitor", "cpu_mhz", "cores", "slots", "mem_mb", "arch", NULL
};
static const char *const sl_site_keys[] = {
	"name", "link", "ssh", "monitor", "defaults", "nodes", NULL
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
	const char *name;
	struct gs_sites *out;
	struct gs_error *err;
	struct ydoc_strset hosts;	/* host -> node index */
	struct ydoc_strset sites;	/* site name -> site index */
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

static int
sl_str_word(struct sl_ctx *c, const char *key, const struct ydoc_node *v, const char *what,
    const char **out)
{
	char desc[96];

	if (ydoc_str(c->name, key, v, out, c->err) == -1)
		return -1;
	if (sl_word_valid(*out, 64))
		return 0;
	ydoc_describe(v, desc, sizeof desc);
	ydoc_error(c->err, c->name, v, "'%s' must be %s, not %s", key, what, desc);
	return -1;
}

/* http/https only (doc/reliability.md, "HTTP metrics"), and {host} the only placeholder. */
static int
sl_monitor(struct sl_ctx *c, const struct ydoc_node *v, const char **out)
{
	char desc[96];
	const char *s, *p;

	if (ydoc_str(c->name, "monitor", v, out, c->err) == -1)
		return -1;
	s = *out;
	ydoc_describe(v, desc, sizeof desc);
	if ((strncasecmp(s, "http://", 7) != 0 || s[7] == '\0') &&
	    (strncasecmp(s, "https://", 8) != 0 || s[8] == '\0')) {
		ydoc_error(c->err, c->name, v,
		    "'monitor' must be an http:// or https:// URL, not %s", desc);
		return -1;
	}
	for (p = s; *p != '\0'; p++) {
		if ((unsigned char)*p <= 0x20 || *p == 0x7f) {
			ydoc_error(c->err, c->name, v,
			    "'monitor' must be a URL without spaces or control characters, not %s",
			    desc);
			return -1;
		}
		if (*p == '{') {
			if (strncmp(p, "{host}", 6) == 0) {
				p += 5;
				continue;
			}
			ydoc_error(c->err, c->name, v,
			    "'monitor' may use only the placeholder {host}, not %s", desc);
			return -1;
		}
		if (*p == '}') {
			ydoc_error(c->err, c->name, v,
			    "'monitor' may use only the placeholder {host}, not %s", desc);
			return -1;
		}
	}
	return 0;
}

static char *
sl_monitor_expand(const char *tmpl, const char *host)
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
static int
sl_ssh_config(struct sl_ctx *c, const struct ydoc_node *n, struct sl_vals *v)
{
	const char *path, *slash = strrchr(c->name, '/'), *p;
	int dirlen = slash != NULL ? (int)(slash - c->name) : 0, len = -1;
	char cwd[PATH_MAX], desc[96];

	if (ydoc_str(c->name, "config", n, &path, c->err) == -1)
		return -1;
	if (path[0] == '/')
		len = snprintf(v->config, sizeof v->config, "%s", path);
	else if (c->name[0] == '/')
		len = snprintf(v->config, sizeof v->config, "%.*s/%s", dirlen, c->name, path);
	else if (getcwd(cwd, sizeof cwd) != NULL)
		len = snprintf(v->config, sizeof v->config, "%s/%.*s%s%s", cwd, dirlen, c->name,
		    slash != NULL ? "/" : "", path);
	for (p = v->config; len > 0 && *p != '\0'; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f || *p == '"' || *p == '\'' ||
		    *p == '#' || *p == '%')
			break;
	if (path[0] == '\0' || len <= 0 || (size_t)len >= sizeof v->config || *p != '\0') {
		ydoc_describe(n, desc, sizeof desc);
		ydoc_error(c->err, c->name, n, "'config' must be an ssh_config file, relative "
		    "to the site file or absolute, whose full path has no blanks, quotes, '#' "
		    "or '%%', not %s", desc);
		return -1;
	}
	return 0;
}

static int
sl_ssh(struct sl_ctx *c, const struct ydoc_node *map, struct sl_vals *v)
{
	const struct ydoc_node *n;
	long long ll;
	char desc[96];

	if (ydoc_want(c->name, "ssh", map, YDOC_MAP, c->err) == -1 ||
	    ydoc_check_keys(c->name, map, sl_ssh_keys, c->err) == -1)
		return -1;
	if ((n = ydoc_get(map, "user")) != NULL && sl_str_word(c, "user", n,
	    "a user name (letters, digits, '.', '_' or '-', not starting with '-')",
	    &v->user) == -1)
		return -1;
	if ((n = ydoc_get(map, "port")) != NULL) {
		if (ydoc_int(c->name, "port", n, "a whole number from 1 to 65535", 1, 65535, &ll,
		    c->err) == -1)
			return -1;
		v->port = (int)ll;
	}
	if ((n = ydoc_get(map, "host_key")) != NULL) {
		if (ydoc_str(c->name, "host_key", n, &v->host_key, c->err) == -1)
			return -1;
		if (strcmp(v->host_key, "strict") != 0 && strcmp(v->host_key, "accept-new") != 0) {
			ydoc_describe(n, desc, sizeof desc);
			ydoc_error(c->err, c->name, n,
			    "'host_key' must be strict or accept-new, not %s", desc);
			return -1;
		}
	}
	if ((n = ydoc_get(map, "identity")) != NULL) {
		const char *p;

		if (ydoc_str(c->name, "identity", n, &v->identity, c->err) == -1)
			return -1;
		for (p = v->identity; *p != '\0'; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				break;
		if (*p != '\0' || v->identity[0] == '-') {
			ydoc_describe(n, desc, sizeof desc);
			ydoc_error(c->err, c->name, n, "'identity' must be a key file name "
			    "(no control characters, not starting with '-'), not %s", desc);
			return -1;
		}
	}
	if ((n = ydoc_get(map, "config")) != NULL && sl_ssh_config(c, n, v) == -1)
		return -1;
	return 0;
}

/* The keys shared by defaults and nodes, laid over v. */
static int
sl_vals(struct sl_ctx *c, const struct ydoc_node *map, struct sl_vals *v)
{
	const struct ydoc_node *n;
	long long ll;

	if ((n = ydoc_get(map, "cpu_mhz")) != NULL) {
		if (ydoc_num(c->name, "cpu_mhz", n, "a number > 0", 0, 1, 1e9, 0, &v->cpu_mhz,
		    c->err) == -1)
			return -1;
		v->has_cpu = 1;
	}
	if ((n = ydoc_get(map, "cores")) != NULL) {
		if (ydoc_int(c->name, "cores", n, "a whole number >= 1", 1, INT_MAX, &ll,
		    c->err) == -1)
			return -1;
		v->cores = (int)ll;
		v->has_cores = 1;
	}
	if ((n = ydoc_get(map, "slots")) != NULL) {
		if (ydoc_int(c->name, "slots", n, "a whole number >= 1", 1, INT_MAX, &ll,
		    c->err) == -1)
			return -1;
		v->slots = (int)ll;
		v->has_slots = 1;
	}
	if ((n = ydoc_get(map, "mem_mb")) != NULL) {
		if (ydoc_num(c->name, "mem_mb", n, "a number >= 0", 0, 0, 1e15, 0, &v->mem_mb,
		    c->err) == -1)
			return -1;
		v->has_mem = 1;
	}
	if ((n = ydoc_get(map, "arch")) != NULL && sl_str_word(c, "arch", n,
	    "an architecture name (letters, digits, '.', '_' or '-')", &v->arch) == -1)
		return -1;
	if ((n = ydoc_get(map, "ssh")) != NULL && sl_ssh(c, n, v) == -1)
		return -1;
	if ((n = ydoc_get(map, "monitor")) != NULL && sl_monitor(c, n, &v->monitor) == -1)
		return -1;
	return 0;
}

static int
sl_defaults(struct sl_ctx *c, const struct ydoc_node *map, struct sl_vals *v)
{
	if (ydoc_want(c->name, "defaults", map, YDOC_MAP, c->err) == -1 ||
	    ydoc_check_keys(c->name, map, sl_defaults_keys, c->err) == -1)
		return -1;
	return sl_vals(c, map, v);
}

static int
sl_emulate(struct sl_ctx *c, const struct ydoc_node *map, struct gs_emulate *e)
{
	const struct ydoc_node *n;

	if (ydoc_want(c->name, "emulate", map, YDOC_MAP, c->err) == -1 ||
	    ydoc_check_keys(c->name, map, sl_emulate_keys, c->err) == -1)
		return -1;
	if ((n = ydoc_get(map, "cpu_scale")) != NULL && ydoc_num(c->name, "cpu_scale", n,
	    "a number in (0, 1]", 0, 1, 1, 0, &e->cpu_scale, c->err) == -1)
		return -1;
	if ((n = ydoc_get(map, "load")) != NULL && ydoc_num(c->name, "load", n,
	    "a number >= 0", 0, 0, 1e6, 0, &e->load, c->err) == -1)
		return -1;
	if ((n = ydoc_get(map, "load_interval")) != NULL && ydoc_num(c->name, "load_interval", n,
	    "a number > 0", 0, 1, 1e9, 0, &e->load_interval, c->err) == -1)
		return -1;
	if ((n = ydoc_get(map, "private_fs")) != NULL && ydoc_bool(c->name, "private_fs", n,
	    &e->private_fs, c->err) == -1)
		return -1;
	return 0;
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

/* One entry of a site's nodes: its host range expanded into nodes with merged values. */
static int
sl_node(struct sl_ctx *c, const struct ydoc_node *map, size_t site, const struct sl_vals *sv,
    size_t *cap)
{
	struct sl_vals v = *sv;
	struct gs_emulate emu = { 1.0, 0.0, SL_LOAD_INTERVAL, 0 };
	const struct ydoc_node *hn, *n;
	const char *pattern;
	char why[256], desc[96];
	char **names = NULL;
	int count, i;

	if (ydoc_want(c->name, "nodes", map, YDOC_MAP, c->err) == -1) {
		/* the list itself is right; its entry is not */
		ydoc_describe(map, desc, sizeof desc);
		ydoc_error(c->err, c->name, map,
		    "a node must be a mapping such as {host: n1, cpu_mhz: 2000, cores: 4}, not %s",
		    desc);
		return -1;
	}
	if (ydoc_check_keys(c->name, map, sl_node_keys, c->err) == -1)
		return -1;
	if ((hn = ydoc_get(map, "host")) == NULL) {
		ydoc_error(c->err, c->name, map, "a node needs a 'host' (a name or a range such "
		    "as n[01-16])");
		return -1;
	}
	if (ydoc_str(c->name, "host", hn, &pattern, c->err) == -1)
		return -1;
	if (sl_vals(c, map, &v) == -1)
		return -1;
	if ((n = ydoc_get(map, "emulate")) != NULL && sl_emulate(c, n, &emu) == -1)
		return -1;
	if (!v.has_cpu) {
		ydoc_error(c->err, c->name, map, "node '%.128s' has no 'cpu_mhz': set it on the "
		    "node or in defaults", pattern);
		return -1;
	}
	if (!v.has_cores) {
		ydoc_error(c->err, c->name, map, "node '%.128s' has no 'cores': set it on the "
		    "node or in defaults", pattern);
		return -1;
	}
	if ((count = hostrange_expand(pattern, &names, why, sizeof why)) == -1) {
		ydoc_describe(hn, desc, sizeof desc);
		ydoc_error(c->err, c->name, hn, "bad host range %s: %s", desc, why);
		return -1;
	}
	for (i = 0; i < count; i++) {
		if (!host_name_valid(names[i])) {
			char d2[96];
			struct ydoc_node tmp = *hn;

			tmp.value = names[i];
			tmp.len = strlen(names[i]);
			ydoc_describe(&tmp, d2, sizeof d2);
			ydoc_error(c->err, c->name, hn, "invalid host name %s (letters, digits, "
			    "'.' and '-', not starting with '-', labels of at most 63 characters)", d2);
			hostrange_free(names, count);
			return -1;
		}
	}
	if (c->out->nnodes + (size_t)count > SL_MAX_NODES) {
		ydoc_error(c->err, c->name, hn, "more than %d nodes in one site file", SL_MAX_NODES);
		hostrange_free(names, count);
		return -1;
	}
	for (i = 0; i < count; i++) {
		struct gs_node node;
		size_t idx = c->out->nnodes;
		long prev;

		memset(&node, 0, sizeof node);
		node.host = names[i];
		names[i] = NULL;
		node.site = (int)site;
		node.cpu_mhz = v.cpu_mhz;
		node.cores = v.cores;
		node.slots = v.has_slots ? v.slots : v.cores;
		node.mem_mb = v.has_mem ? v.mem_mb : 0;
		node.arch = v.arch != NULL ? xstrdup(v.arch) : NULL;
		node.ssh.user = v.user != NULL ? xstrdup(v.user) : NULL;
		node.ssh.port = v.port != 0 ? v.port : 22;
		node.ssh.host_key = xstrdup(v.host_key != NULL ? v.host_key : "strict");
		node.ssh.identity = v.identity != NULL ? xstrdup(v.identity) : NULL;
		node.ssh.config = v.config[0] != '\0' ? xstrdup(v.config) : NULL;
		node.monitor = v.monitor != NULL ? sl_monitor_expand(v.monitor, node.host) : NULL;
		node.emulate = emu;
		node.loc.file = c->out->path;
		node.loc.line = hn->line;
		node.loc.col = hn->col;
		sl_push_node(c->out, cap, &node);
		if ((prev = ydoc_strset_add(&c->hosts, node.host, idx)) == -1)
			continue;
		if (c->out->nodes[prev].loc.line == hn->line &&
		    c->out->nodes[prev].loc.col == hn->col)
			ydoc_error(c->err, c->name, hn, "duplicate host '%s' (the range names it "
			    "twice)", node.host);
		else
			ydoc_error(c->err, c->name, hn, "duplicate host '%s' (also at line %d, "
			    "col %d)", node.host, c->out->nodes[prev].loc.line,
			    c->out->nodes[prev].loc.col);
		hostrange_free(names, count);
		return -1;
	}
	hostrange_free(names, count);
	return 0;
}

static int
sl_site(struct sl_ctx *c, const struct ydoc_node *map, const struct sl_vals *top,
    size_t *cap)
{
	struct gs_sites *out = c->out;
	struct gs_site *s;
	struct sl_vals v = *top;
	const struct ydoc_node *n, *link, *nodes;
	const char *name;
	char desc[96];
	size_t i, idx;
	long prev;

	if (map->type != YDOC_MAP) {
		ydoc_describe(map, desc, sizeof desc);
		ydoc_error(c->err, c->name, map, "a site must be a mapping with name, link and "
		    "nodes, not %s", desc);
		return -1;
	}
	if (ydoc_check_keys(c->name, map, sl_site_keys, c->err) == -1)
		return -1;
	if ((n = ydoc_get(map, "name")) == NULL) {
		ydoc_error(c->err, c->name, map, "a site needs a 'name'");
		return -1;
	}
	if (sl_str_word(c, "name", n, "a site name (letters, digits, '.', '_' or '-')",
	    &name) == -1)
		return -1;
	if ((prev = ydoc_strset_find(&c->sites, name)) != -1) {
		ydoc_error(c->err, c->name, n, "duplicate site '%s' (also at line %d, col %d)",
		    name, out->sites[prev].loc.line, out->sites[prev].loc.col);
		return -1;
	}
	idx = out->nsites;
	out->sites = xreallocarray(out->sites, out->nsites + 1, sizeof *out->sites);
	s = &out->sites[out->nsites++];
	memset(s, 0, sizeof *s);
	s->name = xstrdup(name);
	ydoc_strset_add(&c->sites, s->name, idx);
	s->loc.file = out->path;
	s->loc.line = n->line;
	s->loc.col = n->col;

	if ((link = ydoc_get(map, "link")) == NULL) {
		ydoc_error(c->err, c->name, map, "site '%s' has no 'link' (bandwidth_mbps and "
		    "latency_ms to the master)", name);
		return -1;
	}
	if (ydoc_want(c->name, "link", link, YDOC_MAP, c->err) == -1 ||
	    ydoc_check_keys(c->name, link, sl_link_keys, c->err) == -1)
		return -1;
	if ((n = ydoc_get(link, "bandwidth_mbps")) == NULL) {
		ydoc_error(c->err, c->name, link, "the link of site '%s' has no 'bandwidth_mbps'",
		    name);
		return -1;
	}
	if (ydoc_num(c->name, "bandwidth_mbps", n, "a number > 0", 0, 1, 1e12, 0,
	    &s->bandwidth_mbps, c->err) == -1)
		return -1;
	if ((n = ydoc_get(link, "latency_ms")) != NULL && ydoc_num(c->name, "latency_ms", n,
	    "a number >= 0", 0, 0, 1e9, 0, &s->latency_ms, c->err) == -1)
		return -1;

	/* site defaults, then the site's own ssh and monitor over them */
	if ((n = ydoc_get(map, "defaults")) != NULL && sl_defaults(c, n, &v) == -1)
		return -1;
	if ((n = ydoc_get(map, "ssh")) != NULL && sl_ssh(c, n, &v) == -1)
		return -1;
	if ((n = ydoc_get(map, "monitor")) != NULL && sl_monitor(c, n, &v.monitor) == -1)
		return -1;

	if ((nodes = ydoc_get(map, "nodes")) == NULL) {
		ydoc_error(c->err, c->name, map, "site '%s' has no 'nodes'", name);
		return -1;
	}
	if (ydoc_want(c->name, "nodes", nodes, YDOC_SEQ, c->err) == -1)
		return -1;
	if (nodes->nitems == 0) {
		ydoc_error(c->err, c->name, nodes, "site '%s' has an empty list of nodes", name);
		return -1;
	}
	for (i = 0; i < nodes->nitems; i++)
		if (sl_node(c, nodes->items[i], idx, &v, cap) == -1)
			return -1;
	return 0;
}

static int
sl_load(struct sl_ctx *c, const struct ydoc_node *root)
{
	struct gs_sites *out = c->out;
	struct sl_vals top;
	const struct ydoc_node *n, *sites, *master = NULL;
	const char *mname = NULL;
	char desc[96];
	size_t i, cap = 0;

	memset(&top, 0, sizeof top);
	if (ydoc_check_keys(c->name, root, sl_top_keys, c->err) == -1)
		return -1;
	if ((master = ydoc_get(root, "master")) != NULL) {
		if (ydoc_str(c->name, "master", master, &mname, c->err) == -1)
			return -1;
		if (!host_name_valid(mname)) {
			ydoc_describe(master, desc, sizeof desc);
			ydoc_error(c->err, c->name, master, "invalid host name %s for 'master' "
			    "(letters, digits, '.' and '-', not starting with '-')", desc);
			return -1;
		}
	}
	if ((n = ydoc_get(root, "defaults")) != NULL && sl_defaults(c, n, &top) == -1)
		return -1;
	if ((sites = ydoc_get(root, "sites")) == NULL) {
		ydoc_error(c->err, c->name, root, "missing key 'sites' (the list of sites)");
		return -1;
	}
	if (ydoc_want(c->name, "sites", sites, YDOC_SEQ, c->err) == -1)
		return -1;
	if (sites->nitems == 0) {
		ydoc_error(c->err, c->name, sites, "'sites' is an empty list");
		return -1;
	}
	for (i = 0; i < sites->nitems; i++)
		if (sl_site(c, sites->items[i], &top, &cap) == -1)
			return -1;

	if (mname != NULL) {
		if (ydoc_strset_find(&c->hosts, mname) == -1) {
			ydoc_error(c->err, c->name, master, "master '%s' is not a host of any site",
			    mname);
			return -1;
		}
		out->master = xstrdup(mname);
	}
	return 0;
}

int
sites_load_buffer(const char *name, const char *buf, size_t len, struct gs_sites *out,
    struct gs_error *err)
{
	struct ydoc_node *root;
	struct sl_ctx c;
	int rc;

	memset(out, 0, sizeof *out);
	if ((root = ydoc_parse(name, buf, len, err)) == NULL)
		return -1;
	out->path = xstrdup(name);
	c.name = name;
	c.out = out;
	c.err = err;
	ydoc_strset_init(&c.hosts);
	ydoc_strset_init(&c.sites);
	rc = sl_load(&c, root);
	ydoc_strset_free(&c.hosts);
	ydoc_strset_free(&c.sites);
	ydoc_free(root);
	if (rc == -1)
		sites_free(out);
	return rc;
}

int
sites_load_file(const char *path, struct gs_sites *out, struct gs_error *err)
{
	char *file, *buf;
	size_t len;
	int rc;

	memset(out, 0, sizeof *out);
	if ((file = sites_find(path, err)) == NULL)
		return -1;
	if (ydoc_read_file(file, &buf, &len, err) == -1) {
		free(file);
		return -1;
	}
	rc = sites_load_buffer(file, buf, len, out, err);
	free(buf);
	free(file);
	return rc;
}

void
sites_free(struct gs_sites *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nnodes; i++) {
		struct gs_node *n = &s->nodes[i];

		free(n->host);
		free(n->arch);
		free(n->ssh.user);
		free(n->ssh.host_key);
		free(n->ssh.identity);
		free(n->ssh.config);
		free(n->monitor);
		free(n->stale);
		free(n->excluded);
	}
	free(s->nodes);
	for (i = 0; i < s->nsites; i++)
		free(s->sites[i].name);
	free(s->sites);
	free(s->master);
	free(s->path);
	memset(s, 0, sizeof *s);
}
