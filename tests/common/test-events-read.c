/*
 * test-events-read.c — the one events reader (common/events-read.h) that the console, status
 * and experiments share: cleaning, parsing, partial and bad lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/events-read.h"
#include "common/text.h"
#include "tests/tap.h"

static void
test_clean(void)
{
	char out[64];
	const char in[] = "a\x1b[31mb\x7f" "c\xc2\x85" "d\x9b" "e\xe2\x80\xae" "f\tg\xc0\xafh";

	text_clean(out, sizeof out, in, sizeof in - 1);
	is_str(out, "a[31mbcd?ef g??h", "clean: ESC, DEL, C1, bidi removed, tab to space, bad bytes to ?");
	text_clean(out, 4, "\xc3\xa9\xc3\xa9\xc3\xa9", 6);
	is_str(out, "\xc3\xa9", "clean: cut at a character boundary");
	text_clean(out, sizeof out, "\xe2\x81\xa6x\xe2\x81\xa9\xe2\x80\x8f", 10);
	is_str(out, "x", "clean: isolates and marks removed");
	text_clean(out, sizeof out, "ok\0hidden", 9);
	is_str(out, "okhidden", "clean: NUL bytes dropped");
	is_int(text_width("h\xc3\xa9llo"), 5, "width counts characters, not bytes");
	text_fit(out, sizeof out, "abcdef", 4, 0, 1);
	is_str(out, "abcd", "fit cuts");
	text_fit(out, sizeof out, "ab", 4, 1, 1);
	is_str(out, "  ab", "fit pads on the left when right-aligned");
	text_fit(out, sizeof out, "\xc3\xa9t\xc3\xa9", 5, 0, 0);
	is_str(out, "?t?  ", "fit without UTF-8 shows ? for non-ASCII");
	is_str(text_clock(out, sizeof out, 9.7), "0:09.7", "clock under a minute");
	is_str(text_clock(out, sizeof out, 3725), "1:02:05", "clock over an hour");
	is_str(text_num(out, sizeof out, 1234567, 0, 6), "1235k", "num too wide gets a suffix");
	is_str(text_num(out, sizeof out, 12.345, 2, 6), "12.35", "num keeps decimals that fit");
}

/* The supervisor's restart and the relaunched master's resume (doc/restarts.md). */
static void
test_parse_relaunch(void)
{
	struct event ev;
	const char *l;
	size_t i;

	memset(&ev, 0, sizeof ev);
	l = "{\"v\":1,\"t\":12.5,\"ev\":\"restart\",\"n\":2,\"reason\":\"rank 2's node "
	    "did not answer ssh\\u001b[2J\",\"excluded\":[\"mi2\",\"lz0\\u009b1\"]}";
	is_int(event_parse(l, strlen(l), &ev), EV_RESTART, "restart parses");
	is_int(ev.restart, 2, "restart n");
	is_dbl(ev.t, 12.5, 1e-12, "restart t");
	is_str(ev.text, "rank 2's node did not answer ssh[2J", "restart reason, cleaned");
	is_int(ev.nexcluded, 2, "restart: two nodes excluded");
	is_str(ev.excluded[0], "mi2", "restart: excluded node");
	is_str(ev.excluded[1], "lz01", "restart: excluded node cleaned");
	is_str(event_kind_name(ev.kind), "restart", "restart kind name");
	l = "{\"v\":1,\"t\":1,\"ev\":\"restart\",\"n\":1,\"reason\":\"r\",\"excluded\":[]}";
	is_int(event_parse(l, strlen(l), &ev), EV_RESTART, "restart without nodes parses");
	is_int(ev.nexcluded, 0, "restart: no node excluded");
	l = "{\"v\":1,\"t\":3,\"ev\":\"resume\",\"units\":5000,\"rounds_done\":2,"
	    "\"records\":17,\"cut\":0}";
	is_int(event_parse(l, strlen(l), &ev), EV_RESUME, "resume parses (unknown field ignored)");
	is_int(ev.resumed_units, 5000, "resume units");
	is_int(ev.rounds_done, 2, "resume rounds_done");
	is_int(ev.records, 17, "resume records");
	is_str(event_kind_name(ev.kind), "resume", "resume kind name");
	l = "{\"v\":1,\"t\":4.5,\"ev\":\"cancel\",\"reason\":\"interrupted by Ctrl-C "
	    "(SIGINT)\\u001b[2J\"}";
	is_int(event_parse(l, strlen(l), &ev), EV_CANCEL, "the supervisor's cancel parses");
	is_str(ev.text, "interrupted by Ctrl-C (SIGINT)[2J", "cancel: who, cleaned");
	is_str(event_kind_name(ev.kind), "cancel", "cancel kind name");
	l = "{\"v\":1,\"t\":4.5,\"ev\":\"cancel\"}";
	is_int(event_parse(l, strlen(l), &ev), -1, "a cancel without its reason is refused");

	static const char *const bad[] = {
		"{\"v\":1,\"t\":1,\"ev\":\"restart\",\"reason\":\"no n\"}",
		"{\"v\":1,\"t\":1,\"ev\":\"restart\",\"n\":-1}",
		"{\"v\":1,\"t\":1,\"ev\":\"restart\",\"n\":1,\"excluded\":\"mi2\"}",
		"{\"v\":1,\"t\":1,\"ev\":\"restart\",\"n\":1,\"excluded\":[\"a\",3]}",
		"{\"v\":1,\"t\":1,\"ev\":\"restart\",\"n\":1,\"reason\":[1]}",
		"{\"v\":1,\"t\":1,\"ev\":\"resume\",\"units\":-5}",
		"{\"v\":1,\"t\":1,\"ev\":\"resume\",\"units\":1,\"rounds_done\":\"two\"}",
		"{\"v\":1,\"t\":1,\"ev\":\"resume\",\"records\":1.5}",
	};
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		is_int(event_parse(bad[i], strlen(bad[i]), &ev), -1, "bad relaunch record %zu "
		    "rejected", i);
	event_clear(&ev);
}

