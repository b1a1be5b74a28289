/*
 * cmd-testbed.c — gridsubmit testbed up|status|down SITES.yaml: an emulated grid on this
 * host (root only; doc/testbed.md). `up` gives every node of the site file a network
 * namespace on a bridge (a free /16 of 10.213-10.244: testbeds of other names are up side by
 * side), sshd with its own hostname and generated keys,
 * tc shaping of its link from its site's link (latency: netem, or a delay line where the
 * kernel has no netem), a CPU quota that emulates the node's relative speed (cpu_mhz ×
 * cores × emulate.cpu_scale on one scale that fits this host; --no-speeds or
 * GRIDSUBMIT_TESTBED_SPEEDS=off: cpu_scale × cores), a background load generator
 * from emulate.load, and a node_exporter reporting that load;
 * it writes an ssh_config, a known_hosts and a derived site file, so that
 * `gridsubmit run JOB --sites $GRIDSUBMIT_HOME/testbed/NAME/sites.yaml` runs on it.
 * `up` also raises the kernel's neighbour tables by what the grid needs (testbed-limits.c).
 * `down` removes all of it and gives those values back (also after a crash halfway
 * through up); `status` says, per
 * node, whether sshd and the exporter answer (exit 0 only when all do).
 */
#include <sys/stat.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker/errlist.h"
#include "broker/site.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "submit/cmd.h"
#include "testbed/testbed.h"

extern const struct cmd_entry cmd_testbed_entry;

static int
tb_name_valid(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 64 || s[0] == '-' || s[0] == '.')
		return 0;
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' || *s == '.'))
			return 0;
	return 1;
}

/* The testbed's name: --name, or the site file's name without its directory and .yaml. */
static char *
tb_name_of(const char *file)
{
	const char *base = strrchr(file, '/');
	char *name, *dot;

	name = xstrdup(base != NULL ? base + 1 : file);
	if ((dot = strrchr(name, '.')) != NULL &&
	    (strcmp(dot, ".yaml") == 0 || strcmp(dot, ".yml") == 0))
		*dot = '\0';
	return name;
}

static void
tb_print_up(const struct testbed *tb)
{
	size_t i;

	printf("gridsubmit testbed: %s up: %zu node%s on bridge %s (%s.0.1/16)%s\n", tb->name,
	    tb->n, tb->n == 1 ? "" : "s", tb->bridge, tb->net,
	    tb->cg_version ? "" : ", no CPU quotas");
	for (i = 0; i < tb->n; i++) {
		const struct tb_node *tn = &tb->nodes[i];
		const struct gs_site *s = &tb->sites.sites[tn->node->site];

		printf("  %-16s %-13s site %s, %g Mbit/s, %g ms%s", tn->node->host,
		    tn->addr, s->name, s->bandwidth_mbps, s->latency_ms,
		    tn->lat_how == TB_LAT_NETEM ? " (netem)" : tn->lat_how == TB_LAT_DELAY ?
		    " (delay line)" : "");
		if (tb->cg_version != 0)
			printf(", cpu quota %.3g", tb_node_cpus(tb, tn));
		else
			printf(", cpu quota none");
		if (tn->node->emulate.load > 0)
			printf(", load %g every %g s", tn->node->emulate.load,
			    tn->node->emulate.load_interval);
		printf("\n");
	}
	printf("  ssh config: %s/ssh_config\n  site file:  %s/sites.yaml\n", tb->dir, tb->dir);
	printf("  run a job:  gridsubmit run JOB.yaml --sites %s/sites.yaml\n", tb->dir);
}

static const struct option testbed_longopts[] = {
	{ "name", required_argument, NULL, 'N' },
	{ "json", no_argument, NULL, 'j' },
	{ "no-speeds", no_argument, NULL, 'S' },
	{ NULL, 0, NULL, 0 }
};
static const char *const testbed_actions[] = { "up", "status", "down", NULL };

