/*
 * ssa — stochastic simulated annealing of particles on the unit sphere on libgrt's
 * migratable tasks: the crystallization problem of seed 001's DynamicPVM experiments
 * (section 5.2), which minimises the Coulomb energy E = sum over pairs i < j of
 * 1 / |r_i - r_j| of --particles P points on the sphere (the Thomson problem).
 *
 * T tasks (--tasks; default one per worker that is not a spare) own contiguous subsets of
 * the particles (task i: [i P / T, (i + 1) P / T)). A step is one sweep: in step k >= 1 a
 * task first receives every other task's positions as they sent them in step k - 1 (in
 * step 0 every task knows the starting positions, a pure function of --seed); then, for
 * each of its particles in order, it proposes a random move (a uniform displacement of
 * size d(k), projected back onto the sphere, from the task's own random stream) and
 * accepts it by Metropolis at temperature T(k): always when the energy falls, else with
 * probability exp(-dE / T(k)); then it sends its positions to every other task. So every
 * task sees the others as they were at the end of the previous step, and its own as they
 * are now. T(k) falls geometrically from T0 to T1 over the steps, and d(k) with its
 * square root.
 *
 * A task's state is its own positions, its stream (a splitmix64 counter), the next step
 * and its count of accepted moves; the others' positions arrive anew every step, so a
 * move carries only what the task owns. The master's finish puts the final positions
 * together in task order, then computes the energy. Only + - * / and sqrt touch the
 * positions (exactly rounded, the same bits everywhere); exp and pow decide acceptance
 * and the schedule, the same everywhere one build of the program runs.
 *
 * usage: ssa [--particles P] [--tasks T] [--steps S] [--seed X] [--check]
 *            [--corrupt-task I]
 * --check runs the same algorithm sequentially on the master (a loop over the tasks in
 * each step, each seeing the others' positions of the previous step) and exits 1 unless
 * the energy is bit-identical and every position the same: the proof that states and
 * messages moved intact. --corrupt-task I makes task I's last step change a position by
 * one bit, to see the check fail. The migration policy comes from the environment
 * (GRT_MIGRATION, GRT_SPARE, ...). Exit status: 0 ok, 1 wrong result or runtime error,
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

#define SSA_MAGIC	UINT64_C(0x3176617373747267)	/* "grtssav1" */
#define HDR_WORDS	7	/* magic task next rng accepted first n */
#define MAX_PARTICLES	(1 << 20)
#define GOLDEN		UINT64_C(0x9e3779b97f4a7c15)
#define TEMP_FIRST	1.0	/* T0: most uphill moves of d0 are accepted */
#define TEMP_LAST	1e-4	/* T1: practically only downhill ones */
#define MOVE_FIRST	1.0	/* d0 x the mean spacing of the particles, sqrt(4 pi / P) */
#define FOUR_PI		12.566370614359172

struct ssa {
	int particles;
	int tasks;
	int64_t steps;
	uint64_t seed;
	int corrupt;		/* task whose last step corrupts a position, -1 none */
	double *start;		/* every rank: the starting positions, P x 3 */
	double *final;		/* master: the final positions, P x 3 */
	int64_t accepted;	/* master: accepted moves of every task */
};

/* A task's live state. all holds every particle: its own live, the others as received. */
struct ssa_task {
	int task;
	int64_t next;		/* the step it runs next */
	uint64_t rng;		/* splitmix64 counter */
	int64_t accepted;
	int first, n;		/* its particles */
	double *all;		/* P x 3 */
};

/* splitmix64's finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mix */
static uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* A uniform in [0, 1) from 53 bits of the stream. */
static double
uniform01(uint64_t *rng)
{
	*rng += GOLDEN;
	return (double)(mix64(*rng) >> 11) * 0x1p-53;
}

static int
task_first(const struct ssa *s, int task)
{
	return (int)((int64_t)task * s->particles / s->tasks);
}

