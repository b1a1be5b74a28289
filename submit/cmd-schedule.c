/*
 * cmd-schedule.c — gridsubmit schedule: print the chunks a load-distribution scheme hands
 * out for N units over P workers, with no MPI at all. It drives the very code of libgrt's
 * master (runtime/include/grt/scheme.h), so what it prints is what a job would get.
 *
 * Who asks next: round-robin over the workers in the scheme's order, every chunk fed back
 * at unit speed, unless --speeds is given; then each worker's clock advances by
 * count/speed per chunk (its t_calc and t_exe) and the earliest free worker asks next
 * (ties: lowest index). The schemes that learn from t_calc and t_exe apart (awf-b..e, af,
 * pwd-speed) take --unit-calc and --unit-comm instead of --speeds: the clock advances by
 * t_exe. The rounds schemes (hetcalc, hetcomm) serve every worker once per round in their
 * send order. Times from --unit-calc and --unit-comm (seconds per unit, independent
 * links): t_calc = n*calc_i, t_exe = n*(calc_i + comm_i).
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonout.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "grt/scheme.h"
#include "submit/cmd.h"
#include "submit/opt-job.h"

extern const struct cmd_entry cmd_schedule_entry;

enum {
	OPT_SCHEME = 256, OPT_K, OPT_ALPHA, OPT_SWR, OPT_PR, OPT_CPU, OPT_SPEEDS, OPT_ROUNDS,
	OPT_UNIT_CALC, OPT_UNIT_COMM, OPT_JSON
};

static const struct option sched_longopts[] = {
	{ "scheme", required_argument, NULL, OPT_SCHEME },
	{ "k", required_argument, NULL, OPT_K },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "swr", required_argument, NULL, OPT_SWR },
	{ "pr", required_argument, NULL, OPT_PR },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "speeds", required_argument, NULL, OPT_SPEEDS },
	{ "rounds", required_argument, NULL, OPT_ROUNDS },
	{ "unit-calc", required_argument, NULL, OPT_UNIT_CALC },
	{ "unit-comm", required_argument, NULL, OPT_UNIT_COMM },
	{ "json", no_argument, NULL, OPT_JSON },
	{ NULL, 0, NULL, 0 }
};

#define SCHED_MAX_P	1000000
#define SCHED_MAX_ROUNDS 100000
/*
 * What one schedule may hold: its chunks (pss cuts one per unit, so -N alone could fill
 * the memory) and its rounds x workers counts of units
 */
#define SCHED_MAX_CHUNKS 1000000
#define SCHED_MAX_CELLS	10000000
/* a number as text, for the usage: the defaults are written once, in scheme.h */
#define SCHED_STR(x)	#x
#define SCHED_XSTR(x)	SCHED_STR(x)

struct sched_rec {
	int round;
	int worker;
	int64_t start;
	int64_t count;
};

struct sched_round {
	int64_t *units;		/* per worker */
	double alpha;		/* ngss, angss */
	int ndrop;
	int *drop_w;
	double *drop_share;
};

struct sched_run {
	enum grt_scheme scheme;
	int64_t n;
	int p;
	int rounds;
	const double *speeds;
	const double *ucalc;
	const double *ucomm;
	struct sched_rec *rec;
	size_t nrec;
	size_t caprec;
	struct sched_round *round;
};

/* Parse "1,1,2,4": exactly p finite numbers, each >= min (> min when strict). */
static double *
sched_parse_list(const char *opt, const char *arg, int p, double min, int strict)
{
	double *v = xreallocarray(NULL, (size_t)p, sizeof *v);
	const char *at = arg;
	char *end, tok[64];
	size_t len;
	int got = 0;

	for (;;) {
		len = strcspn(at, ",");
		if (got < p) {
			snprintf(tok, sizeof tok, "%.*s", (int)(len < sizeof tok ? len : sizeof tok - 1),
			    at);
			errno = 0;
			v[got] = strtod(tok, &end);
			if (len == 0 || len >= sizeof tok || *end != '\0' || errno != 0 ||
			    !isfinite(v[got]))
				cmd_usage_error(&cmd_schedule_entry, "%s: '%s' is not a number", opt,
				    tok);
			if (v[got] < min || (strict && v[got] == min))
				cmd_usage_error(&cmd_schedule_entry, "%s: '%s' must be %s %g", opt,
				    tok, strict ? "above" : "at least", min);
		}
		got++;
		if (at[len] == '\0')
			break;
		at += len + 1;
	}
	if (got != p)
		cmd_usage_error(&cmd_schedule_entry,
		    "%s: expected %d values (one per worker, -P %d), got %d", opt, p, p, got);
	return v;
}

