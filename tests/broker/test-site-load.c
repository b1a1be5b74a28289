/*
 * test-site-load.c — site files: the shipped ones, defaults merging, every field, host
 * ranges, host names, and the corpus of bad inputs in tests/data/bad/ (site-*.yaml), each
 * with its exact message in the .expect file beside it. Run from the top of the tree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/broker/errs-text.h"
#include "tests/tap.h"

#include "broker/errlist.h"
#include "broker/site.h"

/* A file's text without its last newline (an .expect file: one error a line). */
static char *
read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		buf[0] = '\0';
	fclose(f);
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return buf;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const struct gs_node *
find_node(const struct gs_sites *s, const char *host)
{
	size_t i;

	for (i = 0; i < s->nnodes; i++)
		if (strcmp(s->nodes[i].host, host) == 0)
			return &s->nodes[i];
	return NULL;
}

/* The loaders with the first error only in err (errlist_first), as most checks want it. */
static int
load_file(const char *path, struct gs_sites *out, struct gs_error *err)
{
	struct gs_errlist errs;
	int rc;

	if ((rc = sites_load_file_errs(path, out, &errs)) == -1)
		errlist_first(&errs, err);
	return rc;
}

static int
load_buffer(const char *name, const char *buf, size_t len, struct gs_sites *out,
    struct gs_error *err)
{
	struct gs_errlist errs;
	int rc;

	if ((rc = sites_load_buffer_errs(name, buf, len, out, &errs)) == -1)
		errlist_first(&errs, err);
	return rc;
}

static int
load_default(struct gs_sites *out, struct gs_error *err)
{
	struct gs_errlist errs;
	int rc;

	if ((rc = sites_load_default_errs(out, &errs)) == -1)
		errlist_first(&errs, err);
	return rc;
}

static void
test_tiger(void)
{
	struct gs_sites s;
	struct gs_error err;
	const struct gs_node *n;
	int rc;

	rc = load_file("sites/tiger.yaml", &s, &err);
	if (!is_int(rc, 0, "tiger.yaml loads"))
		printf("#   %s\n", err.msg);
	if (rc != 0)
		return;
	is_int(s.nsites, 4, "tiger: 4 sites");
	is_int(s.nnodes, 16, "tiger: 16 nodes");
	is_str(s.master, "delta1", "tiger: master delta1");
	is_str(s.path, "sites/tiger.yaml", "tiger: path");
	is_str(s.sites[0].name, "THU", "tiger: first site THU");
	is_dbl(s.sites[0].bandwidth_mbps, 1000, 0, "tiger: THU 1000 Mbit/s");
	is_dbl(s.sites[1].bandwidth_mbps, 100, 0, "tiger: LZ 100 Mbit/s");
	is_dbl(s.sites[2].bandwidth_mbps, 100, 0, "tiger: HIT 100 Mbit/s");
	is_dbl(s.sites[3].bandwidth_mbps, 1000, 0, "tiger: PU 1000 Mbit/s");
	n = &s.nodes[0];
	is_str(n->host, "delta1", "tiger: node 0 delta1");
	is_dbl(n->cpu_mhz, 3001, 0, "tiger: delta1 3001 MHz");
	is_int(n->cores, 1, "tiger: cores from defaults");
	is_int(n->slots, 1, "tiger: slots default to cores");
	is_dbl(n->mem_mb, 1024, 0, "tiger: delta1 1 GB");
	is_str(n->ssh.user, "grid", "tiger: ssh user from defaults");
	is_int(n->ssh.port, 22, "tiger: ssh port");
	is_str(n->ssh.host_key, "strict", "tiger: host_key default strict");
	is_str(n->monitor, "http://delta1:9100/metrics", "tiger: monitor {host} expanded");
	ok(n->loc.file == s.path, "tiger: loc.file points to the model's path");
	is_int(n->loc.line, 19, "tiger: delta1 defined on line 19");
	is_str(s.nodes[4].host, "lz01", "tiger: lz01 after the deltas");
	is_dbl(s.nodes[4].cpu_mhz, 898, 0, "tiger: LZ clock from the site defaults");
	is_str(s.nodes[4].arch, "i686", "tiger: LZ arch from the site defaults");
	ok((n = find_node(&s, "lz03")) != NULL && n->mem_mb == 384, "tiger: lz03 has 384 MB");
	ok((n = find_node(&s, "hpc09")) != NULL && n->site == 3, "tiger: hpc09 (padded) at PU");
	ok(find_node(&s, "hpc12") != NULL && find_node(&s, "hpc13") == NULL,
	    "tiger: hpc[09-12] ends at hpc12");
	ok((n = find_node(&s, "gridhit0")) != NULL && n->cpu_mhz == 2800 && n->mem_mb == 512,
	    "tiger: gridhit0 2800 MHz 512 MB");
	sites_free(&s);
	ok(s.nodes == NULL && s.nnodes == 0, "sites_free clears the model");
	sites_free(&s);
}

