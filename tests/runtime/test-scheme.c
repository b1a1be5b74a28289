/*
 * test-scheme.c — the load-distribution schemes of runtime/include/grt/scheme.h: the reference
 * sequences of doc/schemes.md ("The schemes") and seed 002's table 1, the pwd example,
 * the rounds schemes (hetcomm fixed point, send order, drops), edge cases (N = 0, P = 1, N < P,
 * k > N, huge N, P = 4096) and the exactly-once invariant under random request orders
 * and random removals.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grt/grt-error.h"
#include "grt/scheme.h"
#include "runtime/scheme/scheme-int.h"
#include "tests/tap.h"

#include "tests/runtime/scheme-drive.h"

static struct grt_sched_conf
conf_of(enum grt_scheme sc)
{
	struct grt_sched_conf c;

	memset(&c, 0, sizeof c);
	c.scheme = sc;
	c.k = 1;
	c.alpha = 30;
	c.swr = 1;
	return c;
}

/*
 * One round with requests round-robin over the workers in grt_sched_order until every
 * worker has been told 0. With calc != NULL, each chunk is fed back with simulated times
 * t_calc = count * calc[w], t_exe = count * (calc[w] + comm[w]). Returns the chunk count.
 */
static int
round_rr(grt_sched *s, int p, const double *calc, const double *comm)
{
	struct grt_chunk c;
	int *order, *done, left = p, nr = 0, i, w;
	double tc;

	order = malloc((size_t)p * sizeof *order);
	done = calloc((size_t)p, sizeof *done);
	grt_sched_order(s, order);
	while (left > 0) {
		for (i = 0; i < p; i++) {
			w = order[i];
			if (done[w])
				continue;
			if (!grt_sched_next(s, w, &c)) {
				done[w] = 1;
				left--;
				continue;
			}
			if (nr < MAXREC)
				recs[nr] = (struct rec){ w, c.start, c.count };
			nr++;
			if (calc != NULL) {
				tc = (double)c.count * calc[w];
				grt_sched_feedback(s, w, &c, tc,
				    tc + (double)c.count * (comm != NULL ? comm[w] : 0));
			}
		}
	}
	free(order);
	free(done);
	return nr;
}

/* A whole round of a self-scheduling scheme, checked against its reference sequence. */
static void
seq(const struct grt_sched_conf *c, int p, int64_t n, const char *want, const char *name)
{
	grt_sched *s = mk(c, p, n);
	int nr;

	grt_sched_begin_round(s);
	nr = round_rr(s, p, NULL, NULL);
	is_str(counts(nr), want, "%s", name);
	ok(contiguous(nr, n), "%s: chunks cover [0, %lld) in order", name, (long long)n);
	is_int(grt_sched_remaining(s), 0, "%s: nothing remains", name);
	grt_sched_free(s);
}

static void
seq_of(enum grt_scheme sc, int p, int64_t n, const char *want, const char *name)
{
	struct grt_sched_conf c = conf_of(sc);

	seq(&c, p, n, want, name);
}

static grt_sched *
mk_of(enum grt_scheme sc, int p, int64_t n)
{
	struct grt_sched_conf c = conf_of(sc);

	return mk(&c, p, n);
}

static void
test_names(void)
{
	const char *all[] = { "static", "wstatic", "pss", "css", "gss", "fss", "tss", "ngss",
	    "angss", "pwd", "hetcalc", "hetcomm", "wf", "awf-b", "awf-c", "awf-d", "awf-e", "af",
	    "pwd-speed" };
	int i, good = (int)(sizeof all / sizeof all[0]) == GRT_SCHEME_COUNT;

	for (i = 0; good && i < GRT_SCHEME_COUNT; i++)
		if (grt_scheme_name(i) == NULL || strcmp(grt_scheme_name(i), all[i]) != 0 ||
		    grt_scheme_from_name(all[i]) != i)
			good = 0;
	ok(good, "names: all %d schemes round-trip", GRT_SCHEME_COUNT);
	is_int(grt_scheme_from_name("GSS"), GRT_SCHEME_GSS, "names: case does not matter");
	is_int(grt_scheme_from_name("gsss"), -1, "names: unknown is -1");
	is_int(grt_scheme_from_name(NULL), -1, "names: NULL is -1");
	ok(grt_scheme_name(GRT_SCHEME_COUNT) == NULL, "names: out of range is NULL");
	ok(grt_scheme_is_rounds(GRT_SCHEME_HETCOMM) && grt_scheme_is_rounds(GRT_SCHEME_HETCALC) &&
	    !grt_scheme_is_rounds(GRT_SCHEME_GSS) && !grt_scheme_is_rounds(GRT_SCHEME_PWD),
	    "names: only hetcalc and hetcomm work in rounds");
}

