/*
 * ep — NAS EP-style Gaussian pairs on libgrt's migratable tasks: the "embarrassingly
 * parallel" benchmark of seed 001's DynamicPVM experiments (section 5.2).
 *
 * T tasks (--tasks; default one per worker that is not a spare, grt_tasks_default), each
 * with a random stream of its own, run --steps steps. A step draws --pairs uniform pairs
 * (x, y) in [-1, 1)^2 and keeps those with 0 < t = x^2 + y^2 <= 1 (Marsaglia's polar
 * method, as NAS EP does): X = x sqrt(-2 ln t / t) and Y = y sqrt(-2 ln t / t) are
 * independent Gaussians, counted in annulus floor(max(|X|, |Y|)) (NAS EP's ten counts
 * q[0..9]; the last also takes anything beyond, which needs |X| >= 10, some 1e-23 of
 * pairs) and summed into sx and sy.
 *
 * Everything a task has is its state: its stream (a splitmix64 counter), the next step,
 * the counts, the sums, and --state-kb KiB of padding, so that the time of a move can be
 * measured against the state's size (seed 001, fig. 4). The padding is live: each step
 * changes one of its words, and the state carries a checksum of it that every unpack and
 * the master's finish verify; --check recomputes it too. The master's finish takes the
 * tasks' final states in task order and adds their counts and sums in that order.
 *
 * usage: ep [--tasks T] [--steps S] [--pairs N] [--seed X] [--state-kb K] [--check]
 *           [--corrupt-task I]
 * --check runs every task again sequentially on the master (the same streams, the same
 * order of additions) and exits 1 unless every count, both sums (bit for bit) and every
 * padding checksum match; --corrupt-task I makes task I's last step miscount, to see the
 * check fail. The migration policy comes from the environment (GRT_MIGRATION, GRT_SPARE,
 * ...: the job file's runtime: keys). Exit status: 0 ok, 1 wrong result or runtime error,
 * 2 usage.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include <grt/grt.h>

#include "common/numarg.h"

#define NQ		10		/* annuli, as NAS EP's q[] */
#define EP_MAGIC	UINT64_C(0x3176706570747267)	/* "grtpepv1" */
#define HDR_WORDS	(8 + NQ)	/* magic task next rng q[NQ] sx sy words sum */
#define MAX_STATE_KB	(32 * 1024)	/* 32 MiB, the top of seed 001's fig. 4 */
#define GOLDEN		UINT64_C(0x9e3779b97f4a7c15)

struct ep {
	int tasks;
	int64_t steps;
	int64_t pairs;		/* uniform pairs drawn per step */
	uint64_t seed;
	size_t words;		/* padding: 64-bit words per task */
	int corrupt;		/* task whose last step miscounts, -1 none */
	struct ep_result *res;	/* master: per task, from its final state */
};

/* A task's live state; its packed form is HDR_WORDS words, then the padding. */
struct ep_task {
	int task;
	int64_t next;		/* the step it runs next */
	uint64_t rng;		/* splitmix64 counter */
	int64_t q[NQ];
	double sx, sy;
	uint64_t sum;		/* checksum of pad */
	size_t words;
	uint64_t *pad;
};

/* What the master keeps of a task's final state. */
struct ep_result {
	int64_t q[NQ];
	double sx, sy;
	uint64_t sum;
};

/* splitmix64's finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mix */
static uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* A uniform in [-1, 1) from 53 bits of the stream. */
static double
ep_uniform(uint64_t *rng)
{
	*rng += GOLDEN;
	return (double)(mix64(*rng) >> 11) * 0x1p-52 - 1.0;
}

/* Word i's share of the checksum: a sum of these, so one word's change updates it. */
static uint64_t
pad_term(uint64_t w, size_t i)
{
	return mix64(w + (uint64_t)i * GOLDEN);
}

static uint64_t
pad_sum(const uint64_t *pad, size_t words)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < words; i++)
		sum += pad_term(pad[i], i);
	return sum;
}

static void
ep_task_free(struct ep_task *t)
{
	if (t != NULL)
		free(t->pad);
	free(t);
}

/* Task task's state before its first step: its stream's seed and padding follow seed. */
static struct ep_task *
ep_task_new(const struct ep *e, int task)
{
	struct ep_task *t;
	size_t i;

	if ((t = calloc(1, sizeof *t)) == NULL)
		return NULL;
	if (e->words > 0 && (t->pad = malloc(e->words * sizeof *t->pad)) == NULL) {
		free(t);
		return NULL;
	}
	t->task = task;
	t->rng = mix64(e->seed * GOLDEN + mix64((uint64_t)task + 1));
	t->words = e->words;
	for (i = 0; i < t->words; i++)
		t->pad[i] = mix64(t->rng ^ ((uint64_t)i + 1) * GOLDEN);
	t->sum = pad_sum(t->pad, t->words);
	return t;
}