static int
task_count(const struct ssa *s, int task)
{
	return task_first(s, task + 1) - task_first(s, task);
}

/*
 * The starting positions: particle i uniform on the sphere, a point of the cube [-1, 1)^3
 * drawn until it falls inside the ball (and not at its centre), then scaled to length 1,
 * from a stream of its own.
 */
static void
ssa_start(const struct ssa *s, double *pos)
{
	double x, y, z, r2, r;
	uint64_t rng;
	int i;

	for (i = 0; i < s->particles; i++) {
		rng = mix64(s->seed * GOLDEN + mix64((uint64_t)i + 1));
		do {
			x = 2 * uniform01(&rng) - 1;
			y = 2 * uniform01(&rng) - 1;
			z = 2 * uniform01(&rng) - 1;
			r2 = x * x + y * y + z * z;
		} while (r2 > 1.0 || r2 < 1e-6);
		r = sqrt(r2);
		pos[3 * i] = x / r;
		pos[3 * i + 1] = y / r;
		pos[3 * i + 2] = z / r;
	}
}

/* The Coulomb energy, pairs in the order (0,1), (0,2), ..., (1,2), ... */
static double
ssa_energy(const double *pos, int p)
{
	double e = 0, dx, dy, dz;
	int i, j;

	for (i = 0; i < p; i++)
		for (j = i + 1; j < p; j++) {
			dx = pos[3 * i] - pos[3 * j];
			dy = pos[3 * i + 1] - pos[3 * j + 1];
			dz = pos[3 * i + 2] - pos[3 * j + 2];
			e += 1.0 / sqrt(dx * dx + dy * dy + dz * dz);
		}
	return e;
}

/* T(k): geometric from TEMP_FIRST at step 0 to TEMP_LAST at the last step. */
static double
temperature(const struct ssa *s, int64_t k)
{
	if (s->steps < 2)
		return TEMP_FIRST;
	return TEMP_FIRST * pow(TEMP_LAST / TEMP_FIRST, (double)k / (double)(s->steps - 1));
}

/* The change of energy when particle p moves from all[p] to (nx, ny, nz). */
static double
delta_energy(const double *all, int np, int p, double nx, double ny, double nz)
{
	const double *r = all + 3 * p;
	double eo = 0, en = 0, dx, dy, dz;
	int j;

	for (j = 0; j < np; j++) {
		if (j == p)
			continue;
		dx = r[0] - all[3 * j];
		dy = r[1] - all[3 * j + 1];
		dz = r[2] - all[3 * j + 2];
		eo += 1.0 / sqrt(dx * dx + dy * dy + dz * dz);
		dx = nx - all[3 * j];
		dy = ny - all[3 * j + 1];
		dz = nz - all[3 * j + 2];
		en += 1.0 / sqrt(dx * dx + dy * dy + dz * dz);
	}
	return en - eo;
}

/*
 * Step k's sweep over task t's particles, inside all (every particle: t's own as they are
 * now, the others as they were at the end of step k - 1). Four draws per particle,
 * whatever happens, so the stream's position depends only on the steps done.
 */
static void
ssa_sweep(const struct ssa *s, struct ssa_task *t, int64_t k)
{
	double temp = temperature(s, k);
	double d = MOVE_FIRST * sqrt(FOUR_PI / s->particles) * sqrt(temp / TEMP_FIRST);
	double x, y, z, r, u, de;
	double *a;
	int p;

	for (p = t->first; p < t->first + t->n; p++) {
		a = t->all + 3 * p;
		x = a[0] + d * (2 * uniform01(&t->rng) - 1);
		y = a[1] + d * (2 * uniform01(&t->rng) - 1);
		z = a[2] + d * (2 * uniform01(&t->rng) - 1);
		u = uniform01(&t->rng);
		if ((r = sqrt(x * x + y * y + z * z)) == 0)
			continue;
		x /= r;
		y /= r;
		z /= r;
		de = delta_energy(t->all, s->particles, p, x, y, z);
		if (de <= 0 || u < exp(-de / temp)) {
			a[0] = x;
			a[1] = y;
			a[2] = z;
			t->accepted++;
		}
	}
	t->next = k + 1;
}

