/*
 * test-scheme-awf-stress.c — wf, awf-b..e, af and pwd-speed under stress: removals and
 * re-adds against the running sums, every unit exactly once with sizes in [1, R] under
 * random request orders and random feedback (times of 0, 1e-300 and 1e300, results that
 * never come) for many N and P over three rounds, P = 4096, and N near INT64_MAX.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grt/grt-error.h"
#include "grt/scheme.h"
#include "runtime/scheme/scheme-int.h"
#include "tests/tap.h"

#include "tests/runtime/scheme-feed.h"

/* The running sums against a count from scratch (relative 1e-9). */
static int
sums_match(const grt_sched *s)
{
	double v = 0, pm = 0, pu = 0, d = 0, e = 0, mu, s2;
	int i, nm = 0, m = 0;

	for (i = 0; i < s->nw; i++) {
		const struct sched_learn *l = &s->learn[i];

		if (!grt_sched_active(s, i))
			continue;
		if (l->v > 0) {
			v += l->v;
			pm += l->prior;
			nm++;
		} else
			pu += l->prior;
		/* af: an estimate from two chunks, mu not a glitch, sigma^2/mu finite */
		mu = l->mu;
		s2 = l->m2 > 0 ? l->m2 / (l->j - 1) : 0;
		if (l->j >= 2 && mu >= 1 / SCHED_UNIT_TIME_MAX && isfinite(s2 / mu)) {
			d += s2 / mu;
			e += 1 / mu;
			m++;
		}
	}
#define NEAR(a, b) (fabs((a) - (b)) <= 1e-9 * (fabs(a) + fabs(b)) + 1e-300)
	if (s->conf.scheme == GRT_SCHEME_AF)
		return m == s->af_m && NEAR(d, s->af_d) && NEAR(e, s->af_e);
	return nm == s->sp_nm && NEAR(v, s->sp_v) && NEAR(pm, s->sp_pm) && NEAR(pu, s->sp_pu);
#undef NEAR
}

/* A removed worker leaves the sums at once and comes back with what it measured. */
static void
test_remove_add(void)
{
	struct grt_sched_conf c;
	struct grt_chunk ch;
	grt_sched *s;
	int i;

	for (i = 0; i < NLEARNERS - 1; i++) {	/* awf-b..e, af */
		c = conf_of(learners[i]);
		s = mk(&c, 2, 100000);
		grt_sched_begin_round(s);
		/* two chunks each at 1 s a unit (af needs two for an estimate) */
		take(s, 0, 1, 1);
		take(s, 1, 1, 1);
		take(s, 0, 1, 1);
		take(s, 1, 1, 1);
		grt_sched_remove_worker(s, 1);
		ok(sums_match(s), "%s: the sums after a removal", grt_scheme_name(c.scheme));
		if (learners[i] == GRT_SCHEME_AWF_C || learners[i] == GRT_SCHEME_AWF_E ||
		    learners[i] == GRT_SCHEME_AF) {
			int64_t r = grt_sched_remaining(s);

			ok(grt_sched_next(s, 0, &ch) && ch.count == (c.scheme == GRT_SCHEME_AF ?
			    r : (r + 1) / 2), "%s: alone, worker 0 gets %s", grt_scheme_name(c.scheme),
			    c.scheme == GRT_SCHEME_AF ? "all R (no spread, one worker)" : "R/2");
		}
		grt_sched_add_worker(s, 1);
		ok(sums_match(s) && (c.scheme == GRT_SCHEME_AF ? s->af_m == 2 : s->sp_nm == 2),
		    "%s: taken back with its measurements", grt_scheme_name(c.scheme));
		grt_sched_free(s);
	}
}

/* ---- random feedback, orders, removals: every unit once, sizes in [1, R] ---- */

