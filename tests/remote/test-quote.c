/*
 * test-quote.c — remote_quote, which every word of a command for a node goes through:
 * hostile words come back exactly through a real sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/proc.h"
#include "common/xmalloc.h"
#include "remote/remote.h"
#include "tests/tap.h"

/* Each hostile word, quoted, goes through sh -c "printf %s QUOTED" and comes back whole. */
static void
test_quote(void)
{
	static const char *const words[] = {
		"", "plain", "two words", "it's", "''", "'", "a'b'c", "\"double\"",
		"semi;colon; rm -rf /nonexistent", "$(echo injected)", "`echo injected`",
		"$HOME ${PATH} $1 $@ $*", "line\nbreak\n", "back\\slash\\", "tab\there",
		"glob * ? [a-z]", "-n", "%s %d %%", "&& || | > < >> 2>&1", "!history",
		"'\"'\"'$(x)'\\''", "#comment", "~root", "\x01\x7f\xc3\xa9",
	};
	char *cmd, *q, *argv[4];
	struct proc_task t;
	size_t i, good = 0;

	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		q = remote_quote(words[i]);
		xasprintf(&cmd, "printf %%s %s", q);
		argv[0] = "sh";
		argv[1] = "-c";
		argv[2] = cmd;
		argv[3] = NULL;
		if (proc_run(argv, 10, &t) == 0 && strcmp(t.out, words[i]) == 0)
			good++;
		else
			printf("#   %s came back as \"%s\" (status %d, %s)\n", q, t.out,
			    t.status, t.err);
		proc_free(&t, 1);
		free(cmd);
		free(q);
	}
	is_int(good, sizeof words / sizeof words[0], "remote_quote: %zu hostile words come "
	    "back exactly through sh", sizeof words / sizeof words[0]);
}

int
main(void)
{
	test_quote();
	return tap_done();
}