static void
ssa_task_free(struct ssa_task *t)
{
	if (t != NULL)
		free(t->all);
	free(t);
}

/* Task task before its first step: every particle at its start. */
static struct ssa_task *
ssa_task_new(const struct ssa *s, int task)
{
	struct ssa_task *t;

	if ((t = calloc(1, sizeof *t)) == NULL)
		return NULL;
	if ((t->all = malloc((size_t)s->particles * 3 * sizeof *t->all)) == NULL) {
		free(t);
		return NULL;
	}
	memcpy(t->all, s->start, (size_t)s->particles * 3 * sizeof *t->all);
	t->task = task;
	t->rng = mix64(s->seed * GOLDEN + mix64(UINT64_C(1) << 40 | (uint64_t)task));
	t->first = task_first(s, task);
	t->n = task_count(s, task);
	return t;
}

static int
ssa_pack_task(const struct ssa_task *t, grt_buf *st)
{
	uint64_t h[HDR_WORDS] = { SSA_MAGIC, (uint64_t)t->task, (uint64_t)t->next, t->rng,
	    (uint64_t)t->accepted, (uint64_t)t->first, (uint64_t)t->n };

	if (grt_buf_append(st, h, sizeof h) != GRT_OK ||
	    grt_buf_append(st, t->all + 3 * t->first, (size_t)t->n * 3 * sizeof *t->all) !=
	    GRT_OK)
		return -1;
	return 0;
}

/*
 * A packed state into a live one, the other particles at their start (step 0 needs them
 * so; later steps receive them): NULL, with the reason on stderr, when it is not task's or
 * not of this run's size.
 */
static struct ssa_task *
ssa_unpack_task(const struct ssa *s, int task, const void *data, size_t len)
{
	struct ssa_task *t;
	uint64_t h[HDR_WORDS];
	const char *why = NULL;

	if (len < sizeof h)
		why = "shorter than its header";
	else {
		memcpy(h, data, sizeof h);
		if (h[0] != SSA_MAGIC || h[1] != (uint64_t)task)
			why = "not this task's";
		else if (h[2] > (uint64_t)s->steps)
			why = "past the last step";
		else if (h[5] != (uint64_t)task_first(s, task) ||
		    h[6] != (uint64_t)task_count(s, task) ||
		    len != sizeof h + h[6] * 3 * sizeof(double))
			why = "not of this run's --particles and --tasks";
	}
	if (why != NULL) {
		fprintf(stderr, "ssa: task %d: a state of %zu bytes is %s\n", task, len, why);
		return NULL;
	}
	if ((t = ssa_task_new(s, task)) == NULL)
		return NULL;
	t->next = (int64_t)h[2];
	t->rng = h[3];
	t->accepted = (int64_t)h[4];
	memcpy(t->all + 3 * t->first, (const unsigned char *)data + sizeof h,
	    (size_t)t->n * 3 * sizeof *t->all);
	return t;
}

static int
ssa_init(void *ctx, int task, grt_buf *st)
{
	struct ssa_task *t;
	int rc;

	if ((t = ssa_task_new(ctx, task)) == NULL)
		return -1;
	rc = ssa_pack_task(t, st);
	ssa_task_free(t);
	return rc;
}

static int
ssa_unpack(void *ctx, int task, const void *data, size_t len, void **state)
{
	return (*state = ssa_unpack_task(ctx, task, data, len)) == NULL ? -1 : 0;
}

static int
ssa_pack(void *ctx, int task, const void *state, grt_buf *st)
{
	return ssa_pack_task(state, st);
}

