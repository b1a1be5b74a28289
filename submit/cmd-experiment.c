/*
 * cmd-experiment.c — gridsubmit experiment: a whole study from one file (doc/experiments.md).
 *
 * `experiment EXP.yaml` checks the file (every point's job included, and the SMPI build of
 * every simulated point's program), opens or creates the store
 * $GRIDSUBMIT_HOME/experiments/NAME/results.db, runs every run that is not done as a job
 * (exp-run.c: launched, or simulated for mode: simulate), and writes the reports
 * (results.csv, results.json, summary.md, plots). Running it again resumes; a changed file
 * is refused unless --new.
 * `experiment report|list|show` read what is stored (cmd-experiment-show.c).
 */
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker/errlist.h"
#include "broker/job.h"
#include "common/clock.h"
#include "common/file.h"
#include "common/log.h"
#include "common/suggest.h"
#include "common/text.h"
#include "common/xmalloc.h"
#include "experiment/exp-claim.h"
#include "experiment/exp-metrics.h"
#include "experiment/exp-report.h"
#include "experiment/exp-store.h"
#include "launch/launch.h"
#include "simulate/simulate.h"
#include "submit/cmd-experiment.h"
#include "submit/cmd.h"
#include "submit/exp-run.h"
#include "submit/userconf.h"

extern const struct cmd_entry cmd_experiment_entry;

struct ce_opts {
	const char *file;
	int dry_run, fresh, quiet;
	char **only;		/* --only PARAM=VALUE, as given */
	size_t nonly;
};

/* What the progress line needs: this session's runs and its clock. */
struct ce_progress {
	int tty;
	size_t total, done_before, ran;
	size_t left;		/* runs not done that --only left out */
	double t0;
	int shown;		/* a progress line is on the terminal */
};

char *
cmd_experiment_dir(const char *name)
{
	char *dir;

	xasprintf(&dir, "%s/experiments/%s", cmd_home_find(), name);
	return dir;
}

static void
ce_mkdir(const char *path)
{
	if (mkdir(path, 0700) == -1 && errno != EEXIST)
		fatal("cannot create %s", path);
}

/* --new: the old results move to NAME.N, the first free N; the directory starts empty. */
static void
ce_set_aside(const char *dir)
{
	char *to = NULL;
	int n;

	for (n = 1; n < 100000; n++) {
		free(to);
		xasprintf(&to, "%s.%d", dir, n);
		if (access(to, F_OK) == -1 && errno == ENOENT)
			break;
	}
	if (rename(dir, to) == -1)
		fatal("cannot move %s to %s", dir, to);
	fprintf(stderr, "gridsubmit experiment: the earlier results are kept in %s\n", to);
	free(to);
	ce_mkdir(dir);
}

/* One experiment of a name at a time: a lock on DIR/lock, held until we exit; its fd. */
static int
ce_lock(const char *dir, const char *name)
{
	char *path;
	int fd;

	xasprintf(&path, "%s/lock", dir);
	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) == -1)
		fatal("%s", path);
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		log_warnx("experiment %s is running in another process; wait for it or stop it",
		    name);
		exit(EXIT_REFUSED);
	}
	free(path);
	return fd;
}

static uint64_t
ce_new_seed(void)
{
	uint64_t s;

	if (getrandom(&s, sizeof s, 0) != (ssize_t)sizeof s)
		s = (uint64_t)(clock_wall() * 1e6) ^ (uint64_t)getpid();
	return s >> 11;		/* at most 2^53: exact in JSON and in the file's seed: */
}