static void
bad_new(struct grt_sched_conf c, int p, int64_t n, const char *name)
{
	int err = 0;
	grt_sched *s = grt_sched_new(&c, p, n, &err);

	ok(s == NULL && err == GRT_EINVAL, "new rejects %s", name);
	grt_sched_free(s);
}

static void
test_new_errors(void)
{
	struct grt_sched_conf c;
	double zero[2] = { 1, 0 };
	int err = 0;

	bad_new(conf_of(GRT_SCHEME_GSS), 0, 10, "P = 0");
	bad_new(conf_of(GRT_SCHEME_GSS), 2, -1, "N < 0");
	c = conf_of(GRT_SCHEME_CSS);
	c.k = 0;
	bad_new(c, 2, 10, "css k = 0");
	c = conf_of(GRT_SCHEME_NGSS);
	c.alpha = 100.5;
	bad_new(c, 2, 10, "ngss alpha > 100");
	c.alpha = -1;
	bad_new(c, 2, 10, "ngss alpha < 0");
	c = conf_of(GRT_SCHEME_PWD);
	c.swr = 1.5;
	bad_new(c, 2, 10, "pwd swr > 1");
	c.swr = 0.5;
	c.pr = zero;
	bad_new(c, 2, 10, "pwd pr with a 0");
	c = conf_of(GRT_SCHEME_WSTATIC);
	c.cpu = zero;
	bad_new(c, 2, 10, "wstatic cpu with a 0");
	c = conf_of(GRT_SCHEME_COUNT);
	bad_new(c, 2, 10, "an unknown scheme");
	ok(grt_sched_new(NULL, 2, 10, &err) == NULL && err == GRT_EINVAL, "new rejects no conf");
	c = conf_of(GRT_SCHEME_GSS);
	c.cpu = zero;	/* gss does not use cpu[]: not an error */
	{
		grt_sched *s = grt_sched_new(&c, 2, 10, NULL);

		ok(s != NULL, "new ignores the cpu[] of a scheme that does not use it");
		grt_sched_free(s);
	}
}

/* doc/schemes.md, "The schemes", and seed 002 table 1, N = 1000, P = 4 */
static void
test_reference(void)
{
	struct grt_sched_conf c;

	seq(&(struct grt_sched_conf){ .scheme = GRT_SCHEME_STATIC }, 4, 1000,
	    "250,250,250,250", "static N=1000 P=4");
	c = conf_of(GRT_SCHEME_PSS);
	{
		grt_sched *s = mk(&c, 4, 1000);
		int nr, i, ones = 1;

		grt_sched_begin_round(s);
		nr = round_rr(s, 4, NULL, NULL);
		for (i = 0; i < nr; i++)
			ones &= recs[i].count == 1;
		ok(nr == 1000 && ones && contiguous(nr, 1000), "pss N=1000 P=4: 1 x1000");
		grt_sched_free(s);
	}
	c = conf_of(GRT_SCHEME_CSS);
	c.k = 125;
	seq(&c, 4, 1000, "125,125,125,125,125,125,125,125", "css k=125 N=1000 P=4");
	seq_of(GRT_SCHEME_GSS, 4, 1000,
	    "250,188,141,106,79,59,45,33,25,19,14,11,8,6,4,3,3,2,1,1,1,1", "gss N=1000 P=4");
	seq_of(GRT_SCHEME_FSS, 4, 1000,
	    "125,125,125,125,63,63,63,63,31,31,31,31,16,16,16,16,8,8,8,8,4,4,4,4,2,2,2,2,1,1,1,1",
	    "fss N=1000 P=4");
	seq_of(GRT_SCHEME_TSS, 4, 1000,
	    "125,117,109,101,93,85,77,69,61,53,45,37,28", "tss N=1000 P=4");
}

static void
test_pwd(void)
{
	struct grt_sched_conf c = conf_of(GRT_SCHEME_PWD);
	double pr[4] = { 1, 1, 2, 4 };
	int i, firsts = 1;
	grt_sched *s;

	c.swr = 0.5;
	c.pr = pr;
	seq(&c, 4, 1000, "62,62,125,250,126,94,71,53,40,30,22,17,12,9,7,5,4,3,2,2,1,1,1,1",
	    "pwd SWR .5 PR 1:1:2:4: 62,62,125,250 then GSS on 501");
	for (i = 0; i < 4; i++)
		firsts &= recs[i].w == i;
	ok(firsts, "pwd: worker w's first request gets its static chunk");

	/* the static chunk is worker w's whatever the order of the requests */
	s = mk(&c, 4, 1000);
	grt_sched_begin_round(s);
	{
		struct grt_chunk ch;

		ok(grt_sched_next(s, 3, &ch) && ch.start == 249 && ch.count == 250,
		    "pwd: worker 3 asking first gets [249, 499)");
		ok(grt_sched_next(s, 3, &ch) && ch.start == 499 && ch.count == 126,
		    "pwd: its second request starts the GSS pool at 499");
		ok(grt_sched_next(s, 0, &ch) && ch.start == 0 && ch.count == 62,
		    "pwd: worker 0 still gets [0, 62) first");
	}
	grt_sched_free(s);

	c.swr = 0.7;
	c.pr = NULL;
	seq(&c, 4, 1000, "175,175,175,175,75,57,42,32,24,18,13,10,8,6,4,3,2,2,1,1,1,1",
	    "pwd SWR 0.7 (seed 002's example) equal PR: 700 static");
	c.swr = 0;
	seq(&c, 4, 1000, "250,188,141,106,79,59,45,33,25,19,14,11,8,6,4,3,3,2,1,1,1,1",
	    "pwd SWR 0 is gss");
	c.swr = 1;
	c.pr = pr;
	seq(&c, 4, 1000, "125,125,250,500", "pwd SWR 1 is static by PR");
}

