/*
 * exp-repeat.c — how many runs each point gets (doc/experiments.md, "Repetitions"):
 * repeat: N for every point, or a count per mode (repeat: {testbed: 5, simulate: 20}),
 * since a simulated run costs a fraction of a real one and twenty of them cost less than
 * five on the testbed. The runs are numbered point by point (run_first), which the store,
 * the order of runs and --dry-run share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broker/errsink.h"
#include "common/suggest.h"
#include "common/xmalloc.h"
#include "experiment/exp.h"

#define ER_WHAT	"a whole number from 1 to 10000"

int
exp_point_repeat(const struct exp *e, size_t point)
{
	int n = e->repeat_mode[exp_point_mode(e, point)];

	return n > 0 ? n : e->repeat;
}

void
exp_run_point(const struct exp *e, size_t r, size_t *point, int *rep)
{
	size_t lo = 0, hi = e->npoints, mid;

	/* the last point whose first run is at or before r */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (e->run_first[mid] <= r)
			lo = mid;
		else
			hi = mid;
	}
	*point = lo;
	*rep = (int)(r - e->run_first[lo]) + 1;
}

/* repeat: {MODE: N}: a count for every mode some point has, and only for those. */
static void
er_by_mode(struct exp *e, struct gs_errsink *sink, const struct ydoc_node *n)
{
	int used[3] = { 0, 0, 0 }, m, bad = 0;
	const char *guess;
	long long v;
	size_t i, p;

	for (p = 0; p < e->npoints; p++)
		used[exp_point_mode(e, p)] = 1;
	for (i = 0; i < n->npairs; i++) {
		const struct ydoc_node *k = n->pairs[i].key;

		for (m = 0; exp_mode_names[m] != NULL; m++)
			if (strcmp(k->value, exp_mode_names[m]) == 0)
				break;
		if (exp_mode_names[m] == NULL) {
			guess = suggest_closest(k->value, exp_mode_names);
			bad = errsink_error(sink, k, "'repeat': '%.64s' is not a mode (run, testbed "
			    "or simulate)%s%s%s", k->value, guess ? " (did you mean '" : "",
			    guess ? guess : "", guess ? "'?)" : "");
			continue;
		}
		if (!used[m] && e->npoints > 0)
			bad = errsink_error(sink, k, "'repeat': no point is of mode '%s'%s",
			    k->value, e->mode_param < 0 ? " (without a mode parameter, every point "
			    "is of mode run)" : "");
		if (errsink_check(sink, ydoc_int(sink->name, k->value, n->pairs[i].value, ER_WHAT,
		    1, EXP_MAX_REPEAT, &v, &sink->err)) == -1) {
			bad = -1;
			continue;
		}
		e->repeat_mode[m] = (int)v;
		if ((int)v > e->repeat)
			e->repeat = (int)v;
	}
	for (m = 0; exp_mode_names[m] != NULL && e->npoints > 0 && !bad; m++)
		if (used[m] && e->repeat_mode[m] == 0)
			bad = errsink_error(sink, n, "'repeat' gives no count for mode '%s', which "
			    "some points have", exp_mode_names[m]);
	if (bad)
		memset(e->repeat_mode, 0, sizeof e->repeat_mode);
}

void
exp_repeat_load(struct exp *e, struct gs_errsink *sink, const struct ydoc_node *n)
{
	long long v;
	size_t p;

	e->repeat = 1;
	if (n != NULL && n->type == YDOC_MAP && n->npairs > 0) {
		e->repeat = 0;
		er_by_mode(e, sink, n);
		if (e->repeat == 0)
			e->repeat = 1;
	} else if (n != NULL && errsink_check(sink, ydoc_int(sink->name, "repeat", n, ER_WHAT
	    " or a mapping of modes to such numbers ({testbed: 5, simulate: 20})", 1,
	    EXP_MAX_REPEAT, &v, &sink->err)) == 0)
		e->repeat = (int)v;
	e->run_first = xcalloc(e->npoints + 1, sizeof *e->run_first);
	for (p = 0; p < e->npoints; p++)
		e->run_first[p + 1] = e->run_first[p] + (size_t)exp_point_repeat(e, p);
	e->nruns = e->run_first[e->npoints];
	if (e->nruns > EXP_MAX_POINTS)
		errsink_error(sink, n, "%zu points make %zu runs with their repetitions, more "
		    "than %d", e->npoints, e->nruns, EXP_MAX_POINTS);
}

char *
exp_repeat_label(const struct exp *e)
{
	char *s = NULL, *t;
	int m;

	for (m = 0; exp_mode_names[m] != NULL; m++) {
		if (e->repeat_mode[m] == 0)
			continue;
		xasprintf(&t, "%s%s%s %d", s != NULL ? s : "", s != NULL ? ", " : "",
		    exp_mode_names[m], e->repeat_mode[m]);
		free(s);
		s = t;
	}
	if (s == NULL)
		xasprintf(&s, "%d", e->repeat);
	return s;
}
