/*
 * scheme-feed.h — what tests/runtime/test-scheme-awf*.c share to drive the learning schemes:
 * synthetic feedback (per-unit compute and link times per worker, optionally noisy) and
 * whole rounds of round-robin requests, each chunk fed back at once, with the units per
 * worker in got[].
 */
#ifndef TEST_SCHEME_FEED_H
#define TEST_SCHEME_FEED_H

#include "tests/runtime/scheme-drive.h"

static int64_t got[64];		/* units per worker in the last round_fb */

static const enum grt_scheme learners[] = { GRT_SCHEME_AWF_B, GRT_SCHEME_AWF_C,
    GRT_SCHEME_AWF_D, GRT_SCHEME_AWF_E, GRT_SCHEME_AF, GRT_SCHEME_PWD_SPEED };
#define NLEARNERS ((int)(sizeof learners / sizeof learners[0]))

static struct grt_sched_conf
conf_of(enum grt_scheme sc)
{
	struct grt_sched_conf c;

	memset(&c, 0, sizeof c);
	c.scheme = sc;
	c.k = 1;
	c.swr = 0;
	return c;
}

/* Feedback: t_calc = n calc[w] f, t_exe = t_calc + n comm[w]; f alternates .8/1.2 if noisy. */
struct fb {
	const double *calc;
	const double *comm;
	int noisy;
	int k[64];
};

static void
feed(grt_sched *s, struct fb *f, int w, const struct grt_chunk *c)
{
	double m = 1, tc;

	if (f == NULL || f->calc == NULL)
		return;
	if (f->noisy)
		m = f->k[w]++ % 2 ? 1.2 : 0.8;
	tc = (double)c->count * f->calc[w] * m;
	grt_sched_feedback(s, w, c, tc, tc + (double)c->count * (f->comm ? f->comm[w] : 0));
}

/*
 * One round, requests round-robin over workers 0..p-1 until every one has been told 0,
 * each chunk fed back at once through f (NULL: never). Returns the chunk count.
 */
static int
round_fb(grt_sched *s, int p, struct fb *f)
{
	struct grt_chunk c;
	int done[64] = { 0 }, left = p, nr = 0, w;

	memset(got, 0, sizeof got);
	grt_sched_begin_round(s);
	while (left > 0)
		for (w = 0; w < p; w++) {
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
			got[w] += c.count;
			feed(s, f, w, &c);
		}
	return nr;
}

/* Next chunk of w, fed back at `per` seconds a unit (t_calc = t_exe); its count. */
static inline int64_t
take(grt_sched *s, int w, double per, int report)
{
	struct grt_chunk c;

	if (!grt_sched_next(s, w, &c))
		return -1;
	if (report)
		grt_sched_feedback(s, w, &c, (double)c.count * per, (double)c.count * per);
	return c.count;
}

#endif
