/*
 * cmd-sites.c — validate and show site files (gridsubmit-sites(5)).
 *
 *   gridsubmit sites check FILE... [--json] one summary line per file (ok and its
 *                                        totals, or its number of errors); every error
 *                                        of a bad file as file:line:col: message; exit 3
 *                                        if any; --json: one document of them all
 *   gridsubmit sites show [FILE] [--json] the expanded model (every host, defaults merged);
 *                                        without FILE the default site file: the
 *                                        configuration file's sites, else the embedded one
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "broker/errlist.h"
#include "broker/node-values.h"
#include "broker/site.h"
#include "common/jsonout.h"
#include "common/log.h"
#include "common/text.h"
#include "submit/cmd.h"
#include "submit/json-fail.h"
#include "submit/userconf.h"

extern const struct cmd_entry cmd_sites_entry;

static long long
sites_cores(const struct gs_sites *s, long long *slots)
{
	long long cores = 0;
	size_t i;

	*slots = 0;
	for (i = 0; i < s->nnodes; i++) {
		cores += s->nodes[i].cores;
		*slots += s->nodes[i].slots;
	}
	return cores;
}

/* "4 sites, 16 nodes, 32 cores, 32 slots", singular where a count is 1, into dst. */
static char *
sites_totals(const struct gs_sites *s, char *dst, size_t dstsz)
{
	char a[48], b[48], c[48], d[48];
	long long cores, slots;

	cores = sites_cores(s, &slots);
	snprintf(dst, dstsz, "%s, %s, %s, %s",
	    text_plural(a, sizeof a, (long long)s->nsites, "site", NULL),
	    text_plural(b, sizeof b, (long long)s->nnodes, "node", NULL),
	    text_plural(c, sizeof c, cores, "core", NULL),
	    text_plural(d, sizeof d, slots, "slot", NULL));
	return dst;
}

static int
sites_load_arg(const char *file, struct gs_sites *s, struct gs_errlist *errs)
{
	if (file == NULL)
		return sites_load_default_errs(s, errs);
	return sites_load_file_errs(file, s, errs);
}

/*
 * One error of l as {file, line, col, message}: the message is the error's text without
 * the "file:line:col: " its reader put first (line and col 0: not located).
 */
static json_t *
sites_error_json(const struct gs_errlist *l, size_t i)
{
	const struct gs_error *e = errlist_get(l, i);
	const char *msg = e->msg, *file = l->file, *at;
	char where[64];
	size_t flen = strlen(l->file);

	if (e->loc.line > 0)
		snprintf(where, sizeof where, ":%d:%d: ", e->loc.line, e->loc.col);
	else
		snprintf(where, sizeof where, ": ");
	if (strncmp(msg, l->file, flen) == 0 && strncmp(msg + flen, where, strlen(where)) == 0)
		return json_pack("{s:s, s:i, s:i, s:s}", "file", file, "line", e->loc.line,
		    "col", e->loc.col, "message", msg + flen + strlen(where));
	/* located in another file (an overlay's): its name is what comes before where */
	if ((at = strstr(msg, where)) == NULL)
		return json_pack("{s:s, s:i, s:i, s:s}", "file", file, "line", e->loc.line,
		    "col", e->loc.col, "message", msg);
	return json_pack("{s:s%, s:i, s:i, s:s}", "file", msg, (size_t)(at - msg), "line",
	    e->loc.line, "col", e->loc.col, "message", at + strlen(where));
}

/* A file's result for sites check --json: ok with its totals, or its errors. */
static json_t *
sites_check_json(const char *file, const struct gs_sites *s, const struct gs_errlist *errs)
{
	json_t *list;
	long long cores, slots;
	size_t i;

	if (s != NULL) {
		cores = sites_cores(s, &slots);
		return json_pack("{s:s, s:b, s:{s:I, s:I, s:I, s:I}, s:[], s:b}", "file", file,
		    "ok", 1, "totals", "sites", (json_int_t)s->nsites, "nodes",
		    (json_int_t)s->nnodes, "cores", (json_int_t)cores, "slots",
		    (json_int_t)slots, "errors", "too_many_errors", 0);
	}
	list = json_array();
	for (i = 0; i < errs->n; i++)
		json_array_append_new(list, sites_error_json(errs, i));
	return json_pack("{s:s, s:b, s:n, s:o, s:b}", "file", file, "ok", 0, "totals",
	    "errors", list, "too_many_errors", errs->dropped > 0);
}

/*
 * A bad file's errors on stderr, then its summary line among the good files' on stdout
 * ("FILE: 2 errors"; past the cap, "FILE: more than 100 errors"), so that
 * every file given has its line.
 */
