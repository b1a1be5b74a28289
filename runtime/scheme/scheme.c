/*
 * scheme.c — scheme names, the life of a scheme instance and the per-request dispatch.
 * The rules themselves are in scheme-static.c, scheme-self.c, scheme-ngss.c, scheme-pwd.c,
 * scheme-het.c, scheme-wf.c, scheme-awf.c, scheme-af.c and scheme-pwds.c (the last four
 * share scheme-speed.c); doc/schemes.md gives every formula with its source.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "grt/grt-error.h"
#include "runtime/scheme/scheme-int.h"

static const char *const sched_names[GRT_SCHEME_COUNT] = {
	"static", "wstatic", "pss", "css", "gss", "fss", "tss", "ngss", "angss", "pwd",
	"hetcalc", "hetcomm", "wf", "awf-b", "awf-c", "awf-d", "awf-e", "af", "pwd-speed"
};

const char *
grt_scheme_name(enum grt_scheme scheme)
{
	if ((int)scheme < 0 || scheme >= GRT_SCHEME_COUNT)
		return NULL;
	return sched_names[scheme];
}

int
grt_scheme_from_name(const char *name)
{
	int i;

	if (name == NULL)
		return -1;
	for (i = 0; i < GRT_SCHEME_COUNT; i++)
		if (strcasecmp(name, sched_names[i]) == 0)
			return i;
	return -1;
}

int
grt_scheme_is_rounds(enum grt_scheme scheme)
{
	return scheme == GRT_SCHEME_HETCALC || scheme == GRT_SCHEME_HETCOMM;
}

int
grt_scheme_uses_swr(enum grt_scheme scheme)
{
	return scheme == GRT_SCHEME_PWD || scheme == GRT_SCHEME_PWD_SPEED;
}

/* 1 when all n values are finite and > 0 (or the array is absent). */
static int
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

static int
sched_check(const struct grt_sched_conf *conf, int nworkers, int64_t n)
{
	if (conf == NULL || nworkers < 1 || n < 0)
		return 0;
	switch (conf->scheme) {
	case GRT_SCHEME_CSS:
		return conf->k >= 1;
	case GRT_SCHEME_NGSS:
		return isfinite(conf->alpha) && conf->alpha >= 0 && conf->alpha <= 100 &&
		    sched_positive(conf->cpu, nworkers);
	case GRT_SCHEME_WSTATIC:
	case GRT_SCHEME_ANGSS:
		return sched_positive(conf->cpu, nworkers);
	case GRT_SCHEME_PWD:
	case GRT_SCHEME_PWD_SPEED:
		return isfinite(conf->swr) && conf->swr >= 0 && conf->swr <= 1 &&
		    sched_positive(conf->pr, nworkers);
	case GRT_SCHEME_WF:
	case GRT_SCHEME_AWF_B:
	case GRT_SCHEME_AWF_C:
	case GRT_SCHEME_AWF_D:
	case GRT_SCHEME_AWF_E:
		/* the weights are pr[], or cpu[] when there is no pr[] */
		return conf->pr != NULL ? sched_positive(conf->pr, nworkers) :
		    sched_positive(conf->cpu, nworkers);
	case GRT_SCHEME_HETCALC:
	case GRT_SCHEME_HETCOMM:
		return sched_positive(conf->pr, nworkers);
	case GRT_SCHEME_STATIC:
	case GRT_SCHEME_PSS:
	case GRT_SCHEME_GSS:
	case GRT_SCHEME_FSS:
	case GRT_SCHEME_TSS:
	case GRT_SCHEME_AF:
		return 1;
	default:
		return 0;
	}
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
	grt_sched *s;
	size_t p;
	int bad = 0, i;

	if (!sched_check(conf, nworkers, n)) {
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
	switch (s->conf.scheme) {
	case GRT_SCHEME_STATIC:
		sched_plan_static(s);
		break;
	case GRT_SCHEME_WSTATIC:
		sched_plan_wstatic(s);
		break;
	case GRT_SCHEME_NGSS:
	case GRT_SCHEME_ANGSS:
		sched_plan_ngss(s);
		break;
	case GRT_SCHEME_PWD:
		sched_plan_pwd(s);
		break;
	case GRT_SCHEME_HETCALC:
	case GRT_SCHEME_HETCOMM:
		sched_plan_het(s);
		break;
	case GRT_SCHEME_WF:
	case GRT_SCHEME_AWF_B:
	case GRT_SCHEME_AWF_C:
	case GRT_SCHEME_AWF_D:
	case GRT_SCHEME_AWF_E:
		sched_wf_begin(s);
		break;
	case GRT_SCHEME_AF:
		sched_af_begin(s);
		break;
	case GRT_SCHEME_PWD_SPEED:
		sched_pwds_begin(s);
		break;
	default:
		s->dynamic = 1;
		s->pool_next = 0;
		sched_self_begin(s);
		break;
	}
	return s->round;
}

void
grt_sched_order(const grt_sched *s, int *order)
{
	memcpy(order, s->order, (size_t)s->nw * sizeof *order);
}

/* The size of worker w's next chunk from the pool (the caller clips it to what is left). */
static int64_t
sched_pool_size(struct grt_sched *s, int w)
{
	switch (s->conf.scheme) {
	case GRT_SCHEME_WF:
	case GRT_SCHEME_AWF_B:
	case GRT_SCHEME_AWF_D:
		return sched_wf_size(s, w);
	case GRT_SCHEME_AWF_C:
	case GRT_SCHEME_AWF_E:
		return sched_awf_size(s, w);
	case GRT_SCHEME_AF:
		return sched_af_size(s, w);
	case GRT_SCHEME_PWD_SPEED:
		return sched_pwds_size(s, w);
	default:
		return sched_self_size(s);
	}
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
		size = sched_pool_size(s, w);
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
	switch (s->conf.scheme) {
	case GRT_SCHEME_AWF_B:
	case GRT_SCHEME_AWF_C:
	case GRT_SCHEME_AWF_D:
	case GRT_SCHEME_AWF_E:
		sched_awf_feedback(s, w, c, t_calc, t_exe);
		break;
	case GRT_SCHEME_AF:
		sched_af_feedback(s, w, c, t_calc);
		break;
	case GRT_SCHEME_PWD_SPEED:
		sched_pwds_feedback(s, w, c, t_exe);
		break;
	default:	/* wf's weights are fixed; the rest fold fb_* at the next round */
		break;
	}
}

void
sched_active_changed(struct grt_sched *s, int w, int on)
{
	switch (s->conf.scheme) {
	case GRT_SCHEME_WF:
	case GRT_SCHEME_AWF_B:
	case GRT_SCHEME_AWF_C:
	case GRT_SCHEME_AWF_D:
	case GRT_SCHEME_AWF_E:
	case GRT_SCHEME_PWD_SPEED:
		sched_speed_active(s, w, on);
		break;
	case GRT_SCHEME_AF:
		sched_af_active(s, w, on);
		break;
	default:
		break;
	}
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
