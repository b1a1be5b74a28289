/*
 * test-scheme-awf.c — wf, awf-b..e, af and pwd-speed (doc/schemes.md, "Weighted and
 * adaptive factoring"): the reference sequences, awf-b against awf-c (when the weights
 * change) and against awf-d (which time they use), the weighted average, weights that
 * adapt to a slow worker, af's estimates and formula, pwd-speed beside an untouched pwd,
 * and times of 0 or feedback that never comes. Removals, random feedback, P = 4096 and
 * huge N: test-scheme-awf-stress.c.
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

/* Rounds 1..nround of conf over P = 4, N = 1000, checked against want[round]. */
static void
seq_rounds(const struct grt_sched_conf *c, struct fb *f, int nround, const char *const *want,
    const char *name)
{
	grt_sched *s = mk(c, 4, 1000);
	int r, nr;

	for (r = 0; r < nround; r++) {
		nr = round_fb(s, 4, f);
		is_str(counts(nr), want[r], "%s, round %d", name, r + 1);
		ok(contiguous(nr, 1000) && grt_sched_remaining(s) == 0,
		    "%s, round %d: [0, 1000) once, in order", name, r + 1);
	}
	grt_sched_free(s);
}

static void
test_names(void)
{
	static const char *const names[] = { "wf", "awf-b", "awf-c", "awf-d", "awf-e", "af",
	    "pwd-speed" };
	int i, good = 1;

	for (i = 0; i < 7; i++)
		good &= grt_scheme_from_name(names[i]) == GRT_SCHEME_WF + i &&
		    !grt_scheme_is_rounds(GRT_SCHEME_WF + i);
	ok(good, "names: wf .. pwd-speed at the end of the list, self-scheduling");
	is_int(grt_scheme_from_name("AWF-B"), GRT_SCHEME_AWF_B, "names: AWF-B in any case");
	is_int(grt_scheme_from_name("awf"), -1, "names: plain awf is not a scheme");
}

static void
bad_new(struct grt_sched_conf c, int want_ok, const char *name)
{
	int err = 0;
	grt_sched *s = grt_sched_new(&c, 2, 10, &err);

	if (want_ok)
		ok(s != NULL && err == GRT_OK, "new accepts %s", name);
	else
		ok(s == NULL && err == GRT_EINVAL, "new rejects %s", name);
	grt_sched_free(s);
}

static void
test_new_errors(void)
{
	double zero[2] = { 1, 0 }, one[2] = { 1, 1 }, nan2[2] = { 1, NAN };
	struct grt_sched_conf c;

	c = conf_of(GRT_SCHEME_WF);
	c.pr = zero;
	bad_new(c, 0, "wf with a pr of 0");
	c.pr = NULL;
	c.cpu = nan2;
	bad_new(c, 0, "wf without pr and with a NaN cpu");
	c.pr = one;
	bad_new(c, 1, "wf with a good pr (its cpu is not read)");
	c = conf_of(GRT_SCHEME_AWF_E);
	c.cpu = zero;
	bad_new(c, 0, "awf-e without pr and with a cpu of 0");
	c = conf_of(GRT_SCHEME_PWD_SPEED);
	c.swr = 1.5;
	bad_new(c, 0, "pwd-speed with swr 1.5");
	c.swr = 0.5;
	c.pr = zero;
	bad_new(c, 0, "pwd-speed with a pr of 0");
	c = conf_of(GRT_SCHEME_AF);
	c.pr = zero;
	c.cpu = zero;
	bad_new(c, 1, "af with pr and cpu it does not read");
}

