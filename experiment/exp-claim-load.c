/*
 * exp-claim-load.c — an experiment file's claims: (doc/experiments.md, "Claims") into
 * struct exp_claim, checked with the rest of the file: every key known, id, says and
 * paper given, each parameter and value one of the matrix's, exactly one form, at_most or
 * at_least only with ratio, over only with gap_grows and numeric. Every mistake is kept at
 * its line and column, as the loader of the file's other keys does (exp-load.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/suggest.h"
#include "common/xmalloc.h"
#include "experiment/exp-claim.h"

const char *const exp_claim_forms[] = {
	"lowest", "highest", "minimum_at", "below", "ratio", "gap_grows", NULL
};

static const char *const ecl_keys[] = {
	"id", "says", "paper", "note", "metric", "where", "per", "lowest", "highest",
	"minimum_at", "below", "ratio", "gap_grows", "at_most", "at_least", "over", NULL
};

struct ecl {
	struct gs_errsink *sink;
	struct exp *e;
	struct exp_claim *c;
};

/* " (did you mean 'x'?)" for s among words, or "", into buf. */
static const char *
ecl_guess(const char *s, const char *const *words, char *buf, size_t len)
{
	const char *g = suggest_closest(s, words);

	buf[0] = '\0';
	if (g != NULL)
		snprintf(buf, len, " (did you mean '%s'?)", g);
	return buf;
}

/* The parameter a key names (located error otherwise): its index, or -1. */
static int
ecl_param(struct ecl *l, const char *what, const struct ydoc_node *k)
{
	const char *names[64];
	char g[96];
	size_t i;
	int p;

	if ((p = exp_param_find(l->e, k->value)) >= 0)
		return p;
	for (i = 0; i < l->e->nparams && i < 63; i++)
		names[i] = l->e->params[i].name;
	names[i] = NULL;
	errsink_error(l->sink, k, "claim '%s': %s: '%.64s' is not a parameter of the matrix%s",
	    l->c->id ? l->c->id : "?", what, k->value, ecl_guess(k->value, names, g, sizeof g));
	return -1;
}

/*
 * A value of parameter p, written as in the matrix (a list or mapping too, keys in the
 * same order): its index, or -1 (error kept).
 */
static int
ecl_value(struct ecl *l, const char *what, int p, const struct ydoc_node *v)
{
	const struct exp_param *par = &l->e->params[p];
	const char **words;
	char g[96], *text;
	size_t j;

	if ((text = exp_value_text(v)) == NULL) {
		errsink_error(l->sink, v, "out of memory writing the value as JSON");
		return -1;
	}
	for (j = 0; j < par->nvalues; j++)
		if (strcmp(par->texts[j], text) == 0) {
			free(text);
			return (int)j;
		}
	if (v->type != YDOC_SCALAR) {
		errsink_error(l->sink, v, "claim '%s': %s: %.64s is not one of the values of '%s' "
		    "(a list or mapping is written as in the matrix, as in {%s: %.64s})",
		    l->c->id ? l->c->id : "?", what, text, par->name, par->name,
		    par->nvalues > 0 ? par->texts[0] : "x");
		free(text);
		return -1;
	}
	free(text);
	/* the values' texts, NULL-terminated for the guess */
	words = xcalloc(par->nvalues + 1, sizeof *words);
	for (j = 0; j < par->nvalues; j++)
		words[j] = par->texts[j];
	errsink_error(l->sink, v, "claim '%s': %s: '%.64s' is not one of the values of '%s'%s",
	    l->c->id ? l->c->id : "?", what, v->value, par->name,
	    ecl_guess(v->value, words, g, sizeof g));
	free(words);
	return -1;
}

/* A group {p: v, ...}: per parameter a value index or -1. NULL when wrong (kept). */
static int *
ecl_group(struct ecl *l, const char *what, const struct ydoc_node *n)
{
	int *g, p, v, bad = 0;
	size_t i;

	if (n->type != YDOC_MAP || n->npairs == 0) {
		errsink_error(l->sink, n, "claim '%s': %s: a group is a mapping of parameters to "
		    "values, as in {scheme: pwd}", l->c->id ? l->c->id : "?", what);
		return NULL;
	}
	g = xcalloc(l->e->nparams + 1, sizeof *g);
	for (i = 0; i < l->e->nparams; i++)
		g[i] = -1;
	for (i = 0; i < n->npairs; i++) {
		if ((p = ecl_param(l, what, n->pairs[i].key)) < 0 ||
		    (v = ecl_value(l, what, p, n->pairs[i].value)) < 0) {
			bad = 1;
			continue;
		}
		g[p] = v;
	}
	if (bad) {
		free(g);
		return NULL;
	}
	return g;
}