/* The store of e in dir: created with its runs, or checked against the file. */
static struct exp_store *
ce_store(const struct exp *e, const char *dir, uint64_t *seed)
{
	struct exp_store *s;
	char *path, hash[17], why[1024], *buf;
	size_t len;
	int rc;

	xasprintf(&path, "%s/results.db", dir);
	if ((s = exp_store_open(path, why, sizeof why)) == NULL)
		fatalx("%s", why);
	free(path);
	if ((rc = exp_store_meta(s, hash, seed, NULL, why, sizeof why)) < 0)
		fatalx("%s", why);
	if (rc == 1 && strcmp(hash, e->hash) != 0) {
		log_warnx("experiment %s: %s has changed since its runs began (its results are "
		    "in %s); run with --new to start over (the old results are kept as %s.N), "
		    "or give the experiment another name", e->name, e->path, dir, e->name);
		exit(EXIT_REFUSED);
	}
	if (rc == 1)
		return s;
	*seed = e->have_seed ? e->seed : ce_new_seed();
	if (exp_store_init(s, e, *seed, why, sizeof why) != 0)
		fatalx("%s", why);
	if (file_read(e->path, YDOC_MAX_BYTES, &buf, &len) != 0 ||
	    file_write_atomic(dir, "experiment.yaml", buf, len, 0644) != 0)
		fatal("cannot keep a copy of %s in %s", e->path, dir);
	free(buf);
	return s;
}

static void
ce_clear_line(struct ce_progress *p)
{
	if (p->shown) {
		fputs("\r\033[K", stderr);
		p->shown = 0;
	}
}

static void
ce_show(struct ce_progress *p, const struct exp *e, const struct exp_run *r)
{
	char el[32], eta[32], *label, clean[160];
	size_t done = p->done_before + p->ran, width = 20, fill;
	double t = clock_mono() - p->t0;
	char bar[24];

	if (!p->tty)
		return;
	fill = p->total > 0 ? done * width / p->total : width;
	memset(bar, '#', fill);
	memset(bar + fill, '.', width - fill);
	bar[width] = '\0';
	text_clock(el, sizeof el, t);
	if (p->ran > 0)
		text_clock(eta, sizeof eta, t / (double)p->ran * (double)(p->total - done));
	else
		snprintf(eta, sizeof eta, "?");
	label = exp_point_label(e, r->point);
	text_clean(clean, sizeof clean, label, strlen(label));
	free(label);
	fprintf(stderr, "\r\033[K[%s] %zu/%zu runs  %s rep %d  elapsed %s  ETA %s", bar, done,
	    p->total, clean, r->rep, el, eta);
	fflush(stderr);
	p->shown = 1;
}

static void
ce_failed_line(struct exp_runner *x, const struct exp_run *r, const char *reason)
{
	char *label = exp_point_label(x->e, r->point);

	ce_clear_line(x->ctx);
	fprintf(stderr, "gridsubmit experiment: run %lld (%s, rep %d) failed: %s; log: "
	    "%s/logs/run-%lld.log\n", (long long)r->id, label, r->rep, reason, x->dir,
	    (long long)r->id);
	free(label);
}

/*
 * Every simulated point's program has its SMPI build (simulate.h) and its simulate
 * parameters' settings are ones simulate takes (exp-simopts.c): a point without refuses
 * the whole experiment before its first run. 0, or -1 with the first such point said on
 * stderr, located at its mode (or at the setting) in the experiment file (name).
 */
static int
ce_check_sim(const struct exp *e, const char *name)
{
	const struct exp_param *mode;
	struct gs_errlist errs;
	struct ydoc_node *o;
	struct gs_error err;
	struct sim_opts so;
	struct gs_job job;
	char why[1024], *label, *path;
	size_t p;
	int rc = 0;

	for (p = 0; p < e->npoints && rc == 0; p++) {
		if (exp_point_mode(e, p) != EXP_MODE_SIMULATE)
			continue;
		o = exp_overlay(e, p, 1, 0);
		rc = job_load_file_overlay_errs(e->job, o, e->path, &job, &errs);
		ydoc_free(o);
		memset(&so, 0, sizeof so);
		path = NULL;
		if (rc != 0) {
			/* exp_load_errs loaded it: the job file changed since */
			errlist_print(&errs, stderr);
			return -1;
		}
		if (exp_sim_opts(e, p, name, &so, &err) != 0) {
			fprintf(stderr, "%s\n", err.msg);
			rc = -1;
		} else if ((path = sim_program(job.program, why, sizeof why)) == NULL) {
			mode = &e->params[e->mode_param];
			label = exp_point_label(e, p);
			ydoc_error(&err, name, mode->values[exp_point_index(e, p,
			    (size_t)e->mode_param)], "point %zu (%.200s) cannot be simulated: %s",
			    p + 1, label, why);
			fprintf(stderr, "%s\n", err.msg);
			free(label);
			rc = -1;
		}
		free(path);
		free(so.cfg);
		job_free(&job);
	}
	return rc;
}

