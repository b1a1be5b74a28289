/*
 * jobstore-alloc.c — the "allocations" field of state.json: the Slurm allocations that held
 * nodes of Slurm sites for the job (slurm-site.h, doc/slurm.md), each with its site, login
 * host, Slurm job id, nodes, and the state and reason Slurm last gave.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/jsonout.h"
#include "common/name.h"
#include "common/xmalloc.h"
#include "store/jobstore.h"

#define ALLOCS_MAX	100000	/* entries read back; more is a corrupt file */

/* "released": null while held, else by whom */
static const char *const alloc_end_names[] = {
	[JOB_ALLOC_HELD] = NULL, [JOB_ALLOC_RELEASED] = "gridsubmit",
	[JOB_ALLOC_ENDED] = "slurm",
};

struct job_alloc *
jobstore_alloc_add(struct job_state *st, const char *site, const char *login, const char *id,
    char *const *hosts, size_t nhosts)
{
	struct job_alloc *a;
	size_t i;

	st->allocs = xreallocarray(st->allocs, st->nallocs + 1, sizeof *st->allocs);
	a = &st->allocs[st->nallocs++];
	memset(a, 0, sizeof *a);
	a->site = xstrdup(site);
	a->login = xstrdup(login);
	a->id = xstrdup(id);
	a->hosts = xcalloc(nhosts + 1, sizeof *a->hosts);
	for (i = 0; i < nhosts; i++)
		a->hosts[i] = xstrdup(hosts[i]);
	a->nhosts = nhosts;
	a->state = xstrdup("SUBMITTED");
	return a;
}

void
jobstore_alloc_set_state(struct job_alloc *a, const char *state, const char *reason)
{
	free(a->state);
	free(a->reason);
	a->state = xstrdup(state);
	a->reason = reason != NULL && *reason != '\0' ? xstrdup(reason) : NULL;
}

int
jobstore_allocs_to_json(const struct job_state *st, json_t *o)
{
	json_t *arr = json_array(), *hosts;
	size_t i, j;
	int rc = 0;

	for (i = 0; i < st->nallocs && rc == 0; i++) {
		const struct job_alloc *a = &st->allocs[i];

		hosts = json_array();
		for (j = 0; j < a->nhosts && rc == 0; j++)
			rc = json_array_append_new(hosts, json_string(a->hosts[j]));
		rc |= json_array_append_new(arr, json_pack(
		    "{s:s, s:s, s:s, s:o, s:s, s:o, s:o}", "site", a->site, "login", a->login, "id", a->id, "hosts", hosts,
		    "state", a->state, "reason", jsonout_str(a->reason),
		    "released", jsonout_str(alloc_end_names[a->released])));
	}
	if (rc != 0) {
		json_decref(arr);
		return -1;
	}
	return json_object_set_new(o, "allocations", arr);
}

/*
 * One entry; -1 when it is not {site, login, id, hosts: [names], state, reason,
 * released: null, "gridsubmit" or "slurm"}. The login host, the Slurm job id and the
 * hosts go to ssh, srun and the launcher script (launch-ssh.c): a value that is not a
 * host name or a run of digits names its field in *field and is refused (-2), so that
 * no edited state.json can hand them an option or a command.
 */
static int
jobstore_alloc_decode(json_t *e, struct job_state *st, const char **field)
{
	json_t *site = json_object_get(e, "site"), *login = json_object_get(e, "login");
	json_t *id = json_object_get(e, "id"), *hosts = json_object_get(e, "hosts");
	json_t *state = json_object_get(e, "state"), *reason = json_object_get(e, "reason");
	json_t *released = json_object_get(e, "released"), *h;
	struct job_alloc *a;
	const char **names;
	size_t i;

	if (!json_is_object(e) || !json_is_string(site) || !json_is_string(login) ||
	    !json_is_string(id) || !json_is_array(hosts) || !json_is_string(state) ||
	    (reason != NULL && !json_is_null(reason) && !json_is_string(reason)) ||
	    (released != NULL && !json_is_null(released) && !json_is_string(released)))
		return -1;
	if (!name_host_valid(json_string_value(login)))
		*field = "login";
	else if (!name_digits_valid(json_string_value(id)))
		*field = "id";
	if (*field != NULL)
		return -2;
	names = xcalloc(json_array_size(hosts) + 1, sizeof *names);
	json_array_foreach(hosts, i, h) {
		if (!json_is_string(h)) {
			free(names);
			return -1;
		}
		if (!name_host_valid(json_string_value(h))) {
			*field = "hosts";
			free(names);
			return -2;
		}
		names[i] = json_string_value(h);
	}
	a = jobstore_alloc_add(st, json_string_value(site), json_string_value(login),
	    json_string_value(id), (char *const *)names, json_array_size(hosts));
	free(names);
	jobstore_alloc_set_state(a, json_string_value(state),
	    json_is_string(reason) ? json_string_value(reason) : NULL);
	a->released = JOB_ALLOC_HELD;
	if (json_is_string(released)) {
		if (strcmp(json_string_value(released), "gridsubmit") == 0)
			a->released = JOB_ALLOC_RELEASED;
		else if (strcmp(json_string_value(released), "slurm") == 0)
			a->released = JOB_ALLOC_ENDED;
		else
			return -1;
	}
	return 0;
}

int
jobstore_allocs_from_json(json_t *o, struct job_state *st, const char *path, char *why,
    size_t whylen)
{
	json_t *arr = json_object_get(o, "allocations"), *e;
	const char *field = NULL;
	size_t i;
	int r;

	if (arr == NULL || json_is_null(arr))
		return JOBSTORE_OK;
	if (!json_is_array(arr) || json_array_size(arr) > ALLOCS_MAX)
		goto bad;
	json_array_foreach(arr, i, e) {
		if ((r = jobstore_alloc_decode(e, st, &field)) == -2) {
			snprintf(why, whylen, "%s: corrupt job state: \"allocations\"[%zu].\"%s\" "
			    "is not a %s; the file was not written by gridsubmit", path, i, field,
			    strcmp(field, "id") == 0 ? "Slurm job id (digits)" : "host name");
			return JOBSTORE_BAD;
		}
		if (r == -1)
			goto bad;
	}
	return JOBSTORE_OK;
bad:
	snprintf(why, whylen, "%s: corrupt job state: \"allocations\" has the wrong type", path);
	return JOBSTORE_BAD;
}

void
jobstore_allocs_free(struct job_state *st)
{
	size_t i, j;

	for (i = 0; i < st->nallocs; i++) {
		struct job_alloc *a = &st->allocs[i];

		free(a->site);
		free(a->login);
		free(a->id);
		for (j = 0; j < a->nhosts; j++)
			free(a->hosts[j]);
		free(a->hosts);
		free(a->state);
		free(a->reason);
	}
	free(st->allocs);
	st->allocs = NULL;
	st->nallocs = 0;
}
