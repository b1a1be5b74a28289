/*
 * cmd-simulate.c — gridsubmit simulate: a job run on SimGrid's SMPI instead of real nodes
 * (doc/simulate.md).
 *
 * The job is loaded, ranked and placed exactly as `run` would (the same rank map, PF and
 * PR, from the site file's values: no live metrics), then its program's SMPI build runs
 * under smpirun on a platform made of the placement (launchers/smpi.c). It gets a job
 * directory like any job (state.json, events.jsonl in simulated seconds, stdout), so that
 * status, top --replay and experiments read it unchanged. It ends with the simulated
 * makespan and the efficiency against the divisible-load bound of the run's own workers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonout.h"
#include "common/suggest.h"
#include "common/xmalloc.h"
#include "common/text.h"
#include "experiment/exp-metrics.h"
#include "submit/cmd.h"
#include "submit/json-fail.h"
#include "submit/jobrun.h"
#include "submit/opt-job.h"

static const struct option simulate_longopts[] = {
	{ "sites", required_argument, NULL, 's' },
	{ "scheme", required_argument, NULL, 'S' },
	{ "ranks", required_argument, NULL, 'n' },
	{ "time", required_argument, NULL, 'T' },
	{ "host-mhz", required_argument, NULL, 'H' },
	{ "links", required_argument, NULL, 'L' },
	{ "seed", required_argument, NULL, 'e' },
	{ "first-contact-ms", required_argument, NULL, 'F' },
	{ "cfg", required_argument, NULL, 'c' },
	{ "json", no_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ NULL, 0, NULL, 0 }
};

extern const struct cmd_entry cmd_simulate_entry;

/* A --cfg NAME:VALUE (sim_cfg_check), or exit 2 naming what is wrong with it. */
static void
simulate_cfg_check(const struct cmd_entry *cmd, const char *cfg)
{
	char why[512];

	if (sim_cfg_check(cfg, why, sizeof why) != 0)
		cmd_usage_error(cmd, "--cfg: %s", why);
}

struct simulate_args {
	struct jobrun_args run;
	struct sim_opts sim;
	int json;
};

/* " (did you mean 'site'?)" for a misspelt --links word, else "". Into buf. */
static const char *
sim_links_guess(const char *word, char *buf, size_t len)
{
	static const char *const words[] = { "node", "site", NULL };
	const char *g = suggest_closest(word, words);

	buf[0] = '\0';
	if (g != NULL)
		snprintf(buf, len, " (did you mean '%s'?)", g);
	return buf;
}

static void
simulate_parse(int argc, char **argv, struct simulate_args *a)
{
	const struct cmd_entry *cmd = &cmd_simulate_entry;
	char guess[32];
	int c;

	memset(a, 0, sizeof *a);
	jobrun_sim_args(&a->run, &a->sim);
	while ((c = cmd_getopt(argc, argv, cmd)) != -1) {
		switch (c) {
		case 's':
			a->run.sites = optarg;
			break;
		case 'S':
			a->run.scheme = opt_scheme(cmd, optarg);
			break;
		case 'n':
			a->run.ranks = (int)cmd_parse_int(cmd, "--ranks", optarg, 1, 100000);
			break;
		case 'T':
			a->run.time = opt_time(cmd, optarg);
			break;
		case 'H':
			a->sim.host_mhz = cmd_parse_double(cmd, "--host-mhz", optarg, 1, 1e6);
			break;
		case 'L':
			if (strcmp(optarg, "node") == 0)
				a->sim.links = SIM_LINKS_NODE;
			else if (strcmp(optarg, "site") == 0)
				a->sim.links = SIM_LINKS_SITE;
			else
				cmd_usage_error(cmd, "--links: '%s' is neither 'node' nor 'site'%s",
				    optarg, sim_links_guess(optarg, guess, sizeof guess));
			break;
		case 'e':
			a->sim.seed = (uint64_t)cmd_parse_int(cmd, "--seed", optarg, 0,
			    (long long)1 << 53);
			break;
		case 'F':
			a->sim.first_contact_ms = cmd_parse_double(cmd, "--first-contact-ms",
			    optarg, 0, 1e6);
			break;
		case 'c':
			simulate_cfg_check(cmd, optarg);
			a->sim.cfg = xreallocarray(a->sim.cfg, a->sim.ncfg + 1, sizeof *a->sim.cfg);
			a->sim.cfg[a->sim.ncfg++] = optarg;
			break;
		case 'j':
			a->json = 1;
			break;
		case 'q':
			a->run.quiet = 1;
			break;
		}
	}
	if (optind != argc - 1)
		cmd_usage_error(cmd, optind >= argc ? "missing JOB.yaml" : "one job file at a time");
	a->run.job = argv[optind];
}

/*
 * The bound behind the efficiency (doc/experiments.md, "The bound"): T_LB, its two
 * terms, the work in seconds of the fastest node, where the speeds came from, and
 * whether a fitted port cost was left out for exceeding the makespan.
 */
static json_t *
simulate_bound_json(const struct exp_bound *b)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:s, s:b}", "t_lb", jsonout_num(b->t_lb),
	    "work", jsonout_num(b->work), "units", jsonout_num(b->units), "compute",
	    jsonout_num(b->compute), "port", jsonout_num(b->port), "speeds",
	    b->speeds != NULL ? b->speeds : "none", "port_dropped", b->port_dropped);
}