/* --scheme's scheme, or a usage error with "did you mean" (the one check: opt-job.h). */
static enum grt_scheme
sched_parse_scheme(const char *name)
{
	return (enum grt_scheme)grt_scheme_from_name(opt_scheme(&cmd_schedule_entry, name));
}

/* 1 for the self-scheduling schemes that learn from t_calc and t_exe apart. */
static int
sched_learns(enum grt_scheme sc)
{
	switch (sc) {
	case GRT_SCHEME_AWF_B:
	case GRT_SCHEME_AWF_C:
	case GRT_SCHEME_AWF_D:
	case GRT_SCHEME_AWF_E:
	case GRT_SCHEME_AF:
	case GRT_SCHEME_PWD_SPEED:
		return 1;
	default:
		return 0;
	}
}

/* 1 for the schemes whose weights are pr[] (then cpu[]) before anything is measured. */
static int
sched_weighted(enum grt_scheme sc)
{
	return sc == GRT_SCHEME_WF || sc == GRT_SCHEME_AWF_B || sc == GRT_SCHEME_AWF_C ||
	    sc == GRT_SCHEME_AWF_D || sc == GRT_SCHEME_AWF_E;
}

/* A usage error when opt was given to a scheme that does not read it. */
static void
sched_only(const char *opt, const char *given, enum grt_scheme sc, int applies,
    const char *which)
{
	if (given != NULL && !applies)
		cmd_usage_error(&cmd_schedule_entry, "%s does not apply to %s (only to %s)", opt,
		    grt_scheme_name(sc), which);
}

/* One more chunk; a usage error past SCHED_MAX_CHUNKS, before anything is printed. */
static void
sched_add(struct sched_run *r, int round, int w, const struct grt_chunk *c)
{
	if (r->nrec == SCHED_MAX_CHUNKS)
		cmd_usage_error(&cmd_schedule_entry, "-N %" PRId64 ": %s cuts more than %d "
		    "chunks, the most schedule shows; give a smaller -N", r->n,
		    grt_scheme_name(r->scheme), SCHED_MAX_CHUNKS);
	if (r->nrec == r->caprec) {
		r->caprec = r->caprec ? 2 * r->caprec : 256;
		r->rec = xreallocarray(r->rec, r->caprec, sizeof *r->rec);
	}
	r->rec[r->nrec++] = (struct sched_rec){ round, w, c->start, c->count };
	r->round[round - 1].units[w] += c->count;
}

/* Heap of workers keyed by (clock, index): the earliest free worker asks next. */
static int
sched_before(const double *clock, int a, int b)
{
	return clock[a] < clock[b] || (clock[a] == clock[b] && a < b);
}

static void
sched_sift_down(int *heap, int n, const double *clock, int i)
{
	int c, t;

	for (; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && sched_before(clock, heap[c + 1], heap[c]))
			c++;
		if (!sched_before(clock, heap[c], heap[i]))
			break;
		t = heap[i];
		heap[i] = heap[c];
		heap[c] = t;
	}
}

/* The simulated times of worker w's chunk of n units: --unit-calc/--unit-comm, or --speeds. */
static void
sched_times(const struct sched_run *r, int w, int64_t n, double *t_calc, double *t_exe)
{
	if (r->ucalc != NULL) {
		*t_calc = (double)n * r->ucalc[w];
		*t_exe = *t_calc + (double)n * r->ucomm[w];
	} else
		*t_calc = *t_exe = (double)n / r->speeds[w];
}

static void
sched_round_speeds(struct sched_run *r, grt_sched *s, int j)
{
	double *clock = xcalloc((size_t)r->p, sizeof *clock), t, tc;
	int *heap = xreallocarray(NULL, (size_t)r->p, sizeof *heap);
	struct grt_chunk c;
	int n = r->p, i, w;

	for (i = 0; i < n; i++)
		heap[i] = i;
	while (n > 0) {
		w = heap[0];
		if (!grt_sched_next(s, w, &c)) {
			heap[0] = heap[--n];
			sched_sift_down(heap, n, clock, 0);
			continue;
		}
		sched_add(r, j, w, &c);
		sched_times(r, w, c.count, &tc, &t);
		grt_sched_feedback(s, w, &c, tc, t);
		clock[w] += t;
		sched_sift_down(heap, n, clock, 0);
	}
	free(clock);
	free(heap);
}

