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
 *
 * What differs from scheme to scheme is in its struct sched_ops (below), defined in the
 * file of its family next to its rules and listed in scheme.c's table.
 */
#ifndef GRT_SCHEME_INT_H
#define GRT_SCHEME_INT_H

#include <stdint.h>

#include "grt/scheme.h"

/*
 * A time per unit beyond 1e100 s (or a speed beyond 1e100 units/s) is a clock glitch, not
 * a measurement: the adaptive schemes ignore it, which also keeps their sums of speeds and
 * of 1/mu finite for any P.
 */
#define SCHED_UNIT_TIME_MAX	1e100

/*
 * What the adaptive schemes learned of one worker from its fed-back chunks, over all rounds
 * (scheme-speed.c for wf, awf-b..e and pwd-speed; scheme-af.c for af).
 */
struct sched_learn {
	double prior;		/* p_i: pr, else cpu (wf, awf-*), else 1 */
	double t;		/* awf: sum j*t_j over its chunks j = 1, 2, ...; pwd-speed: sum t_j */
	double n;		/* the same sum of the chunks' units */
	double j;		/* chunks fed back */
	double v;		/* measured speed n / t, units per second; 0: none yet */
	double mu;		/* af: mean per-unit t_calc (weights n_j); 0: none yet */
	double m2;		/* af: sum n_j (t_j/n_j - mu)^2, Welford's running form */
	double un;		/* af: sum n_j */
};

/*
 * sched_ops.flags. SCHED_ROUNDS: one chunk per worker a round (grt_scheme_is_rounds).
 * SCHED_SWR: SWR of N is placed statically (grt_scheme_uses_swr). SCHED_T_EXE: the
 * family's rule weighs t_exe, send to result, rather than t_calc: awf-d and awf-e; hetcomm,
 * whose t_calc + t_comm per unit is t_exe's.
 */
#define SCHED_ROUNDS	0x1
#define SCHED_SWR	0x2
#define SCHED_T_EXE	0x4

/*
 * One scheme, as scheme.c drives it (in the spirit of hydra's bootstrap servers and of
 * tmux's cmd_entry). Schemes of one family share functions, and flags tell them apart
 * where a rule only differs by a choice.
 * - check: conf's parameters for this scheme, P = nworkers >= 1; 1 when they are in
 *   range. NULL: the scheme reads none.
 * - begin_round: plan the round, after scheme.c has emptied first[], units[] and the
 *   pool and folded the previous round's feedback: reserve first chunks (sched_layout),
 *   or open the pool ([pool_next, n) with dynamic = 1), or both. It cannot fail.
 * - pool_size: the size of worker w's next chunk from the pool, >= 1 (grt_sched_next
 *   clips it to what is left); on the master's hot path, O(1) amortised. NULL when the
 *   scheme never opens the pool.
 * - feedback: worker w's chunk c took t_calc and t_exe (both finite, >= 0; fb_* already
 *   count them), for a scheme that learns at once. NULL: the times only count at the next
 *   round (sched_fold_feedback), or never (wf's weights are fixed).
 * - active_changed: worker w starts (on) or stops counting in P, for a scheme that keeps
 *   sums over the active workers. NULL: none kept.
 */
struct sched_ops {
	const char *name;	/* as in job files */
	int flags;		/* SCHED_* */
	int (*check)(const struct grt_sched_conf *conf, int nworkers);
	void (*begin_round)(struct grt_sched *s);
	int64_t (*pool_size)(struct grt_sched *s, int w);
	void (*feedback)(struct grt_sched *s, int w, const struct grt_chunk *c, double t_calc,
	    double t_exe);
	void (*active_changed)(struct grt_sched *s, int w, int on);
};

/* A sort key for the largest-remainder and perf_f orders: key descending, idx ascending. */
struct sched_key {
	double key;
	int idx;
};

struct grt_sched {
	struct grt_sched_conf conf;	/* conf.pr and conf.cpu point to our copies */
	const struct sched_ops *ops;	/* conf.scheme's */
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

	/*
	 * wf, awf-*, af, pwd-speed: per worker, and running sums over the active workers so
	 * that a request costs O(1); recounted from learn[] every P updates (rounding drift)
	 */
	struct sched_learn *learn;
	double sp_v;			/* sum v_i of the measured */
	double sp_pm;			/* sum p_i of the measured */
	double sp_pu;			/* sum p_i of the others */
	int sp_nm;			/* how many are measured */
	int sp_nu;			/* how many are not */
	double af_d;			/* af: sum sigma_i^2 / mu_i of those with an estimate */
	double af_e;			/* af: sum 1 / mu_i of the same */
	int af_m;			/* af: how many they are */
	int learn_updates;		/* updates since the last recount */
	int wf_left;			/* wf, awf-b/d: chunks left in the batch */
	int64_t wf_r;			/* R at the batch's start */
	/* the batch's weights are frozen in weight[], begin_round's scratch for the others */
	double wf_sum;			/* their sum over the active workers */

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

/* scheme.c: 1 when all n values are finite and > 0 (or the array is absent) */
int sched_positive(const double *v, int n);

/* scheme-self.c: gss, whose rule cuts the dynamic phase of ngss, angss and pwd */
int64_t sched_gss_size(struct grt_sched *s, int w);

/* scheme-pwd.c: pwd, whose static phase pwd-speed keeps */
int sched_pwd_check(const struct grt_sched_conf *conf, int nworkers);
void sched_pwd_begin(struct grt_sched *s);

/* scheme-het.c: the feedback of a round folded into per-unit estimates (angss reads them) */
void sched_fold_feedback(struct grt_sched *s);

/* scheme-speed.c: the speed estimates of wf, awf-b..e and pwd-speed */
void sched_speed_begin(struct grt_sched *s, int use_cpu);
void sched_speed_measure(struct grt_sched *s, int w, double units, double t, double c);
void sched_speed_active(struct grt_sched *s, int w, int on);
double sched_speed_est(const struct grt_sched *s, int w);
double sched_speed_sum(const struct grt_sched *s);
int64_t sched_chunk_ceil(long double x, int64_t r);

/* scheme-wf.c: wf, whose batches and weights awf-b..e keep */
int sched_wf_check(const struct grt_sched_conf *conf, int nworkers);
void sched_wf_begin(struct grt_sched *s);
int64_t sched_wf_size(struct grt_sched *s, int w);

/* scheme.c: worker w starts (on) or stops counting in P, for the running sums */
void sched_active_changed(struct grt_sched *s, int w, int on);

#endif
