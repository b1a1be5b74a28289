/*
 * cancel-ask.c — the cancel requests in a job's directory (cancel-ask.h): one file per
 * asking process, so that the supervisor reads the one of the process whose signal it
 * got, never another's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file.h"
#include "common/text.h"
#include "common/xmalloc.h"
#include "store/cancel-ask.h"

static void
cancel_ask_name(char *name, size_t len, pid_t pid)
{
	snprintf(name, len, ".cancel-%ld", (long)pid);
}

int
cancel_ask_write(const struct job_state *st, const char *who, char *why, size_t whylen)
{
	char name[64], line[CANCEL_ASK_MAX + 1];
	int n;

	cancel_ask_name(name, sizeof name, getpid());
	/* one line of text whatever who holds, so that it reads back whole */
	n = (int)text_clean(line, CANCEL_ASK_MAX, who, strlen(who));
	line[n++] = '\n';
	if (file_write_atomic(st->dir, name, line, (size_t)n, 0644) == -1) {
		snprintf(why, whylen, "%s/%s: %s", st->dir, name, strerror(errno));
		return -1;
	}
	return 0;
}

int
cancel_ask_read(const struct job_state *st, pid_t pid, char *who, size_t len)
{
	char name[64], *path, *buf;
	size_t n;
	int rc;

	if (pid <= 0)
		return 0;
	cancel_ask_name(name, sizeof name, pid);
	xasprintf(&path, "%s/%s", st->dir, name);
	rc = file_read(path, CANCEL_ASK_MAX + 1, &buf, &n);
	free(path);
	if (rc != 0)
		return 0;
	text_clean(who, len, buf, strcspn(buf, "\n"));
	free(buf);
	return who[0] != '\0';
}

void
cancel_ask_forget(const struct job_state *st)
{
	char name[64], *path;

	cancel_ask_name(name, sizeof name, getpid());
	xasprintf(&path, "%s/%s", st->dir, name);
	unlink(path);
	free(path);
}