/*
 * One step: e->pairs pairs by the polar method, then one word of the padding changed
 * (without drawing from the stream, so the padding's size does not change the pairs).
 */
static void
ep_task_step(const struct ep *e, struct ep_task *t, int64_t step)
{
	double x, y, u, f, ax, ay;
	int64_t i;
	size_t w;
	int l;

	for (i = 0; i < e->pairs; i++) {
		x = ep_uniform(&t->rng);
		y = ep_uniform(&t->rng);
		u = x * x + y * y;
		if (u <= 0.0 || u > 1.0)
			continue;
		f = sqrt(-2.0 * log(u) / u);
		ax = fabs(x * f);
		ay = fabs(y * f);
		l = (int)(ax > ay ? ax : ay);
		t->q[l < NQ ? l : NQ - 1]++;
		t->sx += x * f;
		t->sy += y * f;
	}
	if (t->words > 0) {
		w = (size_t)step % t->words;
		t->sum -= pad_term(t->pad[w], w);
		t->pad[w] ^= mix64(t->rng + (uint64_t)step);
		t->sum += pad_term(t->pad[w], w);
	}
	t->next = step + 1;
}

static uint64_t
dbits(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof u);
	return u;
}

static double
bitsd(uint64_t u)
{
	double d;

	memcpy(&d, &u, sizeof d);
	return d;
}

static int
ep_pack_task(const struct ep_task *t, grt_buf *st)
{
	uint64_t h[HDR_WORDS];
	int i;

	h[0] = EP_MAGIC;
	h[1] = (uint64_t)t->task;
	h[2] = (uint64_t)t->next;
	h[3] = t->rng;
	for (i = 0; i < NQ; i++)
		h[4 + i] = (uint64_t)t->q[i];
	h[4 + NQ] = dbits(t->sx);
	h[5 + NQ] = dbits(t->sy);
	h[6 + NQ] = (uint64_t)t->words;
	h[7 + NQ] = t->sum;
	if (grt_buf_append(st, h, sizeof h) != GRT_OK ||
	    grt_buf_append(st, t->pad, t->words * sizeof *t->pad) != GRT_OK)
		return -1;
	return 0;
}

/*
 * A packed state into a live one (with its padding when pad is 1, else only the header's
 * figures): NULL, with the reason on stderr, when it is not task's, is not this run's
 * size, or its padding does not match its checksum.
 */
static struct ep_task *
ep_unpack_task(const struct ep *e, int task, const void *data, size_t len, int pad)
{
	struct ep_task *t;
	uint64_t h[HDR_WORDS];
	const char *why = NULL;
	int i;

	if (len < sizeof h)
		why = "shorter than its header";
	else {
		memcpy(h, data, sizeof h);
		if (h[0] != EP_MAGIC || h[1] != (uint64_t)task)
			why = "not this task's";
		else if (h[2] > (uint64_t)e->steps)
			why = "past the last step";
		else if (h[6 + NQ] != e->words ||
		    len != sizeof h + e->words * sizeof(uint64_t))
			why = "not of this run's --state-kb";
	}
	if (why != NULL) {
		fprintf(stderr, "ep: task %d: a state of %zu bytes is %s\n", task, len, why);
		return NULL;
	}
	if ((t = calloc(1, sizeof *t)) == NULL)
		return NULL;
	t->task = task;
	t->next = (int64_t)h[2];
	t->rng = h[3];
	for (i = 0; i < NQ; i++)
		t->q[i] = (int64_t)h[4 + i];
	t->sx = bitsd(h[4 + NQ]);
	t->sy = bitsd(h[5 + NQ]);
	t->words = e->words;
	t->sum = h[7 + NQ];
	if (!pad || t->words == 0)
		return t;
	if ((t->pad = malloc(t->words * sizeof *t->pad)) == NULL) {
		ep_task_free(t);
		return NULL;
	}
	memcpy(t->pad, (const unsigned char *)data + sizeof h, t->words * sizeof *t->pad);
	if (pad_sum(t->pad, t->words) != t->sum) {
		fprintf(stderr, "ep: task %d: the padding of its state (%zu bytes) does not "
		    "match its checksum\n", task, len);
		ep_task_free(t);
		return NULL;
	}
	return t;
}

static int
ep_init(void *ctx, int task, grt_buf *st)
{
	struct ep_task *t;
	int rc;

	if ((t = ep_task_new(ctx, task)) == NULL)
		return -1;
	rc = ep_pack_task(t, st);
	ep_task_free(t);
	return rc;
}