static void
test_swr(void)
{
	double five[5] = { 7, 7.5, 8, 8.5, 10 };
	double same[3] = { 2, 2, 2 };
	double zeros[2] = { 0, 0 };
	double mixed[3] = { 0, 5, -1 };

	is_dbl(grt_swr_from_samples(five, 5), 0.7, 1e-12, "swr: seed 002's 7,7.5,8,8.5,10 is 0.7");
	is_dbl(grt_swr_from_samples(same, 3), 1.0, 0, "swr: a regular workload is 1");
	is_dbl(grt_swr_from_samples(zeros, 2), 1.0, 0, "swr: max 0 is 1");
	is_dbl(grt_swr_from_samples(NULL, 0), 1.0, 0, "swr: no sample is 1");
	is_dbl(grt_swr_from_samples(mixed, 3), 0.0, 0, "swr: min 0 is 0; a negative is skipped");
}

static void
test_ngss(void)
{
	struct grt_sched_conf c = conf_of(GRT_SCHEME_NGSS);
	double cpu[4] = { 3001, 898, 3001, 898 };
	double eq[4] = { 5, 5, 5, 5 };
	grt_sched *s;

	c.cpu = cpu;
	c.alpha = 30;
	seq(&c, 4, 1000,
	    "115,34,115,34,176,132,99,74,56,42,31,23,18,13,10,7,6,4,3,2,2,1,1,1,1",
	    "ngss alpha 30, cpu 3001:898: floor(300*cpu/sum), then GSS on 702");
	c.alpha = 0;
	seq(&c, 4, 1000, "250,188,141,106,79,59,45,33,25,19,14,11,8,6,4,3,3,2,1,1,1,1",
	    "ngss alpha 0 is gss");

	c = conf_of(GRT_SCHEME_ANGSS);
	c.cpu = cpu;
	s = mk(&c, 4, 1000);
	grt_sched_begin_round(s);
	is_dbl(grt_sched_alpha(s), 20 + 60 * (1 - 898.0 / 3001), 1e-9,
	    "angss: alpha = 20 + 60 (1 - min cpu / max cpu)");
	grt_sched_free(s);
	seq(&c, 4, 1000, "238,71,238,71,96,72,54,40,30,23,17,13,10,7,5,4,3,2,2,1,1,1,1",
	    "angss cpu 3001:898: alpha 62.04, floor(620*cpu/sum), then GSS");
	c.cpu = eq;
	s = mk(&c, 4, 1000);
	grt_sched_begin_round(s);
	is_dbl(grt_sched_alpha(s), 20, 0, "angss: equal cpu is homogeneous: alpha 20");
	grt_sched_free(s);

	/* round 2: the measured speeds replace the clocks */
	{
		double calc[4] = { 1, 1, 1, 4 };	/* seconds per unit */
		int nr;

		c.cpu = NULL;
		s = mk(&c, 4, 1000);
		grt_sched_begin_round(s);
		is_dbl(grt_sched_alpha(s), 20, 0, "angss round 1 without cpu: alpha 20");
		round_rr(s, 4, calc, NULL);
		grt_sched_begin_round(s);
		is_dbl(grt_sched_alpha(s), 20 + 60 * 0.75, 1e-9,
		    "angss round 2: alpha from measured speeds 1:1:1:0.25 is 65");
		nr = round_rr(s, 4, calc, NULL);
		ok(nr > 4 && recs[0].count == 200 && recs[3].count == 50 && contiguous(nr, 1000),
		    "angss round 2: 650 units split by measured speed: 200,200,200,50");
		grt_sched_free(s);
	}
}