/* wf: the reference, the cpu fallback, fss when equal, feedback ignored */
static void
test_wf(void)
{
	static const char *const ref[] = { "63,63,125,250,32,32,63,125,16,16,31,62,8,8,16,31,"
	    "4,4,8,15,2,2,4,7,1,1,2,4,1,1,1,2", "63,63,125,250,32,32,63,125,16,16,31,62,8,8,16,"
	    "31,4,4,8,15,2,2,4,7,1,1,2,4,1,1,1,2" };
	static const int64_t ns[] = { 1, 3, 10, 777, 1000, 5000 };
	static const int ps[] = { 1, 3, 4, 7 };
	double pr[8] = { 1, 1, 2, 4, 1, 1, 1, 1 }, eq[8] = { 5, 5, 5, 5, 5, 5, 5, 5 };
	double calc[4] = { 1, 9, 1, 9 };
	struct grt_sched_conf c = conf_of(GRT_SCHEME_WF), f = conf_of(GRT_SCHEME_FSS);
	struct fb fbk = { calc, NULL, 1, { 0 } };
	char want[65536];
	size_t i, j;
	int nr, same = 1;
	grt_sched *s;

	c.pr = pr;
	seq_rounds(&c, &fbk, 2, ref, "wf pr 1:1:2:4 (feedback ignored)");
	c.pr = NULL;
	c.cpu = pr;
	seq_rounds(&c, NULL, 1, ref, "wf without pr falls back to cpu");
	c.pr = eq;
	for (i = 0; i < sizeof ns / sizeof ns[0]; i++)
		for (j = 0; j < sizeof ps / sizeof ps[0]; j++) {
			s = mk(&f, ps[j], ns[i]);
			nr = round_fb(s, ps[j], NULL);
			snprintf(want, sizeof want, "%s", counts(nr));
			grt_sched_free(s);
			s = mk(&c, ps[j], ns[i]);
			nr = round_fb(s, ps[j], NULL);
			same &= strcmp(counts(nr), want) == 0;
			grt_sched_free(s);
		}
	ok(same, "wf with equal pr (and cpu ignored) is fss for N 1..5000, P 1..7");

	/* 230 x 0.1 / (2 x 2.3) is 5.00000000000000066 in long double: a share of 5 units */
	{
		double dec[4] = { 0.1, 0.2, 1, 1 };

		c.pr = dec;
		s = mk(&c, 4, 230);
		nr = round_fb(s, 4, NULL);
		ok(nr >= 4 && strncmp(counts(nr), "5,10,50,50,", 11) == 0,
		    "wf pr 0.1,0.2,1,1 of 230: 5,10,50,50, not 6 for a rounding residue (%s)",
		    counts(nr));
		grt_sched_free(s);
	}
}

