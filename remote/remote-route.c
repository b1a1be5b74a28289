/*
 * remote-route.c — hosts reached through srun rather than ssh: the nodes of a Slurm
 * allocation (slurm-site.h). A route names the login host and the Slurm job; a command
 * for the node becomes one for the login host, run there by srun as a step of that job,
 * on that node alone, beside the job's other steps (--overlap).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "remote/remote.h"

struct remote_route {
	char *host;
	char *login;
	char *jobid;
};

static struct remote_route *routes;
static size_t nroutes;

static struct remote_route *
remote_route_find(const char *host)
{
	size_t i;

	for (i = 0; i < nroutes; i++)
		if (strcmp(routes[i].host, host) == 0)
			return &routes[i];
	return NULL;
}

void
remote_route_srun(const char *host, const char *login, const char *jobid)
{
	struct remote_route *r = remote_route_find(host);

	if (r == NULL) {
		routes = xreallocarray(routes, nroutes + 1, sizeof *routes);
		r = &routes[nroutes++];
		r->host = xstrdup(host);
	} else {
		free(r->login);
		free(r->jobid);
	}
	r->login = xstrdup(login);
	r->jobid = xstrdup(jobid);
}

void
remote_route_clear(void)
{
	size_t i;

	for (i = 0; i < nroutes; i++) {
		free(routes[i].host);
		free(routes[i].login);
		free(routes[i].jobid);
	}
	free(routes);
	routes = NULL;
	nroutes = 0;
}

const char *
remote_route_target(const char *host)
{
	const struct remote_route *r = remote_route_find(host);

	return r != NULL ? r->login : host;
}

const char *
remote_route_job(const char *host)
{
	const struct remote_route *r = remote_route_find(host);

	return r != NULL ? r->jobid : NULL;
}

char *
remote_route_wrap(const char *host, const char *cmd)
{
	const struct remote_route *r = remote_route_find(host);
	char *q, *line;

	if (r == NULL)
		return NULL;
	q = remote_quote(cmd != NULL ? cmd : "exec ${SHELL:-sh}");
	xasprintf(&line, "%s --jobid=%s %s --nodelist=%s -- sh -c %s", REMOTE_SRUN_EXEC,
	    r->jobid, REMOTE_SRUN_OPTIONS, r->host, q);
	free(q);
	return line;
}
