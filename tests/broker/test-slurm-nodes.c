/*
 * test-slurm-nodes.c — the Slurm inventory (slurm-site.h) on real output of Slurm 22.05,
 * captured in tests/data/slurm/ (`sinfo --json`, then `sinfo --noheader --format=%P`) from
 * four nodes: c1 allocated, c2 mixed, c3 drained ("disk full", in batch and debug), c4
 * down ("power cut", debug only, never answered); batch is the default partition. Also
 * the site file's scheduler: as the inventory reads it, and Slurm's time formats. Run
 * from the top of the tree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tap.h"

#include "broker/errlist.h"
#include "broker/job.h"
#include "broker/site.h"
#include "broker/slurm-nodes.h"

/* The captured output as the login host prints it: the JSON, then the partitions. */
static char *
read_capture(void)
{
	static const char *const files[] = {
		"tests/data/slurm/sinfo-nodes.json", "tests/data/slurm/sinfo-partitions.txt"
	};
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f;
	long n;

	for (i = 0; i < 2; i++) {
		if ((f = fopen(files[i], "r")) == NULL)
			return NULL;
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		rewind(f);
		buf = realloc(buf, len + (size_t)n + 1);
		if (fread(buf + len, 1, (size_t)n, f) != (size_t)n)
			n = 0;
		len += (size_t)n;
		buf[len] = '\0';
		fclose(f);
	}
	return buf;
}

static const struct slurm_node *
find_sn(const struct slurm_node *sn, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(sn[i].name, name) == 0)
			return &sn[i];
	return NULL;
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

static void
test_parse(const char *text)
{
	struct slurm_node *sn;
	const struct slurm_node *c;
	char why[256], *part;
	size_t n;

	if (!is_int(slurm_nodes_parse(text, &sn, &n, &part, why, sizeof why), 0,
	    "captured sinfo output parses"))
		return;
	is_int(n, 4, "four nodes");
	is_str(part, "batch", "the default partition is the starred one");
	if ((c = find_sn(sn, n, "c1")) != NULL) {
		is_str(c->state, "allocated", "c1 allocated");
		is_int(c->cpus, 2, "c1 cpus");
		is_dbl(c->mem_mb, 512, 0, "c1 real_memory");
		is_str(c->features, "fast,ssd", "c1 features");
		is_dbl(c->cpu_load, 0.55, 1e-9, "c1 CPULoad: hundredths of the load");
	} else
		ok(0, "c1 found");
	if ((c = find_sn(sn, n, "c2")) != NULL) {
		is_str(c->state, "mixed", "c2 mixed");
		ok(c->features == NULL, "c2: no features is NULL");
	} else
		ok(0, "c2 found");
	if ((c = find_sn(sn, n, "c3")) != NULL) {
		is_str(c->state, "idle+drain", "c3 idle, with the drain flag");
		is_str(c->reason, "disk full", "c3 reason");
		is_int(c->npartitions, 2, "c3 in two partitions");
	} else
		ok(0, "c3 found");
	if ((c = find_sn(sn, n, "c4")) != NULL) {
		is_str(c->state, "down+not_responding", "c4 down and not responding");
		is_dbl(c->cpu_load, -1, 0, "c4: slurmd never reported a load (NO_VAL)");
		is_str(c->partitions[0], "debug", "c4 in debug");
	} else
		ok(0, "c4 found");
	slurm_nodes_free(sn, n);
	free(part);
}

static void
test_parse_bad(void)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "", "sinfo --json: not JSON" },
		{ "{\"nodes\": [{\"name\": \"a\"", "sinfo --json: not JSON" },
		{ "sinfo: error: Unable to contact slurm controller", "sinfo --json: not JSON" },
		{ "{\"meta\": {}}", "sinfo --json: no list of nodes" },
		{ "{\"nodes\": {}}", "sinfo --json: no list of nodes" },
		{ "{\"nodes\": [{\"cpus\": 2}]}", "a node without a name in sinfo's output" },
		{ "{\"nodes\": [7]}", "a node without a name in sinfo's output" },
		{ "{\"errors\": [{\"description\": \"Unable to query nodes\"}], \"nodes\": []}",
		  "sinfo --json: Unable to query nodes" },
	};
	struct slurm_node *sn;
	char why[256], *part;
	size_t i, n;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		is_int(slurm_nodes_parse(bad[i].text, &sn, &n, &part, why, sizeof why), -1,
		    "bad output %zu refused", i);
		ok(strncmp(why, bad[i].why, strlen(bad[i].why)) == 0, "bad output %zu: %s", i, why);
		ok(sn == NULL && n == 0 && part == NULL, "bad output %zu: nothing returned", i);
	}
	/* an empty cluster and no default partition are not errors */
	if (is_int(slurm_nodes_parse("{\"nodes\": []}\nbatch\n", &sn, &n, &part, why,
	    sizeof why), 0, "no nodes: parsed")) {
		ok(n == 0 && part == NULL, "no nodes, no default partition");
		slurm_nodes_free(sn, n);
	}
}

