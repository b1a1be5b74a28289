/*
 * scheme.h — the load-distribution schemes of libgrt, as pure functions of counts and
 * measured times: no MPI here, so the master, `gridsubmit schedule` (dry run) and the unit
 * tests drive exactly the same code. Formulas and reference sequences: doc/schemes.md.
 *
 * Workers are numbered 0..P-1 here (the master maps them to MPI ranks). One scheme instance
 * distributes the units [0, n) of one round; grt_sched_begin_round() starts the next round
 * over the same n units using the times fed back during the previous one.
 *
 * How the master drives it, per round:
 *   grt_sched_begin_round(s)            (also before the first round)
 *   grt_sched_order(s, order)           the order in which to serve the workers first
 *   loop: grt_sched_next(s, w, &c)      whenever worker w is ready for work
 *         grt_sched_feedback(s, w, ...) when worker w's result for chunk c arrives
 * grt_sched_next() is O(1) amortised for the self-scheduling schemes: it is on the hot path.
 */
#ifndef GRT_SCHEME_H
#define GRT_SCHEME_H

#include <stddef.h>
#include <stdint.h>

enum grt_scheme {
	GRT_SCHEME_STATIC,	/* ceil(N/P) to each worker */
	GRT_SCHEME_WSTATIC,	/* N split by CPU clock ratio */
	GRT_SCHEME_PSS,		/* 1 unit */
	GRT_SCHEME_CSS,		/* k units */
	GRT_SCHEME_GSS,		/* ceil(R/P) */
	GRT_SCHEME_FSS,		/* batches of P chunks of ceil(R_batch/(2P)) */
	GRT_SCHEME_TSS,		/* trapezoid, TSS(N/2P, 1) */
	GRT_SCHEME_NGSS,	/* alpha% by CPU clock ratio, rest GSS */
	GRT_SCHEME_ANGSS,	/* ngss with alpha from measured heterogeneity */
	GRT_SCHEME_PWD,		/* SWR of N by PR, rest GSS (seed 002) */
	GRT_SCHEME_HETCALC,	/* rounds: n_i from t_calc (seed 000, "old") */
	GRT_SCHEME_HETCOMM,	/* rounds: n_i from t_calc + t_comm (seed 000, sec. 3) */
	GRT_SCHEME_WF,		/* fss batches, chunk i ~ fixed weight w_i (pr, cpu) */
	GRT_SCHEME_AWF_B,	/* wf, weights from measured t_calc after every batch */
	GRT_SCHEME_AWF_C,	/* wf, weights from measured t_calc after every chunk */
	GRT_SCHEME_AWF_D,	/* awf-b with t_exe (scheduling overhead included) */
	GRT_SCHEME_AWF_E,	/* awf-c with t_exe */
	GRT_SCHEME_AF,		/* adaptive factoring: chunk from measured mu_i, sigma_i */
	GRT_SCHEME_PWD_SPEED,	/* pwd whose dynamic phase is ceil(R/P * s_w / mean s) */
	GRT_SCHEME_COUNT
};

struct grt_chunk {
	int64_t start;
	int64_t count;
};

/* ngss: alpha when neither GRT_ALPHA nor gridsubmit schedule --alpha gives one */
#define GRT_ALPHA_DEFAULT	30

struct grt_sched_conf {
	enum grt_scheme scheme;
	int64_t k;		/* css chunk size, >= 1 */
	double alpha;		/* ngss: percent of N in the first phase, [0, 100] */
	double swr;		/* pwd, pwd-speed: static workload ratio in [0, 1] */
	/* pwd, pwd-speed, wf, awf-*, hetcalc, hetcomm: per-worker performance ratio (P values
	 * > 0); NULL = equal */
	const double *pr;
	/* wstatic, ngss, angss; wf and awf-* when pr is NULL: per-worker CPU clock; NULL = equal */
	const double *cpu;
};

typedef struct grt_sched grt_sched;

/* Scheme names as in job files ("gss", "pwd", ...); NULL / -1 when unknown. */
const char *grt_scheme_name(enum grt_scheme scheme);
int grt_scheme_from_name(const char *name);
/* 1 when the scheme works in rounds with one chunk per worker (hetcalc, hetcomm). */
int grt_scheme_is_rounds(enum grt_scheme scheme);
/* 1 when the scheme places SWR of N statically (pwd, pwd-speed): GRT_SWR=auto samples it. */
int grt_scheme_uses_swr(enum grt_scheme scheme);

/*
 * A scheme for n >= 0 units over nworkers >= 1 workers; conf is copied (pr and cpu too).
 * Returns NULL and sets *err (a GRT_E* code of grt-error.h) when a parameter is out of range.
 */
grt_sched *grt_sched_new(const struct grt_sched_conf *conf, int nworkers, int64_t n, int *err);
void grt_sched_free(grt_sched *s);

/* Start a round: the whole [0, n) is available again. Returns the round number (1, 2, ...). */
int grt_sched_begin_round(grt_sched *s);

/*
 * The order in which the master serves the workers at the start of the round (order[] has P
 * entries): 0..P-1 for most schemes, decreasing perf_f of the previous round for hetcomm.
 */
void grt_sched_order(const grt_sched *s, int *order);

/*
 * The next chunk for worker w: returns 1 and fills *c, or 0 when worker w gets nothing more
 * this round (for the rounds schemes: after its one chunk; for a dropped worker: at once).
 */
int grt_sched_next(grt_sched *s, int w, struct grt_chunk *c);

/* Times measured for worker w's chunk c: t_calc on the worker, t_exe send-to-result. */
void grt_sched_feedback(grt_sched *s, int w, const struct grt_chunk *c, double t_calc, double t_exe);

/*
 * Worker w is gone (failed, or dropped by the master): the scheme stops counting it in P.
 * Its outstanding units are the master's to requeue. A chunk the scheme had reserved for w
 * and not yet handed out (static, wstatic, the first phase of ngss/angss/pwd, a rounds
 * scheme's chunk) goes, whole, to the next worker that asks, even one that was already
 * told 0 this round: while grt_sched_remaining() > 0, ask the idle workers again.
 */
void grt_sched_remove_worker(grt_sched *s, int w);

/*
 * Worker w, removed after a missed deadline, answered after all: it counts in P again and
 * takes chunks from the pool (a reserved first chunk it lost stays with whoever got it).
 */
void grt_sched_add_worker(grt_sched *s, int w);

/*
 * 1 when the scheme itself decided, at the start of this round, that worker w cannot be
 * balanced (hetcomm/hetcalc: its share rounds to 0 units); *share gets its share in units.
 */
int grt_sched_dropped(const grt_sched *s, int w, double *share);

/* Units of [0, n) not yet handed out this round. */
int64_t grt_sched_remaining(const grt_sched *s);

/* 1 while worker w still counts in P: neither removed nor dropped by the scheme. */
int grt_sched_active(const grt_sched *s, int w);

/* ngss, angss: the alpha (percent of N placed by weight) of the current round. */
double grt_sched_alpha(const grt_sched *s);

/* The static workload ratio of seed 002, eq. 3: min/max of the sampled units' times. */
double grt_swr_from_samples(const double *t, int n);

#endif
