/*
 * test-launch-argv.c — the mpiexec command of a placed job on this host (launch-int.h):
 * what hydra is told, word by word, from a plan made by the real loaders, ranker and
 * placer; and the job files written beside it (hostfile, rankmap).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker/broker.h"
#include "broker/errlist.h"
#include "common/xmalloc.h"
#include "gen/gs-config.h"
#include "launch/launch-int.h"
#include "launch/launch.h"
#include "tests/tap.h"

static char dir[] = "/tmp/gs-test-argv.XXXXXX";

/* Index of the first word equal to w at or after from, or -1. */
static int
find(char **argv, int from, const char *w)
{
	int i;

	for (i = from; argv[i] != NULL; i++)
		if (strcmp(argv[i], w) == 0)
			return i;
	return -1;
}

/* 1 when argv has "-genv KEY VALUE". */
static int
has_genv(char **argv, const char *key, const char *value)
{
	int i;

	for (i = 0; argv[i] != NULL && argv[i + 1] != NULL && argv[i + 2] != NULL; i++)
		if (strcmp(argv[i], "-genv") == 0 && strcmp(argv[i + 1], key) == 0 &&
		    strcmp(argv[i + 2], value) == 0)
			return 1;
	return 0;
}

static void
write_job(const char *path)
{
	FILE *f = fopen(path, "w");

	fprintf(f, "name: argv-test\n"
	    "program: /bin/echo\n"
	    "args: [\"--size\", \"two words\", \"it's\"]\n"
	    "ranks: 3\n"
	    "oversubscribe: true\n"
	    "runtime: {scheme: css, k: 7}\n"
	    "env: {OMP_NUM_THREADS: \"1\", GREETING: \"a b;c\"}\n");
	fclose(f);
}

static char *
in_dir(const char *name)
{
	char *p;

	xasprintf(&p, "%s/%s", dir, name);
	return p;
}

static void
test_local_argv(struct launch_plan *pl)
{
	char why[1024] = "", **argv, **env = NULL, *p;
	int i, n;

	argv = launch_argv(pl->sites, pl->job, pl->place, pl->st, NULL, &env, why, sizeof why);
	ok(argv != NULL, "a local plan gives an argument vector (%s)", why);
	if (argv == NULL)
		return;
	ok(env == NULL, "and nothing to add to mpiexec's own environment");
	is_str(argv[0], GS_MPIEXEC, "argv[0] is the configured mpiexec");
	ok(find(argv, 1, "-disable-auto-cleanup") > 0, "a rank's exit does not end the job");
	i = find(argv, 1, "-launcher");
	ok(i > 0 && strcmp(argv[i + 1], "fork") == 0, "every rank here: hydra's fork launcher");
	ok(find(argv, 1, "-genvlist") < 0 && find(argv, 1, "-launcher-exec") < 0,
	    "no ssh launcher, no environment filter on this host");
	ok(!has_genv(argv, "UCX_TLS", "self,tcp"), "no UCX_TLS override on this host");
	ok(has_genv(argv, "UCX_NET_DEVICES", "lo"),
	    "every rank here: UCX's network devices are loopback alone");
	i = find(argv, 1, "-f");
	p = in_dir("hostfile");
	ok(i > 0 && strcmp(argv[i + 1], p) == 0, "-f names the job's hostfile");
	free(p);
	ok(has_genv(argv, "GRT_SCHEME", "css"), "runtime keys become GRT_ variables: scheme");
	ok(has_genv(argv, "GRT_K", "7"), "runtime keys become GRT_ variables: k, upper case");
	p = in_dir("events.jsonl");
	ok(has_genv(argv, "GRT_EVENTS", p), "GRT_EVENTS is the job's events.jsonl");
	free(p);
	ok(has_genv(argv, "GRT_JOB", "42"), "GRT_JOB is the job id");
	p = in_dir("journal");
	ok(has_genv(argv, "GRT_JOURNAL", p), "GRT_JOURNAL is the job's journal");
	free(p);
	ok(has_genv(argv, "GRT_T0", "1795500000.123000"),
	    "GRT_T0 is the first launch's time, to the millisecond");
	ok(has_genv(argv, "GRT_FINALIZE", "skip"), "ranks may skip MPI_Finalize");
	ok(has_genv(argv, "GREETING", "a b;c"), "a job env value stays one word, unquoted");
	ok(has_genv(argv, "OMP_NUM_THREADS", "1"), "every job env key is passed");
	ok(find(argv, 1, ":") < 0, "one block of ranks: one job directory");
	i = find(argv, 1, "-n");
	ok(i > 0 && strcmp(argv[i + 1], "3") == 0, "-n 3: every rank in the block");
	ok(i > 0 && strcmp(argv[i + 2], "-wdir") == 0 && strcmp(argv[i + 3], dir) == 0,
	    "the ranks run in the job directory");
	ok(i > 0 && strstr(argv[i + 4], "gridsubmit-rank") != NULL,
	    "each rank is wrapped by gridsubmit-rank");
	p = in_dir("master.status");
	ok(i > 0 && strcmp(argv[i + 5], "--status") == 0 && strcmp(argv[i + 6], p) == 0,
	    "the wrapper writes rank 0's end to DIR/master.status");
	free(p);
	p = in_dir("rank-ends");
	ok(i > 0 && strcmp(argv[i + 7], "--ends") == 0 && strcmp(argv[i + 8], p) == 0,
	    "every rank in the job directory appends its end to DIR/rank-ends");
	free(p);
	ok(find(argv, 1, "--gate") < 0, "no gate without a hold");
	i = find(argv, 1, "--");
	ok(i > 0 && strcmp(argv[i + 1], "/bin/echo") == 0, "the program after --");
	for (n = 0; i > 0 && argv[i + 2 + n] != NULL; n++)
		;
	is_int(n, 3, "the job's arguments follow, one word each");
	ok(i > 0 && n == 3 && strcmp(argv[i + 3], "two words") == 0 &&
	    strcmp(argv[i + 4], "it's") == 0, "arguments are passed as they are, unquoted");
	launch_argv_free(argv);
}