/* The simulation's result: one line on stderr, or the --json document on stdout. */
static void
simulate_result(const struct jobrun *jr, const struct simulate_args *a, int code)
{
	char n[48];
	const struct job_state *st = &jr->st;
	double m[EXP_NBUILTIN];
	struct exp_bound b;

	exp_job_metrics(st->id, m, &b);
	if (a->json) {
		jsonout_print(json_fail_doc(json_pack("{s:o, s:s, s:s, s:o, s:i, s:s, s:o, s:o, "
		    "s:o, s:o, s:o, s:s, s:i}", "id", jsonout_id(st->id), "state",
		    job_phase_name(st->phase), "name", st->name, "reason", jsonout_str(st->reason),
		    "ranks", st->ranks, "scheme", st->scheme, "makespan",
		    jsonout_num(m[EXP_M_MAKESPAN]), "efficiency", jsonout_num(m[EXP_M_EFFICIENCY]),
		    "bound", simulate_bound_json(&b),
		    "host_mhz", jsonout_num(sim_host_mhz(&jr->sites, &a->sim)),
		    "wall_seconds", jsonout_num(st->ended - st->submitted), "dir", st->dir,
		    "exit_code", code), code));
		return;
	}
	if (code != EXIT_OK || a->run.quiet)
		return;
	fprintf(stderr, "gridsubmit: simulated makespan %.6g s on %s, efficiency %.3f "
	    "against the divisible-load bound (this host counted as %.6g MHz; the simulation "
	    "took %.2f s)\n", m[EXP_M_MAKESPAN], text_plural(n, sizeof n, st->ranks, "rank",
	    NULL), m[EXP_M_EFFICIENCY],
	    sim_host_mhz(&jr->sites, &a->sim), st->ended - st->submitted);
	if (b.port_dropped)
		fprintf(stderr, "gridsubmit: the bound leaves out the port cost fitted to the "
		    "chunks: it gave more than the makespan\n");
}

static int
cmd_simulate_exec(int argc, char **argv)
{
	char n[48];
	struct simulate_args a;
	struct jobrun jr;
	int code;

	simulate_parse(argc, argv, &a);
	if ((code = jobrun_prepare(&a.run, &jr)) == EXIT_OK) {
		jr.quiet = a.run.quiet || a.json;
		if (!jr.quiet)
			fprintf(stderr, "gridsubmit: job %s (%s): %s, scheme %s, simulated "
			    "on SimGrid\n", jr.st.id, jr.st.name,
			    text_plural(n, sizeof n, jr.st.ranks, "rank", NULL), jr.st.scheme);
		/* Ctrl-C: 130 with --json too, as run (jobrun-cancel.c) */
		code = a.json ? jobrun_cancel_exit(&jr.st, jobrun_execute(&jr, 0)) :
		    jobrun_follow(&jr, 0);
		simulate_result(&jr, &a, code);
	}
	jobrun_free(&jr);
	free(a.sim.cfg);
	return code;
}

const struct cmd_entry cmd_simulate_entry = {
	"simulate", "JOB.yaml [--sites F] [--scheme S] [--ranks N] [--time T] [--host-mhz M] "
	"[--links node|site] [--seed N] [--first-contact-ms T] [--cfg NAME:VALUE] [--json] "
	"[-q]",
	"run a job on SimGrid's SMPI, on a platform made of the site file",
	"  -s, --sites F         site file, or NAME of a user or installed one (default: as\n"
	"                        for run)\n"
	"      --scheme S        load-balancing scheme, overriding runtime.scheme in\n"
	"                        the job file (else the configuration file's scheme, else\n"
	"                        gss)\n"
	"  -n, --ranks N         MPI processes, the master included, overriding the job file\n"
	"      --time T          a limit in simulated seconds, in Slurm's formats (MM:SS,\n"
	"                        HH:MM:SS, ...), overriding the job file's time_limit\n"
	"      --host-mhz M      the clock this host counts as (default: the fastest\n"
	"                        cpu_mhz of the site file, which then runs at the speed\n"
	"                        of this host)\n"
	"      --links node|site each node its own link at its site's figures (node,\n"
	"                        the default, as the testbed), or one link per site that\n"
	"                        its nodes share (site)\n"
	"      --seed N          of the background load's arrivals (default 1: on each\n"
	"                        node the arrivals the testbed's generator has)\n"
	"      --first-contact-ms T  CPU time of this host a rank spends on its first message\n"
	"                        (default 14, measured here with MPICH and UCX)\n"
	"      --cfg NAME:VALUE  a SimGrid setting passed to smpirun after gridsubmit's own\n"
	"      --json            the result as one JSON document on stdout (gridsubmit-json(5))\n"
	"  -q, --quiet           none of gridsubmit's own lines but errors\n"
	"The program runs as its SMPI build, smpi/NAME beside it (make builds the examples').\n"
	"stdout is the program's output (without --json); the simulated makespan and the\n"
	"efficiency against the divisible-load bound go to stderr. The time limit (--time,\n"
	"else time_limit:) counts simulated seconds: libgrt's master ends the run there\n"
	"(state timeout, exit 8).\n",
	cmd_simulate_exec, "s:n:q", simulate_longopts, NULL, CMD_OPERAND_YAML
};