/* awf-b..e, calc 1,1,1,3 and comm 0,0,2,0 fed back at once: doc/schemes.md */
static void
test_awf_reference(void)
{
	static const char *const b[] = { "125,125,125,125,75,75,75,25,38,38,38,13,19,19,19,7,"
	    "9,9,9,3,5,5,5,2,2,2,2,1,1,1,1,1,1", "150,150,150,50,75,75,75,25,38,38,38,13,19,19,"
	    "19,7,9,9,9,3,5,5,5,2,2,2,2,1,1,1,1,1,1" };
	static const char *const cc[] = { "125,110,96,84,88,75,64,18,51,44,37,11,30,26,22,6,"
	    "17,15,13,4,10,9,7,2,6,5,4,2,3,3,2,1,2,2,1,1,1,1,1,1", "150,128,109,31,88,75,63,18,"
	    "51,44,37,11,30,25,21,6,17,15,13,4,10,9,7,2,6,5,4,2,3,3,2,1,2,2,1,1,1,1,1,1" };
	static const char *const d[] = { "125,125,125,125,94,94,32,32,47,47,16,16,23,23,8,8,"
	    "12,12,4,4,6,6,2,2,3,3,1,1,1,1,1,1", "188,188,63,63,94,94,32,32,47,47,16,16,23,23,8,"
	    "8,11,11,4,4,6,6,2,2,3,3,1,1,1,1,1,1" };
	static const char *const e[] = { "125,110,96,84,110,90,25,23,64,52,14,13,37,30,8,8,21,"
	    "17,5,5,12,10,3,3,7,6,2,2,4,3,1,1,2,2,1,1,1,1,1", "188,153,42,39,109,88,24,23,63,"
	    "51,14,13,37,30,8,8,21,17,5,5,12,10,3,3,7,6,2,2,4,3,1,1,2,2,1,1,1,1" };
	static const char *const nofb[] = { "125,110,96,84,74,64,56,49,43,38,33,29,25,22,19,17,"
	    "15,13,11,10,9,8,7,6,5,4,4,3,3,3,2,2,2,2,1,1,1,1,1,1,1" };
	static const char *const cpr[] = { "63,59,110,192,36,34,64,111,21,20,37,64,12,12,21,36,"
	    "7,7,12,21,4,4,7,12,3,2,4,7,2,1,2,4,1,1,1,2,1,1,1,1" };
	static const char *const wf[] = { "63,63,125,250,32,32,63,125,16,16,31,62,8,8,16,31,"
	    "4,4,8,15,2,2,4,7,1,1,2,4,1,1,1,2" };
	double calc[4] = { 1, 1, 1, 3 }, comm[4] = { 0, 0, 2, 0 }, pr[4] = { 1, 1, 2, 4 };
	struct fb f = { calc, comm, 0, { 0 } };
	struct grt_sched_conf c;

	c = conf_of(GRT_SCHEME_AWF_B);
	seq_rounds(&c, &f, 2, b, "awf-b calc 1,1,1,3");
	c.scheme = GRT_SCHEME_AWF_C;
	seq_rounds(&c, &f, 2, cc, "awf-c calc 1,1,1,3");
	c.scheme = GRT_SCHEME_AWF_D;
	seq_rounds(&c, &f, 2, d, "awf-d calc 1,1,1,3 comm 0,0,2,0");
	c.scheme = GRT_SCHEME_AWF_E;
	seq_rounds(&c, &f, 2, e, "awf-e calc 1,1,1,3 comm 0,0,2,0");
	seq_rounds(&c, NULL, 1, nofb, "awf-e without feedback: R/2P per request");
	c.pr = pr;
	c.scheme = GRT_SCHEME_AWF_C;
	seq_rounds(&c, NULL, 1, cpr, "awf-c pr 1:1:2:4 without feedback");
	c.scheme = GRT_SCHEME_AWF_B;
	seq_rounds(&c, NULL, 1, wf, "awf-b pr 1:1:2:4 without feedback is wf");
	c.scheme = GRT_SCHEME_AWF_D;
	seq_rounds(&c, NULL, 1, wf, "awf-d pr 1:1:2:4 without feedback is wf");
}

/* awf-b freezes a batch's weights, awf-c moves them at every chunk (doc/schemes.md) */
static void
test_awf_timing(void)
{
	struct grt_sched_conf c = conf_of(GRT_SCHEME_AWF_B);
	int64_t k[4];
	grt_sched *s;
	int sc;

	for (sc = GRT_SCHEME_AWF_B; sc <= GRT_SCHEME_AWF_C; sc++) {
		c.scheme = sc;
		s = mk(&c, 4, 1000);
		grt_sched_begin_round(s);
		k[0] = take(s, 0, 3, 1);
		k[1] = take(s, 1, 1, 1);
		k[2] = take(s, 2, 1, 0);
		k[3] = take(s, 0, 3, 0);
		if (sc == GRT_SCHEME_AWF_B)
			ok(k[0] == 125 && k[1] == 125 && k[2] == 125 && k[3] == 125,
			    "awf-b: times fed back mid-batch change nothing in it (125 x4)");
		else
			ok(k[0] == 125 && k[1] == 110 && k[2] == 96 && k[3] == 42,
			    "awf-c: the slow worker's next chunk already shrinks: 125,110,96,42");
		grt_sched_free(s);
	}
}

/*
 * awf-b/c weigh t_calc, awf-d/e t_exe. Two workers, first chunks fed back with the same
 * t_calc, worker 1's t_exe 3x. The second chunks: alike for b and c, worker 1's a third of
 * worker 0's for d and e. (b and d cut one batch, R_batch for both; c and e cut R as it
 * is at each request, so they are compared as fractions of it.)
 */
