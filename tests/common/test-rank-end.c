/*
 * test-rank-end.c — each rank's end as the rank wrapper writes it and the supervisor, status
 * and the console read it (common/rank-end.h): the line both ways, bad lines refused
 * (truncated, wrong words, numbers out of range, hostile host names, binary), the file
 * read with a torn last line, a rank named twice, nodes from the rankmap, the first failure.
 */
#include <sys/wait.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file.h"
#include "common/rank-end.h"
#include "tests/tap.h"

/* A wait status as waitpid gives it: exit code, or death by signal. */
#define EXITED(c)	((c) << 8)
#define KILLED(s)	(s)

static void
test_line(void)
{
	char buf[RANK_END_LINE_MAX], text[128];
	struct rank_end e;

	is_int(rank_end_format(buf, sizeof buf, 2, "b3", EXITED(3), 1795781250.0391), 27,
	    "format: the line's length");
	is_str(buf, "2 b3 exit 3 1795781250.039\n", "format: an exit");
	ok(rank_end_parse(buf, &e) == 0, "parse: the line back");
	ok(e.rank == 2 && e.exit == 3 && e.signal == 0 && strcmp(e.host, "b3") == 0 &&
	    strcmp(e.node, "b3") == 0, "parse: rank, status, host; the node is the host");
	ok(rank_end_failed(&e), "an exit 3 failed");
	rank_end_text(&e, text, sizeof text);
	is_str(text, "rank 2 on node b3 exited with status 3", "the text of an exit");
	rank_end_format(buf, sizeof buf, 1, "vm", KILLED(9), 12.5);
	is_str(buf, "1 vm signal 9 12.500\n", "format: a signal");
	ok(rank_end_parse(buf, &e) == 0 && e.exit == -1 && e.signal == 9, "parse: a signal");
	rank_end_text(&e, text, sizeof text);
	is_str(text, "rank 1 on node vm died of signal 9", "the text of a signal");
	rank_end_format(buf, sizeof buf, 0, "a b", EXITED(0), 1);
	is_str(buf, "0 ? exit 0 1.000\n", "format: a host name with a space becomes ?");
	ok(rank_end_parse(buf, &e) == 0 && !rank_end_failed(&e), "parse: ? as host, exit 0");
	rank_end_format(buf, sizeof buf, 0, "evil\n9 x exit 0 1", EXITED(0), 1);
	is_str(buf, "0 ? exit 0 1.000\n", "format: a host name with a newline becomes ?");
	is_int(rank_end_format(buf, 8, 0, "vm", EXITED(0), 1), -1, "format: too small a buffer");
	ok(rank_end_parse("3 n1 exit 0 5.5", &e) == 0, "parse: without its newline");
}

static void
test_bad(void)
{
	static const char *const bad[] = {
		"", "2", "2 b3", "2 b3 exit", "2 b3 exit 3", "2 b3 exit 3 x",
		"x b3 exit 3 1", "-1 b3 exit 3 1", "1000000 b3 exit 3 1", "2 b3 quit 3 1",
		"2 b3 exit 256 1", "2 b3 exit -1 1", "2 b3 signal 0 1", "2 b3 signal 128 1",
		"2 b3 exit 3 -1", "2 b3 exit 3 1 more", "2 b$(x) exit 3 1", "2 b3\x1b[2J exit 3 1",
		"2 \xff\xfe exit 3 1", "2 b3 exit 3 1\x01",
		/* found by tests/fuzz/fuzz-rank-end.c: a time that is no number */
		"1 vm exit 0 nan", "1 vm exit 0 inf", "1 vm signal 9 -nan", "1 vm exit 0 1e999",
		"2 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa exit 3 1",
	};
	struct rank_end e;
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ok(rank_end_parse(bad[i], &e) == -1, "parse refuses bad line %zu", i);
}

static void
test_file(void)
{
	char dir[] = "/tmp/test-rank-end.XXXXXX", path[256];
	const char ends[] = "1 n1 exit 0 10.0\ngarbage\n2 n2 signal 9 9.5\n0 vm exit 3 9.5\n"
	    "2 n2 exit 0 11.0\n3 n3 exit 4 8.";
	const char map[] = "# rank node site pf pr cpu_mhz\n0 localhost local 1 0 2000\n"
	    "1 plf1 fast 0.5 0.5 2000\n2 ple1 eth 0.5 0.5 2000\n";
	const struct rank_end *f;
	struct rank_end *v;
	size_t n;

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		exit(1);
	}
	ok(rank_ends_read(dir, &v, &n) == 0 && n == 0 && v == NULL, "no file: no ends, no error");
	snprintf(path, sizeof path, "%s/%s", dir, RANK_ENDS_FILE);
	ok(file_write(path, ends, sizeof ends - 1) == 0, "write a rank-ends file");
	snprintf(path, sizeof path, "%s/rankmap", dir);
	ok(file_write(path, map, sizeof map - 1) == 0, "write a rankmap");
	ok(rank_ends_read(dir, &v, &n) == 0, "read");
	is_int(n, 3, "three ends: garbage, a rank's second line and a torn last line skipped");
	if (n == 3) {
		ok(v[0].rank == 1 && v[1].rank == 2 && v[2].rank == 0, "in the order written");
		is_str(v[1].node, "ple1", "the node from the rankmap");
		is_str(v[1].host, "n2", "the host as the rank named it");
		is_str(v[2].node, "localhost", "rank 0's node from the rankmap");
		ok(v[1].signal == 9, "the first line of rank 2 counts");
	}
	f = rank_ends_first_failure(v, n);
	ok(f != NULL && f->rank == 0, "first failure: the earliest, the lower rank on a tie");
	ok(rank_ends_first_failure(v, 1) == NULL, "no failure among ends of exit 0");
	free(v);
	snprintf(path, sizeof path, "%s/%s", dir, RANK_ENDS_FILE);
	unlink(path);
	snprintf(path, sizeof path, "%s/rankmap", dir);
	unlink(path);
	rmdir(dir);
}

int
main(void)
{
	test_line();
	test_bad();
	test_file();
	return tap_done();
}