/*
 * One line of the order of runs: its place, the run (id, point, repetition) and {seed};
 * done, or left out by --only (skip).
 */
static void
ce_dry_line(size_t place, size_t run, size_t point, int rep, uint64_t seed, int done,
    int skip)
{
	printf("order %zu: run %zu, point %zu, rep %d, seed %llu%s\n", place, run, point, rep,
	    (unsigned long long)seed, done ? " (done)" : skip ? " (not this time: --only)" :
	    "");
}

/*
 * The order of a stored experiment's runs, as it recorded them at its first run, with
 * those done marked: a run of the command goes on with the others in that order. 1 when
 * printed; 0 when there is no store (or --new sets it aside, or the file changed, which
 * the run refuses without --new: then a note), and the order is a new start's. Reads the
 * store and changes nothing.
 */
static int
ce_dry_stored(const struct exp *e, const struct exp_only *only, const char *dir, int fresh)
{
	struct exp_store *s;
	struct exp_run *runs;
	const char **names;
	char *db, hash[17], why[1024];
	uint64_t seed;
	size_t n, nnames, i, done = 0;
	int rc;

	xasprintf(&db, "%s/results.db", dir);
	rc = !fresh && access(db, F_OK) == 0;
	if (rc && (s = exp_store_open(db, why, sizeof why)) == NULL)
		fatalx("%s", why);
	free(db);
	if (!rc)
		return 0;
	if ((rc = exp_store_meta(s, hash, &seed, NULL, why, sizeof why)) < 0)
		fatalx("%s", why);
	if (rc == 1 && strcmp(hash, e->hash) != 0)
		printf("note: %s has changed since its runs began: a run refuses it without "
		    "--new, which starts over, in the order below\n", e->path);
	if (rc == 0 || strcmp(hash, e->hash) != 0) {
		exp_store_close(s);
		return 0;
	}
	names = exp_metric_names(e, &nnames);
	if (exp_store_runs(s, names, nnames, &runs, &n, why, sizeof why) != 0)
		fatalx("%s", why);
	for (i = 0; i < n; i++)
		done += runs[i].state == EXP_DONE;
	printf("seed: %llu (the stored experiment's: %zu of %zu runs done, the others run in "
	    "the order it recorded)\n", (unsigned long long)seed, done, n);
	for (i = 0; i < n; i++)
		ce_dry_line((size_t)runs[i].seq, (size_t)runs[i].id, runs[i].point + 1,
		    runs[i].rep, runs[i].seed, runs[i].state == EXP_DONE,
		    !exp_only_match(only, e, runs[i].point));
	exp_runs_free(runs, n);
	free(names);
	exp_store_close(s);
	return 1;
}

/*
 * The seed and the order of runs of a new start: from the file's seed:, else from one
 * drawn here, which a run would not draw again (it draws its own unless the file gives
 * it one).
 */
static void
ce_dry_order(const struct exp *e, const struct exp_only *only)
{
	size_t n = e->nruns, i, point, *order = xcalloc(n + 1, sizeof *order);
	uint64_t *seeds = xcalloc(n + 1, sizeof *seeds), seed;
	int rep;

	seed = e->have_seed ? e->seed : ce_new_seed();
	if (e->have_seed)
		printf("seed: %llu (the file's)\n", (unsigned long long)seed);
	else
		printf("seed: %llu (drawn for this dry run: a run draws its own; put 'seed: %llu' "
		    "in the file to run in this order)\n", (unsigned long long)seed,
		    (unsigned long long)seed);
	exp_run_order(e, seed, order, seeds);
	for (i = 0; i < n; i++) {
		exp_run_point(e, order[i], &point, &rep);
		ce_dry_line(i + 1, order[i] + 1, point + 1, rep, seeds[i], 0,
		    !exp_only_match(only, e, point));
	}
	free(order);
	free(seeds);
}

