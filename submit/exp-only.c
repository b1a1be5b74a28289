/*
 * exp-only.c — `experiment FILE --only PARAM=VALUE` (repeatable): only the runs of the
 * points whose PARAM is VALUE run this time, the others stay as they are (pending ones
 * pending), and the reports use what is done. Several values of one parameter are
 * alternatives, different parameters must all match: `--only mode=simulate --only
 * scheme=gss --only scheme=pwd` runs the simulated gss and pwd points. A PARAM or a VALUE
 * the file does not have is an error naming it, with the closest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/suggest.h"
#include "common/xmalloc.h"
#include "submit/exp-run.h"

int
exp_only_add(struct exp_only *o, const struct exp *e, const char *arg, char *why,
    size_t whylen)
{
	const char *eq = strchr(arg, '='), *guess, **names;
	char *name;
	size_t i;
	int k;

	if (eq == NULL || eq == arg) {
		snprintf(why, whylen, "'%s' is not PARAM=VALUE (e.g. mode=simulate)", arg);
		return -1;
	}
	name = xstrndup(arg, (size_t)(eq - arg));
	if ((k = exp_param_find(e, name)) < 0) {
		names = xcalloc(e->nparams + 1, sizeof *names);
		for (i = 0; i < e->nparams; i++)
			names[i] = e->params[i].name;
		guess = suggest_closest(name, names);
		snprintf(why, whylen, "'%s' is not a parameter of %s%s%s%s", name, e->path,
		    guess ? " (did you mean '" : "", guess ? guess : "", guess ? "'?)" : "");
		free(names);
		free(name);
		return -1;
	}
	free(name);
	for (i = 0; i < e->params[k].nvalues; i++)
		if (strcmp(e->params[k].texts[i], eq + 1) == 0)
			break;
	if (i == e->params[k].nvalues) {
		guess = suggest_closest(eq + 1, (const char *const *)e->params[k].texts);
		snprintf(why, whylen, "'%s' is not a value of '%s' in %s%s%s%s", eq + 1,
		    e->params[k].name, e->path, guess ? " (did you mean '" : "",
		    guess ? guess : "", guess ? "'?)" : "");
		return -1;
	}
	o->param = xreallocarray(o->param, o->n + 1, sizeof *o->param);
	o->value = xreallocarray(o->value, o->n + 1, sizeof *o->value);
	o->param[o->n] = (size_t)k;
	o->value[o->n++] = i;
	return 0;
}

int
exp_only_match(const struct exp_only *o, const struct exp *e, size_t point)
{
	size_t i, j;
	int hit;

	for (i = 0; i < o->n; i++) {
		/* each parameter once: is the point's value among those given for it? */
		for (j = 0; j < i && o->param[j] != o->param[i]; j++)
			;
		if (j < i)
			continue;
		for (hit = 0, j = i; j < o->n && !hit; j++)
			hit = o->param[j] == o->param[i] &&
			    exp_point_index(e, point, o->param[i]) == o->value[j];
		if (!hit)
			return 0;
	}
	return 1;
}

void
exp_only_free(struct exp_only *o)
{
	free(o->param);
	free(o->value);
	memset(o, 0, sizeof *o);
}