static void
test_shipped(void)
{
	struct gs_sites s;
	struct gs_error err;
	size_t i, vu = 0;

	if (is_int(load_file("sites/lanwlan.yaml", &s, &err), 0, "lanwlan.yaml loads")) {
		is_int(s.nnodes, 6, "lanwlan: 6 computers (table 1)");
		is_int(s.nsites, 3, "lanwlan: 3 kinds of link");
		is_dbl(s.sites[0].bandwidth_mbps, 100, 0, "lanwlan: fast ethernet 100");
		is_dbl(s.sites[1].bandwidth_mbps, 10, 0, "lanwlan: ethernet 10");
		is_dbl(s.sites[2].bandwidth_mbps, 2, 0, "lanwlan: 802.11 2");
		is_dbl(find_node(&s, "pc1")->cpu_mhz, 1000, 0, "lanwlan: the PIII 1 GHz");
		is_str(s.master, "pc0", "lanwlan: master pc0");
		sites_free(&s);
	} else
		printf("#   %s\n", err.msg);
	if (is_int(load_file("sites/das.yaml", &s, &err), 0, "das.yaml loads")) {
		is_int(s.nnodes, 136, "das: 136 nodes");
		is_int(s.nsites, 4, "das: four clusters");
		for (i = 0; i < s.nnodes; i++)
			vu += s.nodes[i].site == 0;
		is_int(vu, 64, "das: 64 at the VU");
		is_str(s.nodes[135].host, "leiden24", "das: last node leiden24");
		sites_free(&s);
	} else
		printf("#   %s\n", err.msg);
	if (is_int(load_default(&s, &err), 0, "embedded default loads")) {
		is_str(s.path, "<embedded>/sites/localhost.yaml", "default: its name");
		is_int(s.nnodes, 1, "default: one node");
		is_str(s.nodes[0].host, "localhost", "default: localhost");
		/* this host's own values: tests/broker/test-hosts.sh compares them with /proc */
		ok(s.nodes[0].cores >= 1, "default: cores read from this host");
		is_int(s.nodes[0].cores_src, GS_SRC_HOST, "default: cores from this host");
		is_int(s.nodes[0].slots, s.nodes[0].cores, "default: slots are the cores");
		ok(s.nodes[0].mem_mb > 0, "default: memory read from this host");
		is_int(s.nodes[0].mem_src, GS_SRC_HOST, "default: mem_mb from this host");
		is_int(s.nodes[0].mhz_src, GS_SRC_HOST, "default: cpu_mhz from this host");
		ok(s.master == NULL, "default: no master");
		ok(s.nodes[0].monitor == NULL, "default: no monitor");
		ok(s.nodes[0].ssh.user == NULL, "default: no ssh user");
		sites_free(&s);
	} else
		printf("#   %s\n", err.msg);
}