/*
 * What point p's runs get beyond its job: the site file's values laid over it, simulate's
 * options (or that they do not apply to it), "" for nothing. Allocated.
 */
static char *
ce_dry_knobs(const struct exp *e, size_t p)
{
	char *site = exp_point_settings(e, p, EXP_SITE_KEY);
	char *sim = exp_point_settings(e, p, EXP_SIM_KEY), *s;
	int simulated = exp_point_mode(e, p) == EXP_MODE_SIMULATE;

	xasprintf(&s, "%s%s%s%s%s", *site ? "; site file with " : "", site,
	    *site ? " laid over it" : "", *sim ? (simulated ? "; simulated with " :
	    "; not simulated, ignored: ") : "", sim);
	free(site);
	free(sim);
	return s;
}

/* Every point and its runs, the seed and the order of runs; nothing run (--dry-run). */
static int
ce_dry_run(const struct exp *e, const struct exp_only *only, const char *dir, int fresh)
{
	char *rep = exp_repeat_label(e), *knobs;
	size_t p;
	int sim = 0;

	printf("experiment %s: %zu points x %s repetitions = %zu runs, order %s\n", e->name,
	    e->npoints, rep, e->nruns, e->random_order ? "random" : "sequential");
	free(rep);
	printf("job: %s\nsites: %s%s\nresults: %s\n", e->job, e->sites != NULL ? e->sites :
	    "the embedded sites/localhost.yaml", e->testbed ? " (as a testbed)" : "", dir);
	for (p = 0; p < e->npoints; p++)
		sim |= exp_point_mode(e, p) == EXP_MODE_SIMULATE;
	/* which site file the simulated runs of a testbed experiment use (exp-testbed.c) */
	if (e->testbed && sim && exp_has_real_points(e))
		printf("simulated runs: on the testbed's derived site file, as the others\n");
	else if (e->testbed && sim)
		printf("simulated runs: on the testbed's derived site file when it is up, else on "
		    "%s (not brought up)\n", e->sites);
	if (exp_site_has(e) && e->testbed)
		printf("site parameters: each group of points with the same values runs on a "
		    "testbed of its own, brought up before its first run and down after its last "
		    "(sites/%s-pP.yaml in the results, P the group's first point)\n", e->name);
	for (p = 0; p < e->npoints; p++) {
		char *label = exp_point_label(e, p);

		knobs = ce_dry_knobs(e, p);
		printf("point %zu: %s (runs %zu-%zu, mode %s%s)%s\n", p + 1, label,
		    e->run_first[p] + 1, e->run_first[p + 1], exp_mode_names[exp_point_mode(e, p)],
		    knobs, exp_only_match(only, e, p) ? "" : " (not this time: --only)");
		free(knobs);
		free(label);
	}
	if (!ce_dry_stored(e, only, dir, fresh))
		ce_dry_order(e, only);
	return EXIT_OK;
}

/* Each claim's verdict line on stdout (exp-claim.h), once per mode it is checked in. */
static void
ce_print_claims(const struct exp_report *r)
{
	struct exp_claim_result *res;
	size_t n, i;
	char *line;

	res = exp_claims_eval(r, &n);
	for (i = 0; i < n; i++) {
		line = exp_claim_line(&res[i]);
		printf("%s\n", line);
		free(line);
	}
	exp_claim_results_free(res, n);
	fflush(stdout);
}

/*
 * Write the reports from the store and print the claims' verdicts; a failure is reported,
 * never fatal to the runs.
 */