/* where: {p: v or [v, ...]}: the values kept per parameter. */
static void
ecl_where(struct ecl *l, const struct ydoc_node *n)
{
	const struct ydoc_node *v;
	size_t i, j, nv;
	int p, k;

	if (errsink_check(l->sink, ydoc_want(l->sink->name, "where", n, YDOC_MAP,
	    &l->sink->err)) == -1)
		return;
	for (i = 0; i < n->npairs; i++) {
		if ((p = ecl_param(l, "where", n->pairs[i].key)) < 0)
			continue;
		v = n->pairs[i].value;
		nv = v->type == YDOC_SEQ ? v->nitems : 1;
		if (nv == 0) {
			errsink_error(l->sink, v, "claim '%s': where: '%s' keeps no value", l->c->id,
			    l->e->params[p].name);
			continue;
		}
		free(l->c->where[p]);
		l->c->where[p] = xcalloc(l->e->params[p].nvalues + 1, 1);
		for (j = 0; j < nv; j++)
			if ((k = ecl_value(l, "where", p, v->type == YDOC_SEQ ? v->items[j] : v)) >= 0)
				l->c->where[p][k] = 1;
	}
}

/* per: [p, ...] */
static void
ecl_per(struct ecl *l, const struct ydoc_node *n)
{
	size_t i;
	int p;

	if (n->type != YDOC_SEQ) {
		errsink_error(l->sink, n, "claim '%s': 'per' is a list of parameters, as in per: "
		    "[size]", l->c->id);
		return;
	}
	for (i = 0; i < n->nitems; i++) {
		if (n->items[i]->type != YDOC_SCALAR) {
			errsink_error(l->sink, n->items[i], "claim '%s': 'per' is a list of "
			    "parameters, as in per: [size]", l->c->id);
			continue;
		}
		if ((p = ecl_param(l, "per", n->items[i])) >= 0)
			l->c->per[p] = 1;
	}
}

/* The one form among the claim's keys: its index, or -1 (error kept). */
static int
ecl_form(struct ecl *l, const struct ydoc_node *item)
{
	int f, found = -1;

	for (f = 0; exp_claim_forms[f] != NULL; f++) {
		const struct ydoc_node *n = ydoc_get(item, exp_claim_forms[f]);

		if (n == NULL)
			continue;
		if (found >= 0) {
			errsink_error(l->sink, n, "claim '%s': give one of lowest, highest, "
			    "minimum_at, below, ratio or gap_grows, not both '%s' and '%s'", l->c->id,
			    exp_claim_forms[found], exp_claim_forms[f]);
			return -1;
		}
		found = f;
	}
	if (found < 0)
		errsink_error(l->sink, item, "claim '%s' says nothing to check: give one of "
		    "lowest, highest, minimum_at, below, ratio or gap_grows", l->c->id);
	return found;
}

/* lowest, highest, minimum_at: {p: v}, one parameter. */
static void
ecl_single(struct ecl *l, const char *key, const struct ydoc_node *n)
{
	if (n->type != YDOC_MAP || n->npairs != 1) {
		errsink_error(l->sink, n, "claim '%s': '%s' names one parameter and its value, as "
		    "in %s: {scheme: pwd}", l->c->id, key, key);
		return;
	}
	if ((l->c->param = ecl_param(l, key, n->pairs[0].key)) >= 0)
		l->c->value = ecl_value(l, key, l->c->param, n->pairs[0].value);
}

/* below, ratio, gap_grows: [A, B], two groups. */
static void
ecl_pair(struct ecl *l, const char *key, const struct ydoc_node *n)
{
	if (n->type != YDOC_SEQ || n->nitems != 2) {
		errsink_error(l->sink, n, "claim '%s': '%s' is a list of two groups, as in %s: "
		    "[{scheme: fss}, {scheme: ngss}]", l->c->id, key, key);
		return;
	}
	l->c->group[0] = ecl_group(l, key, n->items[0]);
	l->c->group[1] = ecl_group(l, key, n->items[1]);
}