/* Every key, and the merge order node > site (ssh, monitor, defaults) > top defaults. */
static void
test_merge(void)
{
	static const char y[] =
	    "master: b2\n"
	    "defaults:\n"
	    "  ssh: {user: top, port: 2222, identity: /keys/top, host_key: accept-new}\n"
	    "  monitor: \"https://{host}.mon:9100/metrics?h={host}\"\n"
	    "  cpu_mhz: 1000\n"
	    "  cores: 2\n"
	    "  mem_mb: 512\n"
	    "  arch: x86_64\n"
	    "sites:\n"
	    "  - name: A\n"
	    "    link: {bandwidth_mbps: 10.5, latency_ms: 3}\n"
	    "    nodes:\n"
	    "      - {host: a1}\n"
	    "  - name: B\n"
	    "    link: {bandwidth_mbps: 100}\n"
	    "    ssh: {user: siteb}\n"
	    "    monitor: http://mon/{host}\n"
	    "    defaults: {cores: 4, slots: 8, ssh: {port: 2200, user: ignored}}\n"
	    "    nodes:\n"
	    "      - host: b[1-2]\n"
	    "        cpu_mhz: 2500.5\n"
	    "        cores: 16\n"
	    "        mem_mb: 0\n"
	    "        arch: aarch64\n"
	    "        ssh: {port: 22, host_key: strict, identity: k}\n"
	    "        emulate: {cpu_scale: 0.25, load: 1.5, load_interval: 30, private_fs: true}\n"
	    "      - {host: b3, slots: 1, monitor: \"http://x/\"}\n";
	struct gs_sites s;
	struct gs_error err;
	const struct gs_node *n;

	if (!is_int(load_buffer("merge.yaml", y, sizeof y - 1, &s, &err), 0,
	    "merge: loads")) {
		printf("#   %s\n", err.msg);
		return;
	}
	is_int(s.nnodes, 4, "merge: a1 b1 b2 b3");
	is_str(s.master, "b2", "merge: master");
	n = &s.nodes[0];
	is_str(n->host, "a1", "merge: a1");
	is_dbl(n->cpu_mhz, 1000, 0, "merge: a1 cpu from top defaults");
	is_int(n->cores, 2, "merge: a1 cores from top defaults");
	is_int(n->slots, 2, "merge: a1 slots = cores");
	is_dbl(n->mem_mb, 512, 0, "merge: a1 mem from top");
	is_str(n->arch, "x86_64", "merge: a1 arch from top");
	is_str(n->ssh.user, "top", "merge: a1 user from top");
	is_int(n->ssh.port, 2222, "merge: a1 port from top");
	is_str(n->ssh.identity, "/keys/top", "merge: a1 identity from top");
	is_str(n->ssh.host_key, "accept-new", "merge: a1 host_key from top");
	is_str(n->monitor, "https://a1.mon:9100/metrics?h=a1", "merge: every {host} expanded");
	is_dbl(n->emulate.cpu_scale, 1, 0, "merge: no emulation: cpu_scale 1");
	is_dbl(n->emulate.load, 0, 0, "merge: no emulation: load 0");
	is_int(n->emulate.private_fs, 0, "merge: no emulation: shared file system");
	is_dbl(s.sites[0].bandwidth_mbps, 10.5, 0, "merge: bandwidth 10.5");
	is_dbl(s.sites[0].latency_ms, 3, 0, "merge: latency 3");
	is_dbl(s.sites[1].latency_ms, 0, 0, "merge: latency default 0");
	is_int(s.sites[1].loc.line, 14, "merge: site B's line");

	n = &s.nodes[1];
	is_str(n->host, "b1", "merge: b1");
	is_int(n->site, 1, "merge: b1 in site B");
	is_dbl(n->cpu_mhz, 2500.5, 0, "merge: b1 own cpu");
	is_int(n->cores, 16, "merge: b1 own cores");
	is_int(n->slots, 8, "merge: b1 slots from site defaults (not its cores)");
	is_dbl(n->mem_mb, 0, 0, "merge: b1 mem 0");
	is_str(n->arch, "aarch64", "merge: b1 arch");
	is_str(n->ssh.user, "siteb", "merge: site ssh over site defaults");
	is_int(n->ssh.port, 22, "merge: node port over site defaults");
	is_str(n->ssh.host_key, "strict", "merge: node host_key");
	is_str(n->ssh.identity, "k", "merge: node identity");
	is_str(n->monitor, "http://mon/b1", "merge: site monitor");
	is_dbl(n->emulate.cpu_scale, 0.25, 0, "merge: cpu_scale");
	is_dbl(n->emulate.load, 1.5, 0, "merge: load");
	is_dbl(n->emulate.load_interval, 30, 0, "merge: load_interval");
	is_int(n->emulate.private_fs, 1, "merge: private_fs");
	is_int(n->loc.line, 20, "merge: b1's line");
	is_int(n->loc.col, 15, "merge: b1's column (the host value)");
	is_str(s.nodes[2].host, "b2", "merge: b2");
	is_dbl(s.nodes[2].emulate.load, 1.5, 0, "merge: b2 shares the range's emulate");

	n = &s.nodes[3];
	is_int(n->cores, 4, "merge: b3 cores from site defaults");
	is_int(n->slots, 1, "merge: b3 own slots");
	is_dbl(n->cpu_mhz, 1000, 0, "merge: b3 cpu from top");
	is_int(n->ssh.port, 2200, "merge: b3 port from site defaults");
	is_str(n->monitor, "http://x/", "merge: b3 own monitor");
	sites_free(&s);
}