int
cmd_experiment_report(const struct exp *e, struct exp_store *s, const char *dir,
    uint64_t seed)
{
	struct exp_report r;
	struct exp_run *runs;
	const char **names;
	char why[1024];
	size_t n, nnames;
	int rc;

	names = exp_metric_names(e, &nnames);
	if (exp_store_runs(s, names, nnames, &runs, &n, why, sizeof why) != 0) {
		log_warnx("%s", why);
		free(names);
		return -1;
	}
	r = (struct exp_report){ e, runs, n, names, nnames, seed, dir };
	if ((rc = exp_report_write(&r, why, sizeof why)) != 0)
		log_warnx("experiment %s: report: %s", e->name, why);
	ce_print_claims(&r);
	exp_runs_free(runs, n);
	free(names);
	return rc;
}

/*
 * Every run that is not done and that --only selects, in the stored order; a run of
 * another group of site parameters first gets its site file (exp-sites.c). 0, or -1 when
 * a group's testbed could not be brought up (said): the experiment stops there.
 */
static int
ce_run_all(struct exp_runner *x, const struct exp_only *only, struct ce_progress *p,
    size_t *failed, int *stopped)
{
	struct exp_run *runs;
	char why[1024];
	size_t n, i;
	int code, rc = 0;

	if (exp_store_runs(x->store, x->names, x->nnames, &runs, &n, why, sizeof why) != 0)
		fatalx("%s", why);
	p->total = 0;
	for (i = 0; i < n; i++) {
		if (runs[i].state == EXP_RUNNING)
			exp_runner_settle(x, &runs[i]);
		p->total += exp_only_match(only, x->e, runs[i].point);
	}
	for (i = p->left = 0; i < n; i++)
		p->left += runs[i].state != EXP_DONE && !exp_only_match(only, x->e,
		    runs[i].point);
	exp_runs_free(runs, n);
	/* settling may have kept some: read the states again */
	if (exp_store_runs(x->store, x->names, x->nnames, &runs, &n, why, sizeof why) != 0)
		fatalx("%s", why);
	for (i = p->done_before = 0; i < n; i++)
		p->done_before += runs[i].state == EXP_DONE &&
		    exp_only_match(only, x->e, runs[i].point);
	for (i = 0; i < n && !launch_cancel_requested(); i++) {
		if (runs[i].state == EXP_DONE || !exp_only_match(only, x->e, runs[i].point))
			continue;
		if (exp_sites_enter(x, runs[i].point) != 0) {
			rc = -1;
			break;
		}
		ce_show(p, x->e, &runs[i]);
		code = exp_runner_one(x, &runs[i]);
		/* an interrupted run (exp-run.c) has not run: the next time runs it again */
		if (code != EXIT_OK && (code == EXIT_CANCELLED || launch_cancel_requested())) {
			*stopped = 1;
			break;
		}
		p->ran++;
		*failed += code != EXIT_OK;
	}
	*stopped |= launch_cancel_requested();
	ce_clear_line(p);
	exp_runs_free(runs, n);
	exp_sites_leave(x);
	return rc;
}

/*
 * The exit status of an experiment that stopped: 128+N for the signal N that stopped it
 * (Ctrl-C: 130), as a shell expects; 6 when its running job was cancelled by someone else.
 */
static int
ce_stopped_exit(void)
{
	pid_t sender;
	int sig = launch_cancel_origin(&sender);

	return sig != 0 ? 128 + sig : EXIT_CANCELLED;
}