static void
sites_check_failed(const char *file, const struct gs_errlist *errs)
{
	char n[48];

	errlist_print(errs, stderr);
	fflush(stderr);
	if (errs->dropped > 0)
		printf("%s: more than %zu errors\n", file, errs->n);
	else
		printf("%s: %s\n", file, text_plural(n, sizeof n, (long long)errs->n, "error", NULL));
}

static int
sites_check(int argc, char **argv, int json)
{
	struct gs_sites s;
	struct gs_errlist errs;
	char line[256];
	json_t *files = json ? json_array() : NULL;
	int i, rc = EXIT_OK;

	for (i = 0; i < argc; i++) {
		if (sites_load_file_errs(argv[i], &s, &errs) == -1) {
			if (json)
				json_array_append_new(files, sites_check_json(argv[i], NULL, &errs));
			else
				sites_check_failed(argv[i], &errs);
			rc = EXIT_INPUT;
			continue;
		}
		if (json)
			json_array_append_new(files, sites_check_json(argv[i], &s, NULL));
		else
			printf("%s: ok, %s\n", argv[i], sites_totals(&s, line, sizeof line));
		sites_free(&s);
	}
	if (json && jsonout_print(json_fail_doc(json_pack("{s:o}", "files", files), rc)) != 0 &&
	    rc == EXIT_OK)
		rc = EXIT_FAILED;
	return rc;
}

static json_t *
sites_json(const struct gs_sites *s)
{
	json_t *doc, *sites, *nodes;
	long long cores, slots;
	size_t i;

	cores = sites_cores(s, &slots);
	sites = json_array();
	for (i = 0; i < s->nsites; i++) {
		const struct gs_site *st = &s->sites[i];

		json_array_append_new(sites, json_pack("{s:s, s:f, s:f, s:i, s:i}",
		    "name", st->name, "bandwidth_mbps", st->bandwidth_mbps,
		    "latency_ms", st->latency_ms, "line", st->loc.line, "col", st->loc.col));
	}
	nodes = json_array();
	for (i = 0; i < s->nnodes; i++) {
		const struct gs_node *n = &s->nodes[i];

		/* ssh.config only when set ("o*") */
		json_array_append_new(nodes, json_pack(
		    "{s:s, s:s, s:f, s:i, s:i, s:f, s:o, s:{s:o, s:i, s:s, s:o, s:o*}, s:o, "
		    "s:{s:f, s:f, s:f, s:b}, s:i, s:i}",
		    "host", n->host, "site", s->sites[n->site].name, "cpu_mhz", n->cpu_mhz,
		    "cores", n->cores, "slots", n->slots, "mem_mb", n->mem_mb,
		    "arch", jsonout_str(n->arch),
		    "ssh", "user", jsonout_str(n->ssh.user), "port", n->ssh.port,
		    "host_key", n->ssh.host_key, "identity", jsonout_str(n->ssh.identity),
		    "config", n->ssh.config != NULL ? json_string(n->ssh.config) : NULL,
		    "monitor", jsonout_str(n->monitor),
		    "emulate", "cpu_scale", n->emulate.cpu_scale, "load", n->emulate.load,
		    "load_interval", n->emulate.load_interval,
		    "private_fs", n->emulate.private_fs,
		    "line", n->loc.line, "col", n->loc.col));
		json_object_set_new(json_array_get(nodes, i), "sources", node_values_json(n));
	}
	doc = json_pack("{s:s, s:o, s:{s:I, s:I, s:I, s:I}, s:o, s:o}",
	    "file", s->path, "master", jsonout_str(s->master),
	    "totals", "sites", (json_int_t)s->nsites, "nodes", (json_int_t)s->nnodes,
	    "cores", (json_int_t)cores, "slots", (json_int_t)slots,
	    "sites", sites, "nodes", nodes);
	if (doc == NULL)
		fatalx("cannot build the json document");
	return doc;
}

/* Under a node whose values are not all the site file's: where each comes from. */
static void
sites_print_sources(const struct gs_node *n)
{
	char cores[1024], mhz[1024], mem[1024];

	if (n->cores_src == GS_SRC_SITE && n->mhz_src == GS_SRC_SITE &&
	    n->mem_src == GS_SRC_SITE)
		return;
	printf("  %-20s cores from %s; cpu_mhz from %s; mem_mb from %s\n", "",
	    node_value_source(n, NODE_VALUE_CORES, cores, sizeof cores),
	    node_value_source(n, NODE_VALUE_MHZ, mhz, sizeof mhz),
	    node_value_source(n, NODE_VALUE_MEM, mem, sizeof mem));
}

