/*
 * task-check — the MPI test program of libgrt's migratable tasks (grt_tasks_run): every
 * task's final state must equal the one a sequential run of the same tasks computes, so a
 * message lost, doubled, reordered or given to the wrong step, or a state damaged on a move
 * or a restart, shows.
 *
 * Task i holds a 64-bit value v_i(k) and a count of messages taken. In step k >= 1 it
 * receives from every task it listens to the value that task had after step k - 1, checks
 * the message names its sender and step, and folds them all into its value in the order of
 * the senders' ids; then it sends its new value to every task that listens to it. --ring:
 * a task listens to its left neighbour only; --alone: to none (no messages at all). The
 * state carries --state-kb KiB of bytes derived from the value, checked when it arrives.
 *
 * --die-rank R --die-step K: rank R raises SIGKILL on itself when it is about to run step K
 * of any task. --bad-unpack T: unpacking task T fails once it has done a step (after a move
 * or a restart), to see the run end with GRT_EAPP naming the task. --work-us U: each step
 * spins that long.
 *
 * usage: task-check [--tasks T] [--steps S] [--ring | --alone] [--state-kb N]
 *                   [--work-us U] [--die-rank R --die-step K] [--bad-unpack T]
 * The GRT_* environment applies (GRT_MIGRATION=rotate moves every task after every step).
 * The master prints "task-check: ok: tasks T steps S migrations M restarted R failed F
 * checksum C" or "task-check: FAILED: why". Exit 0 ok, 1 wrong or failed, 2 usage.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include <grt/grt.h>

#include "tests/runtime/mpi/check-hash.h"

enum listen { LISTEN_ALL, LISTEN_RING, LISTEN_NONE };

struct opts {
	int tasks;
	int64_t steps;
	enum listen listen;
	size_t state_kb;
	long work_us;
	int die_rank;
	int64_t die_step;
	int bad_unpack;
	int rank;
};

struct tstate {
	uint64_t v;
	int64_t done;		/* steps done */
	int64_t taken;		/* messages received */
	unsigned char pad[];	/* state_kb KiB, byte b = mix(v0 + b) & 0xff of the task's id */
};

struct msg {
	int32_t from;
	int32_t pad;
	int64_t step;
	uint64_t v;
};

struct ctx {
	struct opts o;
	uint64_t *final_v;
	int64_t *final_taken;
	char why[256];
};

static size_t
state_size(const struct opts *o)
{
	return sizeof(struct tstate) + o->state_kb * 1024;
}

static int
listens(const struct opts *o, int task, int from)
{
	switch (o->listen) {
	case LISTEN_RING:
		return from == (task + o->tasks - 1) % o->tasks && from != task;
	case LISTEN_NONE:
		return 0;
	default:
		return from != task;
	}
}

static void
pad_fill(const struct opts *o, int task, unsigned char *pad)
{
	size_t b, n = o->state_kb * 1024;

	for (b = 0; b < n; b++)
		pad[b] = (unsigned char)(mix((uint64_t)task * 1000003u + b) & 0xff);
}

static int
t_init(void *vctx, int task, grt_buf *st)
{
	struct ctx *c = vctx;
	size_t n = state_size(&c->o);
	struct tstate *s = calloc(1, n);
	int rc;

	if (s == NULL)
		return -1;
	s->v = mix((uint64_t)task + 1);
	pad_fill(&c->o, task, s->pad);
	rc = grt_buf_append(st, s, n);
	free(s);
	return rc;
}

static int
t_unpack(void *vctx, int task, const void *data, size_t len, void **state)
{
	struct ctx *c = vctx;
	size_t n = state_size(&c->o);
	struct tstate *s;
	unsigned char *want;
	int bad;

	if (len != n || (s = malloc(n)) == NULL)
		return -1;
	memcpy(s, data, n);
	if (c->o.bad_unpack == task && s->done > 0) {
		free(s);
		return -1;
	}
	if ((want = malloc(c->o.state_kb * 1024 + 1)) == NULL) {
		free(s);
		return -1;
	}
	pad_fill(&c->o, task, want);
	bad = memcmp(want, s->pad, c->o.state_kb * 1024) != 0;
	free(want);
	if (bad) {
		free(s);
		return -1;
	}
	*state = s;
	return 0;
}

