/*
 * rank-end.c — each rank's end, one line per rank (rank-end.h): written by the rank wrapper,
 * read by the supervisor, status and the console.
 */
#include <sys/wait.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "common/rank-end.h"
#include "common/rankmap.h"
#include "common/xmalloc.h"

#define RANK_ENDS_READ_MAX	(16 << 20)	/* bytes read of DIR/rank-ends or DIR/rankmap */
#define RANK_END_RANK_MAX	1000000		/* ranks must be below this */

/* 1 when s is a host name we write and read as it is: letters, digits, '.', '-', '_'. */
static int
rank_end_host_ok(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0 || n >= RANK_END_HOST_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == '-' || s[i] == '_'))
			return 0;
	return 1;
}

int
rank_end_format(char *buf, size_t len, int rank, const char *host, int st, double time)
{
	int n;

	if (host == NULL || !rank_end_host_ok(host))
		host = "?";
	if (WIFSIGNALED(st))
		n = snprintf(buf, len, "%d %s signal %d %.3f\n", rank, host, WTERMSIG(st), time);
	else
		n = snprintf(buf, len, "%d %s exit %d %.3f\n", rank, host, WEXITSTATUS(st), time);
	return n < 0 || (size_t)n >= len ? -1 : n;
}

int
rank_end_parse(const char *line, struct rank_end *e)
{
	char host[RANK_END_HOST_MAX], how[8];
	int rank, v, used = 0;
	double t;

	memset(e, 0, sizeof *e);
	if (sscanf(line, "%d %63s %7s %d %lf%n", &rank, host, how, &v, &t, &used) != 5 ||
	    (line[used] != '\0' && line[used] != '\n') || rank < 0 ||
	    rank >= RANK_END_RANK_MAX || !isfinite(t) || t < 0 || (strcmp(host, "?") != 0 &&
	    !rank_end_host_ok(host)))
		return -1;
	if (strcmp(how, "exit") == 0 && v >= 0 && v <= 255)
		e->exit = v;
	else if (strcmp(how, "signal") == 0 && v > 0 && v < 128) {
		e->exit = -1;
		e->signal = v;
	} else
		return -1;
	e->rank = rank;
	e->time = t;
	snprintf(e->host, sizeof e->host, "%s", host);
	snprintf(e->node, sizeof e->node, "%s", host);
	return 0;
}

int
rank_end_failed(const struct rank_end *e)
{
	return e->signal != 0 || e->exit != 0;
}

/* Each rank's node from DIR/rankmap (rankmap.h). */
static void
rank_ends_name(const char *dir, struct rank_end *v, size_t n)
{
	struct rankmap_row *rows;
	size_t nrows, i, j;

	if (rankmap_read(dir, &rows, &nrows) == -1)
		return;
	for (j = 0; j < nrows; j++) {
		if (!rank_end_host_ok(rows[j].node))
			continue;
		for (i = 0; i < n; i++)
			if (v[i].rank == rows[j].rank)
				snprintf(v[i].node, sizeof v[i].node, "%.*s",
				    (int)sizeof v[i].node - 1, rows[j].node);
	}
	free(rows);
}

int
rank_ends_read(const char *dir, struct rank_end **v, size_t *n)
{
	char *path, *buf, *line, *save = NULL;
	struct rank_end e;
	size_t len, i, cap = 0;

	*v = NULL;
	*n = 0;
	xasprintf(&path, "%s/%s", dir, RANK_ENDS_FILE);
	if (file_read(path, RANK_ENDS_READ_MAX, &buf, &len) != 0) {
		free(path);
		return errno == ENOENT ? 0 : -1;
	}
	free(path);
	/* a torn last line (a write under way) is no record yet */
	if (len > 0 && buf[len - 1] != '\n') {
		char *nl = strrchr(buf, '\n');

		*(nl != NULL ? nl + 1 : buf) = '\0';
	}
	for (line = strtok_r(buf, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		if (rank_end_parse(line, &e) != 0)
			continue;
		for (i = 0; i < *n && (*v)[i].rank != e.rank; i++)
			;
		if (i < *n)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			*v = xreallocarray(*v, cap, sizeof **v);
		}
		(*v)[(*n)++] = e;
	}
	free(buf);
	rank_ends_name(dir, *v, *n);
	return 0;
}

const struct rank_end *
rank_ends_first_failure(const struct rank_end *v, size_t n)
{
	const struct rank_end *first = NULL;
	size_t i;

	for (i = 0; i < n; i++)
		if (rank_end_failed(&v[i]) && (first == NULL || v[i].time < first->time ||
		    (v[i].time == first->time && v[i].rank < first->rank)))
			first = &v[i];
	return first;
}

void
rank_end_text(const struct rank_end *e, char *buf, size_t len)
{
	if (e->signal != 0)
		snprintf(buf, len, "rank %d on node %s died of signal %d", e->rank, e->node,
		    e->signal);
	else
		snprintf(buf, len, "rank %d on node %s exited with status %d", e->rank, e->node,
		    e->exit);
}