static void
sites_print(const struct gs_sites *s)
{
	char line[256];
	size_t i, j;

	printf("file:   %s\nmaster: %s\ntotal:  %s\n", s->path,
	    s->master != NULL ? s->master : "(the submitting host)",
	    sites_totals(s, line, sizeof line));
	for (i = 0; i < s->nsites; i++) {
		const struct gs_site *st = &s->sites[i];

		printf("\nsite %s: link %g Mbit/s, %g ms\n", st->name, st->bandwidth_mbps,
		    st->latency_ms);
		printf("  %-20s %8s %5s %5s %8s %-8s %-22s %s\n", "host", "cpu_mhz", "cores",
		    "slots", "mem_mb", "arch", "ssh", "monitor");
		for (j = 0; j < s->nnodes; j++) {
			const struct gs_node *n = &s->nodes[j];
			char ssh[128];

			if (n->site != (int)i)
				continue;
			snprintf(ssh, sizeof ssh, "%s:%d%s", n->ssh.user != NULL ? n->ssh.user : "-",
			    n->ssh.port,
			    strcmp(n->ssh.host_key, "strict") == 0 ? "" : " accept-new");
			printf("  %-20s %8g %5d %5d %8g %-8s %-22s %s", n->host, n->cpu_mhz,
			    n->cores, n->slots, n->mem_mb, n->arch != NULL ? n->arch : "-", ssh,
			    n->monitor != NULL ? n->monitor : "-");
			if (n->emulate.cpu_scale != 1 || n->emulate.load != 0 ||
			    n->emulate.private_fs)
				printf("  [emulate cpu_scale %g, load %g every %g s%s]",
				    n->emulate.cpu_scale, n->emulate.load,
				    n->emulate.load_interval,
				    n->emulate.private_fs ? ", private_fs" : "");
			printf("\n");
			sites_print_sources(n);
		}
	}
}

static int
sites_show(const char *file, int json)
{
	const struct gs_config *cfg;
	struct gs_sites s;
	struct gs_errlist errs;
	int rc = EXIT_OK;

	/* without FILE what run uses: the configuration file's sites, else the embedded */
	if (file == NULL) {
		if ((cfg = userconf()) == NULL)
			return EXIT_INPUT;
		file = cfg->sites;
	}
	if (sites_load_arg(file, &s, &errs) == -1) {
		errlist_print(&errs, stderr);
		return EXIT_INPUT;
	}
	if (json)
		rc = jsonout_print(sites_json(&s)) == 0 ? EXIT_OK : EXIT_FAILED;
	else
		sites_print(&s);
	sites_free(&s);
	return rc;
}

static const struct option sites_longopts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ NULL, 0, NULL, 0 }
};
static const char *const sites_actions[] = { "check", "show", NULL };

static int
cmd_sites_exec(int argc, char **argv)
{
	const char *action;
	int c, json = 0;

	while ((c = cmd_getopt(argc, argv, &cmd_sites_entry)) != -1) {
		if (c == 'j')
			json = 1;
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		cmd_usage_error(&cmd_sites_entry, "missing action: check or show");
	action = argv[0];
	if (strcmp(action, "check") == 0) {
		if (argc < 2)
			cmd_usage_error(&cmd_sites_entry, "'check' needs at least one FILE");
		return sites_check(argc - 1, argv + 1, json);
	}
	if (strcmp(action, "show") == 0) {
		if (argc > 2)
			cmd_usage_error(&cmd_sites_entry, "'show' takes one FILE");
		return sites_show(argc == 2 ? argv[1] : NULL, json);
	}
	cmd_unknown_action(&cmd_sites_entry, action, "expected check or show");
}

const struct cmd_entry cmd_sites_entry = {
	"sites", "check FILE... [--json] | show [FILE] [--json]",
	"validate site files, or show one expanded (every host, defaults merged)",
	"  check FILE...         validate; one summary line per file, every error as\n"
	"                        file:line:col: message in file order, at most 20 a file\n"
	"                        (exit 3 when a file is invalid)\n"
	"  show [FILE]           the expanded model; without FILE the default:\n"
	"                        the configuration file's sites, else the embedded\n"
	"                        localhost.yaml\n"
	"      --json            one JSON document (gridsubmit-json(5)): for check, each\n"
	"                        file ok with its totals, or its errors (file, line, col,\n"
	"                        message); for show, the model\n",
	cmd_sites_exec, NULL, sites_longopts, sites_actions, CMD_OPERAND_SITES
};