static const char site_auto[] =
    "defaults: {monitor: \"http://{host}:9100/metrics\", cpu_mhz: 2000, cores: 1}\n"
    "sites:\n"
    "  - name: lab\n"
    "    link: {bandwidth_mbps: 1000}\n"
    "    nodes: [{host: lab1}]\n"
    "  - name: hpc\n"
    "    link: {bandwidth_mbps: 100}\n"
    "    ssh: {user: grid, port: 2222}\n"
    "    scheduler: {type: slurm, login: hpc-login, time: \"1-02:03\"}\n"
    "    nodes: auto\n"
    "  - name: last\n"
    "    link: {bandwidth_mbps: 10}\n"
    "    nodes: [{host: last1}]\n";

/* Load the site file text named name; err gets its first error (an empty one when none). */
static int
load(const char *name, const char *text, struct gs_sites *s, struct gs_error *err)
{
	struct gs_errlist errs;
	int rc;

	memset(err, 0, sizeof *err);
	if ((rc = sites_load_buffer_errs(name, text, strlen(text), s, &errs)) == -1)
		errlist_first(&errs, err);
	return rc;
}

/* nodes: auto on the default partition: c1-c3, between lab1 and last1. */
static void
test_auto(const char *text)
{
	struct gs_sites s;
	struct gs_error err;
	struct slurm_node *sn;
	const struct gs_node *c;
	const struct gs_sched *sc;
	char why[256], *part;
	size_t n;

	if (!is_int(load("auto.yaml", site_auto, &s, &err), 0, "nodes: auto loads (%s)",
	    err.msg))
		return;
	sc = s.sites[1].sched;
	ok(sc != NULL && sc->auto_nodes, "hpc has a scheduler with nodes: auto");
	is_int(s.nnodes, 2, "before the inventory: lab1 and last1 only");
	if (sc == NULL || slurm_nodes_parse(text, &sn, &n, &part, why, sizeof why) == -1) {
		sites_free(&s);
		return;
	}
	is_str(sc->login, "hpc-login", "login");
	is_str(sc->ssh.user, "grid", "the login host's ssh: the site's user");
	is_int(sc->ssh.port, 2222, "the login host's ssh: the site's port");
	is_str(sc->time, "1-02:03", "time");
	ok(sc->partition == NULL, "no partition: Slurm's default");
	is_str(sc->proto.monitor, "http://{host}:9100/metrics", "proto keeps the template");

	is_int(slurm_site_apply(&s, 1, sn, n, part), 3, "three nodes of batch added");
	is_int(s.nnodes, 5, "five nodes in all");
	is_str(s.nodes[0].host, "lab1", "lab1 first");
	is_str(s.nodes[1].host, "c1", "then hpc's, in Slurm's order");
	is_str(s.nodes[4].host, "last1", "the next site's node last");
	ok(find_node(&s, "c4") == NULL, "c4 (debug only) not added");
	if ((c = find_node(&s, "c1")) != NULL) {
		is_int(c->site, 1, "c1's site");
		is_int(c->cores, 2, "c1 cores: Slurm's CPUs");
		is_int(c->slots, 2, "c1 slots: its CPUs");
		is_dbl(c->mem_mb, 512, 0, "c1 mem_mb: real memory");
		is_dbl(c->cpu_mhz, 2000, 0, "c1 cpu_mhz: the defaults'");
		is_str(c->monitor, "http://c1:9100/metrics", "c1 monitor expanded");
		is_str(c->ssh.user, "grid", "c1 ssh user");
		is_int(c->loc.line, sc->loc.line, "c1 loc: the scheduler's");
		ok(c->unavailable == NULL, "c1 available");
		is_int(c->busy, 1, "c1 allocated: busy");
		is_dbl(c->sched_load, 0.55, 1e-9, "c1 sched_load");
		is_str(c->features, "fast,ssd", "c1 features");
	}
	if ((c = find_node(&s, "c2")) != NULL)
		is_int(c->busy, 1, "c2 mixed: busy");
	if ((c = find_node(&s, "c3")) != NULL) {
		is_str(c->unavailable, "drained: disk full", "c3 drained, with Slurm's reason");
		is_int(c->busy, 0, "c3 unavailable, not busy");
	}
	/* read again (a second placement): nothing added twice */
	is_int(slurm_site_apply(&s, 1, sn, n, part), 0, "applied again: no node added");
	is_int(s.nnodes, 5, "still five nodes");
	slurm_nodes_free(sn, n);
	free(part);
	sites_free(&s);
}

