/*
 * sim-load.c — the background load of a simulated node as a SimGrid speed trace: the
 * queue of testbed-load.c, worked out in advance in simulated time instead of run by a
 * process. CPU-bound jobs arrive with exponential inter-arrival times (mean
 * load_interval), each needing work = cores * load_interval * load / (1 + load)
 * core-seconds, and a job that would make more than LOAD_MAX_FACTOR * load +
 * LOAD_MAX_EXTRA run at once is dropped, as on the testbed. The n jobs and the job's
 * ranks share the node's cores (processor sharing; the ranks are taken as always busy),
 * so each of the n + ranks gets min(1, cores / (n + ranks)) of a core. SimGrid cannot run
 * the jobs themselves (they are not in the MPI program), but a host's speed can follow a
 * trace: the trace is the ranks' share relative to an idle node,
 * min(1, cores / (n + ranks)) / min(1, cores / ranks), which scales their speed as the
 * jobs would slow them.
 *
 * The queue is followed event by event (the next arrival against the next completion at
 * the current share), not in time steps, so a trace is exact however short the jobs are.
 * Every job has the same work and gets the same share, so they end in the order they
 * came: a FIFO of the per-job service at which each is done is the whole state. A run
 * starts with round(load) jobs running, each with a full job's work, so that it does not
 * start on an idle node, which the testbed's node is not either after its first minutes
 * (those first jobs end together). The trace covers an hour or 20000 mean inter-arrival
 * times, whichever is shorter, enough arrivals for the mean load to hold, and then
 * repeats, so that a longer run keeps its load: SimGrid 3.32's LOOPAFTER is the delay
 * from the last line to the next round's first (measured with smpirun), chosen so that a
 * round lasts the horizon. The arrivals come from splitmix64 of the seed: the same
 * arguments write the same bytes.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "simulate/simulate.h"

/* as testbed-load.c */
#define LOAD_MAX_FACTOR	4
#define LOAD_MAX_EXTRA	4
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

/* splitmix64 (Steele, Lea, Flood 2014): a uniform double in [0, 1). */
static double
load_uniform(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (double)(z >> 11) * 0x1.0p-53;
}

/* The ranks' share with n jobs running, relative to an idle node. */
static double
load_value(size_t n, int cores, int ranks)
{
	return fmin(1, (double)cores / ((double)n + ranks)) / fmin(1, (double)cores / ranks);
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
    uint64_t seed, double horizon)
{
	double work = cores * e->load_interval * e->load / (1 + e->load);
	double most = floor(LOAD_MAX_FACTOR * e->load) + LOAD_MAX_EXTRA;
	double t = 0, served = 0, arrive, end, share;
	size_t head = 0, tail, n0 = (size_t)floor(e->load + 0.5), cap = 2 * n0 + 32;
	double *done = xcalloc(cap, sizeof *done);

	for (tail = 0; tail < n0; tail++)
		done[tail] = work;
	snprintf(o->pend_t, sizeof o->pend_t, "0");
	o->pend_v = load_value(n0, cores, ranks);
	arrive = -e->load_interval * log(1 - load_uniform(&seed));
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
			arrive += -e->load_interval * log(1 - load_uniform(&seed));
		}
		load_change(o, t, load_value(tail - head, cores, ranks));
	}
	free(done);
}

int
sim_load_trace(FILE *f, const struct gs_emulate *e, int cores, int ranks, uint64_t seed)
{
	struct load_out o = { .f = f, .last_v = NAN };
	double horizon;

	if (!(e->load > 0)) {
		fputs("0 1\n", f);
		return ferror(f) ? -1 : 0;
	}
	if (!(e->load_interval >= SIM_LOAD_RESOLUTION)) {
		errno = EINVAL;
		return -1;
	}
	/* a node without a core count, or no ranks, counts as one */
	cores = cores > 0 ? cores : 1;
	ranks = ranks > 0 ? ranks : 1;
	horizon = fmin(SIM_LOAD_HORIZON, SIM_LOAD_ARRIVALS * e->load_interval);
	load_run(&o, e, cores, ranks, seed, horizon);
	load_flush(&o);
	/* the round ends at horizon: the last line lasts until then */
	fprintf(f, "LOOPAFTER %.9g\n", horizon - strtod(o.last_t, NULL));
	return ferror(f) ? -1 : 0;
}
