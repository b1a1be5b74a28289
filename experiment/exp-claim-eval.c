/*
 * exp-claim-eval.c — a claim over an experiment's done runs (doc/experiments.md,
 * "Claims"): its groups of runs, its comparisons (one-sided Mann-Whitney U, Holm's
 * correction over every comparison of the claim at alpha 0.05), its intervals (a seeded
 * bootstrap), and one verdict: holds when every part holds on 3 runs or more per group,
 * fails when some part shows the opposite, not separable otherwise, naming the first part
 * that decided.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "experiment/exp-claim.h"
#include "experiment/exp-metrics.h"
#include "experiment/stats.h"

const char *const exp_verdict_names[] = { "holds", "fails", "not separable" };

#define ECE_MW		"Mann-Whitney U (one-sided, Holm)"

/* A group of runs: the values of the points its selector matches. */
struct ece_group {
	int *sel;		/* per parameter a value index, or -1 (any kept by where) */
	char *what;		/* the values that make it this group: "scheme=pwd" */
	char *at;		/* the per combination (and over's value): "size=64", or "" */
	double *v;
	size_t n;
};

/* One part of the claim: a comparison (lo below hi), a ratio or the gap's growth. */
struct ece_part {
	enum { ECE_CMP, ECE_RATIO, ECE_GROWTH } kind;
	size_t g[4];		/* groups: lo, hi; ratio: num, den; growth: A, B first, A, B last */
	double p, rp;		/* the claim's direction and the opposite one (comparisons) */
	double adj, radj;	/* after Holm */
	double value, lo, hi;	/* ratio and growth: the estimate and its interval */
	enum exp_verdict verdict;
};

struct ece {
	const struct exp_report *r;
	const struct exp_claim *c;
	size_t m;		/* the metric's index */
	int mode;		/* mode's value index for this evaluation, or -1 */
	unsigned long seed;
	struct ece_group *g;
	size_t ng;
	struct ece_part *pt;
	size_t npt;
};

/*
 * The first index of value j's text among parameter par's values: under zip: a value
 * may be listed more than once, and a claim's groups are by value, not by position.
 */
static int
ece_canon(const struct exp_param *par, size_t j)
{
	size_t i;

	for (i = 0; i < j; i++)
		if (strcmp(par->texts[i], par->texts[j]) == 0)
			return (int)i;
	return (int)j;
}

/* 1 when point p is in the group of selector sel (with the claim's where and mode). */
static int
ece_match(const struct ece *x, size_t point, const int *sel)
{
	const struct exp *e = x->r->e;
	size_t p, v;

	for (p = 0; p < e->nparams; p++) {
		v = (size_t)ece_canon(&e->params[p], exp_point_index(e, point, p));
		if (sel[p] >= 0 ? v != (size_t)sel[p] :
		    x->c->where[p] != NULL && !x->c->where[p][v])
			return 0;
		if ((int)p == e->mode_param && x->mode >= 0 && v != (size_t)x->mode)
			return 0;
	}
	return 1;
}

/* "k=v k=v" of the parameters set in sel and flagged in which (NULL: all set). */
static char *
ece_label(const struct exp *e, const int *sel, const int *which)
{
	char *s = xstrdup(""), *t;
	size_t p;

	for (p = 0; p < e->nparams; p++) {
		if (sel[p] < 0 || (which != NULL && !which[p]))
			continue;
		xasprintf(&t, "%s%s%s=%s", s, s[0] ? " " : "", e->params[p].name,
		    e->params[p].texts[sel[p]]);
		free(s);
		s = t;
	}
	return s;
}

/*
 * The group of selector sel (its parameters in what are the group's own, the others its
 * combination): found among those made already, or made. Its index, or ECE_NONE when no
 * point of the experiment is in it (a combination zip: does not pair).
 */
#define ECE_NONE	((size_t)-1)

