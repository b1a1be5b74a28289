/* tui-cancel.c — running F9's cancel command and reading its answer (tui-cancel.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/proc.h"
#include "common/text.h"
#include "common/xmalloc.h"
#include "tui/tui-cancel.h"

/* Forget the command: its out and err (empty: it wrote to the file), the file; not argv. */
static void
tui_cancel_clear(struct tui_cancel *c)
{
	free(c->task.out);
	free(c->task.err);
	if (c->out != NULL)
		fclose(c->out);
	memset(c, 0, sizeof *c);
}

void
tui_cancel_leave(struct tui_cancel *c)
{
	tui_cancel_clear(c);
}

int
tui_cancel_start(struct tui_cancel *c, char *const *argv)
{
	const char *tmp = getenv("TMPDIR");
	char *path;
	int fd, rc, e;

	memset(c, 0, sizeof *c);
	xasprintf(&path, "%s/gridsubmit-cancel.XXXXXX", tmp != NULL && *tmp == '/' ? tmp :
	    "/tmp");
	if ((fd = mkostemp(path, O_CLOEXEC)) == -1 || (c->out = fdopen(fd, "r")) == NULL) {
		e = errno;
		if (fd != -1) {
			close(fd);
			unlink(path);
		}
		free(path);
		errno = e;
		return -1;
	}
	c->task.argv = (char **)argv;
	c->task.log = path;
	c->task.flags = PROC_SESSION;
	rc = proc_start(&c->task);
	e = errno;
	/* the command has it open (or never will): the name is not needed any more */
	unlink(path);
	free(path);
	c->task.log = NULL;
	if (rc == -1) {
		tui_cancel_clear(c);
		errno = e;
		return -1;
	}
	return 0;
}

/* The first and the last non-blank line of what the command wrote, cleaned. */
static void
tui_cancel_lines(FILE *f, char *first, char *last, size_t len)
{
	char line[512];
	size_t n;

	*first = *last = '\0';
	rewind(f);
	while (fgets(line, sizeof line, f) != NULL) {
		n = strcspn(line, "\n");
		if (n == 0)
			continue;
		if (*first == '\0')
			text_clean(first, len, line, n);
		text_clean(last, len, line, n);
	}
}

int
tui_cancel_poll(struct tui_cancel *c, char *msg, size_t len)
{
	char first[256], last[256];
	int status;

	if (c->out == NULL || proc_poll(&c->task) == 0)
		return 0;
	tui_cancel_lines(c->out, first, last, sizeof first);
	status = c->task.status;
	if (status == 0)
		snprintf(msg, len, "%s", *first ? first : "cancelled");
	else if (c->task.error != 0)
		snprintf(msg, len, "cancel failed: %s", strerror(c->task.error));
	else if (status < 128)
		snprintf(msg, len, "cancel failed (exit %d): %s", status, last);
	else
		snprintf(msg, len, "cancel failed: killed by signal %d", status - 128);
	tui_cancel_clear(c);
	return 1;
}
