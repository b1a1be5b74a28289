/*
 * jobstore-restart.c — the fields of state.json about relaunches (doc/restarts.md) and what
 * `gridsubmit resume` needs to load a job again: "t0", "restarts", "restarts_max",
 * "restart_log", "sites_file", "ranks_option", "metrics". The restart log and counts are
 * encoded with the rest of the job's state (jobstore_state_json), the others here.
 */
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonout.h"
#include "common/xmalloc.h"
#include "store/jobstore.h"

#define RESTART_LOG_MAX	100000	/* entries read back; more is a corrupt file */

void
jobstore_restart_add(struct job_state *st, double when, const char *reason,
    char *const *excluded, size_t nexcluded)
{
	struct job_restart *r;
	size_t i;

	st->restart_log = xreallocarray(st->restart_log, st->nrestart_log + 1,
	    sizeof *st->restart_log);
	r = &st->restart_log[st->nrestart_log++];
	r->time = when;
	r->reason = xstrdup(reason != NULL ? reason : "");
	r->excluded = xcalloc(nexcluded + 1, sizeof *r->excluded);
	for (i = 0; i < nexcluded; i++)
		r->excluded[i] = xstrdup(excluded[i]);
	r->nexcluded = nexcluded;
}

void
jobstore_restarts_free(struct job_state *st)
{
	size_t i, j;

	for (i = 0; i < st->nrestart_log; i++) {
		free(st->restart_log[i].reason);
		for (j = 0; j < st->restart_log[i].nexcluded; j++)
			free(st->restart_log[i].excluded[j]);
		free(st->restart_log[i].excluded);
	}
	free(st->restart_log);
	free(st->sites_file);
	st->restart_log = NULL;
	st->nrestart_log = 0;
	st->sites_file = NULL;
}

json_t *
jobstore_restart_log_json(const struct job_state *st)
{
	json_t *log, *ex;
	size_t i, j;
	int rc = 0;

	log = json_array();
	for (i = 0; i < st->nrestart_log && rc == 0; i++) {
		const struct job_restart *r = &st->restart_log[i];

		ex = json_array();
		for (j = 0; j < r->nexcluded && rc == 0; j++)
			rc = json_array_append_new(ex, json_string(r->excluded[j]));
		rc |= json_array_append_new(log, json_pack("{s:o, s:s, s:o}", "time",
		    jobstore_json_time(r->time), "reason", r->reason, "excluded", ex));
	}
	if (rc != 0) {
		json_decref(log);
		return NULL;
	}
	return log;
}

int
jobstore_resume_to_json(const struct job_state *st, json_t *o)
{
	if (json_object_set_new(o, "t0", jobstore_json_time(st->t0)) != 0 ||
	    json_object_set_new(o, "sites_file", jsonout_str(st->sites_file)) != 0 ||
	    json_object_set_new(o, "ranks_option", st->ranks_option > 0 ?
	    json_integer(st->ranks_option) : json_null()) != 0 ||
	    json_object_set_new(o, "metrics", json_boolean(!st->no_metrics)) != 0)
		return -1;
	return 0;
}

/* A whole number from lo to hi (absent or null: *v stays); -1 for anything else. */
static int
jobstore_get_int(json_t *o, const char *key, int lo, int hi, int *v)
{
	json_t *j = json_object_get(o, key);

	if (j == NULL || json_is_null(j))
		return 0;
	if (!json_is_integer(j) || json_integer_value(j) < lo || json_integer_value(j) > hi)
		return -1;
	*v = (int)json_integer_value(j);
	return 0;
}

/* One entry of "restart_log"; -1 when it is not {time, reason, excluded: [hosts]}. */
static int
jobstore_restart_decode(json_t *e, struct job_state *st)
{
	json_t *t = json_object_get(e, "time"), *why = json_object_get(e, "reason");
	json_t *ex = json_object_get(e, "excluded"), *h;
	const char **hosts;
	double when;
	size_t i;

	if (!json_is_object(e) || !json_is_string(t) || !json_is_string(why) ||
	    !json_is_array(ex) || (when = jobstore_parse_time(json_string_value(t))) < 0)
		return -1;
	hosts = xcalloc(json_array_size(ex) + 1, sizeof *hosts);
	json_array_foreach(ex, i, h) {
		if (!json_is_string(h)) {
			free(hosts);
			return -1;
		}
		hosts[i] = json_string_value(h);
	}
	jobstore_restart_add(st, when, json_string_value(why), (char *const *)hosts,
	    json_array_size(ex));
	free(hosts);
	return 0;
}

int
jobstore_restarts_from_json(json_t *o, struct job_state *st, const char *path, char *why,
    size_t whylen)
{
	json_t *t0 = json_object_get(o, "t0"), *log = json_object_get(o, "restart_log"), *e;
	json_t *sites = json_object_get(o, "sites_file"), *metrics = json_object_get(o, "metrics");
	const char *bad = NULL;
	size_t i;

	if (t0 != NULL && !json_is_null(t0) && (!json_is_string(t0) ||
	    (st->t0 = jobstore_parse_time(json_string_value(t0))) < 0))
		bad = "t0";
	else if (jobstore_get_int(o, "restarts", 0, INT_MAX, &st->restarts) == -1)
		bad = "restarts";
	else if (jobstore_get_int(o, "restarts_max", 0, INT_MAX, &st->restarts_max) == -1)
		bad = "restarts_max";
	else if (jobstore_get_int(o, "ranks_option", 1, INT_MAX, &st->ranks_option) == -1)
		bad = "ranks_option";
	else if (sites != NULL && !json_is_null(sites) && !json_is_string(sites))
		bad = "sites_file";
	else if (metrics != NULL && !json_is_null(metrics) && !json_is_boolean(metrics))
		bad = "metrics";
	else if (log != NULL && !json_is_null(log) && (!json_is_array(log) ||
	    json_array_size(log) > RESTART_LOG_MAX))
		bad = "restart_log";
	for (i = 0; bad == NULL && log != NULL && i < json_array_size(log); i++)
		if ((e = json_array_get(log, i)) == NULL || jobstore_restart_decode(e, st) == -1)
			bad = "restart_log";
	if (bad != NULL) {
		snprintf(why, whylen, "%s: corrupt job state: \"%s\" has the wrong type", path,
		    bad);
		return JOBSTORE_BAD;
	}
	if (json_is_string(sites))
		st->sites_file = xstrdup(json_string_value(sites));
	st->no_metrics = json_is_false(metrics);
	if (st->t0 < 0)
		st->t0 = 0;
	return JOBSTORE_OK;
}
