/*
 * job-runtime.c — a job's runtime parameters (job-load-int.h, job.h): the job file's
 * runtime: map, each key checked against libgrt's own list and each value against what
 * the runtime takes (a scheme by name with "did you mean", whole numbers, ranges, a
 * migration policy, booleans), kept as the strings every rank receives as GRT_<KEY>.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "broker/errsink.h"
#include "broker/job.h"
#include "broker/job-load-int.h"
#include "broker/yaml-doc.h"
#include "common/suggest.h"
#include "common/xmalloc.h"
#include "grt/grt-keys.h"
#include "grt/scheme.h"

#define JR_KEY(id, key)	key,
static const char *const jr_keys[] = { GRT_RUNTIME_KEYS(JR_KEY) NULL };
#undef JR_KEY

int
job_scheme_parse(const char *name, const struct ydoc_node *n, const char **canon,
    struct gs_error *err)
{
	const char *names[GRT_SCHEME_COUNT + 1], *s, *guess;
	char list[256], desc[96];
	size_t o = 0;
	int i, id;

	if (ydoc_str(name, "scheme", n, &s, err) == -1)
		return -1;
	if ((id = grt_scheme_from_name(s)) >= 0 && grt_scheme_name(id) != NULL) {
		*canon = grt_scheme_name(id);
		return 0;
	}
	list[0] = '\0';
	for (i = 0; i < GRT_SCHEME_COUNT; i++) {
		names[i] = grt_scheme_name(i) != NULL ? grt_scheme_name(i) : "";
		if (o < sizeof list)
			o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", i ? ", " : "",
			    names[i]);
	}
	names[i] = NULL;
	ydoc_describe(n, desc, sizeof desc);
	if ((guess = suggest_closest(s, names)) != NULL)
		ydoc_error(err, name, n, "unknown scheme %s (did you mean '%s'?)", desc, guess);
	else
		ydoc_error(err, name, n, "unknown scheme %s (known: %s)", desc, list);
	return -1;
}

/* One runtime key's value checked, into the text given to the ranks (buf: room for it). */
static const char *
jr_value(struct gs_errsink *sink, const char *key, const struct ydoc_node *v, char *buf,
    size_t len)
{
	static const char *const prefetch_words[] = { "auto", "true", "false", NULL };
	static const char *const prefetch_env[] = { "auto", "1", "0" };
	static const char *const policies[] = { GRT_MIGRATION_NAMES, NULL };
	const char *f = sink->name, *val = NULL, *guess;
	struct gs_error *e = &sink->err;
	char desc[96];
	long long ll;
	size_t i;
	double d;
	int b;

	if (strcmp(key, "scheme") == 0)
		return errsink_check(sink, job_scheme_parse(f, v, &val, e)) == 0 ? val : NULL;
	if (strcmp(key, "k") == 0 || strcmp(key, "rounds") == 0) {
		if (errsink_check(sink, ydoc_int(f, key, v, "a whole number >= 1", 1, INT_MAX, &ll,
		    e)) == -1)
			return NULL;
		snprintf(buf, len, "%lld", ll);
		return buf;
	}
	if (strcmp(key, "alpha") == 0)
		return errsink_check(sink, ydoc_num(f, key, v, "a number in [0, 100]", 0, 0, 100, 0,
		    &d, e)) == 0 ? v->value : NULL;
	if (strcmp(key, "swr") == 0) {
		if (v->type == YDOC_SCALAR && strcmp(v->value, "auto") == 0)
			return "auto";
		return errsink_check(sink, ydoc_num(f, key, v, "auto or a number in [0, 1]", 0, 0,
		    1, 0, &d, e)) == 0 ? v->value : NULL;
	}
	if (strcmp(key, "deadline") == 0)
		return errsink_check(sink, ydoc_num(f, key, v, "a number of seconds > 0", 0, 1, 1e9,
		    0, &d, e)) == 0 ? v->value : NULL;
	if (strcmp(key, "prefetch") == 0)
		return errsink_check(sink, ydoc_choice(f, key, v, prefetch_words, &b, e)) == 0 ?
		    prefetch_env[b] : NULL;
	/* task migration (doc/tasks.md): a policy in any case, given as its name */
	if (strcmp(key, "migration") == 0) {
		if (errsink_check(sink, ydoc_str(f, key, v, &val, e)) == -1)
			return NULL;
		for (i = 0; policies[i] != NULL; i++)
			if (strcasecmp(val, policies[i]) == 0)
				return policies[i];
		ydoc_describe(v, desc, sizeof desc);
		if (strcasecmp(val, "rotate") == 0)
			errsink_error(sink, v, "migration policy %s is for the tests only "
			    "(GRT_MIGRATION), not a job file's (one of: none, load-diff, load-abs)",
			    desc);
		else if ((guess = suggest_closest(val, policies)) != NULL)
			errsink_error(sink, v, "unknown migration policy %s (did you mean '%s'?)",
			    desc, guess);
		else
			errsink_error(sink, v, "unknown migration policy %s (one of: none, "
			    "load-diff, load-abs)", desc);
		return NULL;
	}
	if (strcmp(key, "threshold") == 0)
		return errsink_check(sink, ydoc_num(f, key, v, "a load figure > 0", 0, 1, 1e9, 0,
		    &d, e)) == 0 ? v->value : NULL;
	if (strcmp(key, "spare") == 0 || strcmp(key, "checkpoint_every") == 0) {
		if (errsink_check(sink, ydoc_int(f, key, v, "a whole number >= 0", 0,
		    strcmp(key, "spare") == 0 ? INT_MAX : LLONG_MAX, &ll, e)) == -1)
			return NULL;
		snprintf(buf, len, "%lld", ll);
		return buf;
	}
	/* sub-masters (doc/runtime.md, "The hierarchy"): a word, or workers per sub-master */
	if (strcmp(key, "hierarchy") == 0) {
		static const char *const words[] = { "none", "site", "auto", NULL };

		for (i = 0; v->type == YDOC_SCALAR && words[i] != NULL; i++)
			if (strcmp(v->value, words[i]) == 0)
				return words[i];
		if (errsink_check(sink, ydoc_int(f, key, v, "none, site, auto or a whole number "
		    "of workers per sub-master >= 2", 2, INT_MAX, &ll, e)) == -1)
			return NULL;
		snprintf(buf, len, "%lld", ll);
		return buf;
	}
	if (strcmp(key, "move_gap") == 0)
		return errsink_check(sink, ydoc_num(f, key, v, "a number of seconds >= 0", 0, 0,
		    1e9, 0, &d, e)) == 0 ? v->value : NULL;
	/* events_chunks, master_computes: GRT_* take 0 or 1 */
	if (errsink_check(sink, ydoc_bool(f, key, v, &b, e)) == -1)
		return NULL;
	return b ? "1" : "0";
}