/* A task run (tasks-spec): the tasks event, and the task fields of start, chunk, migrate, end. */
static void
test_parse_tasks(void)
{
	struct event ev;
	const char *l;
	size_t i;

	memset(&ev, 0, sizeof ev);
	l = "{\"v\":1,\"t\":0.01,\"ev\":\"tasks\",\"at\":[1,2,3,4.0],\"spare\":[5,6],"
	    "\"reason\":\"start\\u001b[2J\",\"epoch\":3}";
	is_int(event_parse(l, strlen(l), &ev), EV_TASKS, "tasks parses (unknown field ignored)");
	is_int(ev.nat, 4, "tasks: four tasks placed");
	is_int(ev.at[0], 1, "tasks: task 0 on rank 1");
	is_int(ev.at[3], 4, "tasks: a whole-number real is a rank id");
	is_int(ev.nspare, 2, "tasks: two spares");
	is_int(ev.spare[1], 6, "tasks: spare rank 6");
	is_str(ev.text, "start[2J", "tasks: reason, cleaned");
	is_str(event_kind_name(ev.kind), "tasks", "tasks kind name");
	l = "{\"v\":1,\"t\":4,\"ev\":\"tasks\",\"at\":[]}";
	is_int(event_parse(l, strlen(l), &ev), EV_TASKS, "tasks with no task and no spare parses");
	is_int(ev.nat + ev.nspare, 0, "tasks: empty lists");
	is_str(ev.text, "", "tasks: no reason");

	l = "{\"v\":1,\"t\":1.2,\"ev\":\"chunk\",\"rank\":3,\"round\":1,\"start\":67,"
	    "\"count\":1,\"t_calc\":0.1,\"t_comm\":0.002,\"task\":7,\"step\":12,\"cpu\":0.05}";
	is_int(event_parse(l, strlen(l), &ev), EV_CHUNK, "chunk of a task parses");
	is_int(ev.task, 7, "chunk: its task");
	is_int(ev.step, 12, "chunk: its step");
	l = "{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":3,\"count\":4}";
	is_int(event_parse(l, strlen(l), &ev), EV_CHUNK, "chunk of a loop parses");
	is_int(ev.task, -1, "chunk without task: -1");
	is_int(ev.step, -1, "chunk without step: -1");

	l = "{\"v\":1,\"t\":3.0,\"ev\":\"migrate\",\"task\":17,\"from\":3,\"to\":6,"
	    "\"bytes\":81920,\"seconds\":0.09,\"reason\":\"load-diff: rank 3 (n3) load 2.10, "
	    "rose 1.40; rank 6 (n6) load 0.05, spare\"}";
	is_int(event_parse(l, strlen(l), &ev), EV_MIGRATE, "migrate with a reason parses");
	is_int(ev.task, 17, "migrate task");
	is_int(ev.to, 6, "migrate to");
	is_str(ev.text, "load-diff: rank 3 (n3) load 2.10, rose 1.40; rank 6 (n6) load 0.05, "
	    "spare", "migrate reason");

	l = "{\"v\":1,\"t\":0,\"ev\":\"start\",\"job\":\"4\",\"scheme\":\"tasks\",\"N\":40,"
	    "\"rounds\":1,\"tasks\":8,\"steps\":5,\"migration\":\"load-diff\",\"ranks\":[]}";
	is_int(event_parse(l, strlen(l), &ev), EV_START, "start of a task run parses");
	is_int(ev.ntasks, 8, "start: tasks");
	is_int(ev.steps, 5, "start: steps");
	is_str(ev.migration, "load-diff", "start: migration policy");
	l = "{\"v\":1,\"t\":0,\"ev\":\"start\",\"scheme\":\"gss\",\"N\":40}";
	is_int(event_parse(l, strlen(l), &ev), EV_START, "start of a loop parses");
	is_int(ev.ntasks + ev.steps, 0, "start of a loop: no tasks, no steps");
	is_str(ev.migration, "", "start of a loop: no policy");

	l = "{\"v\":1,\"t\":9,\"ev\":\"end\",\"status\":\"ok\",\"migrations\":2,"
	    "\"restarted\":3}";
	is_int(event_parse(l, strlen(l), &ev), EV_END, "end of a task run parses");
	is_int(ev.migrations, 2, "end: migrations");
	is_int(ev.restarted, 3, "end: tasks restarted");
	l = "{\"v\":1,\"t\":9,\"ev\":\"end\",\"status\":\"ok\"}";
	is_int(event_parse(l, strlen(l), &ev), EV_END, "end of a loop parses");
	is_int(ev.migrations, -1, "end without migrations: -1");
	is_int(ev.restarted, -1, "end without restarted: -1");
	is_str(ev.error, "", "end without error: empty");
	l = "{\"v\":1,\"t\":9,\"ev\":\"end\",\"status\":\"failed\",\"error\":"
	    "\"no space left on device writing /h/jobs/7/journal\",\"journal\":\"lost\"}";
	is_int(event_parse(l, strlen(l), &ev), EV_END, "end of a failed run parses");
	is_str(ev.error, "no space left on device writing /h/jobs/7/journal",
	    "end: the master's error, with its file");

	static const char *const bad[] = {
		"{\"v\":1,\"t\":1,\"ev\":\"tasks\",\"spare\":[1]}",
		"{\"v\":1,\"t\":1,\"ev\":\"tasks\",\"at\":\"1,2\"}",
		"{\"v\":1,\"t\":1,\"ev\":\"tasks\",\"at\":[1,-1]}",
		"{\"v\":1,\"t\":1,\"ev\":\"tasks\",\"at\":[1,null]}",
		"{\"v\":1,\"t\":1,\"ev\":\"tasks\",\"at\":[1,2.5]}",
		"{\"v\":1,\"t\":1,\"ev\":\"tasks\",\"at\":[1,\"2\"]}",
		"{\"v\":1,\"t\":1,\"ev\":\"tasks\",\"at\":[1,1000000]}",
		"{\"v\":1,\"t\":1,\"ev\":\"tasks\",\"at\":[1,1e300]}",
		"{\"v\":1,\"t\":1,\"ev\":\"tasks\",\"at\":[[1]]}",
		"{\"v\":1,\"t\":1,\"ev\":\"tasks\",\"at\":[1],\"spare\":[\"x\"]}",
		"{\"v\":1,\"t\":1,\"ev\":\"tasks\",\"at\":[1],\"reason\":{}}",
		"{\"v\":1,\"t\":1,\"ev\":\"tasks\",\"at\":[1,2",
		"{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":1,\"count\":1,\"task\":-2}",
		"{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":1,\"count\":1,\"task\":\"7\"}",
		"{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":1,\"count\":1,\"task\":1000000}",
		"{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":1,\"count\":1,\"step\":0.5}",
		"{\"v\":1,\"t\":1,\"ev\":\"migrate\",\"task\":1,\"from\":1,\"to\":2,\"reason\":7.5}",
		"{\"v\":1,\"t\":1,\"ev\":\"start\",\"tasks\":-1}",
		"{\"v\":1,\"t\":1,\"ev\":\"start\",\"steps\":\"many\"}",
		"{\"v\":1,\"t\":1,\"ev\":\"start\",\"migration\":[\"load-diff\"]}",
		"{\"v\":1,\"t\":1,\"ev\":\"end\",\"migrations\":-3}",
		"{\"v\":1,\"t\":1,\"ev\":\"end\",\"restarted\":true}",
		"{\"v\":1,\"t\":1,\"ev\":\"end\",\"error\":[\"x\"]}",
	};
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		is_int(event_parse(bad[i], strlen(bad[i]), &ev), -1, "bad task-run record %zu "
		    "rejected", i);
	event_clear(&ev);
}

