/*
 * jobstore-ranks.c — the "rank_ends" field of state.json: how each rank of the last launch
 * ended (common/rank-end.h), as its wrapper recorded it: rank, node, host, exit status or
 * signal, time. What status and the console show of a program without libgrt.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonout.h"
#include "common/rank-end.h"
#include "common/xmalloc.h"
#include "store/jobstore.h"

#define RANK_ENDS_MAX	1000000	/* entries read back; more is a corrupt file */

void
jobstore_rank_ends_set(struct job_state *st, const struct rank_end *v, size_t n)
{
	jobstore_rank_ends_free(st);
	if (n == 0)
		return;
	st->rank_ends = xreallocarray(NULL, n, sizeof *st->rank_ends);
	memcpy(st->rank_ends, v, n * sizeof *v);
	st->nrank_ends = n;
}

json_t *
jobstore_rank_ends_json(const struct job_state *st)
{
	json_t *arr = json_array(), *e;
	size_t i;

	for (i = 0; arr != NULL && i < st->nrank_ends; i++) {
		const struct rank_end *r = &st->rank_ends[i];

		e = json_pack("{s:i, s:s, s:s, s:o, s:o, s:o}", "rank", r->rank,
		    "node", r->node, "host", r->host,
		    "exit", r->signal != 0 ? json_null() : json_integer(r->exit),
		    "signal", r->signal != 0 ? json_integer(r->signal) : json_null(),
		    "ended", jobstore_json_time(r->time));
		if (e == NULL || json_array_append_new(arr, e) == -1) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/* One entry of "rank_ends" into r: 0, or -1 when it is not one. */
static int
jobstore_rank_end_decode(json_t *e, struct rank_end *r)
{
	json_t *rank = json_object_get(e, "rank"), *ex = json_object_get(e, "exit");
	json_t *sig = json_object_get(e, "signal"), *ended = json_object_get(e, "ended");
	const char *node = json_string_value(json_object_get(e, "node"));
	const char *host = json_string_value(json_object_get(e, "host"));

	memset(r, 0, sizeof *r);
	if (!json_is_integer(rank) || node == NULL || host == NULL || !json_is_string(ended) ||
	    (r->time = jobstore_parse_time(json_string_value(ended))) < 0)
		return -1;
	if (json_is_integer(sig) && json_is_null(ex)) {
		r->exit = -1;
		r->signal = (int)json_integer_value(sig);
	} else if (json_is_integer(ex) && json_is_null(sig))
		r->exit = (int)json_integer_value(ex);
	else
		return -1;
	r->rank = (int)json_integer_value(rank);
	snprintf(r->node, sizeof r->node, "%s", node);
	snprintf(r->host, sizeof r->host, "%s", host);
	return 0;
}

int
jobstore_rank_ends_from_json(json_t *o, struct job_state *st, const char *path, char *why,
    size_t whylen)
{
	json_t *arr = json_object_get(o, "rank_ends"), *e;
	size_t i;

	if (arr == NULL || json_is_null(arr))
		return JOBSTORE_OK;
	if (!json_is_array(arr) || json_array_size(arr) > RANK_ENDS_MAX)
		goto bad;
	st->rank_ends = xcalloc(json_array_size(arr) + 1, sizeof *st->rank_ends);
	json_array_foreach(arr, i, e) {
		if (jobstore_rank_end_decode(e, &st->rank_ends[i]) == -1)
			goto bad;
		st->nrank_ends++;
	}
	return JOBSTORE_OK;
bad:
	jobstore_rank_ends_free(st);
	snprintf(why, whylen, "%s: corrupt job state: \"rank_ends\" has the wrong type", path);
	return JOBSTORE_BAD;
}

void
jobstore_rank_ends_free(struct job_state *st)
{
	free(st->rank_ends);
	st->rank_ends = NULL;
	st->nrank_ends = 0;
}