static void
test_hostrange(void)
{
	static const struct {
		const char *pattern;
		int count;
		const char *first, *last;
	} good[] = {
		{ "lz0[1-4]", 4, "lz01", "lz04" },
		{ "n[001-128]", 128, "n001", "n128" },
		{ "n[01-16]", 16, "n01", "n16" },
		{ "n[8-11]", 4, "n8", "n11" },
		{ "a[1,3,5-7]b", 5, "a1b", "a7b" },
		{ "r[1-2]n[01-03].site", 6, "r1n01.site", "r2n03.site" },
		{ "plain.example.org", 1, "plain.example.org", "plain.example.org" },
		{ "x[7]", 1, "x7", "x7" },
		{ "n[1-100000]", 100000, "n1", "n100000" },
	};
	static const struct {
		const char *pattern, *why;
	} bad[] = {
		{ "", "empty host name" },
		{ "n[]", "empty brackets '[]'" },
		{ "n[1-4", "'[' without ']'" },
		{ "n1]", "']' without '['" },
		{ "n[a-b]", "bad range '[a-b]' (expected numbers such as [1-4] or [1,3,5-7])" },
		{ "n[1-2-3]", "bad range '[1-2-3]' (expected numbers such as [1-4] or [1,3,5-7])" },
		{ "n[1,]", "bad range '[1,]' (expected numbers such as [1-4] or [1,3,5-7])" },
		{ "n[9-1]", "range 9-1 goes down" },
		{ "n[1-100001]", "expands to more than 100000 names" },
		{ "n[1-1000][1-1000]", "expands to more than 100000 names" },
		{ "n[1-9999999999]", "bad range '[1-9999999999]' (expected numbers such as [1-4] "
		    "or [1,3,5-7])" },
		{ NULL, "names longer than 253 characters" },	/* a 252-byte prefix */
	};
	char longp[300];
	char **names, why[256];
	size_t i;
	int n;
	double t0;

	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		n = hostrange_expand(good[i].pattern, &names, why, sizeof why);
		if (!is_int(n, good[i].count, "hostrange %s: %d names", good[i].pattern,
		    good[i].count))
			continue;
		is_str(names[0], good[i].first, "hostrange %s: first", good[i].pattern);
		is_str(names[n - 1], good[i].last, "hostrange %s: last", good[i].pattern);
		hostrange_free(names, n);
	}
	n = hostrange_expand("a[1,3,5-7]b", &names, why, sizeof why);
	if (n == 5) {
		is_str(names[1], "a3b", "hostrange list: second a3b");
		is_str(names[3], "a6b", "hostrange list: fourth a6b");
		hostrange_free(names, n);
	}
	n = hostrange_expand("r[1-2]n[1-2]", &names, why, sizeof why);
	if (is_int(n, 4, "hostrange groups multiply")) {
		is_str(names[1], "r1n2", "hostrange: the last group varies fastest");
		is_str(names[2], "r2n1", "hostrange: then the first");
		hostrange_free(names, n);
	}
	memset(longp, 'a', 252);
	strcpy(longp + 252, "[1-99]");
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *p = bad[i].pattern != NULL ? bad[i].pattern : longp;

		names = (char **)1;
		why[0] = '\0';
		t0 = now();
		n = hostrange_expand(p, &names, why, sizeof why);
		is_int(n, -1, "hostrange '%.20s' rejected", p);
		is_str(why, bad[i].why, "hostrange '%.20s': reason", p);
		ok(names == NULL, "hostrange '%.20s': no array", p);
		ok(now() - t0 < 0.5, "hostrange '%.20s': rejected fast", p);
	}
	longp[243] = '\0';
	strcat(longp, "[1-99]");
	n = hostrange_expand(longp, &names, why, sizeof why);
	if (is_int(n, 99, "hostrange: 253-byte names are fine")) {
		is_int(strlen(names[98]), 245, "hostrange: the longest name");
		hostrange_free(names, n);
	}
}