/* A bad tasks line in a stream is counted and skipped; the lines around it are read. */
static void
test_reader_tasks(void)
{
	struct evreader *r = evreader_new();
	struct event ev;
	const char *s = "{\"v\":1,\"t\":1,\"ev\":\"tasks\",\"at\":[1,\"two\"]}\n"
	    "{\"v\":1,\"t\":2,\"ev\":\"tasks\",\"at\":[2,1],\"reason\":\"rollback\"}\n";

	memset(&ev, 0, sizeof ev);
	evreader_feed(r, s, strlen(s));
	is_int(evreader_next(r, &ev), 1, "stream: the good tasks line after a bad one is read");
	is_int(ev.kind, EV_TASKS, "stream: it is a tasks event");
	is_int(ev.at[0], 2, "stream: task 0 on rank 2");
	is_str(ev.text, "rollback", "stream: its reason");
	is_int(evreader_stats(r)->bad, 1, "stream: the bad at[] is a bad line, counted");
	is_int(evreader_next(r, &ev), 0, "stream: nothing more");
	event_clear(&ev);
	evreader_free(r);
}

/* A hierarchy run's start record (doc/runtime.md, "The hierarchy"), as libgrt writes it. */
static void
test_parse_groups(void)
{
	const char *l = "{\"v\":1,\"t\":0,\"ev\":\"start\",\"job\":\"\",\"scheme\":\"gss\","
	    "\"N\":3000,\"rounds\":1,\"ranks\":[{\"rank\":0,\"node\":\"m0\",\"site\":\"s0\","
	    "\"pf\":1,\"pr\":1,\"role\":\"master\"},{\"rank\":1,\"node\":\"a1\",\"site\":\"s1\","
	    "\"pf\":1,\"pr\":1,\"role\":\"sub-master\",\"group\":1},{\"rank\":2,\"node\":\"a2\","
	    "\"site\":\"s1\",\"pf\":1,\"pr\":1,\"role\":\"worker\",\"group\":1},"
	    "{\"rank\":3,\"node\":\"a3\",\"site\":\"s1\",\"role\":\"worker\",\"group\":-1}]}";
	struct event ev;

	memset(&ev, 0, sizeof ev);
	is_int(event_parse(l, strlen(l), &ev), EV_START, "a hierarchy's start parses");
	ok(ev.nranks == 3 && ev.ranks[0].group == -1 && !ev.ranks[0].submaster,
	    "the master: no group (null)");
	ok(ev.ranks[1].submaster && ev.ranks[1].group == 1 && !ev.ranks[1].master,
	    "role sub-master, its own group");
	ok(!ev.ranks[2].submaster && ev.ranks[2].group == 1, "a worker: its sub-master's rank");
	event_clear(&ev);
}