static void
test_wstatic(void)
{
	struct grt_sched_conf c = conf_of(GRT_SCHEME_WSTATIC);
	double cpu3[3] = { 1, 1, 1 };
	double cpu2[2] = { 3, 1 };
	double tiger[4] = { 3001, 3001, 898, 898 };

	c.cpu = cpu3;
	seq(&c, 3, 1000, "334,333,333", "wstatic equal: the leftover to the lowest index");
	c.cpu = cpu2;
	seq(&c, 2, 10, "8,2", "wstatic 3:1 of 10: remainders .5/.5 tie to worker 0");
	c.cpu = tiger;
	seq(&c, 4, 1000, "385,385,115,115", "wstatic 3001:3001:898:898 of 1000");
	c.cpu = NULL;
	seq(&c, 4, 10, "3,3,2,2", "wstatic with no cpu[] is an equal split");
}

static void
test_static_edges(void)
{
	struct grt_sched_conf c = conf_of(GRT_SCHEME_STATIC);
	struct grt_chunk ch;
	grt_sched *s;

	seq(&c, 4, 10, "3,3,3,1", "static N=10 P=4: ceil, the last gets less");
	seq(&c, 4, 2, "1,1", "static N=2 P=4: workers 2 and 3 get nothing");
	s = mk(&c, 4, 2);
	grt_sched_begin_round(s);
	ok(grt_sched_next(s, 3, &ch) == 0, "static N=2 P=4: worker 3 is told 0 at once");
	ok(grt_sched_next(s, 0, &ch) == 1 && grt_sched_next(s, 0, &ch) == 0,
	    "static: one chunk per worker");
	grt_sched_free(s);

	/* a removed worker's unclaimed chunk goes whole to the next asker */
	s = mk(&c, 4, 1000);
	grt_sched_begin_round(s);
	ok(grt_sched_next(s, 0, &ch) && ch.start == 0 && ch.count == 250, "static: worker 0 [0,250)");
	grt_sched_remove_worker(s, 1);
	ok(grt_sched_next(s, 1, &ch) == 0, "static: a removed worker gets nothing");
	ok(grt_sched_next(s, 0, &ch) && ch.start == 250 && ch.count == 250,
	    "static: worker 1's chunk goes to worker 0 when it asks again");
	is_int(grt_sched_remaining(s), 500, "static: 500 units remain");
	grt_sched_begin_round(s);
	round_rr(s, 4, NULL, NULL);
	is_str(counts(3), "334,334,332", "static round 2 after a removal: ceil(1000/3)");
	grt_sched_free(s);
}

static void
test_self_edges(void)
{
	struct grt_sched_conf c;
	struct grt_chunk ch;
	grt_sched *s;
	int sc;

	c = conf_of(GRT_SCHEME_CSS);
	c.k = 2000;
	seq(&c, 4, 1000, "1000", "css k > N: one chunk of N");
	c.k = 3;
	seq(&c, 4, 10, "3,3,3,1", "css k=3 N=10: the last clipped");
	seq_of(GRT_SCHEME_GSS, 1, 1000, "1000", "gss P=1: one chunk");
	seq_of(GRT_SCHEME_FSS, 1, 1000, "500,250,125,63,31,16,8,4,2,1", "fss P=1");
	seq_of(GRT_SCHEME_TSS, 1, 1000, "500,334,166", "tss P=1: F=500 n=4 d=166");
	seq_of(GRT_SCHEME_GSS, 4, 3, "1,1,1", "gss N=3 P=4");
	seq_of(GRT_SCHEME_FSS, 4, 10, "2,2,2,2,1,1", "fss N=10 P=4");
	seq_of(GRT_SCHEME_TSS, 4, 10, "2,2,2,2,2", "tss N=10 P=4: F=2 n=7 d=0");
	seq_of(GRT_SCHEME_TSS, 4, 1, "1", "tss N=1 P=4");

	for (sc = 0; sc < GRT_SCHEME_COUNT; sc++) {
		c = conf_of(sc);
		s = mk(&c, 3, 0);
		ok(grt_sched_next(s, 0, &ch) == 0, "%s N=0: nothing before the first round",
		    grt_scheme_name(sc));
		grt_sched_begin_round(s);
		ok(round_rr(s, 3, NULL, NULL) == 0 && grt_sched_remaining(s) == 0,
		    "%s N=0: no chunk", grt_scheme_name(sc));
		grt_sched_free(s);
	}

	/* gss divides by the workers still counted */
	s = mk_of(GRT_SCHEME_GSS, 4, 1000);
	is_int(grt_sched_remaining(s), 1000, "remaining before the first round is N");
	is_int(grt_sched_begin_round(s), 1, "begin_round returns 1, then 2");
	grt_sched_next(s, 0, &ch);
	grt_sched_remove_worker(s, 3);
	ok(grt_sched_next(s, 1, &ch) && ch.count == 250 && ch.start == 250,
	    "gss after a removal: ceil(750/3) = 250");
	ok(grt_sched_next(s, 3, &ch) == 0 && !grt_sched_active(s, 3),
	    "gss: the removed worker gets nothing");
	grt_sched_add_worker(s, 3);
	ok(grt_sched_active(s, 3) && grt_sched_next(s, 3, &ch) && ch.count == 125 &&
	    ch.start == 500, "gss: a worker taken back counts again: ceil(500/4)");
	grt_sched_remove_worker(s, 3);
	is_int(grt_sched_begin_round(s), 2, "begin_round returns 2");
	round_rr(s, 4, NULL, NULL);
	is_str(counts(3), "334,222,148", "gss round 2 with P = 3");
	grt_sched_free(s);

	/* fss batches over the workers still counted */
	s = mk_of(GRT_SCHEME_FSS, 4, 1000);
	grt_sched_begin_round(s);
	grt_sched_remove_worker(s, 2);
	round_rr(s, 4, NULL, NULL);
	is_str(counts(6), "167,167,167,84,84,84", "fss with P = 3: batches of 3 of ceil(R/6)");
	grt_sched_free(s);
}