/* A time for n units: mostly n/speed, sometimes 0, tiny, huge; t_exe >= t_calc. */
static void
rnd_times(int64_t n, double speed, double *tc, double *te)
{
	switch (rnd() % 16) {
	case 0:
		*tc = *te = 0;
		return;
	case 1:
		*tc = 1e-300;
		break;
	case 2:
		*tc = 1e300;
		break;
	default:
		*tc = (double)n / speed * (0.7 + 0.6 * rnd01());
	}
	*te = *tc * (1 + rnd01());
}

struct world {
	grt_sched *s;
	int p;
	int64_t n;
	unsigned char *seen;
	int *gone;
	double *speed;
	char why[160];
};

/* One request of a random worker; 0 when told nothing, -1 on a broken invariant. */
static int
world_ask(struct world *x, int round, int w)
{
	struct grt_chunk ch;
	int64_t left = grt_sched_remaining(x->s), u;
	double tc, te;

	if (!grt_sched_next(x->s, w, &ch))
		return 0;
	if (x->gone[w] || ch.count < 1 || ch.count > left || ch.start < 0 ||
	    ch.start > x->n - ch.count) {
		snprintf(x->why, sizeof x->why, "round %d: worker %d (gone %d) got [%lld, +%lld) "
		    "of %lld left", round, w, x->gone[w], (long long)ch.start,
		    (long long)ch.count, (long long)left);
		return -1;
	}
	for (u = ch.start; u < ch.start + ch.count; u++)
		if (x->seen[u]++) {
			snprintf(x->why, sizeof x->why, "round %d: unit %lld twice", round,
			    (long long)u);
			return -1;
		}
	if (rnd() % 8 != 0) {	/* one result in 8 never comes */
		rnd_times(ch.count, x->speed[w], &tc, &te);
		grt_sched_feedback(x->s, w, &ch, tc, te);
	}
	return 1;
}

/* A removal, or a re-add of a removed worker, now and then. */
static void
world_churn(struct world *x)
{
	int w = (int)(rnd() % (uint64_t)x->p), nact = 0, i;

	for (i = 0; i < x->p; i++)
		nact += !x->gone[i];
	if (x->gone[w]) {
		grt_sched_add_worker(x->s, w);
		x->gone[w] = 0;
	} else if (nact > 1) {
		grt_sched_remove_worker(x->s, w);
		x->gone[w] = 1;
	}
}

/* Three rounds; NULL or what went wrong (also: the running sums drifted). */
static const char *
world_run(enum grt_scheme sc, int64_t n, int p, int churn)
{
	static char why[200];
	struct grt_sched_conf c = conf_of(sc);
	struct world x = { NULL, p, n, NULL, NULL, NULL, "" };
	double *pr = malloc((size_t)p * sizeof *pr);
	const char *bad = NULL;
	int64_t u;
	int round, i, rc, idle;

	x.seen = calloc((size_t)n + 1, 1);
	x.gone = calloc((size_t)p, sizeof *x.gone);
	x.speed = malloc((size_t)p * sizeof *x.speed);
	for (i = 0; i < p; i++) {
		pr[i] = 0.5 + 4 * rnd01();
		x.speed[i] = 0.1 + rnd01() * (i == p - 1 ? 50 : 3);
	}
	c.swr = rnd01();
	c.pr = sc == GRT_SCHEME_AF ? NULL : pr;
	x.s = mk(&c, p, n);
	for (round = 1; round <= 3 && bad == NULL; round++) {
		grt_sched_begin_round(x.s);
		memset(x.seen, 0, (size_t)n + 1);
		/* random workers ask until p asks in a row give nothing */
		for (idle = 0; idle < 4 * p && bad == NULL; ) {
			if (churn && rnd() % 50 == 0)
				world_churn(&x);
			rc = world_ask(&x, round, (int)(rnd() % (uint64_t)p));
			idle = rc == 0 ? idle + 1 : 0;
			if (rc < 0)
				bad = x.why;
		}
		/* whoever is left asks in turn: the unclaimed units must all come out */
		for (i = 0; i < p && bad == NULL; i++)
			while ((rc = world_ask(&x, round, i)) > 0)
				;
		for (u = 0; u < n && bad == NULL; u++)
			if (!x.seen[u]) {
				snprintf(why, sizeof why, "round %d: unit %lld never handed out",
				    round, (long long)u);
				bad = why;
			}
		if (bad == NULL && !sums_match(x.s))
			bad = "the running sums drifted from a count from scratch";
	}
	grt_sched_free(x.s);
	free(x.seen);
	free(x.gone);
	free(x.speed);
	free(pr);
	if (bad != NULL && bad != why) {
		snprintf(why, sizeof why, "%s", bad);
		bad = why;
	}
	return bad;
}