/*
 * Migratable tasks (a migration policy) have no sub-masters: a hierarchy other than none
 * or auto beside one is refused at the hierarchy's value.
 */
static void
jr_hierarchy_tasks(struct gs_errsink *sink, const struct gs_job *job,
    const struct ydoc_node *map)
{
	const char *h = job_runtime_get(job, "hierarchy"), *mig = job_runtime_get(job, "migration");
	size_t i;

	if (h == NULL || mig == NULL || strcmp(mig, "none") == 0 || strcmp(h, "none") == 0 ||
	    strcmp(h, "auto") == 0)
		return;
	for (i = 0; i < map->npairs; i++)
		if (strcmp(map->pairs[i].key->value, "hierarchy") == 0)
			errsink_error(sink, map->pairs[i].value, "hierarchy '%s' has no sub-masters "
			    "for migratable tasks (migration: %s): set hierarchy: none", h, mig);
}

void
job_runtime_load(struct gs_errsink *sink, struct gs_job *job, const struct ydoc_node *map)
{
	size_t i;

	if (errsink_check(sink, ydoc_want(sink->name, "runtime", map, YDOC_MAP,
	    &sink->err)) == -1)
		return;
	ydoc_check_keys_all(sink->name, map, jr_keys, sink->errs);
	for (i = 0; i < map->npairs; i++) {
		const char *key = map->pairs[i].key->value, *val;
		char buf[32];

		if (!ydoc_known(key, jr_keys))
			continue;
		if ((val = jr_value(sink, key, map->pairs[i].value, buf, sizeof buf)) != NULL)
			job_runtime_set(job, key, val);
	}
	jr_hierarchy_tasks(sink, job, map);
}

const char *
job_runtime_get(const struct gs_job *job, const char *key)
{
	size_t i;

	for (i = 0; i < job->nruntime; i++)
		if (strcmp(job->runtime[i].key, key) == 0)
			return job->runtime[i].value;
	return NULL;
}

void
job_runtime_set(struct gs_job *job, const char *key, const char *value)
{
	size_t i;

	for (i = 0; i < job->nruntime; i++) {
		if (strcmp(job->runtime[i].key, key) == 0) {
			free(job->runtime[i].value);
			job->runtime[i].value = xstrdup(value);
			return;
		}
	}
	job->runtime = xreallocarray(job->runtime, job->nruntime + 1, sizeof *job->runtime);
	job->runtime[job->nruntime].key = xstrdup(key);
	job->runtime[job->nruntime].value = xstrdup(value);
	job->nruntime++;
}