static size_t
ece_group(struct ece *x, const int *sel, const int *what)
{
	const struct exp *e = x->r->e;
	struct ece_group *g;
	int *at;
	size_t i, p;

	for (i = 0; i < x->ng; i++)
		if (memcmp(x->g[i].sel, sel, e->nparams * sizeof *sel) == 0)
			return i;
	for (p = 0; p < e->npoints; p++)
		if (ece_match(x, p, sel))
			break;
	if (p == e->npoints)
		return ECE_NONE;
	at = xcalloc(e->nparams + 1, sizeof *at);
	x->g = xreallocarray(x->g, x->ng + 1, sizeof *x->g);
	g = &x->g[x->ng];
	memset(g, 0, sizeof *g);
	g->sel = xcalloc(e->nparams + 1, sizeof *g->sel);
	memcpy(g->sel, sel, e->nparams * sizeof *sel);
	for (p = 0; p < e->nparams; p++)
		at[p] = !what[p];	/* the mode of a claim by mode is in no selector */
	g->what = ece_label(e, sel, what);
	g->at = ece_label(e, sel, at);
	free(at);
	g->v = xcalloc(x->r->nruns + 1, sizeof *g->v);
	for (i = 0; i < x->r->nruns; i++) {
		const struct exp_run *run = &x->r->runs[i];

		if (run->state == EXP_DONE && !isnan(run->values[x->m]) &&
		    ece_match(x, run->point, sel))
			g->v[g->n++] = run->values[x->m];
	}
	return x->ng++;
}

/* A new part of the evaluation, nothing measured yet. */
static struct ece_part *
ece_part(struct ece *x, int kind)
{
	struct ece_part *p;

	x->pt = xreallocarray(x->pt, x->npt + 1, sizeof *x->pt);
	p = &x->pt[x->npt++];
	memset(p, 0, sizeof *p);
	p->kind = kind;
	p->p = p->rp = p->adj = p->radj = NAN;
	p->value = p->lo = p->hi = NAN;
	return p;
}

/* A comparison: the runs of group lo below those of hi (none when one has no point). */
static void
ece_cmp(struct ece *x, size_t lo, size_t hi)
{
	struct ece_part *p;
	struct stats_mwu u;

	if (lo == ECE_NONE || hi == ECE_NONE)
		return;
	p = ece_part(x, ECE_CMP);
	p->g[0] = lo;
	p->g[1] = hi;
	stats_mwu_less(x->g[lo].v, x->g[lo].n, x->g[hi].v, x->g[hi].n, &u);
	p->p = u.p;
	stats_mwu_less(x->g[hi].v, x->g[hi].n, x->g[lo].v, x->g[lo].n, &u);
	p->rp = u.p;
}

/* median(first) / median(second), for the ratio's bootstrap; NaN over a zero median. */
static double
ece_ratio_stat(const double *const *v, const size_t *n, size_t k, void *arg)
{
	double d = stats_median(v[1], n[1]);

	return d != 0 ? stats_median(v[0], n[0]) / d : NAN;
}

/* (median(A) - median(B)) / median(A) at the last value of over less the same at the first. */
static double
ece_growth_stat(const double *const *v, const size_t *n, size_t k, void *arg)
{
	double a0 = stats_median(v[0], n[0]), a1 = stats_median(v[2], n[2]);

	if (a0 == 0 || a1 == 0)
		return NAN;
	return (a1 - stats_median(v[3], n[3])) / a1 - (a0 - stats_median(v[1], n[1])) / a0;
}

/* The interval of a ratio or growth part over its groups (k of them). */
static void
ece_boot(struct ece *x, struct ece_part *p, size_t k, stats_boot_fn f)
{
	const double *v[4];
	size_t n[4], i;

	for (i = 0; i < k; i++) {
		v[i] = x->g[p->g[i]].v;
		n[i] = x->g[p->g[i]].n;
	}
	p->value = f(v, n, k, NULL);
	stats_bootstrap(v, n, k, f, NULL, x->seed + x->npt, &p->lo, &p->hi);
}

/* Two value indexes of parameter arg, in the order of the numbers their texts are. */
static int
ece_numcmp(const void *a, const void *b, void *arg)
{
	const struct exp_param *par = arg;
	double x = strtod(par->texts[*(const int *)a], NULL);
	double y = strtod(par->texts[*(const int *)b], NULL);

	return (x > y) - (x < y);
}

