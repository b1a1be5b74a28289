/*
 * loadgen.h — the background load of an emulated node (seed 001, section 5.2), the one
 * model that the testbed runs (testbed/testbed-load.c, real processes) and the simulation
 * follows (simulate/sim-load.c, a speed trace): CPU-bound jobs arrive with exponential
 * inter-arrival times of mean interval, each needing loadgen_work() CPU seconds, a job
 * that would make more than loadgen_most() run at once is dropped, and a node starts with
 * none running. Both draw their arrivals here, from the same seed for the same host, so
 * that `gridsubmit simulate --seed LOADGEN_SEED` on a testbed's derived site file meets
 * the arrivals that the testbed's nodes met (doc/testbed.md, doc/simulate.md).
 */
#ifndef GS_LOADGEN_H
#define GS_LOADGEN_H

#include <stdint.h>

/* the testbed's seed, and simulate's default --seed */
#define LOADGEN_SEED	1

/* the arrivals of one node: splitmix64's state */
struct loadgen {
	uint64_t state;
};

/* The arrivals of host under seed: the same two give the same sequence, here and there. */
void loadgen_init(struct loadgen *g, uint64_t seed, const char *host);

/* The time from one arrival (or the start) to the next, in seconds: exponential, mean interval. */
double loadgen_next(struct loadgen *g, double interval);

/*
 * A job's work in CPU seconds of a node of cpus CPUs: cpus x interval x load / (1 + load),
 * so that the mean number running on an otherwise idle node is load (M/G/1 processor
 * sharing: utilisation rho = work / (interval x cpus), mean rho / (1 - rho)).
 */
double loadgen_work(double cpus, double interval, double load);

/* The most jobs that may run at once: floor(4 x load) + 4 (the node's own jobs need CPU too). */
int loadgen_most(double load);

#endif
