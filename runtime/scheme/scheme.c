/*
 * scheme.c — the table of schemes, the life of a scheme instance and the per-request
 * dispatch through the scheme's struct sched_ops (scheme-int.h). The rules themselves, each
 * family's entries with them, are in scheme-static.c, scheme-self.c, scheme-ngss.c,
 * scheme-pwd.c, scheme-het.c, scheme-wf.c, scheme-awf.c, scheme-af.c and scheme-pwds.c
 * (the last four share scheme-speed.c); doc/schemes.md gives every formula with its source.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "grt/grt-error.h"
#include "runtime/scheme/scheme-int.h"

extern const struct sched_ops sched_ops_static;
extern const struct sched_ops sched_ops_wstatic;
extern const struct sched_ops sched_ops_pss;
extern const struct sched_ops sched_ops_css;
extern const struct sched_ops sched_ops_gss;
extern const struct sched_ops sched_ops_fss;
extern const struct sched_ops sched_ops_tss;
extern const struct sched_ops sched_ops_ngss;
extern const struct sched_ops sched_ops_angss;
extern const struct sched_ops sched_ops_pwd;
extern const struct sched_ops sched_ops_hetcalc;
extern const struct sched_ops sched_ops_hetcomm;
extern const struct sched_ops sched_ops_wf;
extern const struct sched_ops sched_ops_awf_b;
extern const struct sched_ops sched_ops_awf_c;
extern const struct sched_ops sched_ops_awf_d;
extern const struct sched_ops sched_ops_awf_e;
extern const struct sched_ops sched_ops_af;
extern const struct sched_ops sched_ops_pwd_speed;

/* Every scheme of enum grt_scheme, at its value. */
static const struct sched_ops *const sched_table[GRT_SCHEME_COUNT] = {
	[GRT_SCHEME_STATIC] = &sched_ops_static,
	[GRT_SCHEME_WSTATIC] = &sched_ops_wstatic,
	[GRT_SCHEME_PSS] = &sched_ops_pss,
	[GRT_SCHEME_CSS] = &sched_ops_css,
	[GRT_SCHEME_GSS] = &sched_ops_gss,
	[GRT_SCHEME_FSS] = &sched_ops_fss,
	[GRT_SCHEME_TSS] = &sched_ops_tss,
	[GRT_SCHEME_NGSS] = &sched_ops_ngss,
	[GRT_SCHEME_ANGSS] = &sched_ops_angss,
	[GRT_SCHEME_PWD] = &sched_ops_pwd,
	[GRT_SCHEME_HETCALC] = &sched_ops_hetcalc,
	[GRT_SCHEME_HETCOMM] = &sched_ops_hetcomm,
	[GRT_SCHEME_WF] = &sched_ops_wf,
	[GRT_SCHEME_AWF_B] = &sched_ops_awf_b,
	[GRT_SCHEME_AWF_C] = &sched_ops_awf_c,
	[GRT_SCHEME_AWF_D] = &sched_ops_awf_d,
	[GRT_SCHEME_AWF_E] = &sched_ops_awf_e,
	[GRT_SCHEME_AF] = &sched_ops_af,
	[GRT_SCHEME_PWD_SPEED] = &sched_ops_pwd_speed,
};

/* The scheme's entry, NULL when scheme is not one. */
static const struct sched_ops *
sched_ops_of(enum grt_scheme scheme)
{
	if ((int)scheme < 0 || scheme >= GRT_SCHEME_COUNT)
		return NULL;
	return sched_table[scheme];
}

const char *
grt_scheme_name(enum grt_scheme scheme)
{
	const struct sched_ops *ops = sched_ops_of(scheme);

	return ops != NULL ? ops->name : NULL;
}

int
grt_scheme_from_name(const char *name)
{
	int i;

	if (name == NULL)
		return -1;
	for (i = 0; i < GRT_SCHEME_COUNT; i++)
		if (strcasecmp(name, sched_table[i]->name) == 0)
			return i;
	return -1;
}

int
grt_scheme_is_rounds(enum grt_scheme scheme)
{
	const struct sched_ops *ops = sched_ops_of(scheme);

	return ops != NULL && (ops->flags & SCHED_ROUNDS);
}

int
grt_scheme_uses_swr(enum grt_scheme scheme)
{
	const struct sched_ops *ops = sched_ops_of(scheme);

	return ops != NULL && (ops->flags & SCHED_SWR);
}

int
sched_positive(const double *v, int n)
{
	int i;

	if (v == NULL)
		return 1;
	for (i = 0; i < n; i++)
		if (!isfinite(v[i]) || v[i] <= 0)
			return 0;
	return 1;
}

static double *
sched_copy(const double *v, int n, int *bad)
{
	double *c;

	if (v == NULL)
		return NULL;
	if ((c = malloc((size_t)n * sizeof *c)) == NULL) {
		*bad = 1;
		return NULL;
	}
	memcpy(c, v, (size_t)n * sizeof *c);
	return c;
}