static void
test_awf_exe(void)
{
	struct grt_sched_conf c = conf_of(GRT_SCHEME_AWF_B);
	struct grt_chunk ch;
	double k[2], ratio;
	grt_sched *s;
	int sc, w, batchy;

	for (sc = GRT_SCHEME_AWF_B; sc <= GRT_SCHEME_AWF_E; sc++) {
		c.scheme = sc;
		batchy = sc == GRT_SCHEME_AWF_B || sc == GRT_SCHEME_AWF_D;
		s = mk(&c, 2, 1000);
		grt_sched_begin_round(s);
		for (w = 0; w < 2; w++) {
			grt_sched_next(s, w, &ch);
			grt_sched_feedback(s, w, &ch, (double)ch.count,
			    (double)ch.count * (w == 1 ? 3 : 1));
		}
		for (w = 0; w < 2; w++) {
			k[w] = batchy ? 1 : 1.0 / (double)grt_sched_remaining(s);
			grt_sched_next(s, w, &ch);
			k[w] *= (double)ch.count;
		}
		ratio = k[0] / k[1];
		if (sc == GRT_SCHEME_AWF_B || sc == GRT_SCHEME_AWF_C)
			ok(fabs(ratio - 1) < 0.02, "%s: t_calc alike, so alike chunks (%.3f)",
			    grt_scheme_name(sc), ratio);
		else
			ok(ratio > 2.9 && ratio < 3.1, "%s: t_exe 3x, so a third the chunk (%.3f)",
			    grt_scheme_name(sc), ratio);
		grt_sched_free(s);
	}
}

/* awf's speed weighs chunk j by j; pwd-speed's weighs every chunk alike */
static void
test_weighted_average(void)
{
	struct grt_sched_conf c = conf_of(GRT_SCHEME_AWF_C);
	struct grt_chunk ch = { 0, 10 };
	grt_sched *s;

	s = mk(&c, 2, 1000);
	grt_sched_begin_round(s);
	grt_sched_feedback(s, 0, &ch, 10, 99);
	is_dbl(s->learn[0].v, 1.0, 1e-12, "awf: one chunk of 10 units in 10 s: speed 1");
	grt_sched_feedback(s, 0, &ch, 30, 99);
	is_dbl(s->learn[0].v, (1 * 10 + 2 * 10) / (1 * 10.0 + 2 * 30), 1e-12,
	    "awf: then 10 in 30 s: (1*10 + 2*10) / (1*10 + 2*30) = 3/7");
	grt_sched_free(s);

	c = conf_of(GRT_SCHEME_PWD_SPEED);
	s = mk(&c, 2, 1000);
	grt_sched_begin_round(s);
	grt_sched_feedback(s, 0, &ch, 99, 10);
	grt_sched_feedback(s, 0, &ch, 99, 30);
	is_dbl(s->learn[0].v, 0.5, 1e-12, "pwd-speed: 20 units in 40 s of t_exe: speed 1/2");
	grt_sched_free(s);
}

/*
 * A worker reported 3x slower ends with about a third of a fast one's share. Requests go
 * round-robin, so that a scheme that did not adapt would give it as much as the others:
 * fss, the control, must fail the test. awf-b and awf-d size a batch's chunks from one
 * R_batch: their units are compared. The others size every chunk from the R left at that
 * request, which shrinks between the fast workers' requests and the slow one's: their
 * first chunks of the round are compared as fractions of that R (later ones end in a tail
 * of 1-unit chunks, the same for every worker).
 */
static double
adapt_ratio(enum grt_scheme sc)
{
	double calc[4] = { 1, 1, 1, 3 }, frac[4] = { 0 }, r;
	struct grt_sched_conf c = conf_of(sc);
	struct grt_chunk ch;
	int done[4], left, w, round;
	int64_t units[4];
	grt_sched *s = mk(&c, 4, 100000);

	for (round = 1; round <= 3; round++) {
		grt_sched_begin_round(s);
		memset(done, 0, sizeof done);
		memset(units, 0, sizeof units);
		memset(frac, 0, sizeof frac);
		for (left = 4; left > 0; )
			for (w = 0; w < 4; w++) {
				r = (double)grt_sched_remaining(s);
				if (done[w] || !grt_sched_next(s, w, &ch)) {
					left -= !done[w];
					done[w] = 1;
					continue;
				}
				if (units[w] == 0)
					frac[w] = (double)ch.count / r;
				units[w] += ch.count;
				grt_sched_feedback(s, w, &ch, (double)ch.count * calc[w],
				    (double)ch.count * calc[w]);
			}
	}
	grt_sched_free(s);
	if (sc == GRT_SCHEME_AWF_B || sc == GRT_SCHEME_AWF_D || sc == GRT_SCHEME_FSS)
		return (double)units[3] / (double)units[0];
	return frac[3] / frac[0];
}

