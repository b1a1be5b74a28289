/*
 * test-exp-params.c — every knob of a run as an experiment parameter: a site file's
 * emulate: and link: keys (experiment/exp-site.c) into groups of points, an order of runs
 * that keeps each group together, and a site file written with a point's values (every
 * site's, or those a mapping names) that the site loader reads back; simulate's options
 * (exp-sim.c); repeat: per mode (exp-repeat.c); and each bad value located in the
 * experiment file, with the closest name where one is near.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tap.h"

#include "broker/errlist.h"
#include "broker/site.h"
#include "broker/yaml-doc.h"
#include "experiment/exp.h"

static char dir[PATH_MAX];

static void
put(const char *name, const char *text)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

/* Load text as DIR/exp.yaml; err gets the first error only. */
static int
load(const char *text, struct exp *e, struct gs_error *err)
{
	struct gs_errlist errs;
	char path[PATH_MAX + 64];
	int rc;

	put("exp.yaml", text);
	snprintf(path, sizeof path, "%s/exp.yaml", dir);
	memset(err, 0, sizeof *err);
	if ((rc = exp_load_errs(path, e, &errs)) == -1)
		errlist_first(&errs, err);
	return rc;
}

/* text's first error contains want. */
static void
refused(const char *text, const char *want, const char *what)
{
	struct gs_error err;
	struct exp e;

	ok(load(text, &e, &err) == -1 && strstr(err.msg, want) != NULL, "%s (%s)", what,
	    err.msg);
}

static void
test_site_groups(void)
{
	struct gs_error err;
	struct ydoc_node *o;
	struct exp e;
	size_t order[8], i, point, last = 0, changes = 0;
	uint64_t seeds[8];
	int rep;

	ok(load("job: job.yaml\ntestbed: two.yaml\nmatrix:\n  load: [0, 2]\n"
	    "  scheme: [gss, static]\nrepeat: 2\nseed: 5\n", &e, &err) == 0,
	    "load as a parameter of a testbed experiment (%s)", err.msg);
	ok(e.params[0].target == EXP_SITE_KEY, "load is a key of the site file");
	o = exp_overlay(&e, 1, 1, 0);
	ok(ydoc_get(o, "load") == NULL && ydoc_get(ydoc_get(o, "runtime"), "scheme") != NULL,
	    "load is not laid over the job, scheme is");
	ydoc_free(o);
	ok(e.site_group[0] == 0 && e.site_group[1] == 0 && e.site_group[2] == 2 &&
	    e.site_group[3] == 2, "points with the same load form a group");
	exp_run_order(&e, 5, order, seeds);
	for (i = 0; i < 8; i++) {
		exp_run_point(&e, order[i], &point, &rep);
		if (i > 0 && e.site_group[point] != last)
			changes++;
		last = e.site_group[point];
	}
	is_int(changes, 1, "a random order keeps each group's runs together");
	exp_free(&e);
}

/* The site file written for point p of text, read back by the site loader. */
static int
written(const char *text, size_t p, struct gs_sites *s)
{
	struct gs_errlist errs;
	struct gs_error err;
	char path[PATH_MAX + 64], why[512];
	struct exp e;
	int rc;

	if (load(text, &e, &err) != 0) {
		ok(0, "loads (%s)", err.msg);
		return -1;
	}
	rc = exp_site_write(&e, p, e.sites, dir, "out.yaml", why, sizeof why);
	ok(rc == 0, "point %zu's site file written (%s)", p + 1, rc == 0 ? "" : why);
	exp_free(&e);
	snprintf(path, sizeof path, "%s/out.yaml", dir);
	rc = sites_load_file_errs(path, s, &errs);
	ok(rc == 0, "and read back by the site loader");
	return rc;
}