/*
 * Step k >= 1: every other task's positions of step k - 1 into t->all. A message is the
 * step it was sent in, then the sender's positions. Returns 0, or -1 with the reason on
 * stderr (none when the run is being stopped).
 */
static int
ssa_receive(const struct ssa *s, struct ssa_task *t, int64_t k, struct grt_task_io *io)
{
	const void *data;
	uint64_t sent;
	size_t len;
	int j, rc;

	for (j = 0; j < s->tasks; j++) {
		if (j == t->task)
			continue;
		if ((rc = grt_task_recv(io, j, &data, &len)) != GRT_OK) {
			if (rc != GRT_EMASTER)
				fprintf(stderr, "ssa: task %d, step %lld: no message from task %d: "
				    "%s\n", t->task, (long long)k, j, grt_strerror(rc));
			return -1;
		}
		if (len != sizeof sent + (size_t)task_count(s, j) * 3 * sizeof(double)) {
			fprintf(stderr, "ssa: task %d, step %lld: a message of %zu bytes from "
			    "task %d\n", t->task, (long long)k, len, j);
			return -1;
		}
		memcpy(&sent, data, sizeof sent);
		if (sent != (uint64_t)(k - 1)) {
			fprintf(stderr, "ssa: task %d, step %lld: task %d's message of step %llu, "
			    "not %lld\n", t->task, (long long)k, j, (unsigned long long)sent,
			    (long long)(k - 1));
			return -1;
		}
		memcpy(t->all + 3 * task_first(s, j), (const unsigned char *)data + sizeof sent,
		    len - sizeof sent);
	}
	return 0;
}

/* t's positions of step k to every other task (none after the last step: no one reads). */
static int
ssa_send(const struct ssa *s, struct ssa_task *t, int64_t k, struct grt_task_io *io)
{
	size_t len = sizeof(uint64_t) + (size_t)t->n * 3 * sizeof(double);
	uint64_t sent = (uint64_t)k;
	unsigned char *msg;
	int j, rc = 0;

	if (k == s->steps - 1 || s->tasks == 1)
		return 0;
	if ((msg = malloc(len)) == NULL)
		return -1;
	memcpy(msg, &sent, sizeof sent);
	memcpy(msg + sizeof sent, t->all + 3 * t->first, len - sizeof sent);
	for (j = 0; j < s->tasks && rc == 0; j++)
		if (j != t->task && grt_task_send(io, j, msg, len) != GRT_OK) {
			fprintf(stderr, "ssa: task %d, step %lld: cannot send to task %d\n",
			    t->task, (long long)k, j);
			rc = -1;
		}
	free(msg);
	return rc;
}

static int
ssa_step(void *ctx, int task, void *state, int64_t step, struct grt_task_io *io)
{
	const struct ssa *s = ctx;
	struct ssa_task *t = state;

	if (t->next != step) {
		fprintf(stderr, "ssa: task %d: asked for step %lld, its state is at step %lld\n",
		    task, (long long)step, (long long)t->next);
		return -1;
	}
	if (step > 0 && ssa_receive(s, t, step, io) != 0)
		return -1;
	ssa_sweep(s, t, step);
	if (task == s->corrupt && step == s->steps - 1)
		t->all[3 * t->first] = nextafter(t->all[3 * t->first], 2.0);
	return ssa_send(s, t, step, io);
}

static void
ssa_release(void *ctx, int task, void *state)
{
	ssa_task_free(state);
}

/* Master: a task's final positions into their place. */
static int
ssa_finish(void *ctx, int task, const void *data, size_t len)
{
	struct ssa *s = ctx;
	struct ssa_task *t;

	if ((t = ssa_unpack_task(s, task, data, len)) == NULL)
		return -1;
	if (t->next != s->steps) {
		fprintf(stderr, "ssa: task %d: its final state is at step %lld of %lld\n", task,
		    (long long)t->next, (long long)s->steps);
		ssa_task_free(t);
		return -1;
	}
	memcpy(s->final + 3 * t->first, t->all + 3 * t->first,
	    (size_t)t->n * 3 * sizeof *t->all);
	s->accepted += t->accepted;
	ssa_task_free(t);
	return 0;
}