static void
test_host_names(void)
{
	char long_label[70], long_name[300];

	memset(long_label, 'a', 63);
	long_label[63] = '\0';
	ok(remote_host_valid("delta1"), "host name delta1");
	ok(remote_host_valid("node-1.example.org"), "host name with dots and dashes");
	ok(remote_host_valid("10.0.0.1"), "host name: an IPv4 address");
	ok(remote_host_valid(long_label), "host name: a 63-byte label");
	long_label[63] = 'a';
	long_label[64] = '\0';
	ok(!remote_host_valid(long_label), "host name: a 64-byte label is refused");
	memset(long_name, 0, sizeof long_name);
	while (strlen(long_name) < 250)
		strcat(long_name, "abcdefg.");
	strcat(long_name, "abc");
	ok(!remote_host_valid(long_name), "host name: over 253 bytes is refused");
	ok(!remote_host_valid(""), "host name: empty");
	ok(!remote_host_valid("-oProxyCommand=x"), "host name: leading dash");
	ok(!remote_host_valid("n1;echo INJECTED"), "host name: shell characters");
	ok(!remote_host_valid("n1 n2"), "host name: space");
	ok(!remote_host_valid("a..b"), "host name: empty label");
	ok(!remote_host_valid("user@host"), "host name: '@'");
	ok(!remote_host_valid("n$(id)"), "host name: '$('");
	ok(!remote_host_valid("h\xc3\xa9"), "host name: non-ASCII");
}

/* The corpus: each tests/data/bad/site-*.yaml and its exact messages, every one. */
static void
test_bad_corpus(void)
{
	static const char *const files[] = {
		"site-alias", "site-bad-monitor", "site-bad-port", "site-bad-user",
		"site-bandwidth-inf", "site-billion-laughs", "site-binary-nul",
		"site-cores-fraction", "site-dup-host", "site-dup-host-range", "site-dup-key",
		"site-dup-site", "site-empty", "site-emulate-private", "site-emulate-scale",
		"site-host-key",
		"site-hostile-dash", "site-hostile-host", "site-hostile-label",
		"site-invalid-utf8", "site-latin1", "site-master-unknown", "site-no-cpu", "site-no-values-remote",
		"site-no-link", "site-no-sites", "site-node-list", "site-overlong-utf8",
		"site-port-zero", "site-range-down", "site-range-huge", "site-range-open",
		"site-six-mistakes", "site-tab", "site-tag", "site-top-list", "site-truncated",
		"site-two-documents", "site-unknown-key", "site-unknown-top",
		"site-wrong-type", "site-wrong-type-number",
	};
	struct gs_sites s;
	struct gs_errlist errs;
	struct gs_error err;
	char path[256], expect[256], *want, *got;
	size_t i;
	int rc;

	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(path, sizeof path, "tests/data/bad/%s.yaml", files[i]);
		snprintf(expect, sizeof expect, "tests/data/bad/%s.expect", files[i]);
		if ((want = read_text(expect)) == NULL) {
			ok(0, "%s: cannot read %s", files[i], expect);
			continue;
		}
		rc = sites_load_file_errs(path, &s, &errs);
		is_int(rc, -1, "%s rejected", files[i]);
		if (rc == 0)
			sites_free(&s);
		got = errs_text(&errs);
		is_str(got, want, "%s: messages", files[i]);
		ok(s.nodes == NULL && s.path == NULL, "%s: nothing left allocated", files[i]);
		/* what a caller that says one error says: the first of them in the file */
		memset(&err, 0, sizeof err);
		errlist_first(&errs, &err);
		ok(strncmp(want, err.msg, strlen(err.msg)) == 0 && err.msg[0] != '\0' &&
		    strchr("\n", want[strlen(err.msg)]) != NULL, "%s: the first error", files[i]);
		free(got);
		free(want);
	}
}

