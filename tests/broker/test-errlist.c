/*
 * test-errlist.c — a file's errors as a compiler reports them (broker/errlist.h): file
 * order whatever order they came in, another file's errors after the file's own, the cap
 * keeping the first errors of the file, and the "too many errors" line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tap.h"

#include "broker/errlist.h"

static struct gs_error
mk(const char *file, int line, int col, const char *what)
{
	struct gs_error e;

	memset(&e, 0, sizeof e);
	e.loc.file = file;
	e.loc.line = line;
	e.loc.col = col;
	if (line > 0)
		snprintf(e.msg, sizeof e.msg, "%s:%d:%d: %s", file, line, col, what);
	else
		snprintf(e.msg, sizeof e.msg, "%s: %s", file, what);
	return e;
}

static void
add(struct gs_errlist *l, const char *file, int line, int col, const char *what)
{
	struct gs_error e = mk(file, line, col, what);

	errlist_add(l, &e);
}

/* What errlist_print writes, in an allocated string. */
static char *
printed(const struct gs_errlist *l)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	errlist_print(l, f);
	fclose(f);
	return buf;
}

static void
test_order(void)
{
	struct gs_errlist l;
	char *out;

	errlist_init(&l, "a.yaml");
	add(&l, "a.yaml", 9, 3, "third");
	add(&l, "a.yaml", 2, 7, "second");
	add(&l, "exp.yaml", 1, 1, "the overlay's");
	add(&l, "a.yaml", 2, 1, "first");
	add(&l, "a.yaml", 9, 3, "fourth, same place as third");
	is_int(l.n, 5, "five errors kept");
	out = printed(&l);
	is_str(out, "a.yaml:2:1: first\na.yaml:2:7: second\na.yaml:9:3: third\n"
	    "a.yaml:9:3: fourth, same place as third\nexp.yaml:1:1: the overlay's\n",
	    "file order, equal places in the order they came, another file's last");
	free(out);
	ok(errlist_get(&l, 0)->loc.file == NULL, "a kept error does not point into the loader");
}

static void
test_first(void)
{
	struct gs_errlist l;
	struct gs_error e;

	errlist_init(&l, "a.yaml");
	errlist_first(&l, &e);
	is_str(e.msg, "", "no error: an empty first message");
	add(&l, "a.yaml", 5, 1, "later");
	add(&l, "a.yaml", 0, 0, "cannot open");
	add(&l, "a.yaml", 3, 1, "earlier");
	errlist_first(&l, &e);
	is_str(e.msg, "a.yaml: cannot open", "an error without a line comes first");
}

/* 25 errors given from the last line up: the 20 first lines are kept, and the line said. */
static void
test_cap(void)
{
	struct gs_errlist l;
	char want[4096], *out;
	size_t o = 0;
	int i;

	errlist_init(&l, "big.yaml");
	for (i = 25; i >= 1; i--)
		add(&l, "big.yaml", i, 1, "bad");
	is_int(l.n, GS_ERRLIST_MAX, "at most %d kept", GS_ERRLIST_MAX);
	is_int(l.dropped, 5, "5 dropped");
	for (i = 1; i <= GS_ERRLIST_MAX; i++)
		o += (size_t)snprintf(want + o, sizeof want - o, "big.yaml:%d:1: bad\n", i);
	snprintf(want + o, sizeof want - o, "big.yaml: too many errors, stopping\n");
	out = printed(&l);
	is_str(out, want, "the first 20 lines of the file, then one line saying so");
	free(out);

	/* in file order too: the ones past the cap never enter */
	errlist_init(&l, "big.yaml");
	for (i = 1; i <= 25; i++)
		add(&l, "big.yaml", i, 1, "bad");
	is_int(errlist_get(&l, GS_ERRLIST_MAX - 1)->loc.line, 20, "in order: line 20 is the last");
	is_int(l.dropped, 5, "in order: 5 dropped");
	errlist_init(&l, "big.yaml");
	is_int(l.n + l.dropped, 0, "init empties the list");
}

int
main(void)
{
	test_order();
	test_first();
	test_cap();
	return tap_done();
}