/* lowest, highest, minimum_at: the value's group against each other value's. */
static void
ece_single(struct ece *x, const int *sel)
{
	const struct exp_claim *c = x->c;
	const struct exp *e = x->r->e;
	const struct exp_param *par = &e->params[c->param];
	int *what = xcalloc(e->nparams + 1, sizeof *what), *s = xcalloc(e->nparams + 1,
	    sizeof *s), j;
	size_t t;

	what[c->param] = 1;
	memcpy(s, sel, e->nparams * sizeof *s);
	s[c->param] = c->value;
	t = ece_group(x, s, what);
	for (j = 0; j < (int)par->nvalues; j++) {
		if (j == c->value || ece_canon(par, (size_t)j) != j ||
		    (c->where[c->param] != NULL && !c->where[c->param][j]))
			continue;
		s[c->param] = j;
		if (c->form == EXP_CLAIM_HIGHEST)
			ece_cmp(x, ece_group(x, s, what), t);
		else
			ece_cmp(x, t, ece_group(x, s, what));
	}
	free(what);
	free(s);
}

/* below, ratio, gap_grows: the claim's two groups at sel (and over's value ov, or -1). */
static void
ece_two(struct ece *x, const int *sel, int ov, size_t ga[2])
{
	const struct exp_claim *c = x->c;
	const struct exp *e = x->r->e;
	int *what = xcalloc(e->nparams + 1, sizeof *what), *s = xcalloc(e->nparams + 1,
	    sizeof *s), b;
	size_t p;

	for (b = 0; b < 2; b++) {
		memcpy(s, sel, e->nparams * sizeof *s);
		for (p = 0; p < e->nparams; p++) {
			what[p] = c->group[0][p] >= 0 || c->group[1][p] >= 0;
			if (c->group[b][p] >= 0)
				s[p] = c->group[b][p];
		}
		if (ov >= 0)
			s[c->over] = ov;
		ga[b] = ece_group(x, s, what);
	}
	free(what);
	free(s);
}

/* below: one comparison; ratio: the interval of the ratio of the medians. */
static void
ece_pair(struct ece *x, const int *sel)
{
	struct ece_part *pt;
	size_t ga[2];

	ece_two(x, sel, -1, ga);
	if (x->c->form == EXP_CLAIM_BELOW)
		ece_cmp(x, ga[0], ga[1]);
	else if (ga[0] != ECE_NONE && ga[1] != ECE_NONE) {
		pt = ece_part(x, ECE_RATIO);
		pt->g[0] = ga[0];
		pt->g[1] = ga[1];
		ece_boot(x, pt, 2, ece_ratio_stat);
	}
}

/*
 * gap_grows: B below A at each value of over, in increasing order, then the growth of
 * the relative gap from the first value to the last (none when zip: leaves a value of
 * over without both groups).
 */
static void
ece_gap(struct ece *x, const int *sel)
{
	const struct exp_claim *c = x->c;
	const struct exp_param *par = &x->r->e->params[c->over];
	int *vals = xcalloc(par->nvalues + 1, sizeof *vals), nv = 0, j;
	size_t ga[2] = { ECE_NONE, ECE_NONE }, first[2] = { 0, 0 };
	struct ece_part *pt;

	for (j = 0; j < (int)par->nvalues; j++)
		if (ece_canon(par, (size_t)j) == j &&
		    (c->where[c->over] == NULL || c->where[c->over][j]))
			vals[nv++] = j;
	qsort_r(vals, (size_t)nv, sizeof *vals, ece_numcmp, (void *)par);
	for (j = 0; j < nv; j++) {
		ece_two(x, sel, vals[j], ga);
		ece_cmp(x, ga[1], ga[0]);
		if (ga[0] == ECE_NONE || ga[1] == ECE_NONE)
			break;
		if (j == 0) {
			first[0] = ga[0];
			first[1] = ga[1];
		}
	}
	if (j == nv && nv >= 2) {
		pt = ece_part(x, ECE_GROWTH);
		pt->g[0] = first[0];
		pt->g[1] = first[1];
		pt->g[2] = ga[0];
		pt->g[3] = ga[1];
		ece_boot(x, pt, 4, ece_growth_stat);
	}
	free(vals);
}