/* Load text named gen.yaml; errs gets every error. */
static int
load_all(const char *text, struct gs_errlist *errs)
{
	struct gs_sites s;
	int rc = sites_load_buffer_errs("gen.yaml", text, strlen(text), &s, errs);

	if (rc == 0)
		sites_free(&s);
	return rc;
}

/* Every error of a file, each once, in order; the cap; what stops the reading. */
static void
test_all_errors(void)
{
	struct gs_errlist errs;
	char *buf, *got, want[4096];
	size_t o, w, i;

	/* 25 nodes with a wrong cores each: the first 20, then one line */
	buf = malloc(64 * 32 + 256);
	o = (size_t)sprintf(buf, "sites:\n  - name: s\n    link: {bandwidth_mbps: 1}\n"
	    "    nodes:\n");
	w = 0;
	for (i = 1; i <= 25; i++) {
		o += (size_t)sprintf(buf + o, "      - {host: n%zu, cpu_mhz: 1, cores: x}\n", i);
		if (i <= GS_ERRLIST_MAX)
			w += (size_t)snprintf(want + w, sizeof want - w, "gen.yaml:%zu:%d: 'cores' "
			    "must be a whole number >= 1, not 'x'\n", i + 4, i < 10 ? 39 : 40);
	}
	snprintf(want + w, sizeof want - w, "gen.yaml: too many errors, stopping");
	is_int(load_all(buf, &errs), -1, "25 errors: rejected");
	got = errs_text(&errs);
	is_str(got, want, "25 errors: the first 20 in file order, then 'too many errors'");
	free(got);
	free(buf);

	/* a YAML error stops the reading: the unknown keys before it are not reached */
	is_int(load_all("sitez: []\nfoo: 1\nbar:\n\t- x\n", &errs), -1, "syntax: rejected");
	is_int(errs.n, 1, "syntax: one error only");
	ok(errs.n == 1 && strstr(errlist_get(&errs, 0)->msg, "gen.yaml:4:1: found character") ==
	    errlist_get(&errs, 0)->msg, "syntax: the tab, located (%s)", errs.n ?
	    errlist_get(&errs, 0)->msg : "");
	is_int(load_all("sites: [{name: a, link: {bandwidth_mbps: 1}, nodes: []}]\n"
	    "sites: []\nfoo: 1\n", &errs), -1, "duplicate key: rejected");
	is_int(errs.n, 1, "duplicate key: one error (the reader's), not the unknown key after");

	/* a misspelt key is one error, not a second one for the key it misses */
	is_int(load_all("sites:\n  - name: s\n    lnk: {bandwidth_mbps: 1}\n    nodes: "
	    "[{host: a, cpu_mhz: 1, cores: 1}]\n", &errs), -1, "misspelt link: rejected");
	got = errs_text(&errs);
	is_str(got, "gen.yaml:3:5: unknown key 'lnk' (did you mean 'link'?)",
	    "misspelt link: no 'has no link' as well");
	free(got);
	is_int(load_all("defaults: {cpu_mz: 1, cores: 1}\nsites:\n  - name: s\n    link: "
	    "{bandwidth_mbps: 1}\n    nodes: [{host: a}, {host: b}]\n", &errs), -1,
	    "misspelt default: rejected");
	is_int(errs.n, 1, "misspelt default: one error, not one a node");

	/* hosts that cannot be read: no "master is not a host" that may be wrong */
	is_int(load_all("master: lz05\nsites:\n  - name: s\n    link: {bandwidth_mbps: 1}\n"
	    "    nodes: [{host: \"lz0[1-5\", cpu_mhz: 1, cores: 1}]\n", &errs), -1,
	    "unread range: rejected");
	got = errs_text(&errs);
	is_str(got, "gen.yaml:5:20: bad host range 'lz0[1-5': '[' without ']'",
	    "unread range: its error only");
	free(got);
	/* and with every host read, the master that is none of them */
	is_int(load_all("master: lz09\nsites:\n  - name: s\n    link: {bandwidth_mbps: 1}\n"
	    "    nodes: [{host: \"lz0[1-5]\", cpu_mhz: 1, cores: two}]\n", &errs), -1,
	    "master and a value: rejected");
	got = errs_text(&errs);
	is_str(got, "gen.yaml:1:9: master 'lz09' is not a host of any site\n"
	    "gen.yaml:5:51: 'cores' must be a whole number >= 1, not 'two'",
	    "master and a value: both, in file order though found the other way");
	free(got);
}

