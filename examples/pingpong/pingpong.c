/*
 * pingpong — seed 001's fig. 3 measured here: the cost of location-independent task ids.
 * The paper timed a ping-pong between two tasks under PVM (direct task ids) and under
 * DynamicPVM (virtual ids, every message routed through a table lookup), and found the
 * latter's send time about 5 % longer. This program runs the same ping-pong both ways,
 * between the same two ranks (1 and 2; rank 0 only prints):
 *
 * --mode rank   plain MPI: rank 1 sends a message of --bytes bytes with MPI_Send, rank 2
 *               receives it with MPI_Recv and sends it back. A round trip is the send and
 *               the receive of both messages.
 * --mode task   two tasks of libgrt's task runtime (grt_tasks_run, doc/tasks.md), task 0
 *               on rank 1 and task 1 on rank 2, rank 0 their master: task 0 sends the
 *               message to task 1 by its id with grt_task_send, task 1 gets it with
 *               grt_task_recv in its next step and sends it back, which task 0 gets in
 *               the step after. A message sent in step k is received in step k + 1, so a
 *               round trip is two steps of each task: it costs whatever the runtime adds
 *               per message and per step (the copy of the message, the lookup of where
 *               its task is, each step's report to the master, the steps in which a task
 *               only waits).
 *
 * Both modes run --warmup round trips first (the ranks' first contact), untimed, then
 * --count timed ones, by MPI_Wtime (simulated time under SMPI); both check every message
 * they receive against the one sent (its round number, its length, every byte) with the
 * same code. Rank 0 prints one line, whose "round trip T us" an experiment reads as a
 * metric (examples/experiments/seed001-fig3.yaml):
 *   pingpong: mode task, 1024 bytes, 1000 round trips after 10 warm-up, round trip
 *   412.345 us, messages intact
 *
 * usage: pingpong [--mode rank|task] [--bytes N] [--count C] [--warmup W]
 * At least 3 ranks (the others idle). Exit status: 0 ok, 1 a damaged message or a runtime
 * error, 2 usage.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include <grt/grt.h>

#include "common/numarg.h"

#define PP_HDR		sizeof(int64_t)		/* a message starts with its round */
#define PP_MAX_BYTES	(INT64_C(16) << 20)
#define PP_MAGIC	UINT64_C(0x31676e6f70676e70)	/* "pngpong1" */
#define PP_TAG		41

struct pp {
	int task_mode;
	int64_t bytes;
	int64_t count;		/* timed round trips */
	int64_t warmup;		/* untimed ones before */
	unsigned char *ref;	/* the message's bytes after its header */
	unsigned char *msg;	/* a message being sent */
	double rtt;		/* master: seconds per round trip */
	int64_t damaged;	/* master: messages that did not arrive as sent */
};

/* A task's state, packed as it is (both ends of a move run this program). */
struct pp_task {
	uint64_t magic;
	int64_t task;
	int64_t next;		/* the step it runs next */
	int64_t damaged;
	double t0, t1;		/* task 0: the timed round trips' start and end */
};

/* The message of round r, in p->msg. */
static void
pp_fill(struct pp *p, int64_t r)
{
	memcpy(p->msg, &r, PP_HDR);
	memcpy(p->msg + PP_HDR, p->ref, (size_t)p->bytes - PP_HDR);
}

/* 1 unless data is round r's message, whole. */
static int
pp_damaged(const struct pp *p, int64_t r, const void *data, size_t len)
{
	int64_t h;

	if (len != (size_t)p->bytes)
		return 1;
	memcpy(&h, data, PP_HDR);
	return h != r || memcmp((const unsigned char *)data + PP_HDR, p->ref,
	    len - PP_HDR) != 0;
}

/* --mode rank on rank 1: the round trips to rank 2; the time per timed one in *rtt. */
static int64_t
pp_rank_ping(struct pp *p, unsigned char *in, double *rtt)
{
	int64_t r, damaged = 0;
	double t0 = 0;

	for (r = 0; r < p->warmup + p->count; r++) {
		if (r == p->warmup)
			t0 = MPI_Wtime();
		pp_fill(p, r);
		MPI_Send(p->msg, (int)p->bytes, MPI_BYTE, 2, PP_TAG, MPI_COMM_WORLD);
		MPI_Recv(in, (int)p->bytes, MPI_BYTE, 2, PP_TAG, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE);
		damaged += pp_damaged(p, r, in, (size_t)p->bytes);
	}
	*rtt = (MPI_Wtime() - t0) / (double)p->count;
	return damaged;
}