static void
sched_round_rr(struct sched_run *r, grt_sched *s, int j, const int *order)
{
	int *done = xcalloc((size_t)r->p, sizeof *done), left = r->p, i, w;
	struct grt_chunk c;

	while (left > 0)
		for (i = 0; i < r->p; i++) {
			w = order[i];
			if (done[w])
				continue;
			if (!grt_sched_next(s, w, &c)) {
				done[w] = 1;
				left--;
				continue;
			}
			sched_add(r, j, w, &c);
			/* unit speed: every worker looks alike to angss's next round */
			grt_sched_feedback(s, w, &c, (double)c.count, (double)c.count);
		}
	free(done);
}

static void
sched_round_het(struct sched_run *r, grt_sched *s, int j, const int *order)
{
	struct grt_chunk c;
	double tc;
	int i, w;

	for (i = 0; i < r->p; i++) {
		w = order[i];
		while (grt_sched_next(s, w, &c)) {
			sched_add(r, j, w, &c);
			tc = (double)c.count * r->ucalc[w];
			grt_sched_feedback(s, w, &c, tc, tc + (double)c.count * r->ucomm[w]);
		}
	}
}

static void
sched_simulate(struct sched_run *r, grt_sched *s)
{
	struct sched_round *rd;
	int *order = xreallocarray(NULL, (size_t)r->p, sizeof *order);
	double share;
	int j, w;

	r->round = xcalloc((size_t)r->rounds, sizeof *r->round);
	for (j = 1; j <= r->rounds; j++) {
		rd = &r->round[j - 1];
		rd->units = xcalloc((size_t)r->p, sizeof *rd->units);
		grt_sched_begin_round(s);
		rd->alpha = grt_sched_alpha(s);
		for (w = 0; w < r->p; w++) {
			if (!grt_sched_dropped(s, w, &share))
				continue;
			rd->drop_w = xreallocarray(rd->drop_w, (size_t)rd->ndrop + 1,
			    sizeof *rd->drop_w);
			rd->drop_share = xreallocarray(rd->drop_share, (size_t)rd->ndrop + 1,
			    sizeof *rd->drop_share);
			rd->drop_w[rd->ndrop] = w;
			rd->drop_share[rd->ndrop++] = share;
		}
		grt_sched_order(s, order);
		if (grt_scheme_is_rounds(r->scheme))
			sched_round_het(r, s, j, order);
		else if (r->speeds != NULL || r->ucalc != NULL)
			sched_round_speeds(r, s, j);
		else
			sched_round_rr(r, s, j, order);
		if (grt_sched_remaining(s) != 0)
			fatalx("%s left %" PRId64 " units unassigned in round %d (a bug)",
			    grt_scheme_name(r->scheme), grt_sched_remaining(s), j);
	}
	free(order);
}

static int
sched_has_alpha(enum grt_scheme sc)
{
	return sc == GRT_SCHEME_NGSS || sc == GRT_SCHEME_ANGSS;
}

static void
sched_print_text(const struct sched_run *r)
{
	const struct sched_round *rd;
	char buf[32];
	size_t i = 0, first;
	int wd, ww, j, w, d;

	wd = snprintf(buf, sizeof buf, "%" PRId64, r->n);
	if (wd < 5)
		wd = 5;
	ww = snprintf(buf, sizeof buf, "%d", r->p - 1);
	if (ww < 6)
		ww = 6;
	printf("%s: %" PRId64 " units over %d worker%s", grt_scheme_name(r->scheme), r->n, r->p,
	    r->p == 1 ? "" : "s");
	if (r->rounds > 1)
		printf(", %d rounds", r->rounds);
	printf("\n");
	for (j = 1; j <= r->rounds; j++) {
		rd = &r->round[j - 1];
		if (r->rounds > 1 || grt_scheme_is_rounds(r->scheme))
			printf("\nround %d\n", j);
		if (sched_has_alpha(r->scheme))
			printf("alpha %.4g%% of N placed by weight first\n", rd->alpha);
		for (d = 0; d < rd->ndrop; d++)
			printf("dropped worker %d: its share was %.3g units (cannot be balanced)\n",
			    rd->drop_w[d], rd->drop_share[d]);
		if (grt_scheme_is_rounds(r->scheme) || (sched_learns(r->scheme) && r->rounds > 1)) {
			printf("units:");
			for (w = 0; w < r->p; w++)
				printf(" %" PRId64, rd->units[w]);
			printf("\n");
		}
		printf("%7s  %*s  %*s  %*s\n", "chunk", ww, "worker", wd, "start", wd, "count");
		for (first = i; i < r->nrec && r->rec[i].round == j; i++)
			printf("%7zu  %*d  %*" PRId64 "  %*" PRId64 "\n", i - first + 1, ww,
			    r->rec[i].worker, wd, r->rec[i].start, wd, r->rec[i].count);
		printf("total: %zu chunk%s, %" PRId64 " units\n", i - first,
		    i - first == 1 ? "" : "s", r->n);
	}
}