/* The parts of the claim at one per combination (sel: the combination, and the mode). */
static void
ece_combination(struct ece *x, const int *sel)
{
	if (x->c->form <= EXP_CLAIM_MINIMUM_AT)
		ece_single(x, sel);
	else if (x->c->form == EXP_CLAIM_GAP_GROWS)
		ece_gap(x, sel);
	else
		ece_pair(x, sel);
}

/* 1 when value j of parameter p is one a per combination takes: kept, and not a repeat. */
static int
ece_keep(const struct ece *x, size_t p, int j)
{
	const struct exp_param *par = &x->r->e->params[p];

	return ece_canon(par, (size_t)j) == j && (x->c->where[p] == NULL || x->c->where[p][j]);
}

/* The next value of parameter p a combination takes from j on, or nvalues. */
static int
ece_next(const struct ece *x, size_t p, int j)
{
	while ((size_t)j < x->r->e->params[p].nvalues && !ece_keep(x, p, j))
		j++;
	return j;
}

/* Every combination of the values of the per parameters (kept by where), in file order. */
static void
ece_combinations(struct ece *x)
{
	const struct exp *e = x->r->e;
	int *sel = xcalloc(e->nparams + 1, sizeof *sel);
	size_t p;

	for (p = 0; p < e->nparams; p++)
		sel[p] = x->c->per[p] ? ece_next(x, p, 0) : -1;
	for (;;) {
		ece_combination(x, sel);
		/* the next combination: the last per parameter moves fastest */
		for (p = e->nparams; p-- > 0;) {
			if (!x->c->per[p])
				continue;
			if ((size_t)(sel[p] = ece_next(x, p, sel[p] + 1)) < e->params[p].nvalues)
				break;
			sel[p] = ece_next(x, p, 0);
		}
		if (p == (size_t)-1)
			break;
	}
	free(sel);
}

/* Holm over the comparisons, each way; then each part's own verdict. */
static void
ece_judge_parts(struct ece *x)
{
	double *p = xcalloc(x->npt + 1, sizeof *p), *rp = xcalloc(x->npt + 1, sizeof *rp);
	size_t i, k = 0, g, few;
	struct ece_part *pt;

	for (i = 0; i < x->npt; i++)
		if (x->pt[i].kind == ECE_CMP) {
			p[k] = isnan(x->pt[i].p) ? 1 : x->pt[i].p;
			rp[k++] = isnan(x->pt[i].rp) ? 1 : x->pt[i].rp;
		}
	stats_holm(p, k, p);
	stats_holm(rp, k, rp);
	for (i = k = 0; i < x->npt; i++) {
		pt = &x->pt[i];
		few = 0;
		for (g = 0; g < (pt->kind == ECE_GROWTH ? 4u : 2u); g++)
			few |= x->g[pt->g[g]].n < EXP_CLAIM_MIN_RUNS;
		if (pt->kind == ECE_CMP) {
			pt->adj = p[k];
			pt->radj = rp[k++];
			pt->verdict = pt->radj <= EXP_CLAIM_ALPHA ? EXP_FAILS : !few &&
			    pt->adj <= EXP_CLAIM_ALPHA ? EXP_HOLDS : EXP_NOT_SEPARABLE;
		} else if (few || isnan(pt->lo))
			pt->verdict = EXP_NOT_SEPARABLE;
		else if (pt->kind == ECE_GROWTH)
			pt->verdict = pt->lo > 0 ? EXP_HOLDS : pt->hi < 0 ? EXP_FAILS :
			    EXP_NOT_SEPARABLE;
		else if (x->c->at_least)
			pt->verdict = pt->lo >= x->c->bound ? EXP_HOLDS : pt->hi < x->c->bound ?
			    EXP_FAILS : EXP_NOT_SEPARABLE;
		else
			pt->verdict = pt->hi <= x->c->bound ? EXP_HOLDS : pt->lo > x->c->bound ?
			    EXP_FAILS : EXP_NOT_SEPARABLE;
	}
	free(p);
	free(rp);
}

/* " at size=64" of a group, or "". */
static const char *
ece_at(const struct ece_group *g, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", g->at[0] ? " at " : "", g->at);
	return buf;
}