static int
cmd_testbed_exec(int argc, char **argv)
{
	struct testbed tb;
	struct gs_errlist errs;
	const char *verb, *file = NULL, *name = NULL, *env;
	int c, json = 0, speeds = 1, rc;

	while ((c = cmd_getopt(argc, argv, &cmd_testbed_entry)) != -1) {
		switch (c) {
		case 'N':
			name = optarg;
			break;
		case 'j':
			json = 1;
			break;
		case 'S':
			speeds = 0;
			break;
		}
	}
	if (optind >= argc)
		cmd_usage_error(&cmd_testbed_entry, "missing up, status or down");
	verb = argv[optind++];
	if (!cmd_is_action(&cmd_testbed_entry, verb))
		cmd_unknown_action(&cmd_testbed_entry, verb, "up, status or down");
	if (optind < argc)
		file = argv[optind++];
	if (optind < argc)
		cmd_usage_error(&cmd_testbed_entry, "one site file at a time");
	if (file == NULL && (name == NULL || strcmp(verb, "up") == 0))
		cmd_usage_error(&cmd_testbed_entry, "missing SITES.yaml");
	if (!speeds && strcmp(verb, "up") != 0)
		cmd_usage_error(&cmd_testbed_entry, "--no-speeds is an option of up");
	/* the option wins over the environment, which scripts and CI set once */
	if (speeds && strcmp(verb, "up") == 0 &&
	    (env = getenv("GRIDSUBMIT_TESTBED_SPEEDS")) != NULL && *env != '\0' &&
	    strcmp(env, "on") != 0) {
		if (strcmp(env, "off") != 0)
			cmd_usage_error(&cmd_testbed_entry, "GRIDSUBMIT_TESTBED_SPEEDS=%s: on or "
			    "off", env);
		speeds = 0;
	}

	memset(&tb, 0, sizeof tb);
	tb.speeds = speeds;
	tb.name = name != NULL ? xstrdup(name) : tb_name_of(file);
	if (!tb_name_valid(tb.name))
		cmd_usage_error(&cmd_testbed_entry, "'%s' cannot name a testbed (letters, digits, "
		    "'.', '_', '-'; use --name)", tb.name);
	if (strcmp(verb, "status") != 0 && geteuid() != 0) {
		fprintf(stderr, "gridsubmit testbed: %s needs root (network namespaces, "
		    "cgroups, sshd); run it as root, e.g. with sudo\n", verb);
		free(tb.name);
		return EXIT_FAILED;
	}
	xasprintf(&tb.dir, "%s/testbed", cmd_home());
	if (access(tb.dir, F_OK) != 0 && mkdir(tb.dir, 0700) == -1)
		fatal("cannot create %s", tb.dir);
	free(tb.dir);
	xasprintf(&tb.dir, "%s/testbed/%s", cmd_home(), tb.name);
	tb_names(&tb, tb.dir);

	if (strcmp(verb, "status") == 0)
		rc = tb_status(tb.dir, json);
	else if (strcmp(verb, "down") == 0)
		rc = tb_down(tb.dir, 1) == 0 ? EXIT_OK : EXIT_FAILED;
	else {
		if (sites_load_file_errs(file, &tb.sites, &errs) != 0) {
			errlist_print(&errs, stderr);
			free(tb.name);
			free(tb.dir);
			return EXIT_INPUT;
		}
		tb.loaded = 1;
		/* a signal halfway through is a crash like any other: down cleans up */
		signal(SIGPIPE, SIG_IGN);
		if ((rc = tb_up(&tb)) == 0) {
			tb_print_up(&tb);
			rc = EXIT_OK;
		} else if (rc == TB_UP_REFUSED) {
			/* refused before anything was built: the file, not this run, is at fault */
			rc = EXIT_INPUT;
		} else {
			if (tb.manifest != NULL) {
				fclose(tb.manifest);
				tb.manifest = NULL;
				fprintf(stderr, "gridsubmit testbed: up failed; removing what was "
				    "built\n");
				tb_down(tb.dir, 0);
			}
			rc = EXIT_FAILED;
		}
	}
	if (tb.manifest != NULL)
		fclose(tb.manifest);
	if (tb.loaded)
		sites_free(&tb.sites);
	for (size_t i = 0; i < tb.n; i++) {
		free(tb.nodes[i].dir);
		free(tb.nodes[i].cgroup);
	}
	free(tb.nodes);
	free(tb.cpus);
	free(tb.cg_root);
	free(tb.name);
	free(tb.dir);
	return rc;
}

const struct cmd_entry cmd_testbed_entry = {
	"testbed", "up|status|down SITES.yaml [--name NAME] [--json] [--no-speeds]",
	"an emulated grid on this host: namespaces, sshd, tc, cgroups (root)",
	"  up SITES.yaml         build it: per node a network namespace on a bridge\n"
	"                        (a free /16 of 10.213-10.244), sshd, link shaping, CPU quota,\n"
	"                        load, node_exporter; writes\n"
	"                        $GRIDSUBMIT_HOME/testbed/NAME/{ssh_config,known_hosts,\n"
	"                        sites.yaml}; the quotas emulate the nodes'\n"
	"                        relative speeds (cpu_mhz x cores x cpu_scale, scaled to fit\n"
	"                        this host; exit 3 when a node's would be below 0.01 CPU);\n"
	"                        raises the kernel's neighbour tables by the grid's need\n"
	"  status SITES.yaml     per node: sshd and exporter up or down (exit 1 if any is\n"
	"                        down), its CPU quota and how its link latency is emulated\n"
	"  down SITES.yaml       remove everything up created (also after a crash), and\n"
	"                        give the kernel's values back\n"
	"      --name NAME       the testbed's name (default: the site file's name)\n"
	"      --json            status as one JSON document\n"
	"      --no-speeds       up: quotas of cpu_scale x cores, whatever the clocks (also\n"
	"                        GRIDSUBMIT_TESTBED_SPEEDS=off)\n",
	cmd_testbed_exec, NULL, testbed_longopts, testbed_actions, CMD_OPERAND_SITES
};