static void
sched_json_set(json_t *o, const char *key, json_t *v)
{
	if (v == NULL || json_object_set_new(o, key, v) != 0)
		fatalx("out of memory");
}

static void
sched_json_append(json_t *a, json_t *v)
{
	if (v == NULL || json_array_append_new(a, v) != 0)
		fatalx("out of memory");
}

/* The chunk sequence as one document (gridsubmit-json(5)); 0, or -1. */
static int
sched_print_json(const struct sched_run *r)
{
	const struct sched_round *rd;
	json_t *root, *chunks, *o, *rounds, *units, *drops, *d;
	size_t i;
	int j, w, k, with_rounds;

	with_rounds = grt_scheme_is_rounds(r->scheme) || r->rounds > 1;
	if ((root = json_object()) == NULL || (chunks = json_array()) == NULL)
		fatalx("out of memory");
	sched_json_set(root, "scheme", json_string(grt_scheme_name(r->scheme)));
	sched_json_set(root, "N", json_integer(r->n));
	sched_json_set(root, "P", json_integer(r->p));
	if (sched_has_alpha(r->scheme) && !with_rounds)
		sched_json_set(root, "alpha", json_real(r->round[0].alpha));
	for (i = 0; i < r->nrec; i++) {
		if ((o = json_object()) == NULL)
			fatalx("out of memory");
		if (r->rounds > 1)
			sched_json_set(o, "round", json_integer(r->rec[i].round));
		sched_json_set(o, "worker", json_integer(r->rec[i].worker));
		sched_json_set(o, "start", json_integer(r->rec[i].start));
		sched_json_set(o, "count", json_integer(r->rec[i].count));
		sched_json_append(chunks, o);
	}
	sched_json_set(root, "chunks", chunks);
	if (with_rounds) {
		if ((rounds = json_array()) == NULL)
			fatalx("out of memory");
		for (j = 1; j <= r->rounds; j++) {
			rd = &r->round[j - 1];
			if ((o = json_object()) == NULL || (units = json_array()) == NULL)
				fatalx("out of memory");
			sched_json_set(o, "j", json_integer(j));
			for (w = 0; w < r->p; w++)
				sched_json_append(units, json_integer(rd->units[w]));
			sched_json_set(o, "units", units);
			if (sched_has_alpha(r->scheme))
				sched_json_set(o, "alpha", json_real(rd->alpha));
			if (rd->ndrop > 0) {
				if ((drops = json_array()) == NULL)
					fatalx("out of memory");
				for (k = 0; k < rd->ndrop; k++) {
					if ((d = json_object()) == NULL)
						fatalx("out of memory");
					sched_json_set(d, "worker", json_integer(rd->drop_w[k]));
					sched_json_set(d, "share", json_real(rd->drop_share[k]));
					sched_json_append(drops, d);
				}
				sched_json_set(o, "dropped", drops);
			}
			sched_json_append(rounds, o);
		}
		sched_json_set(root, "rounds", rounds);
	}
	return jsonout_print(root);
}

/* The options as given, checked against each other once the scheme is known. */
struct sched_args {
	const char *scheme, *n, *p, *k, *alpha, *swr, *pr, *cpu, *speeds, *rounds, *calc;
	const char *comm;
	int json;
};