/* What a part found, in words: the result's detail. */
static char *
ece_part_text(const struct ece *x, const struct ece_part *p)
{
	const struct ece_group *a = &x->g[p->g[0]], *b = &x->g[p->g[1]];
	char *s, at[256];

	if (p->kind == ECE_CMP && a->n < EXP_CLAIM_MIN_RUNS && p->verdict != EXP_FAILS)
		xasprintf(&s, "%s below %s%s: %zu run%s of %s, fewer than %d", a->what, b->what,
		    ece_at(a, at, sizeof at), a->n, a->n == 1 ? "" : "s", a->what,
		    EXP_CLAIM_MIN_RUNS);
	else if (p->kind == ECE_CMP && b->n < EXP_CLAIM_MIN_RUNS && p->verdict != EXP_FAILS)
		xasprintf(&s, "%s below %s%s: %zu run%s of %s, fewer than %d", a->what, b->what,
		    ece_at(a, at, sizeof at), b->n, b->n == 1 ? "" : "s", b->what,
		    EXP_CLAIM_MIN_RUNS);
	else if (p->kind == ECE_CMP && p->verdict == EXP_FAILS)
		xasprintf(&s, "%s below %s%s: the opposite, p=%.2g", a->what, b->what,
		    ece_at(a, at, sizeof at), p->radj);
	else if (p->kind == ECE_CMP)
		xasprintf(&s, "%s below %s%s: p=%.2g", a->what, b->what, ece_at(a, at, sizeof at),
		    p->adj);
	else if (p->kind == ECE_RATIO)
		xasprintf(&s, "median(%s) / median(%s)%s = %.3g [%.3g, %.3g], %s %.3g", a->what,
		    b->what, ece_at(a, at, sizeof at), p->value, p->lo, p->hi,
		    x->c->at_least ? "at least" : "at most", x->c->bound);
	else
		xasprintf(&s, "the gap of %s below %s from %s to %s grows by %.3g [%.3g, %.3g]",
		    b->what, a->what, a->at, x->g[p->g[2]].at, p->value, p->lo, p->hi);
	return s;
}

/*
 * The verdict of the whole: the first failing part, else the first not separable one;
 * when every part holds, the comparison with the largest p (or the last interval) decides.
 */
static void
ece_verdict(struct ece *x, struct exp_claim_result *res)
{
	const struct ece_part *d = NULL;
	size_t i, ncmp = 0;
	double maxp = 0;

	for (i = 0; i < x->npt && d == NULL; i++)
		if (x->pt[i].verdict == EXP_FAILS)
			d = &x->pt[i];
	for (i = 0; i < x->npt && d == NULL; i++)
		if (x->pt[i].verdict == EXP_NOT_SEPARABLE)
			d = &x->pt[i];
	for (i = 0; i < x->npt && d == NULL; i++)
		if (x->pt[i].kind == ECE_CMP && (ncmp++ == 0 || x->pt[i].adj > maxp))
			maxp = x->pt[i].adj;
	for (i = 0; i < x->npt && d == NULL; i++)
		if (x->pt[i].kind == ECE_CMP && x->pt[i].adj == maxp)
			d = &x->pt[i];
	if (d == NULL && x->npt > 0)
		d = &x->pt[x->npt - 1];
	res->test = x->c->form == EXP_CLAIM_RATIO ? "median ratio, bootstrap 95% interval" :
	    x->c->form == EXP_CLAIM_GAP_GROWS ? ECE_MW " and the gap's growth, bootstrap 95% "
	    "interval" : ECE_MW;
	if (d == NULL) {
		res->verdict = EXP_NOT_SEPARABLE;
		res->detail = xstrdup("no group of runs to compare");
		res->summary = xstrdup(res->detail);
		return;
	}
	res->verdict = d->verdict;
	res->detail = ece_part_text(x, d);
	res->p = d->kind != ECE_CMP ? NAN : d->verdict == EXP_FAILS ? d->radj : d->adj;
	if (res->verdict == EXP_HOLDS && ncmp > 0)
		xasprintf(&res->summary, "Mann-Whitney U, each p <= %.2g (Holm)%s, n=%zu", maxp,
		    x->c->form == EXP_CLAIM_GAP_GROWS ? ", the gap growing (bootstrap 95%)" : "",
		    res->n);
	else if (res->verdict == EXP_HOLDS)
		xasprintf(&res->summary, "%s (bootstrap 95%%), n=%zu", res->detail, res->n);
	else
		res->summary = xstrdup(res->detail);
}

