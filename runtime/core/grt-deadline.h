/*
 * grt-deadline.h — how long a worker may stay silent before it is declared failed
 * (doc/runtime.md, "Failures"): a multiple of the time it is expected to take, from the
 * times measured so far, never under a floor. Shared by the master of chunks
 * (runtime/master/grt-failure.c) and the master of tasks (runtime/task/grt-task-failure.c).
 * No MPI here: the unit tests drive it directly (tests/runtime/test-deadline.c).
 *
 * The numbers (doc/runtime.md, "Why 4 and 2 s"), measured on a 2-core host shared with
 * other jobs: one worker's chunks of the same CPU work varied 1.8 times within a run, and
 * a worker slowed mid-run took up to 2.5 times its earlier chunks; the factor covers both
 * with room, the floor a rank left waiting a moment by the shared cores, and together they
 * requeue a silent worker of 0.1-1 s chunks within 4 s. Units of uneven cost (mandelbrot:
 * up to 89 times its worker's earlier rate) are why the job's slowest rate counts too.
 */
#ifndef GRT_DEADLINE_H
#define GRT_DEADLINE_H

#define GRT_DEADLINE_FACTOR	4.0	/* a chunk may take this many times its expected time */
#define GRT_DEADLINE_FLOOR	2.0	/* seconds: ... and at least this long */
#define GRT_DEADLINE_FIRST	60.0	/* seconds: while nothing of the job is measured */

/*
 * Seconds per unit to expect of a worker: the slowest of its last chunk's rate, its mean
 * over the run (so that one cheap chunk does not shorten the next deadline) and the job's
 * (job: the slowest rate of any chunk so far, so that units of uneven cost, such as
 * mandelbrot's rows, are not taken for a silence); 0 while nothing is measured. Rates
 * <= 0 are unknown.
 */
double grt_deadline_rate(double own_last, double own_mean, double job);

/*
 * Seconds a piece of expected seconds may take: user is the job's deadline (GRT_DEADLINE,
 * runtime.deadline), 0 when it set none. With expected > 0: max(floor, factor x expected),
 * the floor being the user's deadline or GRT_DEADLINE_FLOOR. With nothing measured
 * (expected <= 0): the user's deadline, or GRT_DEADLINE_FIRST.
 */
double grt_deadline_allow(double user, double factor, double expected);

#endif