/*
 * doc/schemes.md, "The bound to measure against": with independent links the fixed point
 * is n_i ~ 1/(c_i + w_i)
 */
static void
test_hetcomm(void)
{
	struct grt_sched_conf c = conf_of(GRT_SCHEME_HETCOMM);
	double calc[4] = { 1, 2, 1, 1 }, comm[4] = { 0, 0, 1, 3 };
	double pr[4] = { 1, 1, 2, 4 };
	int order[4], j, nr, stable = 1;
	char want[64];
	grt_sched *s;

	seq(&c, 4, 10, "3,3,2,2", "hetcomm round 1: floor(N/P), remainder to the first");
	c.pr = pr;
	seq(&c, 4, 1000, "125,125,250,500", "hetcomm round 1 by PR when given");
	c.pr = NULL;

	s = mk(&c, 4, 900);
	grt_sched_begin_round(s);
	nr = round_rr(s, 4, calc, comm);
	is_str(counts(nr), "225,225,225,225", "hetcomm 900 units, round 1 equal");
	for (j = 2; j <= 4; j++) {
		grt_sched_begin_round(s);
		nr = round_rr(s, 4, calc, comm);
		/* calc+comm = 1,2,2,4: n ~ 4:2:2:1 of 900 */
		snprintf(want, sizeof want, "%s", "400,200,200,100");
		if (j == 2)
			is_str(counts(nr), want,
			    "hetcomm round 2: n_i ~ 1/(c_i + w_i): 400,200,200,100");
		else
			stable &= strcmp(counts(nr), want) == 0;
		stable &= contiguous(nr, 900);
	}
	ok(stable, "hetcomm rounds 3-4 stay at the fixed point");
	grt_sched_order(s, order);
	ok(order[0] == 0 && order[1] == 1 && order[2] == 2 && order[3] == 3,
	    "hetcomm: equal perf_f ties go to the lower index");
	grt_sched_free(s);

	c.scheme = GRT_SCHEME_HETCALC;
	s = mk(&c, 4, 700);
	grt_sched_begin_round(s);
	round_rr(s, 4, calc, comm);
	grt_sched_begin_round(s);
	nr = round_rr(s, 4, calc, comm);
	is_str(counts(nr), "200,100,200,200", "hetcalc ignores t_comm: n ~ 1/c_i");
	grt_sched_free(s);

	/* the send order is decreasing perf_f of the previous round, and so is the layout */
	{
		double c2[4] = { 4, 1, 2, 1 }, w2[4] = { 0, 0, 0, 0 };

		c.scheme = GRT_SCHEME_HETCOMM;
		s = mk(&c, 4, 1000);
		grt_sched_begin_round(s);
		round_rr(s, 4, c2, w2);
		grt_sched_begin_round(s);
		grt_sched_order(s, order);
		ok(order[0] == 1 && order[1] == 3 && order[2] == 2 && order[3] == 0,
		    "hetcomm round 2 order: 1,3,2,0 (perf_f 1,1,.5,.25)");
		nr = round_rr(s, 4, c2, w2);
		ok(nr == 4 && recs[0].w == 1 && recs[0].start == 0 && recs[1].w == 3 &&
		    recs[1].start == 364 && recs[3].w == 0 && recs[3].start == 909 &&
		    contiguous(nr, 1000),
		    "hetcomm round 2: starts laid out in send order 1,3,2,0");
		/* shares 363.6, 363.6, 181.8, 90.9: leftovers to .909, .818, then the tie .636
		 * to the lower index, worker 1 */
		is_str(counts(nr), "364,363,182,91", "hetcomm round 2 units, largest remainder");
		grt_sched_free(s);
	}
}