static int
ep_unpack(void *ctx, int task, const void *data, size_t len, void **state)
{
	return (*state = ep_unpack_task(ctx, task, data, len, 1)) == NULL ? -1 : 0;
}

static int
ep_pack(void *ctx, int task, const void *state, grt_buf *st)
{
	return ep_pack_task(state, st);
}

/* A state whose next step is not this one was lost or replayed: fail rather than go on. */
static int
ep_step(void *ctx, int task, void *state, int64_t step, struct grt_task_io *io)
{
	const struct ep *e = ctx;
	struct ep_task *t = state;

	if (t->next != step) {
		fprintf(stderr, "ep: task %d: asked for step %lld, its state is at step %lld\n",
		    task, (long long)step, (long long)t->next);
		return -1;
	}
	ep_task_step(e, t, step);
	if (task == e->corrupt && step == e->steps - 1)
		t->q[0]++;
	return 0;
}

static void
ep_release(void *ctx, int task, void *state)
{
	ep_task_free(state);
}

/* Master: a final state, its padding checked, kept for the sums and the check. */
static int
ep_finish(void *ctx, int task, const void *data, size_t len)
{
	struct ep *e = ctx;
	struct ep_task *t;

	if ((t = ep_unpack_task(e, task, data, len, 1)) == NULL)
		return -1;
	if (t->next != e->steps) {
		fprintf(stderr, "ep: task %d: its final state is at step %lld of %lld\n", task,
		    (long long)t->next, (long long)e->steps);
		ep_task_free(t);
		return -1;
	}
	memcpy(e->res[task].q, t->q, sizeof t->q);
	e->res[task].sx = t->sx;
	e->res[task].sy = t->sy;
	e->res[task].sum = t->sum;
	ep_task_free(t);
	return 0;
}

/* The tasks' counts and sums added in task order. */
static void
ep_total(const struct ep *e, const struct ep_result *res, struct ep_result *tot)
{
	int i, l;

	memset(tot, 0, sizeof *tot);
	for (i = 0; i < e->tasks; i++) {
		for (l = 0; l < NQ; l++)
			tot->q[l] += res[i].q[l];
		tot->sx += res[i].sx;
		tot->sy += res[i].sy;
	}
}

static int
same_result(const struct ep_result *a, const struct ep_result *b)
{
	return memcmp(a->q, b->q, sizeof a->q) == 0 && dbits(a->sx) == dbits(b->sx) &&
	    dbits(a->sy) == dbits(b->sy) && a->sum == b->sum;
}

/*
 * Every task again, one after another, as the workers ran it: the number of tasks whose
 * counts, sums or padding differ (the first in *first), or -1 out of memory. The totals
 * are compared too (tot, added in the same order): they must then be the same bits.
 */
static int
ep_check(const struct ep *e, const struct ep_result *tot, int *first)
{
	struct ep_result *seq, stot;
	struct ep_task *t;
	int i, bad = 0;
	int64_t k;

	if ((seq = calloc((size_t)e->tasks, sizeof *seq)) == NULL)
		return -1;
	for (i = 0; i < e->tasks; i++) {
		if ((t = ep_task_new(e, i)) == NULL) {
			free(seq);
			return -1;
		}
		for (k = 0; k < e->steps; k++)
			ep_task_step(e, t, k);
		memcpy(seq[i].q, t->q, sizeof t->q);
		seq[i].sx = t->sx;
		seq[i].sy = t->sy;
		seq[i].sum = t->sum;
		ep_task_free(t);
		if (!same_result(&seq[i], &e->res[i]) && bad++ == 0)
			*first = i;
	}
	ep_total(e, seq, &stot);
	if (bad == 0 && (memcmp(stot.q, tot->q, sizeof stot.q) != 0 ||
	    dbits(stot.sx) != dbits(tot->sx) || dbits(stot.sy) != dbits(tot->sy))) {
		bad = 1;
		*first = -1;
	}
	free(seq);
	return bad;
}

static int
usage(int rank, const char *bad)
{
	if (rank == 0) {
		if (bad != NULL)
			fprintf(stderr, "ep: bad argument '%s'\n", bad);
		fprintf(stderr, "usage: ep [--tasks T] [--steps S] [--pairs N] [--seed X] "
		    "[--state-kb K] [--check] [--corrupt-task I]\n");
	}
	MPI_Finalize();
	return 2;
}