static void
expect_error(const char *what, const char *buf, size_t len, const char *want, double maxs)
{
	struct gs_sites s;
	struct gs_error err;
	double t0 = now();
	int rc;

	memset(&err, 0, sizeof err);
	rc = load_buffer("gen.yaml", buf, len, &s, &err);
	is_int(rc, -1, "%s: rejected", what);
	if (rc == 0)
		sites_free(&s);
	is_str(err.msg, want, "%s: message", what);
	if (maxs > 0)
		ok(now() - t0 < maxs, "%s: rejected in under %g s", what, maxs);
}

/* Inputs made here rather than stored: very deep, very large, very many keys. */
static void
test_generated(void)
{
	struct gs_sites s;
	struct gs_error err;
	size_t n, i, o;
	char *buf, path[] = "/tmp/gs-test-big.XXXXXX";
	FILE *f;
	int fd;

	/* 100,000 nested flow lists: refused at level 65, at once */
	n = 100000;
	buf = malloc(n * 2 + 16);
	memcpy(buf, "sites: ", 7);
	memset(buf + 7, '[', n);
	memset(buf + 7 + n, ']', n);
	expect_error("depth 100000 (flow)", buf, 7 + 2 * n,
	    "gen.yaml:1:71: nesting deeper than 64 levels", 0.5);
	free(buf);

	/* block mappings 100 deep */
	buf = malloc(100 * 110 + 64);
	o = 0;
	for (i = 0; i < 100; i++) {
		memset(buf + o, ' ', i);
		o += i;
		o += (size_t)sprintf(buf + o, "k%zu:\n", i);
	}
	memset(buf + o, ' ', 100);
	o += 100;
	o += (size_t)sprintf(buf + o, "x\n");
	expect_error("depth 100 (block)", buf, o, "gen.yaml:65:65: nesting deeper than 64 levels",
	    0.5);
	free(buf);

	/* exactly 64 levels are fine as YAML (the site loader then refuses the keys) */
	n = 63;
	buf = malloc(n * 2 + 16);
	memcpy(buf, "sites: ", 7);
	memset(buf + 7, '[', n);
	memset(buf + 7 + n, ']', n);
	expect_error("depth 64", buf, 7 + 2 * n,
	    "gen.yaml:1:9: a site must be a mapping with name, link and nodes, not a list", 0);
	free(buf);

	/* over 1 MiB, from memory and from a file (refused before reading it all) */
	n = 1024 * 1024 + 1;
	buf = malloc(n);
	memset(buf, '#', n);
	buf[n - 1] = '\n';
	expect_error("1 MiB + 1 in memory", buf, n,
	    "gen.yaml: larger than 1 MiB (1048577 bytes): not a site or job file", 0.5);
	fd = mkstemp(path);
	f = fdopen(fd, "w");
	fwrite(buf, 1, n, f);
	fclose(f);
	memset(&err, 0, sizeof err);
	is_int(load_file(path, &s, &err), -1, "1 MiB + 1 file: rejected");
	ok(strstr(err.msg, ": larger than 1 MiB (1048577 bytes): not a site or job file") != NULL,
	    "1 MiB + 1 file: message");
	unlink(path);
	free(buf);

	/* a large mapping whose duplicate key comes late (checked after the mapping ends) */
	buf = malloc(200 * 16 + 64);
	o = 0;
	o += (size_t)sprintf(buf + o, "sites: []\ndefaults:\n");
	for (i = 0; i < 150; i++)
		o += (size_t)sprintf(buf + o, "  k%zu: 1\n", i);
	o += (size_t)sprintf(buf + o, "  k75: 2\n  k76: 2\n");
	expect_error("duplicate key in a large mapping", buf, o,
	    "gen.yaml:153:3: duplicate key 'k75' (first at line 78, col 3)", 0);
	free(buf);

	/* many nodes, one duplicate at the end: found through the hash set */
	buf = malloc(5000 * 48 + 256);
	o = (size_t)sprintf(buf, "defaults: {cpu_mhz: 1000, cores: 1}\nsites:\n"
	    "  - name: big\n    link: {bandwidth_mbps: 1}\n    nodes:\n");
	for (i = 0; i < 5000; i++)
		o += (size_t)sprintf(buf + o, "      - {host: h%zu}\n", i);
	o += (size_t)sprintf(buf + o, "      - {host: h1234}\n");
	expect_error("5000 nodes and a duplicate", buf, o,
	    "gen.yaml:5006:16: duplicate host 'h1234' (also at line 1240, col 16)", 2.0);
	/* and without it, all load */
	memset(&err, 0, sizeof err);
	o -= strlen("      - {host: h1234}\n");
	if (is_int(load_buffer("gen.yaml", buf, o, &s, &err), 0, "5000 nodes load")) {
		is_int(s.nnodes, 5000, "5000 nodes: count");
		sites_free(&s);
	}
	free(buf);

	/* more than 100,000 nodes in all, though each range is under the cap */
	buf = malloc(512);
	o = (size_t)sprintf(buf, "defaults: {cpu_mhz: 1, cores: 1}\nsites:\n"
	    "  - name: big\n    link: {bandwidth_mbps: 1}\n    nodes:\n"
	    "      - {host: \"a[1-60000]\"}\n      - {host: \"b[1-60000]\"}\n");
	expect_error("120,000 nodes", buf, o,
	    "gen.yaml:7:16: more than 100000 nodes in one site file", 2.0);
	free(buf);

	/* an empty buffer */
	expect_error("empty buffer", "", 0, "gen.yaml:1:1: empty file: expected a mapping of keys",
	    0);
	/* a NUL byte in the middle of an otherwise good buffer */
	expect_error("NUL inside", "sites:\0 []\n", 11,
	    "gen.yaml:1:7: binary data (a NUL byte): the file must be UTF-8 text", 0);
	/* UTF-16 with a byte order mark */
	expect_error("UTF-16", "\xff\xfes\0i\0", 6,
	    "gen.yaml:1:1: invalid UTF-8 (byte 0xff): the file must be UTF-8 text", 0);
	/* a surrogate half encoded in UTF-8 */
	expect_error("surrogate", "a: \"\xed\xa0\x80\"\n", 9,
	    "gen.yaml:1:5: invalid UTF-8 (byte 0xed): the file must be UTF-8 text", 0);
	/* a cut-off sequence at the very end */
	expect_error("cut UTF-8", "a: \xe2\x82", 5,
	    "gen.yaml:1:4: invalid UTF-8 (byte 0xe2): the file must be UTF-8 text", 0);
}