/* a job file's UCX_NET_DEVICES is the job's choice: passed, never replaced by loopback */
static void
test_job_devices(struct launch_plan *pl)
{
	char key[] = "UCX_NET_DEVICES", value[] = "eth0";
	struct gs_kv mine[] = { { key, value } };
	struct gs_job job = *pl->job;
	char why[1024] = "", **argv, **env = NULL;
	int i, n = 0;

	job.env = mine;
	job.nenv = 1;
	argv = launch_argv(pl->sites, &job, pl->place, pl->st, NULL, &env, why, sizeof why);
	ok(argv != NULL && has_genv(argv, "UCX_NET_DEVICES", "eth0"),
	    "a job's own UCX_NET_DEVICES is passed (%s)", why);
	for (i = 1; argv != NULL && argv[i] != NULL; i++)
		if (strcmp(argv[i], "UCX_NET_DEVICES") == 0)
			n++;
	is_int(n, 1, "and is the only one");
	launch_argv_free(argv);
}

static void
test_hold(struct launch_plan *pl)
{
	struct launch_hold hold = { "/tmp/some/.gate", NULL, NULL };
	char why[1024] = "", **argv, **env = NULL;
	int i;

	argv = launch_argv(pl->sites, pl->job, pl->place, pl->st, &hold, &env, why, sizeof why);
	i = argv != NULL ? find(argv, 1, "--gate") : -1;
	ok(i > 0 && strcmp(argv[i + 1], hold.gate) == 0 && i < find(argv, 1, "--"),
	    "a held launch: the wrapper waits at the gate before the program");
	launch_argv_free(argv);
}

static void
test_write_command(struct launch_plan *pl)
{
	struct launch l;
	char why[1024] = "", *p, line[256];
	FILE *f;
	int lines = 0;

	memset(&l, 0, sizeof l);
	l.plan = *pl;
	ok(launch_write_command(&l, NULL, why, sizeof why) == 0, "the job's command is written");
	ok(l.argv != NULL && strcmp(l.argv[0], GS_MPIEXEC) == 0, "and kept in the launch");
	is_int(pl->st->ranks, 3, "the state counts the placement's ranks");
	p = in_dir("hostfile");
	f = fopen(p, "r");
	ok(f != NULL, "DIR/hostfile exists");
	while (f != NULL && fgets(line, sizeof line, f) != NULL)
		lines += line[0] != '#' && line[0] != '\n';
	if (f != NULL)
		fclose(f);
	ok(lines >= 1, "the hostfile lists the placement's hosts");
	free(p);
	p = in_dir("rankmap");
	ok(access(p, R_OK) == 0, "DIR/rankmap exists");
	free(p);
	launch_argv_free(l.argv);
}

int
main(void)
{
	struct gs_sites sites;
	struct gs_job job;
	struct gs_ranking ranking;
	struct gs_placement place;
	struct gs_errlist errs;
	struct gs_error err;
	struct job_state st;
	struct launch_plan pl;
	char *jobfile;

	if (mkdtemp(dir) == NULL)
		return 1;
	jobfile = in_dir("job.yaml");
	write_job(jobfile);
	memset(&st, 0, sizeof st);
	snprintf(st.id, sizeof st.id, "42");
	st.dir = dir;
	st.t0 = 1795500000.123;
	if (sites_load_default_errs(&sites, &errs) != 0 ||
	    job_load_file_errs(jobfile, &job, &errs) != 0) {
		errlist_first(&errs, &err);
		printf("not ok - the plan: %s\n", err.msg);
		return 1;
	}
	if (broker_rank(&sites, &job, &ranking, &err) != 0 ||
	    broker_place_job(&sites, &ranking, &job, &place, &err) != 0) {
		printf("not ok - the plan: %s\n", err.msg);
		return 1;
	}
	ok(!broker_placement_remote(&sites, &place),
	    "the embedded default places every rank here");
	pl = (struct launch_plan){ &sites, &job, &ranking, &place, &st, 0, NULL, 0 };
	test_local_argv(&pl);
	test_job_devices(&pl);
	test_hold(&pl);
	test_write_command(&pl);
	broker_placement_free(&place);
	broker_ranking_free(&ranking);
	job_free(&job);
	sites_free(&sites);
	free(jobfile);
	if (fork() == 0)
		execlp("rm", "rm", "-rf", dir, (char *)NULL);
	return tap_done();
}