grt_sched *
grt_sched_new(const struct grt_sched_conf *conf, int nworkers, int64_t n, int *err)
{
	const struct sched_ops *ops;
	grt_sched *s;
	size_t p;
	int bad = 0, i;

	ops = conf != NULL ? sched_ops_of(conf->scheme) : NULL;
	if (ops == NULL || nworkers < 1 || n < 0 ||
	    (ops->check != NULL && !ops->check(conf, nworkers))) {
		if (err != NULL)
			*err = GRT_EINVAL;
		return NULL;
	}
	if ((s = calloc(1, sizeof *s)) == NULL) {
		if (err != NULL)
			*err = GRT_ENOMEM;
		return NULL;
	}
	p = (size_t)nworkers;
	s->conf = *conf;
	s->ops = ops;
	s->conf.pr = sched_copy(conf->pr, nworkers, &bad);
	s->conf.cpu = sched_copy(conf->cpu, nworkers, &bad);
	s->nw = nworkers;
	s->n = n;
	s->nactive = nworkers;
	s->alpha = conf->alpha;
#define SCHED_ALLOC(field) \
	if ((s->field = calloc(p, sizeof *s->field)) == NULL) bad = 1
	SCHED_ALLOC(gone);
	SCHED_ALLOC(drop_round);
	SCHED_ALLOC(drop_share);
	SCHED_ALLOC(first);
	SCHED_ALLOC(orphan);
	SCHED_ALLOC(order);
	SCHED_ALLOC(units);
	SCHED_ALLOC(fb_units);
	SCHED_ALLOC(fb_calc);
	SCHED_ALLOC(fb_exe);
	SCHED_ALLOC(measured);
	SCHED_ALLOC(measured_now);
	SCHED_ALLOC(calc_unit);
	SCHED_ALLOC(comm_unit);
	SCHED_ALLOC(perf_f);
	SCHED_ALLOC(speed);
	SCHED_ALLOC(learn);
	SCHED_ALLOC(keys);
	SCHED_ALLOC(weight);
	SCHED_ALLOC(share);
	SCHED_ALLOC(use);
#undef SCHED_ALLOC
	if (bad) {
		grt_sched_free(s);
		if (err != NULL)
			*err = GRT_ENOMEM;
		return NULL;
	}
	for (i = 0; i < nworkers; i++)
		s->order[i] = i;
	if (err != NULL)
		*err = GRT_OK;
	return s;
}

void
grt_sched_free(grt_sched *s)
{
	if (s == NULL)
		return;
	free((void *)s->conf.pr);
	free((void *)s->conf.cpu);
	free(s->gone);
	free(s->drop_round);
	free(s->drop_share);
	free(s->first);
	free(s->orphan);
	free(s->order);
	free(s->units);
	free(s->fb_units);
	free(s->fb_calc);
	free(s->fb_exe);
	free(s->measured);
	free(s->measured_now);
	free(s->calc_unit);
	free(s->comm_unit);
	free(s->perf_f);
	free(s->speed);
	free(s->learn);
	free(s->keys);
	free(s->weight);
	free(s->share);
	free(s->use);
	free(s);
}

int
grt_sched_begin_round(grt_sched *s)
{
	int i;

	s->round++;
	if (s->round > 1)
		sched_fold_feedback(s);
	s->handed = 0;
	s->norphan = 0;
	s->dynamic = 0;
	s->pool_next = s->n;
	s->fss_left = 0;
	for (i = 0; i < s->nw; i++) {
		s->first[i].start = s->first[i].count = 0;
		s->units[i] = 0;
		s->order[i] = i;
		s->fb_units[i] = 0;
		s->fb_calc[i] = s->fb_exe[i] = 0;
	}
	s->ops->begin_round(s);
	return s->round;
}

void
grt_sched_order(const grt_sched *s, int *order)
{
	memcpy(order, s->order, (size_t)s->nw * sizeof *order);
}

int
grt_sched_next(grt_sched *s, int w, struct grt_chunk *c)
{
	int64_t size, left;

	if (w < 0 || w >= s->nw || s->round == 0 || !sched_is_active(s, w))
		return 0;
	if (s->first[w].count > 0) {
		*c = s->first[w];
		s->first[w].count = 0;
	} else if (s->norphan > 0)
		*c = s->orphan[--s->norphan];
	else if (s->dynamic && s->pool_next < s->n) {
		left = s->n - s->pool_next;
		size = s->ops->pool_size(s, w);
		if (size > left)
			size = left;
		c->start = s->pool_next;
		c->count = size;
		s->pool_next += size;
	} else
		return 0;
	s->handed += c->count;
	return 1;
}

void
grt_sched_feedback(grt_sched *s, int w, const struct grt_chunk *c, double t_calc, double t_exe)
{
	/* a negative or non-finite time is a clock glitch: it must not steer the next round */
	if (w < 0 || w >= s->nw || c == NULL || c->count <= 0 || !isfinite(t_calc) ||
	    !isfinite(t_exe) || t_calc < 0 || t_exe < 0)
		return;
	s->fb_units[w] += c->count;
	s->fb_calc[w] += t_calc;
	s->fb_exe[w] += t_exe;
	if (s->ops->feedback != NULL)
		s->ops->feedback(s, w, c, t_calc, t_exe);
}

void
sched_active_changed(struct grt_sched *s, int w, int on)
{
	if (s->ops->active_changed != NULL)
		s->ops->active_changed(s, w, on);
}

void
grt_sched_remove_worker(grt_sched *s, int w)
{
	if (w < 0 || w >= s->nw || s->gone[w])
		return;
	s->gone[w] = 1;
	if (s->drop_round[w] == 0) {
		s->nactive--;
		sched_active_changed(s, w, 0);
	}
	/* its reserved chunk is not the master's to requeue: nobody has it yet */
	if (s->first[w].count > 0) {
		s->orphan[s->norphan++] = s->first[w];
		s->first[w].count = 0;
	}
}

int
grt_sched_dropped(const grt_sched *s, int w, double *share)
{
	if (w < 0 || w >= s->nw || s->round == 0 || s->drop_round[w] != s->round)
		return 0;
	if (share != NULL)
		*share = s->drop_share[w];
	return 1;
}

int
grt_sched_active(const grt_sched *s, int w)
{
	return w >= 0 && w < s->nw && sched_is_active(s, w);
}

int64_t
grt_sched_remaining(const grt_sched *s)
{
	return s->round == 0 ? s->n : s->n - s->handed;
}

double
grt_sched_alpha(const grt_sched *s)
{
	return s->alpha;
}
