/* tui-cancel.c — running F9's cancel command and reading its answer (tui-cancel.h). */
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/text.h"
#include "tui/tui-cancel.h"

extern char **environ;

int
tui_cancel_start(struct tui_cancel *c, char *const *argv)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int rc, fd;

	memset(c, 0, sizeof *c);
	if ((c->out = tmpfile()) == NULL)
		return -1;
	fd = fileno(c->out);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, fd, STDERR_FILENO);
	posix_spawnattr_init(&at);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSID);
	rc = posix_spawn(&c->pid, argv[0], &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		fclose(c->out);
		memset(c, 0, sizeof *c);
		errno = rc;
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
	pid_t r;

	if (c->pid <= 0)
		return 0;
	while ((r = waitpid(c->pid, &status, WNOHANG)) == -1 && errno == EINTR)
		;
	if (r == 0)
		return 0;
	tui_cancel_lines(c->out, first, last, sizeof first);
	if (r > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		snprintf(msg, len, "%s", *first ? first : "cancelled");
	else if (r > 0 && WIFEXITED(status))
		snprintf(msg, len, "cancel failed (exit %d): %s", WEXITSTATUS(status), last);
	else
		snprintf(msg, len, "cancel failed: %s", r > 0 ? "killed by a signal" :
		    strerror(errno));
	fclose(c->out);
	memset(c, 0, sizeof *c);
	return 1;
}