static void
test_drop(void)
{
	struct grt_sched_conf c = conf_of(GRT_SCHEME_HETCOMM);
	double calc[4] = { 1, 1, 1, 1000 }, comm[4] = { 0, 0, 0, 0 };
	struct grt_chunk ch;
	double share = -1;
	int nr, i;
	grt_sched *s;

	s = mk(&c, 4, 100);
	grt_sched_begin_round(s);
	round_rr(s, 4, calc, comm);
	ok(!grt_sched_dropped(s, 3, &share), "drop: nobody dropped in round 1");
	grt_sched_begin_round(s);
	ok(grt_sched_dropped(s, 3, &share), "drop: the 1000x slower worker is dropped in round 2");
	is_dbl(share, 100 * 0.001 / 3.001, 1e-9, "drop: its share was 0.033 units");
	ok(!grt_sched_dropped(s, 0, NULL), "drop: worker 0 is not");
	ok(grt_sched_next(s, 3, &ch) == 0 && !grt_sched_active(s, 3),
	    "drop: the dropped worker gets nothing");
	nr = round_rr(s, 4, calc, comm);
	is_str(counts(nr), "34,33,33", "drop: the others share all 100 units");
	grt_sched_begin_round(s);
	ok(!grt_sched_dropped(s, 3, NULL) && !grt_sched_active(s, 3) &&
	    grt_sched_next(s, 3, &ch) == 0, "drop: it stays dropped (reported once)");
	nr = round_rr(s, 4, calc, comm);
	ok(nr == 3 && contiguous(nr, 100), "drop: round 3 hands out all 100 to three workers");
	grt_sched_free(s);

	/* a worker with no measurement in a round keeps its previous per-unit times */
	{
		double calc2[3] = { 1, 2, 4 };

		s = mk(&c, 3, 700);
		grt_sched_begin_round(s);
		round_rr(s, 3, calc2, comm);
		grt_sched_begin_round(s);
		round_rr(s, 3, calc2, comm);
		is_str(counts(3), "400,200,100", "keep: round 2 at the fixed point");
		/* round 2 again, but worker 1's result is never fed back */
		grt_sched_begin_round(s);
		{
			int order[3];

			grt_sched_order(s, order);
			for (i = 0; i < 3; i++) {
				grt_sched_next(s, order[i], &ch);
				recs[i] = (struct rec){ order[i], ch.start, ch.count };
				if (order[i] != 1)
					grt_sched_feedback(s, order[i], &ch,
					    (double)ch.count * calc2[order[i]],
					    (double)ch.count * calc2[order[i]]);
			}
		}
		grt_sched_begin_round(s);
		{
			int order[3];

			grt_sched_order(s, order);
			ok(order[0] == 0 && order[1] == 2 && order[2] == 1,
			    "keep: the unmeasured worker is served after the measured ones");
		}
		round_rr(s, 3, calc2, comm);
		ok(recs[0].w == 0 && recs[0].count == 400 && recs[1].w == 2 &&
		    recs[1].count == 100 && recs[2].w == 1 && recs[2].count == 200,
		    "keep: its share still comes from its previous per-unit time");
		grt_sched_free(s);
	}
}

/* ---- huge N and P = 4096 ---- */

static void
huge_run(enum grt_scheme sc, int64_t n, const char *name)
{
	struct grt_sched_conf c = conf_of(sc);
	double pr[4] = { 1, 1, 2, 4 };
	grt_sched *s;
	int nr;

	c.pr = pr;
	c.swr = 0.5;
	c.cpu = pr;
	s = mk(&c, 4, n);
	grt_sched_begin_round(s);
	nr = round_rr(s, 4, NULL, NULL);
	ok(nr > 0 && nr < MAXREC && contiguous(nr, n) && grt_sched_remaining(s) == 0,
	    "%s N=%lld: %d chunks cover [0, N) exactly", name, (long long)n, nr);
	grt_sched_free(s);
}

static void
test_huge(void)
{
	int64_t half = INT64_MAX / 2;
	struct grt_chunk ch;
	grt_sched *s;
	int nr;

	huge_run(GRT_SCHEME_STATIC, half, "static");
	huge_run(GRT_SCHEME_WSTATIC, half, "wstatic");
	huge_run(GRT_SCHEME_GSS, half, "gss");
	huge_run(GRT_SCHEME_FSS, half, "fss");
	huge_run(GRT_SCHEME_TSS, half, "tss");
	huge_run(GRT_SCHEME_NGSS, half, "ngss");
	huge_run(GRT_SCHEME_ANGSS, half, "angss");
	huge_run(GRT_SCHEME_PWD, half, "pwd");
	huge_run(GRT_SCHEME_HETCOMM, half, "hetcomm");
	huge_run(GRT_SCHEME_GSS, INT64_MAX, "gss");
	huge_run(GRT_SCHEME_TSS, INT64_MAX, "tss");
	huge_run(GRT_SCHEME_STATIC, INT64_MAX, "static");

	s = mk_of(GRT_SCHEME_GSS, 4, half);
	grt_sched_begin_round(s);
	grt_sched_next(s, 0, &ch);
	is_int(ch.count, half / 4 + 1, "gss huge: first chunk ceil(N/4) exactly");
	grt_sched_free(s);

	s = mk_of(GRT_SCHEME_TSS, 4, half);
	grt_sched_begin_round(s);
	grt_sched_next(s, 0, &ch);
	is_int(ch.count, half / 8 + 1, "tss huge: F = ceil(N/8) exactly");
	grt_sched_free(s);

	{
		struct grt_sched_conf c = conf_of(GRT_SCHEME_PWD);
		double pr[4] = { 1, 1, 2, 4 };

		c.pr = pr;
		c.swr = 0.5;
		s = mk(&c, 4, half);
		grt_sched_begin_round(s);
		nr = round_rr(s, 4, NULL, NULL);
		/* N/16 = 288230376151711743.9375 */
		is_int(recs[0].count, 288230376151711743LL, "pwd huge: floor(SWR N pr/sum) exact");
		grt_sched_free(s);
	}
	{
		double calc[4] = { 1, 1, 2, 4 };

		s = mk_of(GRT_SCHEME_HETCOMM, 4, half);
		grt_sched_begin_round(s);
		round_rr(s, 4, calc, NULL);
		grt_sched_begin_round(s);
		nr = round_rr(s, 4, calc, NULL);
		ok(nr == 4 && contiguous(nr, half) && recs[3].count - half / 11 >= 0 &&
		    recs[3].count - half / 11 <= 1,
		    "hetcomm huge: round 2 is 4:4:2:1 of N and sums to N");
		grt_sched_free(s);
	}
}