/* at_most / at_least (only with ratio, one of them) and over (only with gap_grows). */
static void
ecl_bounds(struct ecl *l, const struct ydoc_node *item)
{
	const struct ydoc_node *most = ydoc_get(item, "at_most"), *least = ydoc_get(item,
	    "at_least"), *b = most != NULL ? most : least, *over = ydoc_get(item, "over");
	struct exp_claim *c = l->c;
	size_t j;
	char *end;

	if (c->form != EXP_CLAIM_RATIO && b != NULL)
		errsink_error(l->sink, b, "claim '%s': '%s' goes only with 'ratio'", c->id,
		    b == most ? "at_most" : "at_least");
	else if (c->form == EXP_CLAIM_RATIO && most != NULL && least != NULL)
		errsink_error(l->sink, least, "claim '%s': give 'at_most' or 'at_least', not both",
		    c->id);
	else if (c->form == EXP_CLAIM_RATIO && b == NULL)
		errsink_error(l->sink, item, "claim '%s': 'ratio' needs 'at_most' or 'at_least' "
		    "(the bound of median(first) / median(second))", c->id);
	else if (b != NULL && errsink_check(l->sink, ydoc_num(l->sink->name, b == most ?
	    "at_most" : "at_least", b, "a positive number", 0, 1, 1e300, 0, &c->bound,
	    &l->sink->err)) == 0)
		c->at_least = b == least;
	if (c->form != EXP_CLAIM_GAP_GROWS && over != NULL)
		errsink_error(l->sink, over, "claim '%s': 'over' goes only with 'gap_grows'", c->id);
	else if (c->form == EXP_CLAIM_GAP_GROWS && over == NULL)
		errsink_error(l->sink, item, "claim '%s': 'gap_grows' needs 'over' (the numeric "
		    "parameter the gap grows with)", c->id);
	if (c->form != EXP_CLAIM_GAP_GROWS || over == NULL)
		return;
	if (over->type != YDOC_SCALAR || (c->over = ecl_param(l, "over", over)) < 0)
		return;
	for (j = 0; j < l->e->params[c->over].nvalues; j++) {
		strtod(l->e->params[c->over].texts[j], &end);
		if (end == l->e->params[c->over].texts[j] || *end != '\0') {
			errsink_error(l->sink, over, "claim '%s': 'over': '%s' has a value that is not "
			    "a number ('%.64s')", c->id, l->e->params[c->over].name,
			    l->e->params[c->over].texts[j]);
			return;
		}
	}
}

/*
 * A parameter a claim both compares and splits by (per or over) says nothing; a value
 * the claim compares that its where leaves out has no runs.
 */
static void
ecl_conflicts(struct ecl *l, const struct ydoc_node *item)
{
	struct exp_claim *c = l->c;
	size_t p;
	int b, v;

	for (p = 0; p < l->e->nparams; p++) {
		for (b = -1; b < 2 && c->where[p] != NULL; b++) {
			v = b < 0 ? (c->param == (int)p ? c->value : -1) :
			    c->group[b] != NULL ? c->group[b][p] : -1;
			if (v >= 0 && !c->where[p][v]) {
				errsink_error(l->sink, ydoc_get(item, "where"), "claim '%s': 'where' "
				    "leaves out %s=%s, which the claim compares", c->id,
				    l->e->params[p].name, l->e->params[p].texts[v]);
				break;
			}
		}
		int compared = c->param == (int)p ||
		    (c->group[0] != NULL && c->group[0][p] >= 0) ||
		    (c->group[1] != NULL && c->group[1][p] >= 0);

		if (c->per[p] && compared)
			errsink_error(l->sink, ydoc_get(item, "per"), "claim '%s': '%s' is both "
			    "compared and in 'per'", c->id, l->e->params[p].name);
		else if (c->per[p] && c->over == (int)p)
			errsink_error(l->sink, ydoc_get(item, "per"), "claim '%s': '%s' is both "
			    "'over' and in 'per'", c->id, l->e->params[p].name);
	}
}

/* The metric: the report's value metric unless the claim names one. */
static void
ecl_metric(struct ecl *l, const struct ydoc_node *item)
{
	const struct ydoc_node *n = ydoc_get(item, "metric");
	const char *s;
	size_t i;

	if (n == NULL) {
		l->c->metric = xstrdup(l->e->table.value != NULL ? l->e->table.value : "makespan");
		return;
	}
	if (errsink_check(l->sink, ydoc_str(l->sink->name, "metric", n, &s, &l->sink->err)) == -1)
		return;
	for (i = 0; exp_builtin_metrics[i] != NULL; i++)
		if (strcmp(exp_builtin_metrics[i], s) == 0)
			break;
	if (exp_builtin_metrics[i] != NULL) {
		l->c->metric = xstrdup(s);
		return;
	}
	for (i = 0; i < l->e->nmetrics; i++)
		if (l->e->metrics[i].name != NULL && strcmp(l->e->metrics[i].name, s) == 0)
			break;
	if (i == l->e->nmetrics) {
		errsink_error(l->sink, n, "claim '%s': unknown metric '%.64s' (built-in: makespan, "
		    "wall, efficiency, imbalance, requeued, failed_ranks, migrations, "
		    "load_before; or one of metrics:)", l->c->id, s);
		return;
	}
	l->c->metric = xstrdup(s);
}