/* The median of one sample, for its bootstrap interval. */
static double
ece_median_stat(const double *const *v, const size_t *n, size_t k, void *arg)
{
	return stats_median(v[0], n[0]);
}

/* The mode all of a claim's runs have when where keeps one value of it: its index, or -1. */
static int
ece_one_mode(const struct exp *e, const struct exp_claim *c)
{
	size_t j;
	int one = -1;

	if (e->mode_param < 0 || c->where[e->mode_param] == NULL)
		return -1;
	for (j = 0; j < e->params[e->mode_param].nvalues; j++)
		if (c->where[e->mode_param][j]) {
			if (one >= 0)
				return -1;
			one = (int)j;
		}
	return one;
}

/* One evaluation of claim c (with mode's value index, or -1) into res. */
static void
ece_eval(const struct exp_report *r, const struct exp_claim *c, int mode,
    struct exp_claim_result *res)
{
	struct ece x;
	const double *v[1];
	char h[17];
	size_t i;
	int one;

	memset(&x, 0, sizeof x);
	x.r = r;
	x.c = c;
	x.m = (size_t)exp_metric_find(r->e, c->metric);
	x.mode = mode;
	exp_hash(c->id, strlen(c->id), h);
	x.seed = (unsigned long)(strtoull(h, NULL, 16) ^ r->seed) + (unsigned long)(mode + 1);
	memset(res, 0, sizeof *res);
	res->claim = c;
	res->p = NAN;
	if (mode < 0 && (one = ece_one_mode(r->e, c)) >= 0)
		res->mode = r->e->params[r->e->mode_param].texts[one];
	else if (mode >= 0)
		res->mode = r->e->params[r->e->mode_param].texts[mode];
	ece_combinations(&x);
	ece_judge_parts(&x);
	res->n = x.ng > 0 ? (size_t)-1 : 0;
	res->groups = xcalloc(x.ng + 1, sizeof *res->groups);
	res->ngroups = x.ng;
	for (i = 0; i < x.ng; i++) {
		struct exp_claim_group *g = &res->groups[i];

		if (x.g[i].n < res->n)
			res->n = x.g[i].n;
		xasprintf(&g->label, "%s%s%s", x.g[i].what, x.g[i].at[0] ? " " : "", x.g[i].at);
		g->n = x.g[i].n;
		g->median = stats_median(x.g[i].v, x.g[i].n);
		v[0] = x.g[i].v;
		stats_bootstrap(v, &g->n, 1, ece_median_stat, NULL, x.seed + 1000 + i, &g->lo,
		    &g->hi);
	}
	ece_verdict(&x, res);
	for (i = 0; i < x.ng; i++) {
		free(x.g[i].sel);
		free(x.g[i].what);
		free(x.g[i].at);
		free(x.g[i].v);
	}
	free(x.g);
	free(x.pt);
}

struct exp_claim_result *
exp_claims_eval(const struct exp_report *r, size_t *n)
{
	const struct exp *e = r->e;
	struct exp_claim_result *res = NULL;
	size_t i, j;

	*n = 0;
	for (i = 0; i < e->nclaims; i++) {
		const struct exp_claim *c = &e->claims[i];
		size_t runs = c->by_mode ? e->params[e->mode_param].nvalues : 1;

		for (j = 0; j < runs; j++) {
			if (c->by_mode && (ece_canon(&e->params[e->mode_param], j) != (int)j ||
			    (c->where[e->mode_param] != NULL && !c->where[e->mode_param][j])))
				continue;
			res = xreallocarray(res, *n + 1, sizeof *res);
			ece_eval(r, c, c->by_mode ? (int)j : -1, &res[(*n)++]);
		}
	}
	return res;
}

void
exp_claim_results_free(struct exp_claim_result *res, size_t n)
{
	size_t i, g;

	for (i = 0; i < n; i++) {
		free(res[i].summary);
		free(res[i].detail);
		for (g = 0; g < res[i].ngroups; g++)
			free(res[i].groups[g].label);
		free(res[i].groups);
	}
	free(res);
}