/*
 * The same annealing sequentially: in each step every task in turn sweeps over the
 * positions of the end of the previous step (its own included, which are the same), and
 * its own new positions go into those of this step. The final positions into pos (P x 3)
 * and the accepted moves into *accepted; -1 out of memory.
 */
static int
ssa_sequential(const struct ssa *s, double *pos, int64_t *accepted)
{
	size_t bytes = (size_t)s->particles * 3 * sizeof(double);
	struct ssa_task **t;
	double *prev;
	int64_t k;
	int i, rc = -1;

	prev = malloc(bytes);
	t = calloc((size_t)s->tasks, sizeof *t);
	for (i = 0; t != NULL && i < s->tasks; i++)
		if ((t[i] = ssa_task_new(s, i)) == NULL)
			break;
	if (prev != NULL && t != NULL && i == s->tasks) {
		memcpy(prev, s->start, bytes);
		for (k = 0; k < s->steps; k++) {
			for (i = 0; i < s->tasks; i++) {
				memcpy(t[i]->all, prev, bytes);
				ssa_sweep(s, t[i], k);
				memcpy(pos + 3 * t[i]->first, t[i]->all + 3 * t[i]->first,
				    (size_t)t[i]->n * 3 * sizeof(double));
			}
			memcpy(prev, pos, bytes);
		}
		for (*accepted = 0, i = 0; i < s->tasks; i++)
			*accepted += t[i]->accepted;
		rc = 0;
	}
	for (i = 0; t != NULL && i < s->tasks; i++)
		ssa_task_free(t[i]);
	free(t);
	free(prev);
	return rc;
}

static int
usage(int rank, const char *bad)
{
	if (rank == 0) {
		if (bad != NULL)
			fprintf(stderr, "ssa: bad argument '%s'\n", bad);
		fprintf(stderr, "usage: ssa [--particles P] [--tasks T] [--steps S] [--seed X] "
		    "[--check] [--corrupt-task I]\n");
	}
	MPI_Finalize();
	return 2;
}

/* The options into s (tasks 0: the default); returns the argument that is wrong, or NULL. */
static const char *
ssa_args(int argc, char **argv, struct ssa *s, int *check)
{
	int64_t n;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--check") == 0)
			*check = 1;
		else if (strcmp(a, "--particles") == 0 &&
		    numarg_int(v, 2, MAX_PARTICLES, &n) == 0) {
			s->particles = (int)n;
			i++;
		} else if (strcmp(a, "--tasks") == 0 && numarg_int(v, 1, MAX_PARTICLES, &n) == 0) {
			s->tasks = (int)n;
			i++;
		} else if (strcmp(a, "--steps") == 0 && numarg_int(v, 1, INT64_C(1) << 40,
		    &s->steps) == 0)
			i++;
		else if (strcmp(a, "--seed") == 0 && numarg_int(v, 0, INT64_MAX, &n) == 0) {
			s->seed = (uint64_t)n;
			i++;
		} else if (strcmp(a, "--corrupt-task") == 0 && numarg_int(v, 0, INT32_MAX,
		    &n) == 0) {
			s->corrupt = (int)n;
			i++;
		} else
			return a;
	}
	return NULL;
}

/*
 * The master's verdict under --check: GRT_OK when the sequential run ends with the same
 * positions and the same energy, bit for bit; else the difference on stderr.
 */
