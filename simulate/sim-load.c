/*
 * sim-load.c — the background load of a simulated node as a SimGrid speed trace: the
 * model of common/loadgen.h, which testbed-load.c runs as processes, worked out in advance
 * in simulated time. The jobs arrive as loadgen draws them for the node's host name and
 * the seed, so that the seed the testbed uses (LOADGEN_SEED) gives the arrivals its nodes
 * had; each needs loadgen_work() core-seconds, one that would make more than
 * loadgen_most() run at once is dropped, and the node starts with none, as on the
 * testbed. The n jobs and the job's ranks share the node's cores (processor sharing; the
 * ranks are taken as always busy), so each of the n + ranks gets min(1, cores / (n +
 * ranks)) of a core. SimGrid cannot run the jobs themselves (they are not in the MPI
 * program), but a host's speed can follow a trace: the trace is the ranks' share relative
 * to an idle node, min(1, cores / (n + ranks)) / min(1, cores / ranks), which scales their
 * speed as the jobs would slow them. A node with no rank (ranks 0) lets its jobs have the
 * cores to themselves, and its trace is what a rank coming there would get.
 *
 * The queue is followed event by event (the next arrival against the next completion at
 * the current share), not in time steps, so a trace is exact however short the jobs are.
 * Every job has the same work and gets the same share, so they end in the order they
 * came: a FIFO of the per-job service at which each is done is the whole state. The trace
 * covers an hour or 20000 mean inter-arrival times, whichever is shorter, enough arrivals
 * for the mean load to hold, and then repeats, so that a longer run keeps its load:
 * SimGrid 3.32's LOOPAFTER is the delay from the last line to the next round's first
 * (measured with smpirun), chosen so that a round lasts the horizon. The same arguments
 * write the same bytes.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/loadgen.h"
#include "common/xmalloc.h"
#include "simulate/simulate.h"

/* the longest trace before it repeats (seconds), and its length in mean arrivals */
#define SIM_LOAD_HORIZON	3600.0
#define SIM_LOAD_ARRIVALS	20000.0

/* The lines written so far; a change is held back until the next one is known. */
struct load_out {
	FILE *f;
	char pend_t[32];	/* the held change: its time as printed, its value */
	double pend_v;
	char last_t[32];	/* the time of the last line written */
	double last_v;		/* its value; NAN before the first */
};

/* The ranks' share with n jobs running, relative to an idle node (of one rank if none). */
static double
load_value(size_t n, int cores, int ranks)
{
	int r = ranks > 0 ? ranks : 1;

	return fmin(1, (double)cores / ((double)n + r)) / fmin(1, (double)cores / r);
}

static void
load_flush(struct load_out *o)
{
	if (o->pend_v == o->last_v)
		return;
	fprintf(o->f, "%s %.9g\n", o->pend_t, o->pend_v);
	memcpy(o->last_t, o->pend_t, sizeof o->last_t);
	o->last_v = o->pend_v;
}

/*
 * The value v from time t on. Two changes that print at the same time are one (the later
 * value wins), since SimGrid would see them at the same date; a value equal to the line
 * before (n changed but not the share, with cores to spare) is no line.
 */
static void
load_change(struct load_out *o, double t, double v)
{
	char ts[sizeof o->pend_t];

	snprintf(ts, sizeof ts, "%.9g", t);
	if (strcmp(ts, o->pend_t) != 0) {
		load_flush(o);
		memcpy(o->pend_t, ts, sizeof o->pend_t);
	}
	o->pend_v = v;
}

/*
 * The queue from time 0 to horizon, each change of the value through load_change.
 * done[head..tail) is the per-job service (seconds of a core) at which each running job
 * ends, in order; served is the service each running job has had since time 0.
 */
static void
load_run(struct load_out *o, const struct gs_emulate *e, int cores, int ranks,
    struct loadgen *gen, double horizon)
{
	double work = loadgen_work(cores, e->load_interval, e->load);
	double most = loadgen_most(e->load);
	double t = 0, served = 0, arrive, end, share;
	size_t head = 0, tail = 0, cap = 32;
	double *done = xcalloc(cap, sizeof *done);

	snprintf(o->pend_t, sizeof o->pend_t, "0");
	o->pend_v = 1;
	arrive = loadgen_next(gen, e->load_interval);
	for (;;) {
		share = fmin(1, (double)cores / ((double)(tail - head) + ranks));
		end = tail > head ? t + fmax(0, done[head] - served) / share : INFINITY;
		if (fmin(arrive, end) >= horizon)
			break;
		if (end <= arrive) {
			t = end;
			served = done[head];
			while (head < tail && done[head] <= served)
				head++;
		} else {
			served += (arrive - t) * share;
			t = arrive;
			if ((double)(tail - head) < most) {
				if (tail == cap && head > 0) {
					memmove(done, done + head, (tail - head) * sizeof *done);
					tail -= head;
					head = 0;
				} else if (tail == cap) {
					cap *= 2;
					done = xreallocarray(done, cap, sizeof *done);
				}
				done[tail++] = served + work;
			}
			arrive += loadgen_next(gen, e->load_interval);
		}
		load_change(o, t, load_value(tail - head, cores, ranks));
	}
	free(done);
}

int
sim_load_trace(FILE *f, const struct gs_emulate *e, int cores, int ranks, uint64_t seed,
    const char *host)
{
	struct load_out o = { .f = f, .last_v = NAN };
	struct loadgen gen;
	double horizon;

	if (!(e->load > 0)) {
		fputs("0 1\n", f);
		return ferror(f) ? -1 : 0;
	}
	if (!(e->load_interval >= SIM_LOAD_RESOLUTION)) {
		errno = EINVAL;
		return -1;
	}
	/* a node without a core count counts as one */
	cores = cores > 0 ? cores : 1;
	ranks = ranks > 0 ? ranks : 0;
	horizon = fmin(SIM_LOAD_HORIZON, SIM_LOAD_ARRIVALS * e->load_interval);
	loadgen_init(&gen, seed, host);
	load_run(&o, e, cores, ranks, &gen, horizon);
	load_flush(&o);
	/* the round ends at horizon: the last line lasts until then */
	fprintf(f, "LOOPAFTER %.9g\n", horizon - strtod(o.last_t, NULL));
	return ferror(f) ? -1 : 0;
}