static const char site_listed[] =
    "defaults: {cpu_mhz: 2000, cores: 1}\n"
    "sites:\n"
    "  - name: hpc\n"
    "    link: {bandwidth_mbps: 100}\n"
    "    scheduler: {type: slurm, login: hpc-login, partition: debug}\n"
    "    nodes: [{host: \"c[1-5]\"}]\n";

/* listed nodes on a named partition: each marked, none added */
static void
test_listed(const char *text)
{
	struct gs_sites s;
	struct gs_error err;
	struct slurm_node *sn;
	const struct gs_node *c;
	char why[256], *part;
	size_t n;

	if (!is_int(load("listed.yaml", site_listed, &s, &err), 0,
	    "listed Slurm nodes load (%s)", err.msg))
		return;
	if (slurm_nodes_parse(text, &sn, &n, &part, why, sizeof why) == -1) {
		sites_free(&s);
		return;
	}
	is_int(slurm_site_apply(&s, 0, sn, n, part), 0, "listed nodes: none added");
	if ((c = find_node(&s, "c1")) != NULL) {
		is_str(c->unavailable, "not in partition debug", "c1 not in debug");
		is_int(c->busy, 0, "c1 unavailable, so not busy");
	}
	if ((c = find_node(&s, "c3")) != NULL)
		is_str(c->unavailable, "drained: disk full", "c3 drained (in debug too)");
	if ((c = find_node(&s, "c4")) != NULL)
		is_str(c->unavailable, "down: power cut", "c4 down, with Slurm's reason");
	if ((c = find_node(&s, "c5")) != NULL)
		is_str(c->unavailable, "not a node of Slurm on hpc-login", "c5 unknown to Slurm");
	slurm_nodes_free(sn, n);
	free(part);
	sites_free(&s);
}

/* Slurm's time formats, for a job's time_limit and a site's scheduler: {time}. */
static void
test_time(void)
{
	static const struct {
		const char *s;
		long long secs;
	} good[] = {
		{ "30", 1800 }, { "30:15", 1815 }, { "01:00:00", 3600 }, { "48:00:00", 172800 },
		{ "2-0", 172800 }, { "1-02", 93600 }, { "1-02:03", 93780 },
		{ "1-02:03:04", 93784 }, { "0:1", 1 },
	};
	static const char *const bad[] = {
		"", "0", "00:00:00", "1:60", "1:2:60", "1:60:00", "2-24", "1-", "-1", "1-2-3",
		"1:2:3:4", "1h", " 30", "30 ", "1.5", "123456789", "1::2", ":30", "UNLIMITED",
	};
	long long secs;
	size_t i;

	for (i = 0; i < sizeof good / sizeof good[0]; i++)
		if (is_int(slurm_time_parse(good[i].s, &secs), 0, "time '%s' taken", good[i].s))
			is_int(secs, good[i].secs, "time '%s' in seconds", good[i].s);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		is_int(slurm_time_parse(bad[i], &secs), -1, "time '%s' refused", bad[i]);
}

int
main(void)
{
	char *text = read_capture();

	if (!ok(text != NULL, "tests/data/slurm/ read"))
		return tap_done();
	test_parse(text);
	test_parse_bad();
	test_auto(text);
	test_listed(text);
	test_time();
	free(text);
	return tap_done();
}