/* id ([a-z0-9-]+, unique), says, paper and note: texts. */
static void
ecl_texts(struct ecl *l, const struct ydoc_node *item, size_t idx)
{
	static const char *const keys[] = { "id", "says", "paper", "note" };
	char **out[] = { &l->c->id, &l->c->says, &l->c->paper, &l->c->note };
	const struct ydoc_node *n;
	const char *s;
	size_t i, k;

	for (k = 0; k < 4; k++) {
		if ((n = ydoc_get(item, keys[k])) == NULL) {
			if (k < 3 && !ydoc_given(item, keys[k], ecl_keys))
				errsink_error(l->sink, item, "a claim needs '%s'%s", keys[k], k == 0 ?
				    " (a name of [a-z0-9-], as in id: pwd-best)" : k == 1 ?
				    " (the claim in words)" : " (where the paper says it: its "
				    "figure or number)");
			continue;
		}
		if (errsink_check(l->sink, ydoc_str(l->sink->name, keys[k], n, &s,
		    &l->sink->err)) == -1)
			continue;
		/* a wrong id still names the claim in its other errors */
		*out[k] = xstrndup(s, 64);
		if (k == 0 && (s[0] == '\0' || strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-") !=
		    strlen(s) || strlen(s) > 64)) {
			errsink_error(l->sink, n, "'id' must be a name of lowercase letters, digits "
			    "and '-' (at most 64), not '%.64s'", s);
			continue;
		}
		for (i = 0; k == 0 && i < idx; i++)
			if (l->e->claims[i].id != NULL && strcmp(l->e->claims[i].id, s) == 0)
				break;
		if (k == 0 && i < idx)
			errsink_error(l->sink, n, "claim '%s' is defined twice (the first at line %d)",
			    s, l->e->claims[i].line);
	}
}

/* Whether the claim runs once per mode: mode exists and the claim sets none of it. */
static void
ecl_mode(struct ecl *l)
{
	struct exp_claim *c = l->c;
	int m = l->e->mode_param;

	c->by_mode = m >= 0 && c->param != m && !c->per[m] && c->over != m &&
	    (c->group[0] == NULL || c->group[0][m] < 0) &&
	    (c->group[1] == NULL || c->group[1][m] < 0);
}

/* One item of claims: (the idx-th) into l->c, every mistake of it kept. */
static void
ecl_claim(struct ecl *l, const struct ydoc_node *item, size_t idx)
{
	struct exp_claim *c = l->c;
	const struct ydoc_node *n;
	int f;

	c->param = c->value = c->over = -1;
	c->line = item->line;
	c->where = xcalloc(l->e->nparams + 1, sizeof *c->where);
	c->per = xcalloc(l->e->nparams + 1, 1);
	if (errsink_check(l->sink, ydoc_want(l->sink->name, "claims", item, YDOC_MAP,
	    &l->sink->err)) == -1)
		return;
	ydoc_check_keys_all(l->sink->name, item, ecl_keys, l->sink->errs);
	ecl_texts(l, item, idx);
	if (c->id == NULL)
		c->id = xstrdup("?");
	ecl_metric(l, item);
	if ((n = ydoc_get(item, "where")) != NULL)
		ecl_where(l, n);
	if ((n = ydoc_get(item, "per")) != NULL)
		ecl_per(l, n);
	if ((f = ecl_form(l, item)) < 0)
		return;
	c->form = (enum exp_claim_form)f;
	n = ydoc_get(item, exp_claim_forms[f]);
	if (c->form <= EXP_CLAIM_MINIMUM_AT)
		ecl_single(l, exp_claim_forms[f], n);
	else
		ecl_pair(l, exp_claim_forms[f], n);
	ecl_bounds(l, item);
	ecl_conflicts(l, item);
	ecl_mode(l);
}

void
exp_claims_load(struct gs_errsink *sink, struct exp *e, const struct ydoc_node *n)
{
	struct ecl l = { sink, e, NULL };
	size_t i;

	/* parameters with errors of their own: nothing to check the claims against */
	if (e->nparams == 0 || errsink_check(sink, ydoc_want(sink->name, "claims", n, YDOC_SEQ,
	    &sink->err)) == -1)
		return;
	e->claims = xcalloc(n->nitems + 1, sizeof *e->claims);
	for (i = 0; i < n->nitems; i++) {
		l.c = &e->claims[i];
		e->nclaims = i + 1;
		ecl_claim(&l, n->items[i], i);
	}
}

void
exp_claims_free(struct exp *e)
{
	size_t i, p;

	for (i = 0; i < e->nclaims; i++) {
		struct exp_claim *c = &e->claims[i];

		free(c->id);
		free(c->says);
		free(c->paper);
		free(c->note);
		free(c->metric);
		for (p = 0; c->where != NULL && p < e->nparams; p++)
			free(c->where[p]);
		free(c->where);
		free(c->per);
		free(c->group[0]);
		free(c->group[1]);
	}
	free(e->claims);
	e->claims = NULL;
	e->nclaims = 0;
}