static void
sched_parse_args(int argc, char **argv, struct sched_args *a)
{
	const struct cmd_entry *cmd = &cmd_schedule_entry;
	int c;

	memset(a, 0, sizeof *a);
	optind = 1;
	while ((c = cmd_getopt(argc, argv, cmd)) != -1) {
		switch (c) {
		case OPT_SCHEME:	a->scheme = optarg; break;
		case 'N':		a->n = optarg; break;
		case 'P':		a->p = optarg; break;
		case OPT_K:		a->k = optarg; break;
		case OPT_ALPHA:		a->alpha = optarg; break;
		case OPT_SWR:		a->swr = optarg; break;
		case OPT_PR:		a->pr = optarg; break;
		case OPT_CPU:		a->cpu = optarg; break;
		case OPT_SPEEDS:	a->speeds = optarg; break;
		case OPT_ROUNDS:	a->rounds = optarg; break;
		case OPT_UNIT_CALC:	a->calc = optarg; break;
		case OPT_UNIT_COMM:	a->comm = optarg; break;
		case OPT_JSON:		a->json = 1; break;
		}
	}
	if (optind < argc)
		cmd_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
	if (a->scheme == NULL)
		cmd_usage_error(cmd, "missing --scheme S");
	if (a->n == NULL)
		cmd_usage_error(cmd, "missing -N n (the number of units)");
	if (a->p == NULL)
		cmd_usage_error(cmd, "missing -P p (the number of workers)");
}

/* A usage error for every option the scheme does not read, and for what it lacks. */
static void
sched_check_args(const struct sched_args *a, enum grt_scheme sc)
{
	const struct cmd_entry *cmd = &cmd_schedule_entry;
	int rounds_sc = grt_scheme_is_rounds(sc);
	int pwd_sc = sc == GRT_SCHEME_PWD || sc == GRT_SCHEME_PWD_SPEED;

	sched_only("--k", a->k, sc, sc == GRT_SCHEME_CSS, "css");
	sched_only("--alpha", a->alpha, sc, sc == GRT_SCHEME_NGSS, "ngss; angss chooses its own");
	sched_only("--swr", a->swr, sc, pwd_sc, "pwd, pwd-speed");
	sched_only("--pr", a->pr, sc, pwd_sc || rounds_sc || sched_weighted(sc),
	    "pwd, pwd-speed, hetcalc, hetcomm, wf, awf-b..e");
	sched_only("--cpu", a->cpu, sc, sc == GRT_SCHEME_WSTATIC || sched_has_alpha(sc) ||
	    sched_weighted(sc), "wstatic, ngss, angss, wf, awf-b..e");
	sched_only("--unit-calc", a->calc, sc, rounds_sc || sched_learns(sc),
	    "hetcalc, hetcomm, awf-b..e, af, pwd-speed");
	sched_only("--unit-comm", a->comm, sc, rounds_sc || sched_learns(sc),
	    "hetcalc, hetcomm, awf-b..e, af, pwd-speed");
	if (a->speeds != NULL && rounds_sc)
		cmd_usage_error(cmd, "--speeds does not apply to %s (give --unit-calc and "
		    "--unit-comm)", grt_scheme_name(sc));
	if (a->speeds != NULL && a->calc != NULL)
		cmd_usage_error(cmd, "give --speeds or --unit-calc, not both");
	if (a->swr == NULL && pwd_sc)
		cmd_usage_error(cmd, "%s needs --swr R (the static workload ratio, 0 to 1)",
		    grt_scheme_name(sc));
	if (rounds_sc && a->calc == NULL)
		cmd_usage_error(cmd, "%s needs --unit-calc a,b,.. (seconds per unit per worker)",
		    grt_scheme_name(sc));
	if (a->comm != NULL && a->calc == NULL)
		cmd_usage_error(cmd, "--unit-comm needs --unit-calc");
}