static void
test_random(void)
{
	static const int64_t ns[] = { 0, 1, 2, 3, 7, 100, 997, 5000 };
	static const int ps[] = { 1, 2, 3, 5, 16, 61 };
	const char *why;
	size_t a, b;
	int sc, all, k;

	for (sc = GRT_SCHEME_WF; sc <= GRT_SCHEME_PWD_SPEED; sc++) {
		all = 1;
		for (a = 0; a < sizeof ns / sizeof ns[0]; a++)
			for (b = 0; b < sizeof ps / sizeof ps[0]; b++)
				for (k = 0; k < 2; k++) {
					why = world_run(sc, ns[a], ps[b], k);
					if (why != NULL) {
						printf("# %s N=%lld P=%d%s: %s\n", grt_scheme_name(sc),
						    (long long)ns[a], ps[b], k ? " churn" : "", why);
						all = 0;
					}
				}
		for (k = 0; k < 20; k++) {
			int64_t n = (int64_t)(rnd() % 20000);
			int p = 1 + (int)(rnd() % 40);

			if ((why = world_run(sc, n, p, 1)) != NULL) {
				printf("# %s N=%lld P=%d: %s\n", grt_scheme_name(sc), (long long)n, p,
				    why);
				all = 0;
			}
		}
		ok(all, "%s: every unit once, sizes in [1, R], sums exact, over 116 N and P with "
		    "random feedback (0, 1e-300, 1e300, missing), removals, 3 rounds",
		    grt_scheme_name(sc));
	}
}

static void
test_p4096(void)
{
	const char *why;
	int sc;

	for (sc = GRT_SCHEME_WF; sc <= GRT_SCHEME_PWD_SPEED; sc++) {
		why = world_run(sc, 200000, 4096, 1);
		ok(why == NULL, "P=4096 %s N=200000: exactly once with removals%s%s",
		    grt_scheme_name(sc), why ? ": " : "", why ? why : "");
	}
}

/* N near INT64_MAX with feedback: no overflow, [0, N) covered in order */
static void
test_huge(void)
{
	static const int64_t ns[] = { INT64_MAX / 2, INT64_MAX };
	double calc[4] = { 1, 1, 2, 4 }, pr[4] = { 1, 1, 2, 4 };
	struct fb f = { calc, NULL, 0, { 0 } };
	struct grt_sched_conf c;
	grt_sched *s;
	size_t k;
	int sc, r, nr, good;

	for (sc = GRT_SCHEME_WF; sc <= GRT_SCHEME_PWD_SPEED; sc++)
		for (k = 0; k < 2; k++) {
			c = conf_of(sc);
			c.swr = 0.5;
			c.pr = sc == GRT_SCHEME_AF ? NULL : pr;
			s = mk(&c, 4, ns[k]);
			memset(f.k, 0, sizeof f.k);
			good = 1;
			for (r = 0; r < 2; r++) {
				nr = round_fb(s, 4, &f);
				good &= nr > 0 && nr < MAXREC && contiguous(nr, ns[k]) &&
				    grt_sched_remaining(s) == 0;
			}
			ok(good, "%s N=%lld: 2 rounds cover [0, N) exactly (last %d chunks)",
			    grt_scheme_name(sc), (long long)ns[k], nr);
			grt_sched_free(s);
		}
}

int
main(void)
{
	test_remove_add();
	test_random();
	test_p4096();
	test_huge();
	return tap_done();
}