static void
test_adapt(void)
{
	double ratio;
	int i;

	for (i = 0; i < NLEARNERS; i++) {
		ratio = adapt_ratio(learners[i]);
		ok(ratio > 0.28 && ratio < 0.4, "%s: round 3, the 3x slower worker gets %.3f of a "
		    "fast one's share", grt_scheme_name(learners[i]), ratio);
	}
	ratio = adapt_ratio(GRT_SCHEME_FSS);
	ok(ratio > 0.9, "control: fss does not adapt, and gets %.3f", ratio);
}

/* af: the estimates, the formula against the paper's form, the reference */
static void
test_af(void)
{
	static const char *const exact[] = { "125,110,96,84,74,64,56,49,103,72,51,12,32,22,15,"
	    "4,10,7,5,1,3,2,1,1,1", "300,210,147,35,93,65,45,11,29,20,14,4,9,6,4,1,3,2,1,1" };
	static const char *const noisy[] = { "125,110,96,84,74,64,56,49,57,45,37,10,32,26,21,6,"
	    "17,13,11,3,9,8,6,2,5,4,4,1,3,3,2,1,2,2,1,1,1,1,1,1,1,1,1,1,1,1", "263,185,132,34,98,"
	    "70,44,12,35,26,18,5,15,11,8,3,7,5,4,1,4,3,2,1,2,2,1,1,1,1,1,1,1,1,1,1" };
	double calc[4] = { 1, 1, 1, 3 }, mu[2] = { 2, 4 }, dev[2] = { 0.5, 1 };
	double dd = 0, ee = 0, t, want;
	struct grt_sched_conf c = conf_of(GRT_SCHEME_AF);
	struct fb f = { calc, NULL, 0, { 0 } };
	struct grt_chunk ch = { 0, 100 };
	grt_sched *s;
	int w;

	seq_rounds(&c, &f, 2, exact, "af calc 1,1,1,3, exact times");
	f.noisy = 1;
	seq_rounds(&c, &f, 2, noisy, "af calc 1,1,1,3, times x.8 and x1.2 in turn");

	/* two chunks of 100 units each, per-unit means mu -/+ dev */
	s = mk(&c, 2, 100000);
	grt_sched_begin_round(s);
	ok(take(s, 0, 1, 0) == 25000, "af: no estimate yet: factoring's ceil(R/2P)");
	for (w = 0; w < 2; w++) {
		grt_sched_feedback(s, w, &ch, 100 * (mu[w] - dev[w]), 0);
		grt_sched_feedback(s, w, &ch, 100 * (mu[w] + dev[w]), 0);
		/* sigma^2 = (100 dev^2 + 100 dev^2) / (2 - 1) */
		dd += 200 * dev[w] * dev[w] / mu[w];
		ee += 1 / mu[w];
	}
	is_dbl(s->learn[1].mu, 4, 1e-12, "af: mu of worker 1 is 4");
	is_dbl(s->learn[1].m2 / (s->learn[1].j - 1), 200, 1e-9,
	    "af: sigma^2 of worker 1 is 200 (chunk means 3 and 5 over 100 units)");
	t = 1 / ee;
	want = (dd + 2 * t * 75000 - sqrt(dd * dd + 4 * dd * t * 75000)) / (2 * mu[1]);
	is_int(take(s, 1, 1, 0), (int64_t)ceil(want),
	    "af: worker 1 gets ceil((D + 2TR - sqrt(D^2 + 4DTR)) / (2 mu)) = %.3f", want);
	grt_sched_free(s);
}