/* ---- the exactly-once invariant ---- */

/* The workers still counted that have not been told 0; *nact gets those still counted. */
static int
sched_candidates(const grt_sched *s, int p, const int *gone, const int *done, int *cand,
    int *nact)
{
	int i, nc = 0;

	*nact = 0;
	for (i = 0; i < p; i++) {
		if (gone[i] || !grt_sched_active(s, i))
			continue;
		(*nact)++;
		if (!done[i])
			cand[nc++] = i;
	}
	return nc;
}

/*
 * Three rounds with random request order, random feedback and (when removals) random
 * removals: every unit of [0, n) is handed out exactly once per round, only to workers
 * still counted. Returns NULL or what went wrong.
 */
static const char *
exactly_once(enum grt_scheme sc, int64_t n, int p, int removals)
{
	static char why[160];
	struct grt_sched_conf c = conf_of(sc);
	unsigned char *seen = calloc((size_t)n + 1, 1);
	int *done = calloc((size_t)p, sizeof *done), *cand = malloc((size_t)p * sizeof *cand);
	int *gone = calloc((size_t)p, sizeof *gone);
	double *pr = malloc((size_t)p * sizeof *pr), *speed = malloc((size_t)p * sizeof *speed);
	struct grt_chunk ch;
	const char *bad = NULL;
	int64_t u;
	int i, w, nc, nact, round;
	grt_sched *s;

	for (i = 0; i < p; i++) {
		pr[i] = 0.5 + rnd01() * 4;
		speed[i] = 0.1 + rnd01() * (i == p - 1 ? 50 : 3);
	}
	c.k = 3;
	c.alpha = 40;
	c.swr = 0.6;
	c.pr = pr;
	c.cpu = pr;
	s = mk(&c, p, n);
	for (round = 1; round <= 3 && bad == NULL; round++) {
		grt_sched_begin_round(s);
		memset(seen, 0, (size_t)n + 1);
		memset(done, 0, (size_t)p * sizeof *done);
		nc = sched_candidates(s, p, gone, done, cand, &nact);
		while (nc > 0) {
			if (removals && rnd() % 60 == 0) {
				/* a worker declared failed answers late: it is taken back */
				w = (int)(rnd() % (uint64_t)p);
				if (gone[w]) {
					grt_sched_add_worker(s, w);
					gone[w] = 0;
					memset(done, 0, (size_t)p * sizeof *done);
					nc = sched_candidates(s, p, gone, done, cand, &nact);
					continue;
				}
			}
			if (removals && nact > 1 && rnd() % 40 == 0) {
				w = cand[rnd() % (uint64_t)nc];
				grt_sched_remove_worker(s, w);
				gone[w] = 1;
				/* a reserved chunk may now be anybody's: ask everyone again */
				memset(done, 0, (size_t)p * sizeof *done);
				nc = sched_candidates(s, p, gone, done, cand, &nact);
				continue;
			}
			i = (int)(rnd() % (uint64_t)nc);
			w = cand[i];
			if (!grt_sched_next(s, w, &ch)) {
				done[w] = 1;
				cand[i] = cand[--nc];
				continue;
			}
			if (ch.count < 1 || ch.start < 0 || ch.start > n - ch.count) {
				snprintf(why, sizeof why, "round %d: bad chunk [%lld, +%lld)", round,
				    (long long)ch.start, (long long)ch.count);
				bad = why;
				break;
			}
			for (u = ch.start; u < ch.start + ch.count; u++) {
				if (seen[u]++) {
					snprintf(why, sizeof why, "round %d: unit %lld twice", round,
					    (long long)u);
					bad = why;
				}
			}
			if (bad != NULL)
				break;
			grt_sched_feedback(s, w, &ch, (double)ch.count / speed[w] * (0.8 + 0.4 *
			    rnd01()), (double)ch.count / speed[w] * 1.3);
		}
		for (i = 0; i < p; i++)
			if (gone[i] && grt_sched_next(s, i, &ch))
				bad = "a removed worker got a chunk";
		for (u = 0; u < n && bad == NULL; u++)
			if (!seen[u]) {
				snprintf(why, sizeof why, "round %d: unit %lld never handed out",
				    round, (long long)u);
				bad = why;
			}
		if (bad == NULL && grt_sched_remaining(s) != 0)
			bad = "remaining is not 0 at the end of the round";
	}
	grt_sched_free(s);
	free(seen);
	free(done);
	free(cand);
	free(gone);
	free(pr);
	free(speed);
	return bad;
}

