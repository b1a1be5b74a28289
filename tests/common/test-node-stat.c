/*
 * test-node-stat.c — each placed node's load and CPU as the supervisor's feed writes them
 * and status and the console read them (common/node-stat.h): the line both ways, bad lines
 * refused (truncated, out of range, not numbers, binary), the file read with a torn last
 * line and comments, a missing file, and the text status prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file.h"
#include "common/node-stat.h"
#include "tests/tap.h"

static void
test_line(void)
{
	struct node_stat s = { "b3", 0.5, 0.125, 1795781250.0391 }, r;
	char buf[128];

	is_int(node_stat_format(buf, sizeof buf, &s), 29, "format: the line's length");
	is_str(buf, "b3 0.5 0.1250 1795781250.039\n", "format: load, CPU, time");
	ok(node_stat_parse(buf, &r) == 0 && strcmp(r.node, "b3") == 0 && r.load1 == 0.5 &&
	    r.cpu_busy == 0.125 && r.time > 1795781250.03, "parse: the line back");
	s.cpu_busy = -1;
	node_stat_format(buf, sizeof buf, &s);
	is_str(buf, "b3 0.5 - 1795781250.039\n", "format: CPU not known yet");
	ok(node_stat_parse(buf, &r) == 0 && r.cpu_busy < 0, "parse: CPU not known yet");
	is_int(node_stat_format(buf, 10, &s), -1, "format: a line that does not fit");
}

static void
test_bad(void)
{
	static const char *bad[] = {
		"", "b3", "b3 0.5", "b3 0.5 0.1", "b3 -1 0.1 1795781250", "b3 x 0.1 1795781250",
		"b3 0.5 1.5 1795781250", "b3 0.5 -0.1 1795781250", "b3 0.5 0.1x 1795781250",
		"b3 nan 0.1 1795781250", "b3 0.5 0.1 0", "b3 0.5 0.1 inf", "# b3 0.5 0.1 1",
		"\x01\x02 \xff", NULL
	};
	struct node_stat r;
	int i;

	for (i = 0; bad[i] != NULL; i++)
		ok(node_stat_parse(bad[i], &r) == -1, "refused: '%s'", bad[i]);
}

static void
test_file(void)
{
	static const char text[] = "# gridsubmit nodes: NODE LOAD1 CPU_BUSY TIME\n"
	    "a1 1 0.5 100\ngarbage\nb2 2.25 - 200\nc3 3 0.";
	char dir[] = "/tmp/test-node-stat.XXXXXX", path[64], line[160];
	struct node_stat *v;
	size_t n;

	if (mkdtemp(dir) == NULL) {
		ok(0, "mkdtemp");
		return;
	}
	ok(node_stats_read(dir, &v, &n) == 0 && n == 0, "a missing file: no node");
	free(v);
	ok(file_write_atomic(dir, NODE_STAT_FILE, text, strlen(text), 0644) == 0, "write");
	ok(node_stats_read(dir, &v, &n) == 0 && n == 2, "read: 2 good lines of 5");
	if (n == 2) {
		ok(strcmp(v[0].node, "a1") == 0 && strcmp(v[1].node, "b2") == 0 &&
		    v[1].load1 == 2.25 && v[1].cpu_busy < 0, "read: in order, values kept");
		node_stat_text(&v[0], 101.4, line, sizeof line);
		is_str(line, "load 1.00, CPU 50% busy (from its monitor, 1 s ago)", "text");
		node_stat_text(&v[1], 199, line, sizeof line);
		is_str(line, "load 2.25, CPU not known yet (from its monitor, 0 s ago)",
		    "text: no CPU figure yet, a time ahead of the clock");
	}
	free(v);
	snprintf(path, sizeof path, "%s/%s", dir, NODE_STAT_FILE);
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
