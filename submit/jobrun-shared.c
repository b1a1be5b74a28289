/*
 * jobrun-shared.c — evidence that every node shares is no node's (doc/restarts.md,
 * "Evidence every node shares"). A launch whose every node failed at once failed for a
 * reason they have in common: this host's network or kernel (a full neighbour table drops
 * every new connection), the program (it fails MPI_Init everywhere), the grid between the
 * sites. Leaving the nodes out would only take healthy ones away from the job, and the
 * next-best nodes would fail the same way, or there would be no placement at all ("no
 * placement without the failed nodes" after 12 healthy nodes were left out).
 *
 * Two rules, on the remote nodes that had ranks (this host is never left out anyway):
 * evidence against (nearly) all of them leaves none out; weak evidence (something of the
 * job died there, the node answered) against many of them is set aside, and only the
 * nodes out of reach are left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "remote/remote.h"
#include "submit/jobrun.h"

#define SHARED_MIN_NODES	3	/* fewer remote nodes: each judged on its own */
#define SHARED_ALL_SHARE	0.9	/* evidence against this share of them: all of them */
#define SHARED_WEAK_SHARE	0.25	/* weak evidence against more than this share */
#define SHARED_WEAK_MIN		2	/* and this many nodes: set aside */

/*
 * The kind of a reason: its text without digits and without the node's host name, so
 * that "rank 3's program died of signal 6" on one node and "rank 7's …" on another are
 * the same failure.
 */
static char *
shared_kind(const char *why, const char *host)
{
	char *k = xmalloc(strlen(why) + 1), *p;
	size_t hl = strlen(host), j = 0;
	const char *s;

	for (s = why; *s != '\0'; s++) {
		if (hl > 0 && strncmp(s, host, hl) == 0) {
			s += hl - 1;
			continue;
		}
		if (*s < '0' || *s > '9')
			k[j++] = *s;
	}
	k[j] = '\0';
	for (p = k; (p = strstr(p, "..")) != NULL; )
		memmove(p, p + 1, strlen(p));
	return k;
}

/*
 * The reason most nodes give (the first node's text of that kind) into ex, and how many
 * give it.
 */
static size_t
shared_common(const struct jobrun *jr, const struct restart_find *f, const int *cand,
    char *ex, size_t exlen)
{
	char **kind = xcalloc(f->n + 1, sizeof *kind);
	size_t i, j, best = 0, count;

	*ex = '\0';
	for (i = 0; i < f->n; i++)
		if (cand[i] && f->why[i] != NULL)
			kind[i] = shared_kind(f->why[i], jr->sites.nodes[i].host);
	for (i = 0; i < f->n; i++) {
		if (kind[i] == NULL)
			continue;
		for (j = i, count = 0; j < f->n; j++)
			count += kind[j] != NULL && strcmp(kind[i], kind[j]) == 0;
		if (count > best) {
			best = count;
			snprintf(ex, exlen, "%s", f->why[i]);
		}
	}
	for (i = 0; i < f->n; i++)
		free(kind[i]);
	free(kind);
	return best;
}

int
jobrun_shared(const struct jobrun *jr, struct restart_find *f, char *note, size_t len)
{
	int *cand = xcalloc(f->n + 1, sizeof *cand), rc = JOBRUN_SHARED_NONE;
	size_t i, ncand = 0, nwhy = 0, nweak = 0, same;
	char ex[1024];

	*note = '\0';
	for (i = 0; i < f->n; i++) {
		if (f->rank[i] < 0 || remote_host_is_local(jr->sites.nodes[i].host))
			continue;
		cand[i] = 1;
		ncand++;
		nwhy += f->why[i] != NULL;
		nweak += f->why[i] != NULL && !f->strong[i];
	}
	if (ncand < SHARED_MIN_NODES || nwhy == 0)
		goto out;
	same = shared_common(jr, f, cand, ex, sizeof ex);
	if ((double)nwhy >= SHARED_ALL_SHARE * (double)ncand) {
		snprintf(note, len, "the same failure on %zu of %zu nodes (%s)%s: not the "
		    "nodes' own, none left out", same, ncand, ex, same < nwhy ?
		    ", and others" : "");
		rc = JOBRUN_SHARED_ALL;
	} else if (nweak >= SHARED_WEAK_MIN &&
	    (double)nweak > SHARED_WEAK_SHARE * (double)ncand) {
		snprintf(note, len, "something of the job died on %zu of %zu nodes (%s): most "
		    "likely not the nodes, left out only when out of reach", nweak, ncand, ex);
		rc = JOBRUN_SHARED_WEAK;
	} else
		goto out;
	for (i = 0; i < f->n; i++) {
		if (!cand[i] || f->why[i] == NULL ||
		    (rc == JOBRUN_SHARED_WEAK && f->strong[i]))
			continue;
		free(f->why[i]);
		f->why[i] = NULL;
		f->strong[i] = 0;
	}
out:
	free(cand);
	return rc;
}
