/*
 * json-fail.c — the error document of a command that fails in --json mode (json-fail.h).
 *
 * A failure can end the process from anywhere: a usage error in option parsing, a
 * loader's errors, fatal(), a command's own return. Rather than a document at each of
 * those places, two hooks catch them all once: stderr is replaced by a stream that writes
 * through to file descriptor 2 and keeps the lines (glibc's fopencookie), and an on_exit
 * handler, which is given the exit status, prints the document when the status is not 0
 * and no document was printed. Both are glibc's; gridsubmit runs on Linux only. Child
 * processes that write to descriptor 2 themselves (mpiexec, ssh) are not kept: their
 * lines are theirs, and a forked child of ours never prints the parent's document.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file.h"
#include "common/jsonout.h"
#include "submit/cmd.h"
#include "submit/json-fail.h"

/* What is kept of stderr: enough for every message of a file with many errors. */
#define JSON_FAIL_KEEP	65536

static char json_fail_kept[JSON_FAIL_KEEP];
static size_t json_fail_len;
static pid_t json_fail_pid;

/* The stream's write: through to descriptor 2, and kept while there is room. */
static ssize_t
json_fail_write(void *cookie, const char *buf, size_t len)
{
	size_t room = sizeof json_fail_kept - 1 - json_fail_len;

	(void)cookie;
	(void)file_write_all(STDERR_FILENO, buf, len);
	memcpy(json_fail_kept + json_fail_len, buf, len < room ? len : room);
	json_fail_len += len < room ? len : room;
	return (ssize_t)len;
}

/* line without the "gridsubmit: " or "gridsubmit CMD: " every message starts with. */
static char *
json_fail_unprefixed(char *line)
{
	char *p;

	if (strncmp(line, "gridsubmit: ", 12) == 0)
		return line + 12;
	if (strncmp(line, "gridsubmit ", 11) == 0 && (p = strstr(line + 11, ": ")) != NULL &&
	    memchr(line + 11, ' ', (size_t)(p - (line + 11))) == NULL)
		return p + 2;
	return line;
}

/*
 * The kept lines that say what failed, unprefixed; the usage synopsis, "see 'gridsubmit
 * --help'" and indented lines (a quoted source line, a hint's detail) are not messages.
 */
static json_t *
json_fail_lines(void)
{
	json_t *lines = json_array();
	char *text = strndup(json_fail_kept, json_fail_len), *line, *save = NULL;

	if (text == NULL || lines == NULL) {
		free(text);
		return lines;
	}
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "usage: ", 7) == 0 || strncmp(line, "see 'gridsubmit", 15) == 0 ||
		    line[0] == ' ' || line[0] == '\t')
			continue;
		json_array_append_new(lines, jsonout_message(json_fail_unprefixed(line)));
	}
	free(text);
	return lines;
}

json_t *
json_fail_doc(json_t *doc, int code)
{
	json_t *lines, *err;
	char msg[64];

	if (doc == NULL || code == 0)
		return doc;
	lines = json_fail_lines();
	snprintf(msg, sizeof msg, "exit status %d", code);
	err = jsonout_error(code, json_array_size(lines) > 0 ?
	    json_string_value(json_array_get(lines, 0)) : msg);
	if (err != NULL && lines != NULL)
		json_object_set(err, "messages", lines);
	json_decref(lines);
	if (err != NULL)
		json_object_set_new(doc, "error", err);
	return doc;
}

/* on_exit: the error document when the process fails without one. */
static void
json_fail_atexit(int status, void *arg)
{
	(void)arg;
	if (status == 0 || getpid() != json_fail_pid || jsonout_printed() > 0)
		return;
	fflush(stderr);
	(void)jsonout_print(json_fail_doc(json_object(), status));
}

void
json_fail_arm(const struct cmd_entry *cmd, int argc, char **argv)
{
	static const cookie_io_functions_t io = { NULL, json_fail_write, NULL, NULL };
	FILE *f;
	int i, json = 0;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--json") == 0)
			json = 1;
	if (!json || strstr(cmd->args, "--json") == NULL)
		return;
	if ((f = fopencookie(NULL, "w", io)) != NULL) {
		setvbuf(f, NULL, _IONBF, 0);
		fflush(stderr);
		stderr = f;
	}
	json_fail_pid = getpid();
	on_exit(json_fail_atexit, NULL);
}
