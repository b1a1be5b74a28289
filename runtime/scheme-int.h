/*
 * scheme-int.h — the state the scheme files share; private to runtime/scheme*.c.
 *
 * Every scheme is expressed with the same three parts, planned at the start of a round:
 *   first[w]   a chunk reserved for worker w, handed out on its first request of the round
 *              (static, wstatic, the static phase of ngss/angss/pwd, the rounds schemes);
 *   orphans    reserved chunks of workers removed before they asked, handed out whole to
 *              whoever asks next, so that no unit is lost;
 *   the pool   [pool_next, n), cut by the scheme's self-scheduling rule (pss .. tss, and the
 *              GSS phase of ngss/angss/pwd); empty for the purely static schemes.
 * Units are only ever taken from these three places, which are disjoint: each unit of
 * [0, n) is handed out at most once per round, and all of them while a worker asks.
 */
#ifndef GRT_SCHEME_INT_H
#define GRT_SCHEME_INT_H

#include <stdint.h>

#include "scheme.h"

/* A sort key for the largest-remainder and perf_f orders: key descending, idx ascending. */
struct sched_key {
	double key;
	int idx;
};

struct grt_sched {
	struct grt_sched_conf conf;	/* conf.pr and conf.cpu point to our copies */
	int nw;				/* P as created: workers are 0..nw-1 */
	int64_t n;
	int round;			/* 0 before the first grt_sched_begin_round */
	int nactive;			/* workers counted in P: neither removed nor dropped */
	unsigned char *gone;		/* removed by the master */
	int *drop_round;		/* round in which the scheme dropped the worker; 0: never */
	double *drop_share;		/* its share in units when it was dropped */

	/* the current round */
	int64_t handed;			/* units handed out */
	struct grt_chunk *first;	/* reserved first chunks (count 0: none left) */
	struct grt_chunk *orphan;	/* at most nw of them */
	int norphan;
	int dynamic;			/* 1: the pool is cut by the self-scheduling rule */
	int64_t pool_next;		/* the pool is [pool_next, n) */
	int64_t fss_size;		/* fss: chunk size of the current batch */
	int fss_left;			/* fss: chunks left in the current batch */
	int64_t tss_cur;		/* tss: size of the next chunk */
	int64_t tss_d;			/* tss: decrement */
	double alpha;			/* ngss/angss: the alpha of this round, percent */
	int *order;			/* grt_sched_order */
	int64_t *units;			/* units reserved per worker this round */

	/* feedback, summed over the chunks of the current round */
	int64_t *fb_units;
	double *fb_calc;
	double *fb_exe;

	/* estimates from the latest round in which each worker was measured (seed 000, 3.2) */
	unsigned char *measured;	/* ever measured */
	unsigned char *measured_now;	/* measured in the previous round */
	double *calc_unit;		/* t_calc / n */
	double *comm_unit;		/* (t_exe - t_calc) / n, never below 0 */
	double *perf_f;			/* n / t_exe of the previous round (seed 000, 3.3) */
	double mean_exe;		/* mean t_exe of the previous round's measured workers */
	double *speed;			/* angss: weights; hetcalc/hetcomm: raw n_i */

	/* scratch for begin_round, allocated once so that a round cannot fail */
	struct sched_key *keys;
	double *weight;
	double *share;
	unsigned char *use;
};

/* ceil(a / b) for a >= 0, b > 0, without the overflow of (a + b - 1) / b. */
static inline int64_t
sched_ceil_div(int64_t a, int64_t b)
{
	return a / b + (a % b != 0);
}

/* 1 when worker w still counts in P. */
static inline int
sched_is_active(const struct grt_sched *s, int w)
{
	return !s->gone[w] && s->drop_round[w] == 0;
}

/* scheme-split.c: turning weights into whole units */
long double sched_floor(long double x);
int64_t sched_split_floor(struct grt_sched *s, long double total, const double *w,
    int64_t *out);
void sched_split_largest(struct grt_sched *s, int64_t total, const double *w, int64_t *out,
    double *share);
void sched_sort_keys(struct sched_key *k, int n);
void sched_select_keys(struct sched_key *k, int n, int top);
int64_t sched_layout(struct grt_sched *s, const int *order, const int64_t *units);

/* scheme-static.c: static and wstatic */
void sched_plan_static(struct grt_sched *s);
void sched_plan_wstatic(struct grt_sched *s);

/* scheme-self.c: the pool's chunk sizes of pss, css, gss, fss, tss */
void sched_self_begin(struct grt_sched *s);
int64_t sched_self_size(struct grt_sched *s);

/* scheme-ngss.c: ngss and angss */
void sched_plan_ngss(struct grt_sched *s);
double sched_angss_alpha(struct grt_sched *s, const double **weights);

/* scheme-pwd.c: pwd */
void sched_plan_pwd(struct grt_sched *s);

/* scheme-het.c: hetcalc and hetcomm */
void sched_fold_feedback(struct grt_sched *s);
void sched_plan_het(struct grt_sched *s);

#endif