/* pwd-speed, and pwd beside it unchanged */
static void
test_pwds(void)
{
	static const char *const nofb[] = { "62,62,125,250,63,55,96,144,18,16,28,41,5,5,8,11,"
	    "2,2,2,3,1,1" };
	static const char *const fbk[] = { "62,62,125,250,151,105,74,18,46,33,23,6,14,10,7,2,"
	    "4,3,2,1,1,1", "62,62,125,250,151,105,74,18,46,33,23,6,14,10,7,2,4,3,2,1,1,1" };
	static const char *const gss7[] = { "175,175,175,175,75,57,42,32,24,18,13,10,8,6,4,3,2,"
	    "2,1,1,1,1" };
	static const char *const pwd[] = { "62,62,125,250,126,94,71,53,40,30,22,17,12,9,7,5,4,"
	    "3,2,2,1,1,1,1" };
	double pr[4] = { 1, 1, 2, 4 }, calc[4] = { 1, 1, 1, 3 }, comm[4] = { 0, 0, 0, 0 };
	struct grt_sched_conf c = conf_of(GRT_SCHEME_PWD_SPEED);
	struct fb f = { calc, comm, 0, { 0 } };
	struct grt_chunk ch;
	grt_sched *s;

	c.swr = 0.5;
	c.pr = pr;
	seq_rounds(&c, NULL, 1, nofb, "pwd-speed SWR .5 pr 1:1:2:4, no feedback");
	seq_rounds(&c, &f, 2, fbk, "pwd-speed SWR .5 pr 1:1:2:4, calc 1,1,1,3");
	c.scheme = GRT_SCHEME_PWD;
	seq_rounds(&c, &f, 1, pwd, "pwd itself is unchanged by feedback");
	c.scheme = GRT_SCHEME_PWD_SPEED;
	c.pr = NULL;
	c.swr = 0.7;
	seq_rounds(&c, NULL, 1, gss7, "pwd-speed without pr and feedback is pwd (SWR .7)");

	c.swr = 0.5;
	c.pr = pr;
	s = mk(&c, 4, 1000);
	grt_sched_begin_round(s);
	ok(grt_sched_next(s, 3, &ch) && ch.start == 249 && ch.count == 250,
	    "pwd-speed: worker 3 asking first gets its static [249, 499), as in pwd");
	/* t_calc says as fast as worker 0, t_exe 4x slower: pwd-speed follows t_exe */
	grt_sched_feedback(s, 3, &ch, 250, 1000);
	grt_sched_next(s, 0, &ch);
	grt_sched_feedback(s, 0, &ch, (double)ch.count, (double)ch.count);
	/* speeds 1, 1/4; unmeasured 1 and 2 scaled by 1.25/5: S = 2, 501 x .25 / 2 */
	ok(grt_sched_next(s, 3, &ch) && ch.start == 499 && ch.count == 63,
	    "pwd-speed: worker 3's speed from t_exe: ceil(501 x 0.25 / 2) = 63 (t_calc: 157)");
	grt_sched_free(s);
}

/* Times of 0 measure nothing; feedback that never comes neither */
static void
test_zero_times(void)
{
	double zero[4] = { 0, 0, 0, 0 }, pr[4] = { 1, 1, 2, 4 };
	struct fb f = { zero, zero, 0, { 0 } };
	struct grt_sched_conf c;
	char want[65536];
	grt_sched *s;
	int i, r, nr, same;

	for (i = 0; i < NLEARNERS; i++) {
		c = conf_of(learners[i]);
		c.swr = 0.3;
		if (learners[i] != GRT_SCHEME_AF)
			c.pr = pr;
		s = mk(&c, 4, 10000);
		nr = round_fb(s, 4, NULL);
		snprintf(want, sizeof want, "%s", counts(nr));
		grt_sched_free(s);
		s = mk(&c, 4, 10000);
		same = 1;
		for (r = 0; r < 3; r++) {
			nr = round_fb(s, 4, &f);
			same &= strcmp(counts(nr), want) == 0 && contiguous(nr, 10000);
		}
		ok(same, "%s: times of 0 (empty work) give the sequence of no feedback, 3 rounds",
		    grt_scheme_name(learners[i]));
		grt_sched_free(s);
	}
}

int
main(void)
{
	test_names();
	test_new_errors();
	test_wf();
	test_awf_reference();
	test_awf_timing();
	test_awf_exe();
	test_weighted_average();
	test_adapt();
	test_af();
	test_pwds();
	test_zero_times();
	return tap_done();
}