/* The options into e (tasks 0: the default); returns the argument that is wrong, or NULL. */
static const char *
ep_args(int argc, char **argv, struct ep *e, int *check)
{
	int64_t n;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--check") == 0)
			*check = 1;
		else if (strcmp(a, "--tasks") == 0 && numarg_int(v, 1, 1 << 20, &n) == 0) {
			e->tasks = (int)n;
			i++;
		} else if (strcmp(a, "--steps") == 0 && numarg_int(v, 1, INT64_C(1) << 40,
		    &e->steps) == 0)
			i++;
		else if (strcmp(a, "--pairs") == 0 && numarg_int(v, 1, INT64_C(1) << 40,
		    &e->pairs) == 0)
			i++;
		else if (strcmp(a, "--seed") == 0 && numarg_int(v, 0, INT64_MAX, &n) == 0) {
			e->seed = (uint64_t)n;
			i++;
		} else if (strcmp(a, "--state-kb") == 0 && numarg_int(v, 0, MAX_STATE_KB,
		    &n) == 0) {
			e->words = (size_t)n * 1024 / sizeof(uint64_t);
			i++;
		} else if (strcmp(a, "--corrupt-task") == 0 && numarg_int(v, 0, INT32_MAX,
		    &n) == 0) {
			e->corrupt = (int)n;
			i++;
		} else
			return a;
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	struct ep e = { .steps = 200, .pairs = 200000, .seed = 1, .corrupt = -1 };
	struct grt_task_app app;
	struct grt_config cfg;
	struct grt_report rep;
	struct ep_result tot;
	const char *bad;
	int rank, size, check = 0, rc, l;
	char why[160];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if ((bad = ep_args(argc, argv, &e, &check)) != NULL)
		return usage(rank, bad);
	if (grt_config_init(&cfg, NULL, why, sizeof why) != GRT_OK) {
		if (rank == 0)
			fprintf(stderr, "ep: %s\n", why);
		MPI_Finalize();
		return 2;
	}
	if (e.tasks == 0)
		e.tasks = grt_tasks_default(MPI_COMM_WORLD, &cfg);
	if (e.corrupt >= e.tasks)
		return usage(rank, "--corrupt-task");
	if (rank == 0 && (e.res = calloc((size_t)e.tasks, sizeof *e.res)) == NULL) {
		fprintf(stderr, "ep: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}

	memset(&app, 0, sizeof app);
	app.tasks = e.tasks;
	app.steps = e.steps;
	app.ctx = &e;
	app.init = ep_init;
	app.unpack = ep_unpack;
	app.pack = ep_pack;
	app.step = ep_step;
	app.release = ep_release;
	app.finish = ep_finish;
	rc = grt_tasks_run(MPI_COMM_WORLD, &app, &cfg, &rep);
	if (rc != GRT_OK) {
		fprintf(stderr, "ep: rank %d: %s\n", rank, grt_report_error(rc, &rep));
		return grt_end(rc);
	}
	if (rep.is_master) {
		const char *verdict = "not checked";
		int64_t gauss = 0;
		int nbad, first = 0;

		ep_total(&e, e.res, &tot);
		if (check) {
			if ((nbad = ep_check(&e, &tot, &first)) < 0) {
				fprintf(stderr, "ep: out of memory for the check\n");
				rc = GRT_ENOMEM;
			} else if (nbad > 0 && first >= 0) {
				fprintf(stderr, "ep: wrong result: %d of %d tasks differ from the "
				    "sequential computation (the first: task %d)\n", nbad, e.tasks,
				    first);
				rc = GRT_EAPP;
			} else if (nbad > 0) {
				fprintf(stderr, "ep: wrong result: the totals differ from the "
				    "sequential computation's\n");
				rc = GRT_EAPP;
			}
			verdict = rc == GRT_OK ? "matches the sequential computation" : "WRONG";
		}
		for (l = 0; l < NQ; l++)
			gauss += tot.q[l];
		printf("ep: %d tasks x %lld steps x %lld pairs (seed %llu, state %zu KiB), "
		    "migration %s, %d ranks, makespan %.3f s, %lld migrations, %lld restarted, "
		    "%d failed; %lld gaussians, counts", e.tasks, (long long)e.steps,
		    (long long)e.pairs, (unsigned long long)e.seed,
		    e.words * sizeof(uint64_t) / 1024, grt_migration_name(cfg.migration), size,
		    rep.makespan, (long long)rep.migrations, (long long)rep.restarted,
		    rep.failed_ranks, (long long)gauss);
		for (l = 0; l < NQ; l++)
			printf(" %lld", (long long)tot.q[l]);
		printf(", sx %.17g, sy %.17g, result %s\n", tot.sx, tot.sy, verdict);
		if (rep.events_lost)
			fprintf(stderr, "ep: warning: the event log is incomplete\n");
		free(e.res);
	}
	return grt_end(rc);
}