static int
ce_run(const struct ce_opts *o)
{
	struct exp e;
	struct gs_errlist errs;
	struct exp_runner x;
	struct ce_progress p;
	char *dir, *logs, *root, *tb_sites = NULL;
	uint64_t seed;
	struct exp_only only;
	char why[1024];
	size_t failed = 0, i;
	int stopped = 0, tb_use = -1, lock, rc;

	/* every run takes its defaults from it: an invalid one stops us before the first */
	if (userconf() == NULL)
		return EXIT_INPUT;
	if (exp_load_errs(o->file, &e, &errs) != 0) {
		errlist_print(&errs, stderr);
		return EXIT_INPUT;
	}
	if (ce_check_sim(&e, o->file) != 0) {
		exp_free(&e);
		return EXIT_INPUT;
	}
	memset(&only, 0, sizeof only);
	for (i = 0; i < o->nonly; i++)
		if (exp_only_add(&only, &e, o->only[i], why, sizeof why) != 0)
			cmd_usage_error(&cmd_experiment_entry, "--only: %s", why);
	dir = cmd_experiment_dir(e.name);
	if (o->dry_run) {
		ce_dry_run(&e, &only, dir, o->fresh);
		exp_only_free(&only);
		free(dir);
		exp_free(&e);
		return EXIT_OK;
	}
	xasprintf(&root, "%s/experiments", cmd_home());
	ce_mkdir(root);
	free(root);
	ce_mkdir(dir);
	lock = ce_lock(dir, e.name);
	if (o->fresh) {
		char *db;

		xasprintf(&db, "%s/results.db", dir);
		if (access(db, F_OK) == 0) {
			ce_set_aside(dir);
			close(lock);
			lock = ce_lock(dir, e.name);
		}
		free(db);
	}
	xasprintf(&logs, "%s/logs", dir);
	ce_mkdir(logs);
	free(logs);
	memset(&x, 0, sizeof x);
	memset(&p, 0, sizeof p);
	x.e = &e;
	x.store = ce_store(&e, dir, &seed);
	x.dir = dir;
	x.sites = e.sites;
	x.group = (size_t)-1;
	x.group_use = -1;
	/* with site parameters each group of points gets its own (exp-sites.c) */
	if (e.testbed && !exp_site_has(&e) && (x.sites = tb_sites = exp_testbed_up(&e,
	    e.sites, exp_has_real_points(&e), 0, dir, &tb_use)) == NULL) {
		exp_store_close(x.store);
		free(dir);
		exp_free(&e);
		return EXIT_LAUNCH;
	}
	x.names = exp_metric_names(&e, &x.nnames);
	x.failed_line = ce_failed_line;
	x.ctx = &p;
	x.lock_fd = lock;
	p.tty = !o->quiet && isatty(STDERR_FILENO);
	p.t0 = clock_mono();
	/* SIGINT, SIGTERM, SIGHUP: stop after the running job is cancelled (exp-run.c) */
	launch_catch_signals();
	rc = ce_run_all(&x, &only, &p, &failed, &stopped);
	exp_testbed_down(&e, e.sites, dir, tb_use);
	free(tb_sites);
	cmd_experiment_report(&e, x.store, dir, seed);
	if (!o->quiet && stopped)
		fprintf(stderr, "gridsubmit experiment: %s: interrupted after %zu of %zu runs "
		    "(%zu this time, %zu failed); run the same command again to resume; results "
		    "in %s (summary.md)\n", e.name, p.done_before + p.ran, p.total, p.ran, failed,
		    dir);
	else if (!o->quiet)
		fprintf(stderr, "gridsubmit experiment: %s: %zu runs this time, %zu failed; "
		    "results in %s (summary.md)\n", e.name, p.ran, failed, dir);
	if (!o->quiet && only.n > 0)
		fprintf(stderr, "gridsubmit experiment: %s: --only left %zu runs as they were\n",
		    e.name, p.left);
	exp_only_free(&only);
	exp_store_close(x.store);
	free(x.names);
	free(dir);
	exp_free(&e);
	return stopped ? ce_stopped_exit() : rc != 0 ? EXIT_LAUNCH : failed > 0 ? EXIT_FAILED :
	    EXIT_OK;
}

static const struct option ce_longopts[] = {
	{ "dry-run", no_argument, NULL, 'n' },
	{ "new", no_argument, NULL, 'N' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "only", required_argument, NULL, 'o' },
	/* list's and show's (cmd-experiment-show.c): here so that it is offered and documented */
	{ "json", no_argument, NULL, 'j' },
	/* reproduction's (cmd-experiment-repro.c) */
	{ "out", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 }
};
/* the stored experiment's words (cmd-experiment-show.c); any other operand is a file */
static const char *const ce_actions[] = { "report", "list", "show", "reproduction", NULL };