/* Every prefix of a good file: a clean error or a model, never a crash or a leak. */
static void
test_truncations(void)
{
	struct gs_sites s;
	struct gs_error err;
	FILE *f = fopen("sites/tiger.yaml", "r");
	char buf[8192];
	size_t len, i, good = 0, bad = 0, located = 0;

	if (f == NULL) {
		ok(0, "open sites/tiger.yaml");
		return;
	}
	len = fread(buf, 1, sizeof buf, f);
	fclose(f);
	for (i = 0; i < len; i++) {
		if (load_buffer("cut.yaml", buf, i, &s, &err) == 0) {
			good++;
			sites_free(&s);
			continue;
		}
		bad++;
		if (strncmp(err.msg, "cut.yaml:", 9) == 0 && err.msg[9] >= '1' &&
		    err.msg[9] <= '9')
			located++;
	}
	ok(bad > len / 2, "truncations: most prefixes of tiger.yaml are refused (%zu)", bad);
	is_int(located, bad, "truncations: every error has file:line:col");
	ok(good >= 1, "truncations: some prefixes are whole files (%zu)", good);
}

int
main(void)
{
	test_tiger();
	test_shipped();
	test_merge();
	test_hostrange();
	test_host_names();
	test_bad_corpus();
	test_all_errors();
	test_generated();
	test_truncations();
	return tap_done();
}