static void
test_exactly_once(void)
{
	static const struct {
		int64_t n;
		int p;
	} cases[] = { { 0, 3 }, { 1, 1 }, { 3, 5 }, { 1000, 4 }, { 777, 7 }, { 5000, 16 } };
	const char *why;
	size_t k;
	int sc, rm, all;

	for (sc = 0; sc < GRT_SCHEME_COUNT; sc++)
		for (rm = 0; rm <= 1; rm++) {
			all = 1;
			for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
				why = exactly_once(sc, cases[k].n, cases[k].p, rm);
				if (why != NULL) {
					printf("# %s N=%lld P=%d: %s\n", grt_scheme_name(sc),
					    (long long)cases[k].n, cases[k].p, why);
					all = 0;
				}
			}
			ok(all, "exactly once: %s, random order%s, 3 rounds, 6 sizes",
			    grt_scheme_name(sc), rm ? ", removals and re-adds" : "");
		}
}

/* k[0..n) in the order of the spec (key descending, ties lowest index), checked pairwise */
static int
keys_sorted(const struct sched_key *k, int n)
{
	int i;

	for (i = 1; i < n; i++)
		if (k[i - 1].key < k[i].key || (k[i - 1].key == k[i].key && k[i - 1].idx > k[i].idx))
			return 0;
	return 1;
}

/*
 * The sort behind the perf_f send order and the selection behind the largest-remainder
 * leftovers, against brute force: many ties (few distinct keys), sizes around the
 * insertion-sort cutoff and P = 4096.
 */
static void
test_keys(void)
{
	static struct sched_key k[4096], ref[4096];
	static const int sizes[] = { 1, 2, 15, 16, 17, 33, 100, 4096 };
	int si, i, j, top, distinct, good_sort = 1, good_sel = 1, rank;

	for (si = 0; si < (int)(sizeof sizes / sizeof sizes[0]); si++)
		for (distinct = 1; distinct <= 1000; distinct *= 10) {
			int n = sizes[si];

			for (i = 0; i < n; i++) {
				k[i].key = (double)(rnd() % (uint64_t)distinct) / 7.0;
				k[i].idx = i;
			}
			memcpy(ref, k, (size_t)n * sizeof *k);
			sched_sort_keys(ref, n);
			good_sort &= keys_sorted(ref, n);
			top = (int)(rnd() % (uint64_t)(n + 1));
			sched_select_keys(k, n, top);
			/* k[0..top) must be exactly the first top of the sorted order */
			for (i = 0; i < top; i++) {
				for (rank = 0, j = 0; j < n; j++)
					if (ref[j].idx == k[i].idx)
						rank = j;
				if (rank >= top)
					good_sel = 0;
			}
		}
	ok(good_sort, "keys: the sort orders by key descending, ties by lowest index");
	ok(good_sel, "keys: the selection picks exactly the top entries of that order");
}

static void
test_p4096(void)
{
	static const enum grt_scheme schemes[] = { GRT_SCHEME_GSS, GRT_SCHEME_FSS,
	    GRT_SCHEME_TSS, GRT_SCHEME_PWD, GRT_SCHEME_HETCOMM };
	const char *why;
	size_t k;

	for (k = 0; k < sizeof schemes / sizeof schemes[0]; k++) {
		why = exactly_once(schemes[k], 200000, 4096, 1);
		ok(why == NULL, "P=4096 %s N=200000: exactly once with removals%s%s",
		    grt_scheme_name(schemes[k]), why ? ": " : "", why ? why : "");
	}
}

int
main(void)
{
	test_names();
	test_new_errors();
	test_reference();
	test_pwd();
	test_swr();
	test_ngss();
	test_wstatic();
	test_static_edges();
	test_self_edges();
	test_hetcomm();
	test_drop();
	test_huge();
	test_exactly_once();
	test_keys();
	test_p4096();
	return tap_done();
}