static void
test_site_write(void)
{
	struct gs_sites s;

	if (written("job: job.yaml\ntestbed: two.yaml\nmatrix:\n  load: [0, 2.5]\n"
	    "  latency_ms: [7]\n  mode: [testbed]\n", 1, &s) == 0) {
		ok(s.nodes[0].emulate.load == 2.5 && s.nodes[1].emulate.load == 2.5 &&
		    s.nodes[2].emulate.load == 2.5, "a value: every node's emulate.load");
		ok(s.nodes[0].emulate.load_interval == 3, "the node's other emulate keys kept");
		ok(s.sites[0].latency_ms == 7 && s.sites[1].latency_ms == 7,
		    "latency_ms: every site's link");
		ok(s.sites[0].bandwidth_mbps == 100 && s.sites[1].bandwidth_mbps == 10,
		    "the links' other figures kept");
		sites_free(&s);
	}
	if (written("job: job.yaml\ntestbed: two.yaml\nmatrix:\n"
	    "  cpu_scale: [{slow: 0.25}]\n", 0, &s) == 0) {
		ok(s.nodes[0].emulate.cpu_scale == 1 && s.nodes[1].emulate.cpu_scale == 0.25 &&
		    s.nodes[2].emulate.cpu_scale == 0.25, "a mapping: the sites it names alone");
		sites_free(&s);
	}
}

static void
test_site_errors(void)
{
	refused("job: job.yaml\ntestbed: two.yaml\nmatrix:\n  load: [1, -1]\n",
	    "exp.yaml:4:13: 'load' must be a number >= 0", "a negative load, at the value");
	refused("job: job.yaml\ntestbed: two.yaml\nmatrix:\n  cpu_scale: [0]\n",
	    "exp.yaml:4:15: 'cpu_scale' must be a number in (0, 1]", "cpu_scale 0");
	refused("job: job.yaml\ntestbed: two.yaml\nmatrix:\n  latency_ms: [[1]]\n",
	    "exp.yaml:4:16: 'latency_ms' must be a number, or a mapping of site names",
	    "a list as a value");
	refused("job: job.yaml\ntestbed: two.yaml\nmatrix:\n  load: [{slwo: 1}]\n",
	    "exp.yaml:4:11: 'slwo' is not a site of the site file (did you mean 'slow'?)",
	    "a site the file lacks, with the closest");
	refused("job: job.yaml\nmatrix:\n  bandwidth_mbps: [10]\n  mode: [simulate]\n",
	    "exp.yaml:3:3: 'bandwidth_mbps' is a key of the site file: give the experiment "
	    "'testbed:' or 'sites:'", "a site parameter without a site file");
	refused("job: job.yaml\nsites: two.yaml\nmatrix:\n  load: [1]\n",
	    "exp.yaml:4:3: 'load' acts on a testbed or in simulation, and this experiment has "
	    "neither", "a site parameter no point can use");
}

static void
test_sim(void)
{
	struct gs_error err;
	struct exp e;
	char *s;

	ok(load("job: job.yaml\nmatrix:\n  mode: [run, simulate]\n  host_mhz: [500, 4000]\n"
	    "  links: [site]\n  cfg: [smpi/iprobe:1e-5, [a:1, b:2]]\n", &e, &err) == 0,
	    "simulate's options as parameters (%s)", err.msg);
	ok(e.params[1].target == EXP_SIM_KEY && e.params[3].target == EXP_SIM_KEY,
	    "host_mhz and cfg are simulate's");
	s = exp_point_settings(&e, 0, EXP_SIM_KEY);
	is_str(s, "host_mhz=500 links=site cfg=smpi/iprobe:1e-5", "the point's simulate options");
	free(s);
	exp_free(&e);
	refused("job: job.yaml\nmatrix:\n  mode: [simulate]\n  host_mhz: [0]\n",
	    "exp.yaml:4:14: 'host_mhz' must be a number from 1 to 1000000", "host_mhz 0");
	refused("job: job.yaml\nmatrix:\n  mode: [simulate]\n  links: [nod]\n",
	    "exp.yaml:4:11: 'links' must be node or site, not 'nod' (did you mean 'node'?)",
	    "a misspelt links");
	refused("job: job.yaml\nmatrix:\n  mode: [simulate]\n  cfg: [iprobe]\n",
	    "exp.yaml:4:9: 'cfg': 'iprobe' is not NAME:VALUE", "a cfg without a value");
	refused("job: job.yaml\nmatrix:\n  first_contact_ms: [0, 20]\n",
	    "exp.yaml:3:3: 'first_contact_ms' is an option of simulate, and no point is "
	    "simulated", "a simulate option with no simulated point");
}