static int
ssa_check(const struct ssa *s, double energy)
{
	size_t bytes = (size_t)s->particles * 3 * sizeof(double);
	double *pos, seq;
	int64_t acc, moved = 0;
	int i;

	if ((pos = malloc(bytes)) == NULL || ssa_sequential(s, pos, &acc) != 0) {
		fprintf(stderr, "ssa: out of memory for the check\n");
		free(pos);
		return GRT_ENOMEM;
	}
	seq = ssa_energy(pos, s->particles);
	for (i = 0; i < s->particles; i++)
		moved += memcmp(pos + 3 * i, s->final + 3 * i, 3 * sizeof *pos) != 0;
	free(pos);
	if (moved == 0 && acc == s->accepted && memcmp(&seq, &energy, sizeof seq) == 0)
		return GRT_OK;
	fprintf(stderr, "ssa: wrong result: energy %.17g, the sequential computation's %.17g "
	    "(%lld of %d particles elsewhere, %lld accepted moves, the sequential %lld)\n",
	    energy, seq, (long long)moved, s->particles, (long long)s->accepted,
	    (long long)acc);
	return GRT_EAPP;
}

int
main(int argc, char **argv)
{
	struct ssa s = { .particles = 1024, .steps = 200, .seed = 1, .corrupt = -1 };
	struct grt_task_app app;
	struct grt_config cfg;
	struct grt_report rep;
	const char *bad;
	int rank, size, check = 0, rc;
	char why[160];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if ((bad = ssa_args(argc, argv, &s, &check)) != NULL)
		return usage(rank, bad);
	if (grt_config_init(&cfg, NULL, why, sizeof why) != GRT_OK) {
		if (rank == 0)
			fprintf(stderr, "ssa: %s\n", why);
		MPI_Finalize();
		return 2;
	}
	if (s.tasks == 0)
		s.tasks = grt_tasks_default(MPI_COMM_WORLD, &cfg);
	if (s.tasks > s.particles)
		return usage(rank, "--tasks");
	if (s.corrupt >= s.tasks)
		return usage(rank, "--corrupt-task");
	if ((s.start = malloc((size_t)s.particles * 3 * sizeof *s.start)) == NULL ||
	    (rank == 0 && (s.final = malloc((size_t)s.particles * 3 *
	    sizeof *s.final)) == NULL)) {
		fprintf(stderr, "ssa: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	ssa_start(&s, s.start);

	memset(&app, 0, sizeof app);
	app.tasks = s.tasks;
	app.steps = s.steps;
	app.ctx = &s;
	app.init = ssa_init;
	app.unpack = ssa_unpack;
	app.pack = ssa_pack;
	app.step = ssa_step;
	app.release = ssa_release;
	app.finish = ssa_finish;
	rc = grt_tasks_run(MPI_COMM_WORLD, &app, &cfg, &rep);
	if (rc != GRT_OK) {
		fprintf(stderr, "ssa: rank %d: %s\n", rank, grt_report_error(rc, &rep));
		free(s.start);
		free(s.final);
		return grt_end(rc);
	}
	if (rep.is_master) {
		const char *verdict = "not checked";
		double energy = ssa_energy(s.final, s.particles);

		if (check) {
			rc = ssa_check(&s, energy);
			verdict = rc == GRT_OK ? "matches the sequential computation" : "WRONG";
		}
		printf("ssa: %d particles, %d tasks x %lld steps (seed %llu), migration %s, "
		    "%d ranks, makespan %.3f s, %lld migrations, %lld restarted, %d failed; "
		    "%lld of %lld moves accepted, energy %.17g (start %.17g), result %s\n",
		    s.particles, s.tasks, (long long)s.steps, (unsigned long long)s.seed,
		    grt_migration_name(cfg.migration), size, rep.makespan,
		    (long long)rep.migrations, (long long)rep.restarted, rep.failed_ranks,
		    (long long)s.accepted, (long long)s.particles * s.steps, energy,
		    ssa_energy(s.start, s.particles), verdict);
		if (rep.events_lost)
			fprintf(stderr, "ssa: warning: the event log is incomplete\n");
	}
	free(s.start);
	free(s.final);
	return grt_end(rc);
}