static int
t_pack(void *vctx, int task, const void *state, grt_buf *st)
{
	struct ctx *c = vctx;

	return grt_buf_append(st, state, state_size(&c->o));
}

static void
spin(long us)
{
	struct timespec a, b;

	if (us <= 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}

/* The fold of step k: the same in the parallel and the sequential run. */
static uint64_t
fold(uint64_t v, int64_t k, uint64_t got)
{
	return mix(v ^ mix((uint64_t)k) ^ got);
}

static int
t_step(void *vctx, int task, void *state, int64_t k, struct grt_task_io *io)
{
	struct ctx *c = vctx;
	struct tstate *s = state;
	uint64_t got = 0;
	struct msg out;
	int j;

	if (c->o.die_rank == c->o.rank && k == c->o.die_step)
		raise(SIGKILL);
	if (s->done != k)
		return -1;
	for (j = 0; j < c->o.tasks && k > 0; j++) {
		const void *p;
		struct msg in;
		size_t len;

		if (!listens(&c->o, task, j))
			continue;
		if (grt_task_recv(io, j, &p, &len) != GRT_OK || len != sizeof in)
			return -1;
		memcpy(&in, p, sizeof in);
		if (in.from != j || in.step != k - 1)
			return -1;
		got = mix(got ^ in.v);
		s->taken++;
	}
	spin(c->o.work_us);
	s->v = fold(s->v, k, got);
	s->done = k + 1;
	memset(&out, 0, sizeof out);
	out.from = task;
	out.step = k;
	out.v = s->v;
	for (j = 0; j < c->o.tasks; j++)
		if (listens(&c->o, j, task) && grt_task_send(io, j, &out, sizeof out) != GRT_OK)
			return -1;
	return 0;
}

static void
t_release(void *vctx, int task, void *state)
{
	free(state);
}

static int
t_finish(void *vctx, int task, const void *data, size_t len)
{
	struct ctx *c = vctx;
	struct tstate s;

	if (len != state_size(&c->o))
		return -1;
	memcpy(&s, data, sizeof s);
	c->final_v[task] = s.v;
	c->final_taken[task] = s.taken;
	return 0;
}

/* The same tasks one after another, step by step: what the run must end with. */
static int
sequential(const struct opts *o, uint64_t *v, int64_t *taken)
{
	uint64_t *prev = malloc((size_t)o->tasks * sizeof *prev);
	int64_t k;
	int i, j;

	if (prev == NULL)
		return -1;
	for (i = 0; i < o->tasks; i++) {
		v[i] = mix((uint64_t)i + 1);
		taken[i] = 0;
	}
	for (k = 0; k < o->steps; k++) {
		memcpy(prev, v, (size_t)o->tasks * sizeof *prev);
		for (i = 0; i < o->tasks; i++) {
			uint64_t got = 0;

			for (j = 0; j < o->tasks && k > 0; j++) {
				if (!listens(o, i, j))
					continue;
				got = mix(got ^ prev[j]);
				taken[i]++;
			}
			v[i] = fold(v[i], k, got);
		}
	}
	free(prev);
	return 0;
}

static int
usage(void)
{
	fprintf(stderr, "usage: task-check [--tasks T] [--steps S] [--ring | --alone] "
	    "[--state-kb N] [--work-us U] [--die-rank R --die-step K] [--bad-unpack T]\n");
	return 2;
}

static int
parse(int argc, char **argv, struct opts *o)
{
	int i;

	o->tasks = 0;
	o->steps = 20;
	o->die_rank = -1;
	o->die_step = -1;
	o->bad_unpack = -1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--ring") == 0) {
			o->listen = LISTEN_RING;
			continue;
		}
		if (strcmp(a, "--alone") == 0) {
			o->listen = LISTEN_NONE;
			continue;
		}
		if (v == NULL)
			return -1;
		i++;
		if (strcmp(a, "--tasks") == 0)
			o->tasks = atoi(v);
		else if (strcmp(a, "--steps") == 0)
			o->steps = atoll(v);
		else if (strcmp(a, "--state-kb") == 0)
			o->state_kb = (size_t)atol(v);
		else if (strcmp(a, "--work-us") == 0)
			o->work_us = atol(v);
		else if (strcmp(a, "--die-rank") == 0)
			o->die_rank = atoi(v);
		else if (strcmp(a, "--die-step") == 0)
			o->die_step = atoll(v);
		else if (strcmp(a, "--bad-unpack") == 0)
			o->bad_unpack = atoi(v);
		else
			return -1;
	}
	return o->steps >= 1 ? 0 : -1;
}