static void
test_repeat(void)
{
	struct gs_error err;
	struct exp e;
	size_t point;
	int rep;
	char *s;

	ok(load("job: job.yaml\nmatrix:\n  mode: [run, simulate]\n  scheme: [gss, pwd]\n"
	    "repeat: {run: 2, simulate: 20}\n", &e, &err) == 0, "repeat per mode (%s)", err.msg);
	is_int(e.nruns, 44, "2 + 2 real runs, 20 + 20 simulated ones");
	is_int(exp_point_repeat(&e, 1), 2, "a real point's");
	is_int(exp_point_repeat(&e, 2), 20, "a simulated point's");
	exp_run_point(&e, 3, &point, &rep);
	ok(point == 1 && rep == 2, "run 4 is point 2's second");
	exp_run_point(&e, 4, &point, &rep);
	ok(point == 2 && rep == 1, "run 5 is point 3's first");
	exp_run_point(&e, 43, &point, &rep);
	ok(point == 3 && rep == 20, "the last run is point 4's 20th");
	s = exp_repeat_label(&e);
	is_str(s, "run 2, simulate 20", "said per mode");
	free(s);
	exp_free(&e);
	refused("job: job.yaml\nmatrix:\n  mode: [run, simulate]\nrepeat: {run: 2, simulat: 3}\n",
	    "exp.yaml:4:18: 'repeat': 'simulat' is not a mode (run, testbed or simulate) (did "
	    "you mean 'simulate'?)", "a misspelt mode");
	refused("job: job.yaml\nmatrix:\n  mode: [run, simulate]\nrepeat: {run: 2}\n",
	    "exp.yaml:4:9: 'repeat' gives no count for mode 'simulate'", "a mode left out");
	refused("job: job.yaml\nmatrix:\n  scheme: [gss]\nrepeat: {simulate: 20}\n",
	    "exp.yaml:4:10: 'repeat': no point is of mode 'simulate' (without a mode parameter, "
	    "every point is of mode run)", "a mode no point has");
	refused("job: job.yaml\nmatrix:\n  mode: [run, simulate]\nrepeat: {run: 2, simulate: 0}\n",
	    "exp.yaml:4:28: 'simulate' must be a whole number from 1 to 10000", "a count of 0");
}

int
main(void)
{
	char tmpl[] = "/tmp/test-exp-params.XXXXXX";

	if (mkdtemp(tmpl) == NULL)
		return 1;
	snprintf(dir, sizeof dir, "%s", tmpl);
	put("job.yaml", "program: /bin/true\nranks: 2\nruntime: {scheme: gss}\n");
	put("two.yaml", "sites:\n  - name: fast\n    link: {bandwidth_mbps: 100, latency_ms: 0.1}\n"
	    "    nodes:\n      - {host: f1, cpu_mhz: 1000, cores: 1, emulate: {load_interval: 3}}\n"
	    "  - name: slow\n    link: {bandwidth_mbps: 10, latency_ms: 0.5}\n    nodes:\n"
	    "      - {host: \"s[1-2]\", cpu_mhz: 500, cores: 1}\n");
	test_site_groups();
	test_site_write();
	test_site_errors();
	test_sim();
	test_repeat();
	{
		char cmd[PATH_MAX + 16];

		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		if (system(cmd) != 0)
			return 1;
	}
	return tap_done();
}