static void
test_parse(void)
{
	struct event ev;
	const char *l;

	memset(&ev, 0, sizeof ev);
	l = "{\"v\":1,\"t\":0.8,\"ev\":\"chunk\",\"rank\":3,\"round\":1,\"start\":128,\"count\":32,"
	    "\"t_calc\":0.61,\"t_comm\":0.05,\"t_exe\":0.66,\"new_field\":[1,2]}";
	is_int(event_parse(l, strlen(l), &ev), EV_CHUNK, "chunk parses (unknown field ignored)");
	is_int(ev.rank, 3, "chunk rank");
	is_int(ev.count, 32, "chunk count");
	is_dbl(ev.t_exe, 0.66, 1e-12, "chunk t_exe");
	is_dbl(ev.t, 0.8, 1e-12, "chunk t");

	l = "{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":3,\"count\":32.0,\"t_calc\":1,\"t_comm\":0.5}";
	is_int(event_parse(l, strlen(l), &ev), EV_CHUNK, "whole-number real accepted");
	is_dbl(ev.t_exe, 1.5, 1e-12, "t_exe defaults to t_calc + t_comm");

	static const char *const bad[] = {
		"not json at all",
		"[1,2,3]",
		"{\"t\":1,\"ev\":\"chunk\",\"rank\":1,\"count\":1}",
		"{\"v\":1,\"ev\":\"chunk\",\"rank\":1,\"count\":1}",
		"{\"v\":1,\"t\":-1,\"ev\":\"chunk\",\"rank\":1,\"count\":1}",
		"{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":\"one\",\"count\":1}",
		"{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"count\":1}",
		"{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":1,\"count\":1.5}",
		"{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":99999999,\"count\":1}",
		"{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":1,\"count\":-4}",
		"{\"v\":1,\"t\":1,\"ev\":\"round\",\"j\":1,\"units\":[1,\"x\"]}",
		"{\"v\":1,\"t\":1,\"ev\":7}",
		"{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":1,\"count\":1",
		"{\"v\":1,\"t\":1,\"ev\":\"drop\",\"rank\":1,\"reason\":\"\xff\xfe\"}",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		is_int(event_parse(bad[i], strlen(bad[i]), &ev), -1, "garbage %zu rejected", i);

	l = "{\"v\":2,\"t\":1,\"ev\":\"checkpoint\",\"task\":3}";
	is_int(event_parse(l, strlen(l), &ev), EV_UNKNOWN, "unknown kind from a newer version");

	l = "{\"v\":1,\"t\":2.1,\"ev\":\"drop\",\"rank\":5,\"reason\":\"slow\\u001b[2J\\u009b1m\\u202e!\"}";
	is_int(event_parse(l, strlen(l), &ev), EV_DROP, "drop parses");
	is_str(ev.text, "slow[2J1m!", "reason cleaned of ESC, CSI and bidi");

	l = "{\"v\":1,\"t\":2.1,\"ev\":\"round\",\"j\":1,\"units\":[0,256,256],\"mean_exe\":1.9,"
	    "\"sd_exe\":0.7}";
	is_int(event_parse(l, strlen(l), &ev), EV_ROUND, "round parses");
	is_int(ev.nunits, 3, "round units length");
	is_int(ev.units[2], 256, "round units value");
	is_dbl(ev.sd_exe, 0.7, 1e-12, "round sd");

	l = "{\"v\":1,\"t\":0,\"ev\":\"start\",\"job\":7,\"scheme\":\"gss\",\"N\":1024,\"ranks\":["
	    "{\"rank\":0,\"node\":\"h\",\"site\":\"s\",\"role\":\"master\"},\"junk\",{\"node\":\"x\"},"
	    "{\"rank\":1,\"node\":\"" "0123456789012345678901234567890123456789012345678901234567890123456789"
	    "\",\"site\":\"s\",\"pr\":0.5}]}";
	is_int(event_parse(l, strlen(l), &ev), EV_START, "start parses");
	is_str(ev.job, "7", "numeric job id taken as text");
	is_int(ev.rounds, 1, "rounds default to 1");
	is_int(ev.nranks, 2, "malformed rank entries skipped");
	is_int(ev.ranks[0].master, 1, "role master");
	is_int((long long)strlen(ev.ranks[1].node), EV_NODE_MAX - 1, "node name capped");
	is_int(ev.ranks[1].group, -1, "no group: -1");
	event_clear(&ev);
	test_parse_relaunch();
	test_parse_groups();
}

static void
test_reader(void)
{
	struct evreader *r = evreader_new();
	struct event ev;
	const char *chunk = "{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":1,\"count\":5}\n";
	char *big;

	memset(&ev, 0, sizeof ev);
	evreader_feed(r, chunk, 20);
	is_int(evreader_next(r, &ev), 0, "half a line: wait for the rest");
	is_int((long long)evreader_stats(r)->pending, 20, "the half line is kept");
	evreader_feed(r, chunk + 20, strlen(chunk) - 20);
	is_int(evreader_next(r, &ev), 1, "the rest arrives: one event");
	is_int(ev.count, 5, "and it is whole");
	evreader_feed(r, "garbage\n\n   \n{\"v\":1,\"t\":2,\"ev\":\"zzz\"}\r\n", 39);
	evreader_feed(r, "{\"v\":1,\"t\":3,\"ev\":\"chunk\",\"rank\":2,\"count\":7}\r\n", 48);
	is_int(evreader_next(r, &ev), 1, "garbage, blank and unknown lines skipped");
	is_int(ev.count, 7, "the next good line is read (CRLF too)");
	is_int(evreader_stats(r)->bad, 1, "one bad line counted");
	is_int(evreader_stats(r)->unknown, 1, "one unknown kind counted");
	is_int(evreader_stats(r)->events, 2, "two events");

	big = malloc(EV_LINE_MAX + 100);
	memset(big, 'x', EV_LINE_MAX + 100);
	evreader_feed(r, big, EV_LINE_MAX + 100);
	is_int(evreader_next(r, &ev), 0, "an over-long line is not an event");
	evreader_feed(r, big, 1000);
	evreader_feed(r, "\n", 1);
	evreader_feed(r, chunk, strlen(chunk));
	is_int(evreader_next(r, &ev), 1, "the line after an over-long one is read");
	is_int(evreader_stats(r)->bad, 2, "the over-long line counted once");
	free(big);
	event_clear(&ev);
	evreader_free(r);
}

static void
test_file(void)
{
	char path[] = "/tmp/test-tui-read.XXXXXX";
	const char *a = "{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":1,\"count\":5}\n{\"v\":1,\"t\":2,";
	const char *b = "\"ev\":\"chunk\",\"rank\":2,\"count\":6}\n";
	struct evreader *r;
	struct event ev;
	int fd;

	memset(&ev, 0, sizeof ev);
	fd = mkstemp(path);
	ok(fd >= 0, "temp file");
	if (write(fd, a, strlen(a)) != (ssize_t)strlen(a))
		return;
	r = evreader_open(path);
	ok(r != NULL, "open");
	is_int(evreader_next(r, &ev), 1, "file: first event");
	is_int(evreader_next(r, &ev), 0, "file: truncated last line waits");
	if (write(fd, b, strlen(b)) != (ssize_t)strlen(b))
		return;
	is_int(evreader_next(r, &ev), 1, "file: the line completes as the file grows");
	is_int(ev.count, 6, "file: the completed line is right");
	is_int(evreader_next(r, &ev), 0, "file: nothing more");
	ok(evreader_open("/nonexistent/events.jsonl") == NULL, "a missing file is an error");
	event_clear(&ev);
	evreader_free(r);
	close(fd);
	unlink(path);
}

int
main(void)
{
	test_clean();
	test_parse();
	test_parse_tasks();
	test_reader();
	test_reader_tasks();
	test_file();
	return tap_done();
}