/* --mode rank on rank 2: every message back as it came. */
static int64_t
pp_rank_pong(struct pp *p, unsigned char *in)
{
	int64_t r, damaged = 0;

	for (r = 0; r < p->warmup + p->count; r++) {
		MPI_Recv(in, (int)p->bytes, MPI_BYTE, 1, PP_TAG, MPI_COMM_WORLD,
		    MPI_STATUS_IGNORE);
		damaged += pp_damaged(p, r, in, (size_t)p->bytes);
		MPI_Send(in, (int)p->bytes, MPI_BYTE, 1, PP_TAG, MPI_COMM_WORLD);
	}
	return damaged;
}

/* --mode rank: ranks 1 and 2 play, rank 0 gathers their figures. */
static int
pp_rank_run(struct pp *p, int rank)
{
	unsigned char *in = NULL;
	double fig[2] = { 0, 0 };	/* seconds per round trip, messages damaged */
	double other[2];

	if (rank == 1 || rank == 2) {
		if ((in = malloc((size_t)p->bytes)) == NULL) {
			fprintf(stderr, "pingpong: rank %d: out of memory\n", rank);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		if (rank == 1)
			fig[1] = (double)pp_rank_ping(p, in, &fig[0]);
		else
			fig[1] = (double)pp_rank_pong(p, in);
		free(in);
		MPI_Send(fig, 2, MPI_DOUBLE, 0, PP_TAG, MPI_COMM_WORLD);
	} else if (rank == 0) {
		MPI_Recv(fig, 2, MPI_DOUBLE, 1, PP_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(other, 2, MPI_DOUBLE, 2, PP_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		p->rtt = fig[0];
		p->damaged = (int64_t)(fig[1] + other[1]);
	}
	return GRT_OK;
}

static int
pp_init(void *ctx, int task, grt_buf *st)
{
	struct pp_task t = { .magic = PP_MAGIC, .task = task };

	return grt_buf_append(st, &t, sizeof t);
}

static int
pp_unpack(void *ctx, int task, const void *data, size_t len, void **state)
{
	struct pp_task *t;

	if (len != sizeof *t || (t = malloc(sizeof *t)) == NULL)
		return -1;
	memcpy(t, data, sizeof *t);
	if (t->magic != PP_MAGIC || t->task != task) {
		free(t);
		return -1;
	}
	*state = t;
	return 0;
}

static int
pp_pack(void *ctx, int task, const void *state, grt_buf *st)
{
	return grt_buf_append(st, state, sizeof(struct pp_task));
}

/*
 * Task 0 in even step k: the pong of round k/2 - 1 (k > 0), then the ping of round k/2
 * while rounds are left; task 1 in odd step k: the ping of round (k - 1)/2, sent back.
 * The other steps have no message: the task ends the step at once.
 */
static int
pp_step(void *ctx, int task, void *state, int64_t k, struct grt_task_io *io)
{
	struct pp *p = ctx;
	struct pp_task *t = state;
	int64_t rounds = p->warmup + p->count;
	const void *data;
	size_t len;
	int rc;

	if (t->next != k) {
		fprintf(stderr, "pingpong: task %d: asked for step %lld, its state is at step "
		    "%lld\n", task, (long long)k, (long long)t->next);
		return -1;
	}
	t->next = k + 1;
	if ((k % 2 == 0) != (task == 0))
		return 0;
	if (k > 0) {
		if ((rc = grt_task_recv(io, 1 - task, &data, &len)) != GRT_OK) {
			if (rc != GRT_EMASTER)
				fprintf(stderr, "pingpong: task %d, step %lld: no message: %s\n",
				    task, (long long)k, grt_strerror(rc));
			return -1;
		}
		t->damaged += pp_damaged(p, task == 0 ? k / 2 - 1 : (k - 1) / 2, data, len);
		if (task == 1)
			return grt_task_send(io, 0, data, len) == GRT_OK ? 0 : -1;
	}
	if (k / 2 == p->warmup)
		t->t0 = MPI_Wtime();
	if (k / 2 == rounds) {
		t->t1 = MPI_Wtime();
		return 0;
	}
	pp_fill(p, k / 2);
	return grt_task_send(io, 1, p->msg, (size_t)p->bytes) == GRT_OK ? 0 : -1;
}

static void
pp_release(void *ctx, int task, void *state)
{
	free(state);
}

/* Master: each task's final state; task 0's holds the time. */
static int
pp_finish(void *ctx, int task, const void *data, size_t len)
{
	struct pp *p = ctx;
	struct pp_task t;

	if (len != sizeof t)
		return -1;
	memcpy(&t, data, sizeof t);
	if (t.magic != PP_MAGIC || t.task != task)
		return -1;
	if (task == 0)
		p->rtt = (t.t1 - t.t0) / (double)p->count;
	p->damaged += t.damaged;
	return 0;
}

/* --mode task: two tasks, 2 (warm-up + count) + 1 steps (the last pong's). */
static int
pp_task_run(struct pp *p, int rank)
{
	struct grt_task_app app;
	struct grt_config cfg;
	struct grt_report rep;
	char why[160];
	int rc;

	if ((rc = grt_config_init(&cfg, NULL, why, sizeof why)) != GRT_OK) {
		if (rank == 0)
			fprintf(stderr, "pingpong: %s\n", why);
		return rc;
	}
	memset(&app, 0, sizeof app);
	app.tasks = 2;
	app.steps = 2 * (p->warmup + p->count) + 1;
	app.ctx = p;
	app.init = pp_init;
	app.unpack = pp_unpack;
	app.pack = pp_pack;
	app.step = pp_step;
	app.release = pp_release;
	app.finish = pp_finish;
	if ((rc = grt_tasks_run(MPI_COMM_WORLD, &app, &cfg, &rep)) != GRT_OK)
		fprintf(stderr, "pingpong: rank %d: %s\n", rank, grt_report_error(rc, &rep));
	return rc;
}

static int
usage(int rank, const char *bad)
{
	if (rank == 0) {
		if (bad != NULL)
			fprintf(stderr, "pingpong: bad argument '%s'\n", bad);
		fprintf(stderr, "usage: pingpong [--mode rank|task] [--bytes N] [--count C] "
		    "[--warmup W] (%lld <= N <= %lld)\n", (long long)PP_HDR,
		    (long long)PP_MAX_BYTES);
	}
	MPI_Finalize();
	return 2;
}

/* The options into p; returns the argument that is wrong, or NULL. */
static const char *
pp_args(int argc, char **argv, struct pp *p)
{
	const struct {
		const char *name;
		int64_t min, max;
		int64_t *out;
	} num[] = {
		{ "--bytes", PP_HDR, PP_MAX_BYTES, &p->bytes },
		{ "--count", 1, INT64_C(1) << 30, &p->count },
		{ "--warmup", 0, INT64_C(1) << 30, &p->warmup },
	};
	size_t j;
	int i;

	for (i = 1; i < argc; i += 2) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (v == NULL)
			return a;
		if (strcmp(a, "--mode") == 0) {
			if (strcmp(v, "rank") != 0 && strcmp(v, "task") != 0)
				return a;
			p->task_mode = strcmp(v, "task") == 0;
			continue;
		}
		for (j = 0; j < sizeof num / sizeof num[0]; j++)
			if (strcmp(a, num[j].name) == 0)
				break;
		if (j == sizeof num / sizeof num[0] ||
		    numarg_int(v, num[j].min, num[j].max, num[j].out) != 0)
			return a;
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	struct pp p = { .bytes = 1024, .count = 1000, .warmup = 10 };
	const char *bad;
	int rank, size, rc;
	int64_t i;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if ((bad = pp_args(argc, argv, &p)) != NULL)
		return usage(rank, bad);
	if (size < 3) {
		if (rank == 0)
			fprintf(stderr, "pingpong: %d ranks: at least 3 are needed (a master and "
			    "the two that play)\n", size);
		MPI_Finalize();
		return 2;
	}
	if ((p.ref = malloc((size_t)p.bytes)) == NULL ||
	    (p.msg = malloc((size_t)p.bytes)) == NULL) {
		fprintf(stderr, "pingpong: rank %d: out of memory\n", rank);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (i = 0; i < p.bytes; i++)
		p.ref[i] = (unsigned char)(i * 131 + 7);
	rc = p.task_mode ? pp_task_run(&p, rank) : pp_rank_run(&p, rank);
	if (rc == GRT_OK && rank == 0) {
		printf("pingpong: mode %s, %lld bytes, %lld round trips after %lld warm-up, "
		    "round trip %.3f us, ", p.task_mode ? "task" : "rank", (long long)p.bytes,
		    (long long)p.count, (long long)p.warmup, p.rtt * 1e6);
		if (p.damaged == 0)
			printf("messages intact\n");
		else {
			printf("%lld messages damaged\n", (long long)p.damaged);
			rc = GRT_EAPP;
		}
	}
	free(p.ref);
	free(p.msg);
	return grt_end(rc);
}