int
main(int argc, char **argv)
{
	struct grt_task_app app;
	struct grt_config cfg;
	struct grt_report rep;
	struct ctx c;
	char why[256];
	int rc, i, ok = 1;

	MPI_Init(&argc, &argv);
	memset(&c, 0, sizeof c);
	MPI_Comm_rank(MPI_COMM_WORLD, &c.o.rank);
	if (parse(argc, argv, &c.o) != 0) {
		if (c.o.rank == 0)
			usage();
		MPI_Finalize();
		return 2;
	}
	if (grt_config_init(&cfg, NULL, why, sizeof why) != GRT_OK) {
		if (c.o.rank == 0)
			fprintf(stderr, "task-check: %s\n", why);
		MPI_Finalize();
		return 2;
	}
	if (c.o.tasks <= 0)
		c.o.tasks = grt_tasks_default(MPI_COMM_WORLD, &cfg);
	c.final_v = calloc((size_t)c.o.tasks, sizeof *c.final_v);
	c.final_taken = calloc((size_t)c.o.tasks, sizeof *c.final_taken);
	memset(&app, 0, sizeof app);
	app.tasks = c.o.tasks;
	app.steps = c.o.steps;
	app.ctx = &c;
	app.init = t_init;
	app.unpack = t_unpack;
	app.pack = t_pack;
	app.step = t_step;
	app.release = t_release;
	app.finish = t_finish;
	rc = grt_tasks_run(MPI_COMM_WORLD, &app, &cfg, &rep);
	if (rep.is_master) {
		uint64_t *v = calloc((size_t)c.o.tasks, sizeof *v), sum = 0;
		int64_t *taken = calloc((size_t)c.o.tasks, sizeof *taken);

		if (rc != GRT_OK) {
			printf("task-check: FAILED: %s\n", grt_report_error(rc, &rep));
			ok = 0;
		} else if (v == NULL || taken == NULL || sequential(&c.o, v, taken) != 0) {
			printf("task-check: FAILED: out of memory\n");
			ok = 0;
		}
		for (i = 0; ok && i < c.o.tasks; i++) {
			if (c.final_v[i] != v[i] || c.final_taken[i] != taken[i]) {
				printf("task-check: FAILED: task %d ends with %016llx after %lld "
				    "messages, the sequential run with %016llx after %lld\n", i,
				    (unsigned long long)c.final_v[i], (long long)c.final_taken[i],
				    (unsigned long long)v[i], (long long)taken[i]);
				ok = 0;
			}
			sum = mix(sum ^ v[i]);
		}
		if (ok)
			printf("task-check: ok: tasks %d steps %lld migrations %lld restarted %lld "
			    "failed %d checksum %016llx\n", c.o.tasks, (long long)c.o.steps,
			    (long long)rep.migrations, (long long)rep.restarted, rep.failed_ranks,
			    (unsigned long long)sum);
		fflush(stdout);
		free(v);
		free(taken);
	}
	free(c.final_v);
	free(c.final_taken);
	return grt_end(rc == GRT_OK && ok ? GRT_OK : rc != GRT_OK ? rc : GRT_EAPP);
}