static int
cmd_experiment_exec(int argc, char **argv)
{
	struct ce_opts o;
	int c;

	if (argc >= 2 && cmd_is_action(&cmd_experiment_entry, argv[1]))
		return cmd_experiment_stored(argc - 1, argv + 1);
	/* no such file, and near an action: a misspelt action rather than a file */
	if (argc >= 2 && argv[1][0] != '-' && access(argv[1], F_OK) == -1 &&
	    suggest_closest(argv[1], ce_actions) != NULL)
		cmd_unknown_action(&cmd_experiment_entry, argv[1], "report, list, show or "
		    "reproduction");
	memset(&o, 0, sizeof o);
	while ((c = cmd_getopt(argc, argv, &cmd_experiment_entry)) != -1) {
		if (c == 'n')
			o.dry_run = 1;
		else if (c == 'N')
			o.fresh = 1;
		else if (c == 'q')
			o.quiet = 1;
		else if (c == 'o') {
			o.only = xreallocarray(o.only, o.nonly + 1, sizeof *o.only);
			o.only[o.nonly++] = optarg;
		}
		else if (c == 'j')
			cmd_usage_error(&cmd_experiment_entry, "--json is for experiment list and "
			    "show; a run's results are in results.json");
		else if (c == 'o')
			cmd_usage_error(&cmd_experiment_entry, "--out is for experiment "
			    "reproduction");
	}
	if (optind != argc - 1)
		cmd_usage_error(&cmd_experiment_entry, optind >= argc ? "missing EXP.yaml" :
		    "one experiment file at a time");
	o.file = argv[optind];
	c = ce_run(&o);
	free(o.only);
	return c;
}

const struct cmd_entry cmd_experiment_entry = {
	"experiment", "EXP.yaml [--dry-run] [--new] [--only PARAM=VALUE] [-q] | report NAME | "
	"list | show NAME [--json] | reproduction [--out FILE] NAME...",
	"run a scripted batch experiment (resumable), or report what one stored",
	"  EXP.yaml              run every run of the experiment that is not done yet\n"
	"      --dry-run         list the points (with their modes, site values and\n"
	"                        simulate options), the seed and the runs in the order\n"
	"                        they would run; run and create nothing\n"
	"      --new             the file changed: keep the old results as NAME.N and start\n"
	"                        over\n"
	"      --only PARAM=VALUE  run only the runs of the points whose PARAM is VALUE\n"
	"                        (repeatable: values of one PARAM are alternatives);\n"
	"                        the others stay as they are, the reports use what is done\n"
	"  -q, --quiet           no progress line and no final line\n"
	"      --json            list, show: one JSON document (gridsubmit-json(5))\n"
	"      --out FILE        reproduction: write the document to FILE, atomically\n"
	"  report NAME           write results.csv, results.json, summary.md and the plots\n"
	"                        again from the store (NAME or the experiment file), and\n"
	"                        print each claim's verdict\n"
	"  list [--json]         the stored experiments, with their runs by state\n"
	"  show NAME [--json]    one experiment's runs: state, job, metrics\n"
	"  reproduction NAME...  the claims of the stored experiments as one markdown\n"
	"                        document: each claim's figure in its paper, its results on\n"
	"                        the testbed and in simulation, its verdicts (stdout\n"
	"                        without --out)\n"
	"results: $GRIDSUBMIT_HOME/experiments/NAME/ (doc/experiments.md). Exit status: 0 every\n"
	"run done, 1 some run failed, 3 the file is invalid, 6 stopped: its running job was\n"
	"cancelled (gridsubmit cancel), 7 refused (the file changed: --new; or the experiment\n"
	"runs in another process), 128+N stopped by signal N (Ctrl-C: 130); a stopped\n"
	"experiment resumes when the same command runs again, the interrupted run included\n",
	cmd_experiment_exec, "q", ce_longopts, ce_actions, CMD_OPERAND_YAML
};