static int
cmd_schedule_exec(int argc, char **argv)
{
	const struct cmd_entry *cmd = &cmd_schedule_entry;
	struct sched_args a;
	struct grt_sched_conf conf;
	struct sched_run run;
	double *pr = NULL, *cpu = NULL, *speeds = NULL, *ucalc = NULL, *ucomm = NULL;
	enum grt_scheme sc;
	grt_sched *s;
	int err, j;

	sched_parse_args(argc, argv, &a);
	sc = sched_parse_scheme(a.scheme);
	memset(&conf, 0, sizeof conf);
	memset(&run, 0, sizeof run);
	conf.scheme = sc;
	conf.k = 1;
	conf.alpha = GRT_ALPHA_DEFAULT;
	conf.swr = 1;
	run.scheme = sc;
	run.n = cmd_parse_int(cmd, "-N", a.n, 0, INT64_MAX);
	run.p = (int)cmd_parse_int(cmd, "-P", a.p, 1, SCHED_MAX_P);
	run.rounds = a.rounds != NULL ?
	    (int)cmd_parse_int(cmd, "--rounds", a.rounds, 1, SCHED_MAX_ROUNDS) : 1;
	if ((int64_t)run.p * run.rounds > SCHED_MAX_CELLS)
		cmd_usage_error(cmd, "-P %d with --rounds %d: workers x rounds is at most %d",
		    run.p, run.rounds, SCHED_MAX_CELLS);
	sched_check_args(&a, sc);

	if (a.k != NULL)
		conf.k = cmd_parse_int(cmd, "--k", a.k, 1, INT64_MAX);
	if (a.alpha != NULL)
		conf.alpha = cmd_parse_double(cmd, "--alpha", a.alpha, 0, 100);
	if (a.swr != NULL)
		conf.swr = cmd_parse_double(cmd, "--swr", a.swr, 0, 1);
	if (a.pr != NULL)
		conf.pr = pr = sched_parse_list("--pr", a.pr, run.p, 0, 1);
	if (a.cpu != NULL)
		conf.cpu = cpu = sched_parse_list("--cpu", a.cpu, run.p, 0, 1);
	if (a.speeds != NULL)
		run.speeds = speeds = sched_parse_list("--speeds", a.speeds, run.p, 0, 1);
	if (a.calc != NULL) {
		run.ucalc = ucalc = sched_parse_list("--unit-calc", a.calc, run.p, 0, 0);
		/* no --unit-comm: links cost nothing */
		run.ucomm = ucomm = a.comm != NULL ?
		    sched_parse_list("--unit-comm", a.comm, run.p, 0, 0) :
		    xcalloc((size_t)run.p, sizeof *ucomm);
	}

	if ((s = grt_sched_new(&conf, run.p, run.n, &err)) == NULL)
		fatalx("cannot set up %s: error %d", grt_scheme_name(sc), err);
	sched_simulate(&run, s);
	grt_sched_free(s);
	if (a.json) {
		if (sched_print_json(&run) != 0)
			exit(EXIT_FAILED);
	} else
		sched_print_text(&run);
	if (fflush(stdout) != 0 || ferror(stdout))
		fatal("cannot write the output");

	for (j = 0; j < run.rounds; j++) {
		free(run.round[j].units);
		free(run.round[j].drop_w);
		free(run.round[j].drop_share);
	}
	free(run.round);
	free(run.rec);
	free(pr);
	free(cpu);
	free(speeds);
	free(ucalc);
	free(ucomm);
	return EXIT_OK;
}

const struct cmd_entry cmd_schedule_entry = {
	"schedule",
	"--scheme S -N n -P p [--k K] [--alpha A] [--swr R] [--pr LIST] [--cpu LIST] "
	    "[--speeds LIST] [--rounds J] [--unit-calc LIST] [--unit-comm LIST] [--json]",
	"print a scheme's chunk sequence (dry run, no MPI)",
	"  --scheme S            static wstatic pss css gss fss tss ngss angss pwd hetcalc\n"
	"                        hetcomm wf awf-b awf-c awf-d awf-e af pwd-speed\n"
	"  -N n                  units to distribute (0 or more; at most "
	    SCHED_XSTR(SCHED_MAX_CHUNKS) " chunks\n"
	"                        in all, so pss and css --k 1 take up to that many units)\n"
	"  -P p                  workers (1 or more)\n"
	"  --k K                 css: chunk size (default 1)\n"
	"  --alpha A             ngss: percent of N placed by CPU clock first (default "
	    SCHED_XSTR(GRT_ALPHA_DEFAULT) ")\n"
	"  --swr R               pwd, pwd-speed: static workload ratio, 0 to 1 (required)\n"
	"  --pr 1,1,2,4          pwd, pwd-speed, hetcalc, hetcomm, wf, awf-b..e: performance\n"
	"                        ratio, one per worker\n"
	"  --cpu 3001,898,..     wstatic, ngss, angss; wf, awf-b..e without --pr: CPU clock,\n"
	"                        one per worker\n"
	"  --speeds 1,1,2,4      units per second per worker: the earliest free worker asks\n"
	"                        next (default: round-robin requests)\n"
	"  --rounds J            rounds to run (default 1; -P x --rounds at most "
	    SCHED_XSTR(SCHED_MAX_CELLS) ")\n"
	"  --unit-calc a,b,..    hetcalc, hetcomm, awf-b..e, af, pwd-speed: compute seconds\n"
	"                        per unit, one per worker (the earliest free worker asks next)\n"
	"  --unit-comm x,y,..    the same schemes: link seconds per unit (default 0)\n"
	"  --json                one JSON document (gridsubmit-json(5))\n",
	cmd_schedule_exec, "N:P:", sched_longopts, NULL, CMD_OPERAND_NONE
};
