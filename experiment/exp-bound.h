/*
 * exp-bound.h — the divisible-load lower bound of a run and its efficiency, the one
 * computation that `simulate`, experiments and `make bench` share (doc/experiments.md,
 * "The bound"). The work is the run's computing time normalised by each node's speed, so
 * that which units a worker drew does not matter; the bound can never exceed the makespan
 * it is compared with.
 */
#ifndef GS_EXP_BOUND_H
#define GS_EXP_BOUND_H

#include <stddef.h>

/* One rank that could compute: a worker, or a master that computed units of its own. */
struct exp_bound_rank {
	double speed;	/* relative speed, any unit shared by every rank; <= 0: unknown */
	double t_calc;	/* seconds it computed (its chunks' t_calc) */
	double units;	/* units it computed */
	double c;	/* seconds a unit of its keeps the master's port busy; NaN: unknown */
	int master;	/* 1: the master's own units, which never cross the port */
};

struct exp_bound {
	double t_lb;		/* the bound, seconds; NaN when no rank computed */
	double work;		/* W: seconds the run's work takes on the fastest rank */
	double units;		/* U: units computed */
	double compute;		/* W / sum of the speeds (relative to the fastest) */
	double port;		/* U x the cheapest port cost; 0 when not known or left out */
	int equal_speeds;	/* a rank had no speed: every rank counted as equal */
	int port_dropped;	/* the fitted port cost gave more than the makespan: left out */
	const char *speeds;	/* where the speeds came from (exp_speeds); set by its callers */
};

/*
 * The star's bound over the n ranks r (seed 000's one-port master; doc/experiments.md):
 * T_LB = max(W / sum s_i, U x min c_i), with s_i the speeds relative to the fastest and
 * W = sum t_calc_i x s_i. The port term counts only when the master computed nothing and
 * every other rank's c is known. A port term above makespan (> 0) is a fit that the run
 * contradicts: it is left out and port_dropped says so. Every field of *b is set.
 */
void exp_bound_star(const struct exp_bound_rank *r, size_t n, double makespan,
    struct exp_bound *b);

/*
 * A robust per-unit slope of y over x (n points): the difference of the medians of y in
 * the upper and lower halves of the points by x, over that of their x (Wald's grouping,
 * with medians so that a few outliers, such as a first contact, do not move it). NaN when
 * the halves' median x are equal (every chunk one size, or a single chunk).
 */
double exp_bound_slope(const double *x, const double *y, size_t n);

#endif
