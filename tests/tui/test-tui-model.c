/*
 * test-tui-model.c — aggregation of events into per-rank state and job meters; rows;
 * snapshot; the timeline's rows and marks, a rank's kept events, the end from the job's
 * record, the key map (htop's meanings: k cancels after a question, Tab switches screens,
 * Space does not pause), prose cut at a word and names at a part, counts and plurals in
 * one form, the sums of the ranks that share a node, and the groups of a hierarchy run.
 */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/events-read.h"
#include "common/text.h"
#include "tests/tap.h"
#include "tui/columns.h"
#include "common/fit.h"
#include "tui/keymap.h"
#include "tui/model.h"
#include "tui/snapshot.h"
#include "tui/view.h"

static void
apply(struct model *m, const char *line)
{
	struct event ev;

	memset(&ev, 0, sizeof ev);
	if (event_parse(line, strlen(line), &ev) <= 0) {
		printf("# bad test line: %s\n", line);
		return;
	}
	model_apply(m, &ev);
	event_clear(&ev);
}

static const char *const job[] = {
	"{\"v\":1,\"t\":0,\"ev\":\"start\",\"job\":\"7\",\"scheme\":\"hetcomm\",\"N\":100,\"rounds\":2,"
	    "\"ranks\":[{\"rank\":0,\"node\":\"m\",\"site\":\"S\",\"role\":\"master\"},"
	    "{\"rank\":1,\"node\":\"w1\",\"site\":\"S\",\"pr\":0.5},"
	    "{\"rank\":2,\"node\":\"w2\",\"site\":\"T\",\"pr\":0.3},"
	    "{\"rank\":3,\"node\":\"w3\",\"site\":\"T\",\"pr\":0.2}]}",
	"{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":1,\"round\":1,\"count\":40,\"t_calc\":0.8,\"t_comm\":0.2,\"t_exe\":1.0}",
	"{\"v\":1,\"t\":2,\"ev\":\"chunk\",\"rank\":2,\"round\":1,\"count\":40,\"t_calc\":1.5,\"t_comm\":0.5,\"t_exe\":2.0}",
	"{\"v\":1,\"t\":2,\"ev\":\"chunk\",\"rank\":3,\"round\":1,\"count\":20,\"t_calc\":1.0,\"t_comm\":1.0,\"t_exe\":2.0}",
	"{\"v\":1,\"t\":2,\"ev\":\"round\",\"j\":1,\"units\":[0,40,40,20],\"mean_exe\":1.6667,\"sd_exe\":0.4714}",
	"{\"v\":1,\"t\":2.5,\"ev\":\"migrate\",\"task\":4,\"from\":3,\"to\":1,\"bytes\":2048,\"seconds\":0.1}",
	"{\"v\":1,\"t\":3,\"ev\":\"chunk\",\"rank\":1,\"round\":2,\"count\":50,\"t_calc\":0.8,\"t_comm\":0.2,\"t_exe\":1.0}",
	"{\"v\":1,\"t\":3.5,\"ev\":\"fail\",\"rank\":3,\"requeued\":10,\"reason\":\"no result within 5.0 s\"}",
	"{\"v\":1,\"t\":4,\"ev\":\"chunk\",\"rank\":2,\"round\":2,\"count\":30,\"t_calc\":1.5,\"t_comm\":0.5,\"t_exe\":2.0}",
};

static void
test_aggregate(void)
{
	struct model m;
	struct model_stats st;
	size_t i;

	model_init(&m);
	for (i = 0; i < sizeof job / sizeof job[0]; i++)
		apply(&m, job[i]);
	model_stats(&m, &st);
	is_int(m.total, 200, "total = N * rounds");
	is_int(st.done, 180, "units done: the sum of chunk counts");
	is_int(m.ranks[1].units, 90, "rank 1 units");
	is_int(m.ranks[2].units, 70, "rank 2 units");
	is_int(m.ranks[1].last_units, 50, "last chunk units");
	is_dbl(m.ranks[1].perf_f, 50.0, 1e-9, "perf_f = count / t_exe of the last chunk");
	is_int(st.nsites, 2, "two sites with ranks");
	is_str(m.sites[m.ranks[2].site_idx].name, "T", "rank 2 in site T");
	is_int(model_rank_state(&m, &m.ranks[3]), RS_FAILED, "rank 3 failed");
	is_int(model_rank_state(&m, &m.ranks[0]), RS_MASTER, "rank 0 is the master");
	is_int(st.nfailed, 1, "one failed");
	is_int(st.round, 2, "current round");
	is_dbl(st.elapsed, 4.0, 1e-9, "elapsed = latest t");
	is_dbl(st.rate, 45.0, 1e-9, "rate = done / elapsed");
	is_dbl(st.eta, 20 / 45.0, 1e-9, "eta = remaining / rate");
	/* busy: rank 1 2.0, rank 2 4.0 (rank 3 failed, out): (4 - 3) / 4 */
	is_dbl(st.imbalance, 25.0, 1e-9, "imbalance (max-mean)/max of busy time");
	is_dbl(st.ratio, (0.8 + 1.5 + 1.0 + 0.8 + 1.5) / (0.2 + 0.5 + 1.0 + 0.2 + 0.5), 1e-9,
	    "calc:comm ratio");
	is_dbl(st.mig_per_min, 15.0, 1e-9, "one migration in 4 s = 15/min");
	is_dbl(st.sd_exe, 0.5, 1e-9, "sd of t_exe in the running round");
	is_dbl(model_rank_idle(&m, &m.ranks[3]), 1.5, 1e-9, "failed rank: idle up to its failure");
	is_dbl(model_rank_idle(&m, &m.ranks[1]), 1.0, 1e-9, "working rank: idle up to its last result");
	model_set_clock(&m, 20);
	is_int(model_rank_state(&m, &m.ranks[1]), RS_WAITING, "no result for long: waiting");
	is_dbl(model_rank_idle(&m, &m.ranks[1]), 18.0, 1e-9, "waiting rank: idle grows with the clock");
	is_int(m.nlog, 4, "log: start, round, migrate, fail");
	is_int(model_log_get(&m, 0)->kind, EV_FAIL, "newest log entry first");
	ok(strstr(model_log_get(&m, 1)->text, "task 4: rank 3 -> 1") != NULL, "migration text");

	apply(&m, "{\"v\":1,\"t\":5,\"ev\":\"round\",\"j\":2,\"units\":[0,50,30,0],\"mean_exe\":1.5,\"sd_exe\":0.5}");
	is_dbl(m.ranks[2].perf_f, 15.0, 1e-9, "perf_f after a round = units / its t_exe");
	apply(&m, "{\"v\":1,\"t\":5.5,\"ev\":\"end\",\"status\":\"ok\",\"makespan\":5.5,\"ranks\":["
	    "{\"rank\":1,\"units\":95,\"t_calc\":1.7,\"t_comm\":0.4,\"t_idle\":3.4}]}");
	model_stats(&m, &st);
	is_int(m.ranks[1].units, 95, "end totals win");
	is_int(st.done, 185, "done follows the end totals");
	is_dbl(st.elapsed, 5.5, 1e-9, "elapsed = makespan at the end");
	is_dbl(model_rank_idle(&m, &m.ranks[1]), 3.4, 1e-9, "idle from the end event");
	is_int(model_rank_state(&m, &m.ranks[2]), RS_DONE, "ended: done");
	is_int(model_rank_state(&m, &m.ranks[3]), RS_FAILED, "ended: failed stays failed");
	is_dbl(st.eta, 0, 1e-9, "no ETA after the end");
	model_free(&m);
}

static void
test_hist(void)
{
	struct model m;
	double sum = 0;
	int i;

	model_init(&m);
	apply(&m, "{\"v\":1,\"t\":0.5,\"ev\":\"chunk\",\"rank\":2,\"count\":10}");
	apply(&m, "{\"v\":1,\"t\":0.7,\"ev\":\"chunk\",\"rank\":3,\"count\":4}");
	is_dbl(model_rate_peak(&m), 10, 1e-9, "the sparklines' scale: the highest bucket, per s");
	apply(&m, "{\"v\":1,\"t\":100,\"ev\":\"chunk\",\"rank\":2,\"count\":5}");
	is_dbl(model_rate_peak(&m), 5, 1e-9, "the scale after buckets merge: 10 units in 2 s");
	is_dbl(m.hist_w, 2.0, 1e-9, "history buckets double when the job outgrows them");
	for (i = 0; i < MODEL_HIST; i++)
		sum += m.ranks[2].hist[i];
	is_dbl(sum, 15, 1e-9, "no units lost when buckets merge");
	is_dbl(m.ranks[2].hist[0], 10, 1e-9, "early units stay first");
	is_dbl(m.ranks[2].hist[50], 5, 1e-9, "late units at t / width");
	ok(m.ranks[2].known && m.ranks[1].known == 0, "a rank seen only in a chunk is known, its neighbours not");
	is_str(m.ranks[2].node, "?", "undeclared rank: node unknown");
	model_free(&m);
}

static void
test_view(void)
{
	struct model m;
	struct view v;
	size_t i;

	model_init(&m);
	for (i = 0; i < sizeof job / sizeof job[0]; i++)
		apply(&m, job[i]);
	view_init(&v, &m);
	view_build(&v);
	is_int(v.nrows, 6, "rows: 2 sites + 4 ranks");
	ok(v.rows[0].kind == ROW_SITE && v.rows[1].id == 0 && v.rows[2].id == 1, "site S: ranks 0, 1");
	ok(v.rows[3].kind == ROW_SITE && v.rows[4].id == 2 && v.rows[5].id == 3, "site T: ranks 2, 3");
	v.sort = COL_UNITS;
	v.invert = 1;
	view_build(&v);
	ok(v.rows[4].id == 2 && v.rows[5].id == 3, "sort by units, inverted: 70 before 20");
	v.invert = 0;
	view_build(&v);
	ok(v.rows[4].id == 3 && v.rows[5].id == 2, "sort by units: 20 before 70");
	snprintf(v.filter, sizeof v.filter, "FAIL");
	view_build(&v);
	ok(v.nrows == 2 && v.rows[1].id == 3, "filter 'FAIL' keeps the failed rank and its site");
	v.filter[0] = '\0';
	view_toggle_fold(&v, m.ranks[2].site_idx);
	view_build(&v);
	is_int(v.nrows, 4, "folded site hides its ranks");
	v.sel = 0;
	ok(view_search_next(&v, "w1", 0) && v.rows[v.sel].id == 1, "search finds w1");
	view_free(&v);
	model_free(&m);

	/* sites whose ranks interleave: by RANK is by site first, then by id */
	model_init(&m);
	apply(&m, "{\"v\":1,\"t\":0,\"ev\":\"start\",\"job\":\"1\",\"N\":10,\"ranks\":["
	    "{\"rank\":0,\"node\":\"m\",\"site\":\"S\",\"role\":\"master\"},"
	    "{\"rank\":1,\"node\":\"t1\",\"site\":\"T\"},{\"rank\":2,\"node\":\"s2\","
	    "\"site\":\"S\"},{\"rank\":3,\"node\":\"t3\",\"site\":\"T\"}]}");
	view_init(&v, &m);
	view_build(&v);
	ok(v.nrows == 6 && v.rows[0].kind == ROW_SITE && v.rows[1].id == 0 &&
	    v.rows[2].id == 2 && v.rows[3].kind == ROW_SITE && v.rows[4].id == 1 &&
	    v.rows[5].id == 3, "by RANK: S's 0 and 2, then T's 1 and 3");
	view_free(&v);
	model_free(&m);
}

static void
test_snapshot(void)
{
	struct model m;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	model_init(&m);
	apply(&m, "{\"v\":1,\"t\":0,\"ev\":\"start\",\"job\":\"x\\u001b]0;pwned\\u0007\",\"N\":10,\"ranks\":["
	    "{\"rank\":1,\"node\":\"evil\\u001b[2J\\u009b31m\\u202e\",\"site\":\"s\\r\\n\"}]}");
	apply(&m, "{\"v\":1,\"t\":1,\"ev\":\"drop\",\"rank\":1,\"reason\":\"\\u001bc reset\"}");
	f = open_memstream(&buf, &len);
	is_int(snapshot_text(&m, NULL, f), 0, "text snapshot written");
	fclose(f);
	ok(strchr(buf, '\x1b') == NULL && strchr(buf, '\x07') == NULL && strchr(buf, '\r') == NULL,
	    "no escape, bell or CR in the text snapshot");
	ok(strstr(buf, "\xc2\x9b") == NULL && strstr(buf, "\xe2\x80\xae") == NULL,
	    "no C1 or bidi override in the text snapshot");
	ok(strstr(buf, "evil[2J31m") != NULL, "the name is shown without its controls");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	is_int(snapshot_json(&m, NULL, f), 0, "json snapshot written");
	fclose(f);
	ok(strstr(buf, "\"schema_version\": 3") != NULL, "json has schema_version 3");
	ok(strstr(buf, "\\u001b") == NULL, "json carries no escape either");
	free(buf);
	model_free(&m);
}

/*
 * A relaunch (doc/restarts.md): the restart is logged and counted, the second start
 * replaces the rank table (2 new ranks, not 3 + 2), the counts start again, and the
 * resume's units count as done; an end before the restart is taken back.
 */
static void
test_relaunch(void)
{
	struct model m;
	struct model_stats st;
	const struct mlog *l;

	model_init(&m);
	apply(&m, job[0]);
	apply(&m, job[1]);
	apply(&m, job[7]);
	apply(&m, "{\"v\":1,\"t\":4,\"ev\":\"end\",\"status\":\"failed\"}");
	ok(m.ended, "the failed launch's end is seen");
	apply(&m, "{\"v\":1,\"t\":5,\"ev\":\"restart\",\"n\":1,\"reason\":\"rank 3's node "
	    "did not answer ssh\",\"excluded\":[\"w3\"]}");
	ok(!m.ended, "a restart takes the end back");
	is_int(m.restarts, 1, "restart counted");
	l = model_log_get(&m, 0);
	ok(l != NULL && l->kind == EV_RESTART, "restart logged");
	is_str(l != NULL ? l->text : "", "restart 1 without w3: rank 3's node did not answer ssh",
	    "restart log text");
	apply(&m, "{\"v\":1,\"t\":5.2,\"ev\":\"start\",\"job\":\"7\",\"N\":100,\"rounds\":2,"
	    "\"ranks\":[{\"rank\":0,\"node\":\"m\",\"site\":\"S\",\"role\":\"master\"},"
	    "{\"rank\":1,\"node\":\"w4\",\"site\":\"U\",\"pr\":1}]}");
	is_int(m.nranks, 2, "second start: the new ranks replace the table");
	is_str(m.ranks[1].node, "w4", "second start: rank 1 on its new node");
	is_int(m.ranks[1].units, 0, "second start: rank counts start again");
	is_int(m.nfailed, 0, "second start: no failed rank yet");
	apply(&m, "{\"v\":1,\"t\":5.3,\"ev\":\"resume\",\"units\":40,\"rounds_done\":0,"
	    "\"records\":1}");
	apply(&m, "{\"v\":1,\"t\":6,\"ev\":\"chunk\",\"rank\":1,\"round\":1,\"count\":60,"
	    "\"t_calc\":0.5,\"t_comm\":0.1}");
	model_stats(&m, &st);
	is_int(st.done, 100, "resumed units + new chunks");
	is_int(st.restarts, 1, "stats: restarts");
	is_dbl(model_rate_peak(&m), 60, 1e-9, "the scale is the new launch's: 60 units in 1 s");
	is_int(st.nsites, 2, "sites of the new ranks only");
	model_free(&m);
}

/* A start of workers 1-4 on one site, N units in one round. */
static void
start4(struct model *m, int n)
{
	char line[512];

	snprintf(line, sizeof line, "{\"v\":1,\"t\":0,\"ev\":\"start\",\"job\":\"5\",\"N\":%d,"
	    "\"ranks\":[{\"rank\":0,\"node\":\"m\",\"role\":\"master\"},{\"rank\":1,"
	    "\"node\":\"w1\"},{\"rank\":2,\"node\":\"w2\"},{\"rank\":3,\"node\":\"w3\"},"
	    "{\"rank\":4,\"node\":\"w4\"}]}", n);
	apply(m, line);
}

/*
 * The timeline: 4 s in 8 columns of 0.5 s. Rank 1 computes, then mostly communicates
 * and gives a task away; rank 2 computes, idles, fails; rank 3 is dropped; rank 4 takes
 * the task and is still busy with its first chunk.
 */
static void
test_timeline(void)
{
	struct model m;
	char row[16];

	model_init(&m);
	start4(&m, 1000);
	apply(&m, "{\"v\":1,\"t\":0.7,\"ev\":\"drop\",\"rank\":3,\"reason\":\"too slow\"}");
	apply(&m, "{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":2,\"count\":10,\"t_calc\":1,"
	    "\"t_comm\":0,\"t_exe\":1}");
	apply(&m, "{\"v\":1,\"t\":2,\"ev\":\"chunk\",\"rank\":1,\"count\":10,\"t_calc\":1.8,"
	    "\"t_comm\":0.2,\"t_exe\":2}");
	apply(&m, "{\"v\":1,\"t\":2.2,\"ev\":\"fail\",\"rank\":2,\"requeued\":5}");
	apply(&m, "{\"v\":1,\"t\":3.1,\"ev\":\"migrate\",\"task\":9,\"from\":1,\"to\":4,"
	    "\"bytes\":1024,\"seconds\":0.1}");
	apply(&m, "{\"v\":1,\"t\":4,\"ev\":\"chunk\",\"rank\":1,\"count\":10,\"t_calc\":0.4,"
	    "\"t_comm\":1.6,\"t_exe\":2}");
	model_track_row(&m, &m.ranks[1], 4, 8, row);
	is_str(row, "####~~M~", "timeline: compute, then communication, a migration mark");
	model_track_row(&m, &m.ranks[2], 4, 8, row);
	is_str(row, "##..X   ", "timeline: idle after its chunk, failure mark, blank after");
	model_track_row(&m, &m.ranks[3], 4, 8, row);
	is_str(row, ".D      ", "timeline: drop mark, blank after");
	model_track_row(&m, &m.ranks[4], 4, 8, row);
	is_str(row, "======M=", "timeline: running its first chunk, the task it took marked");
	model_track_row(&m, &m.ranks[1], 4, 4, row);
	is_str(row, "##~M", "timeline: the same job in 4 columns");

	/* a job 32 times longer: the buckets double, no second is lost, marks stay */
	apply(&m, "{\"v\":1,\"t\":128,\"ev\":\"chunk\",\"rank\":4,\"count\":10,"
	    "\"t_calc\":64,\"t_comm\":0,\"t_exe\":64}");
	ok(m.track_w * TRACK_BUCKETS > 128, "timeline: buckets widened to hold t = 128");
	is_dbl(m.ranks[1].track->calc[0] + m.ranks[1].track->calc[1], 2.2, 1e-5,
	    "timeline: compute seconds kept when buckets merge");
	model_track_row(&m, &m.ranks[4], 128, 4, row);
	is_str(row, "M.##", "timeline: the long chunk fills the second half");
	model_track_row(&m, &m.ranks[2], 128, 4, row);
	is_str(row, "X   ", "timeline: the failure still marked at its time");
	model_free(&m);

	model_init(&m);
	start4(&m, 1000);
	apply(&m, "{\"v\":1,\"t\":2,\"ev\":\"chunk\",\"rank\":1,\"count\":10,\"t_calc\":2}");
	model_set_clock(&m, 4);
	model_track_row(&m, &m.ranks[2], 4, 8, row);
	is_str(row, "========", "timeline: busy with its first chunk from the start");
	apply(&m, "{\"v\":1,\"t\":4,\"ev\":\"end\",\"status\":\"ok\",\"makespan\":4}");
	model_track_row(&m, &m.ranks[2], 4, 8, row);
	is_str(row, "........", "timeline: after the end nobody is running");
	model_free(&m);
}

/* A rank computing a large first chunk is working, and its idle time does not grow. */
static void
test_first_chunk(void)
{
	struct model m;
	char line[256];
	int i;

	model_init(&m);
	start4(&m, 1000);
	apply(&m, "{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":3,\"count\":1,\"t_calc\":0.1,"
	    "\"t_exe\":0.1}");
	for (i = 1; i <= 10; i++) {
		snprintf(line, sizeof line, "{\"v\":1,\"t\":%d,\"ev\":\"chunk\",\"rank\":1,"
		    "\"count\":10,\"t_calc\":0.9,\"t_comm\":0.1,\"t_exe\":1}", i);
		apply(&m, line);
	}
	model_set_clock(&m, 30);
	is_int(model_rank_state(&m, &m.ranks[2]), RS_WORKING, "no result yet: working");
	is_dbl(model_rank_idle(&m, &m.ranks[2]), 0, 1e-9, "no result yet: no idle time");
	is_int(model_rank_state(&m, &m.ranks[3]), RS_WAITING,
	    "a result long ago and none since: waiting");
	is_dbl(model_rank_idle(&m, &m.ranks[3]), 29.9, 1e-9, "waiting: idle grows");
	model_free(&m);

	model_init(&m);
	start4(&m, 20);
	apply(&m, "{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":1,\"count\":20,\"t_calc\":1,"
	    "\"t_exe\":1}");
	model_set_clock(&m, 30);
	is_int(model_rank_state(&m, &m.ranks[2]), RS_WAITING,
	    "every unit done, none of them its: waiting");
	model_free(&m);
}

/* The detail view's list: a rank's own events, oldest first, the latest TRACK_EVENTS. */
static void
test_rank_events(void)
{
	const struct track_ev *e;
	struct model m;
	char line[256];
	int i;

	model_init(&m);
	start4(&m, 100000);
	for (i = 0; i < 300; i++) {
		snprintf(line, sizeof line, "{\"v\":1,\"t\":%d,\"ev\":\"chunk\",\"rank\":%d,"
		    "\"start\":%d,\"count\":10,\"t_calc\":0.5}", i, 1 + i % 2, 10 * i);
		apply(&m, line);
	}
	apply(&m, "{\"v\":1,\"t\":300,\"ev\":\"migrate\",\"task\":3,\"from\":2,\"to\":1}");
	apply(&m, "{\"v\":1,\"t\":301,\"ev\":\"drop\",\"rank\":2,\"reason\":\"slow link\"}");
	is_int(track_kept(m.ranks[2].track), 152, "rank 2: its 150 chunks, a migration, a drop");
	e = track_get(m.ranks[2].track, 0);
	ok(e != NULL && e->kind == EV_CHUNK && e->start == 10, "rank 2: oldest first");
	e = track_get(m.ranks[2].track, 150);
	ok(e != NULL && e->kind == EV_MIGRATE && e->out && e->other == 1 && e->start == 3,
	    "rank 2: the task it gave to rank 1");
	e = track_get(m.ranks[2].track, 151);
	ok(e != NULL && e->kind == EV_DROP && strcmp(m.ranks[2].track->drop_why, "slow link") == 0,
	    "rank 2: its drop newest last, with the reason");
	e = track_get(m.ranks[1].track, track_kept(m.ranks[1].track) - 1);
	ok(e != NULL && e->kind == EV_MIGRATE && !e->out && e->other == 2,
	    "rank 1: the task it took");
	for (i = 300; i < 600; i++) {
		snprintf(line, sizeof line, "{\"v\":1,\"t\":%d,\"ev\":\"chunk\",\"rank\":1,"
		    "\"count\":1}", i + 2);
		apply(&m, line);
	}
	is_int(track_kept(m.ranks[1].track), TRACK_EVENTS, "the latest TRACK_EVENTS are kept");
	is_int(m.ranks[1].track->nev, 451, "every event counted");
	is_dbl(track_get(m.ranks[1].track, TRACK_EVENTS - 1)->t, 601, 1e-9, "the newest last");
	ok(track_get(m.ranks[1].track, TRACK_EVENTS) == NULL, "no event past the kept ones");
	is_int(track_kept(m.ranks[4].track), 0, "a rank with no event has none");
	model_free(&m);
}

/* The cell of rank id's tasks at width w. */
static const char *
cell(const struct model *m, int id, int w)
{
	static char buf[128];

	return model_tasks_text(m, &m->ranks[id], buf, sizeof buf, w);
}

/* Does the layout of width w for a task run or not show column c? */
static int
shows(int width, int tasks, enum col c)
{
	struct col_layout l;
	int i;

	columns_layout(&l, width, tasks);
	for (i = 0; i < l.n; i++)
		if (l.cols[i] == c)
			return 1;
	return 0;
}

/* A run of 4 migratable tasks of 5 steps on workers 1-5 (tasks-spec): who holds what. */
static const char *const taskjob[] = {
	"{\"v\":1,\"t\":0,\"ev\":\"start\",\"job\":\"9\",\"scheme\":\"tasks\",\"N\":20,"
	    "\"rounds\":1,\"tasks\":4,\"steps\":5,\"migration\":\"load-diff\",\"ranks\":["
	    "{\"rank\":0,\"node\":\"m\",\"role\":\"master\"},{\"rank\":1,\"node\":\"n1\"},"
	    "{\"rank\":2,\"node\":\"n2\"},{\"rank\":3,\"node\":\"n3\"},{\"rank\":4,\"node\":\"n4\"},"
	    "{\"rank\":5,\"node\":\"n5\"}]}",
	"{\"v\":1,\"t\":0.01,\"ev\":\"tasks\",\"at\":[1,2,3,4],\"spare\":[5],\"reason\":\"start\"}",
	"{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":1,\"round\":1,\"start\":0,\"count\":1,"
	    "\"t_calc\":0.9,\"t_comm\":0.1,\"task\":0,\"step\":0,\"cpu\":0.9}",
	"{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":2,\"round\":1,\"start\":5,\"count\":1,"
	    "\"t_calc\":0.9,\"t_comm\":0.1,\"task\":1,\"step\":0,\"cpu\":0.3}",
	"{\"v\":1,\"t\":2,\"ev\":\"migrate\",\"task\":1,\"from\":2,\"to\":5,\"bytes\":8192,"
	    "\"seconds\":0.05,\"reason\":\"load-diff: rank 2 (n2) load 2.10, rose 1.40; rank 5 (n5) "
	    "load 0.05, spare\"}",
	"{\"v\":1,\"t\":3,\"ev\":\"migrate\",\"task\":3,\"from\":4,\"to\":1,\"bytes\":4096,"
	    "\"seconds\":0.02,\"reason\":\"load-abs: rank 4 (n4) load 1.90 over 1.50\"}",
};

static void
test_tasks(void)
{
	struct model m;
	const struct mlog *lg;
	const struct track_ev *e;
	char *buf = NULL;
	size_t i, len = 0;
	FILE *f;

	model_init(&m);
	apply(&m, taskjob[0]);
	ok(m.task_run, "a start with scheme tasks makes a task run");
	is_int(m.ntasks, 4, "start: 4 tasks");
	is_int(m.steps, 5, "start: 5 steps each");
	is_str(m.migration, "load-diff", "start: the policy");
	is_str(cell(&m, 1, 7), "-", "before tasks are placed a worker shows none");
	ok(strstr(model_log_get(&m, 0)->text, "4 tasks x 5 steps, migration load-diff") != NULL,
	    "the start line says tasks, steps and policy");
	for (i = 1; i < sizeof taskjob / sizeof taskjob[0]; i++)
		apply(&m, taskjob[i]);
	is_int(m.ranks[1].ntasks, 2, "rank 1 holds its task and the one it took");
	is_str(cell(&m, 1, 7), "0,3", "rank 1: tasks 0,3");
	is_str(cell(&m, 2, 7), "spare", "rank 2 gave its only task away: spare");
	is_str(cell(&m, 5, 7), "1", "rank 5, the spare, took task 1");
	is_str(cell(&m, 3, 7), "2", "rank 3 kept task 2");
	is_str(cell(&m, 0, 7), "-", "the master holds none and is no spare");
	is_str(cell(&m, 1, 2), "2", "too narrow for the list or \"2 tasks\": the count");
	is_int(m.task_at[1], 5, "the task table follows the move");
	is_int(m.ranks[2].mig_out, 1, "rank 2: one out");
	is_int(m.ranks[5].mig_in, 1, "rank 5: one in");
	is_int(m.ranks[1].mig_in + m.ranks[1].mig_out, 1, "rank 1: one in, none out");
	is_int(m.migrations, 2, "two migrations in the header");
	lg = model_log_get(&m, 0);
	ok(lg != NULL && lg->kind == EV_MIGRATE && strcmp(lg->text, "migrate task 3: rank 4 -> 1, "
	    "4.0 KiB in 0.020 s (load-abs: rank 4 (n4) load 1.90 over 1.50)") == 0,
	    "the migration log line carries the reason");
	lg = model_log_get(&m, 2);
	ok(lg != NULL && lg->kind == EV_TASKS && strcmp(lg->text, "4 tasks on 4 ranks, spare 5 "
	    "(start)") == 0, "the tasks event is logged with its spares and reason");
	e = track_get(m.ranks[5].track, track_kept(m.ranks[5].track) - 1);
	ok(e != NULL && e->kind == EV_MIGRATE && track_why(m.ranks[5].track, e) != NULL &&
	    strncmp(track_why(m.ranks[5].track, e), "load-diff: rank 2", 17) == 0,
	    "the detail keeps the reason of the migration");

	/* a step of task 0 reported by rank 4: rank 4 holds it now */
	apply(&m, "{\"v\":1,\"t\":4,\"ev\":\"chunk\",\"rank\":4,\"start\":1,\"count\":1,"
	    "\"t_calc\":0.5,\"task\":0,\"step\":1}");
	is_str(cell(&m, 1, 7), "3", "a chunk of task 0 on rank 4 takes it from rank 1");
	is_str(cell(&m, 4, 7), "0", "and rank 4 holds it");
	is_int(m.ranks[4].mig_in, 0, "a chunk is no migration");

	/* rank 4 fails; the restart places its task elsewhere */
	apply(&m, "{\"v\":1,\"t\":5,\"ev\":\"fail\",\"rank\":4,\"requeued\":4,\"reason\":\"gone\","
	    "\"tasks\":[0]}");
	apply(&m, "{\"v\":1,\"t\":5.5,\"ev\":\"tasks\",\"at\":[2,5,3,1],\"spare\":[],"
	    "\"reason\":\"restart\"}");
	is_str(cell(&m, 4, 7), "-", "the failed rank holds none, and is no spare");
	is_str(cell(&m, 2, 7), "0", "task 0 restarted on rank 2");
	is_str(cell(&m, 1, 7), "3", "rank 1 keeps task 3");

	ok(shows(100, 1, COL_TASKS) && shows(100, 1, COL_MIGS), "100 columns: task columns shown");
	ok(shows(80, 1, COL_TASKS) && shows(80, 1, COL_MIGS), "80 columns: task columns shown");
	ok(shows(60, 1, COL_TASKS) && shows(60, 1, COL_MIGS), "60 columns: task columns shown");
	ok(!shows(200, 0, COL_TASKS) && !shows(200, 0, COL_MIGS), "not a task run: none");

	f = open_memstream(&buf, &len);
	is_int(snapshot_json(&m, NULL, f), 0, "json snapshot of a task run written");
	fclose(f);
	ok(strstr(buf, "\"tasks\": [\n        3\n      ]") != NULL ||
	    strstr(buf, "\"tasks\": [3]") != NULL, "json: rank 1's tasks");
	ok(strstr(buf, "\"migrations_in\": 1") != NULL && strstr(buf, "\"migrations_out\": 1") !=
	    NULL, "json: migrations in and out");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	is_int(snapshot_text(&m, NULL, f), 0, "text snapshot of a task run written");
	fclose(f);
	ok(strstr(buf, "TASKS") != NULL && strstr(buf, "MIG I/O") != NULL,
	    "text: the task columns");
	free(buf);

	apply(&m, "{\"v\":1,\"t\":9,\"ev\":\"end\",\"status\":\"ok\",\"makespan\":9,"
	    "\"migrations\":2,\"restarted\":1}");
	is_int(m.restarted, 1, "end: one task restarted");
	is_str(model_log_get(&m, 0)->text, "end: status ok, makespan 9.00 s, 2 migrations, 1 task "
	    "restarted", "end line of a task run");

	/* a relaunch: the new launch places its tasks anew */
	apply(&m, taskjob[0]);
	is_int(m.nat, 0, "relaunch: no task placed");
	is_int(m.ranks[1].ntasks + m.ranks[1].mig_in, 0, "relaunch: rank 1 starts empty");
	model_free(&m);

	/* a loop job with a migrate: counted, but no task columns */
	model_init(&m);
	for (i = 0; i < sizeof job / sizeof job[0]; i++)
		apply(&m, job[i]);
	ok(!m.task_run, "a loop job is no task run");
	buf = NULL;
	f = open_memstream(&buf, &len);
	is_int(snapshot_json(&m, NULL, f), 0, "json snapshot of a loop job written");
	fclose(f);
	ok(strstr(buf, "\"tasks\"") == NULL && strstr(buf, "migrations_in") == NULL,
	    "json of a loop job: no task fields");
	free(buf);
	model_free(&m);
}

/* A job cancelled (no end event): its record stops the clock. */
static void
test_over(void)
{
	struct model m;
	struct model_stats st;

	model_init(&m);
	start4(&m, 1000);
	apply(&m, "{\"v\":1,\"t\":2,\"ev\":\"chunk\",\"rank\":1,\"count\":10,\"t_calc\":1}");
	model_set_clock(&m, 50);
	model_over(&m, 2.5, "cancelled");
	model_stats(&m, &st);
	ok(m.ended, "over: the job shows as ended");
	is_str(m.status, "cancelled", "over: with the recorded state");
	is_dbl(st.elapsed, 2.5, 1e-9, "over: elapsed is the job's, not the console's");
	model_set_clock(&m, 80);
	model_stats(&m, &st);
	is_dbl(st.elapsed, 2.5, 1e-9, "over: the clock stays stopped");
	is_int(model_rank_state(&m, &m.ranks[2]), RS_DONE, "over: nobody works any more");
	is_int(model_log_get(&m, 0)->kind, EV_END, "over: logged as the end");
	model_over(&m, 9, "failed");
	is_str(m.status, "cancelled", "over: a second record changes nothing");
	model_free(&m);

	model_init(&m);
	start4(&m, 1000);
	apply(&m, "{\"v\":1,\"t\":3,\"ev\":\"chunk\",\"rank\":1,\"count\":10,\"t_calc\":1}");
	model_over(&m, NAN, "failed");
	model_stats(&m, &st);
	is_dbl(st.elapsed, 3, 1e-9, "over at an unknown time: the last event's");
	model_free(&m);
}

/* Rows that do not fit leave the last line for "+N more"; the selection stays shown. */
static void
test_window(void)
{
	struct model m;
	struct view v;
	int shown, hidden;

	model_init(&m);
	start4(&m, 1000);
	view_init(&v, &m);
	view_build(&v);
	is_int(v.nrows, 6, "window: a site and 5 ranks");
	shown = view_window(&v, 10, &hidden);
	ok(shown == 6 && hidden == 0, "window: everything fits, no marker");
	shown = view_window(&v, 4, &hidden);
	ok(shown == 3 && hidden == 3 && v.top == 0, "window: 3 rows and a marker for 3 ranks");
	v.sel = 5;
	shown = view_window(&v, 4, &hidden);
	ok(shown == 3 && v.top == 3 && hidden == 2, "window: follows the selection to the end");
	view_free(&v);
	model_free(&m);
}

/* F9, k and the screens: what the keys change in the view, as htop's would. */
static void
test_keys(void)
{
	struct model m;
	struct view v;
	int i;

	model_init(&m);
	view_init(&v, &m);
	v.replay = 1;
	view_key(&v, KEY_F(9));
	ok(v.prompt == PROMPT_NONE && strstr(v.message, "not available in a replay") != NULL,
	    "F9 in a replay: not available, no question");
	v.replay = 0;
	v.job_id = "12";
	view_key(&v, KEY_F(9));
	is_int(v.prompt, PROMPT_CANCEL, "F9 live: the question");
	view_key(&v, 'n');
	ok(v.prompt == PROMPT_NONE && v.cancel == CANCEL_NONE && !v.step,
	    "n answers no: nothing cancelled, and no step either");
	view_key(&v, 'k');
	is_int(v.prompt, PROMPT_CANCEL, "k (htop's kill) asks the same question");
	view_key(&v, KEY_RESIZE);
	is_int(v.prompt, PROMPT_CANCEL, "a resize is no answer");
	view_key(&v, 'q');
	ok(v.cancel == CANCEL_NONE && !v.quit, "any key but y keeps the job (q does not quit)");
	view_key(&v, KEY_F(9));
	view_key(&v, 'y');
	ok(v.cancel == CANCEL_WANTED && strstr(v.message, "cancelling job 12") != NULL,
	    "y: the cancel is wanted");
	view_key(&v, KEY_F(9));
	ok(v.prompt == PROMPT_NONE && strstr(v.message, "under way") != NULL,
	    "F9 again meanwhile: no second cancel");
	is_int(v.screen, SCREEN_RANKS, "the ranks screen first");
	view_key(&v, '\t');
	is_int(v.screen, SCREEN_TIMELINE, "Tab: the timeline");
	view_key(&v, '\t');
	is_int(v.screen, SCREEN_EVENTS, "Tab again: the event log");
	view_key(&v, '\t');
	is_int(v.screen, SCREEN_RANKS, "and back to the ranks");
	view_key(&v, KEY_BTAB);
	is_int(v.screen, SCREEN_EVENTS, "Shift-Tab goes back");
	view_key(&v, '/');
	is_int(v.prompt, PROMPT_NONE, "the event log: no search of rank rows there");
	view_key(&v, KEY_UP);
	is_int(v.log_back, 1, "the event log: Up goes back one entry");
	view_key(&v, '\t');
	is_int(v.screen, SCREEN_RANKS, "Tab from the event log: the ranks again");
	view_key(&v, 't');
	is_int(v.screen, SCREEN_RANKS, "t (htop's tree) is no screen key");
	view_key(&v, ' ');
	is_int(v.paused, 0, "Space (htop's tag) does not pause");
	view_key(&v, 'p');
	is_int(v.paused, 0, "p (htop's program path) does not pause");
	view_key(&v, 'Z');
	is_int(v.paused, 1, "Z pauses (htop's pause)");
	view_key(&v, 'z');
	is_int(v.paused, 0, "z goes on");
	view_key(&v, 'P');
	ok(v.sort == COL_PERF && v.invert, "P sorts by PERF_F, largest first (htop: by CPU)");
	view_key(&v, 'T');
	ok(v.sort == COL_CALC && v.invert, "T sorts by T_CALC, largest first (htop: by time)");
	view_key(&v, 'N');
	ok(v.sort == COL_RANK && !v.invert, "N sorts by RANK (htop: by PID)");
	view_key(&v, 'q');
	is_int(v.quit, 1, "q quits");
	/* one table: every key the help names is a key the console acts on */
	for (i = 0; i < keymap_n; i++)
		if (keymap_action(keymap[i].codes[0]) != keymap[i].action)
			break;
	is_int(i, keymap_n, "every key of the map reaches its own action");
	is_int(keymap_action('j'), KA_NONE, "j is not a move key any more (nor k: htop kills)");
	view_free(&v);
	model_free(&m);
}

static void
test_fit(void)
{
	char buf[256];

	is_str(fit_words(buf, sizeof buf, "fold or unfold a site", 40, 0), "fold or unfold a site",
	    "fit: what fits is whole");
	is_str(fit_words(buf, sizeof buf, "fold or unfold a site", 14, 0), "fold or...",
	    "fit: cut after a word, with a marker");
	is_str(fit_words(buf, sizeof buf, "fold or unfold a site", 14, 1), "fold or\xe2\x80\xa6",
	    "fit: the UTF-8 ellipsis takes one column");
	is_str(fit_words(buf, sizeof buf, "fold or unfold a site", 15, 1), "fold or unfold\xe2\x80\xa6",
	    "fit: a word that ends at the edge is kept");
	is_str(fit_words(buf, sizeof buf, "supercalifragilistic", 10, 0), "superca...",
	    "fit: one long word is cut, marked");
	ok(text_width(fit_words(buf, sizeof buf, "a b c d e f g h i j k l", 7, 0)) <= 7,
	    "fit: never wider than asked");
	is_str(fit_name(buf, sizeof buf, "a1", 6, 0, 1), "a1    ", "name: whole, padded");
	is_str(fit_name(buf, sizeof buf, "compute-node-17.cluster", 16, 0, 1),
	    "compute-node-17\xe2\x80\xa6", "name: cut after its last whole part, marked");
	is_str(fit_name(buf, sizeof buf, "compute-node-17.cluster", 10, 0, 1),
	    "compute\xe2\x80\xa6  ", "name: never inside a part when a part fits");
	is_str(fit_name(buf, sizeof buf, "node12", 5, 0, 0), "no...",
	    "name: one long part cut, marked: node1 never passes for node12");
	is_str(fit_name(buf, sizeof buf, "b1", 4, 1, 0), "  b1", "name: right-aligned");
}

/* One plural helper, one count format: UNITS and LAST read the same for the same count. */
static void
test_counts(void)
{
	struct model m;
	struct mrank *r;
	char buf[64], a[64], b[64];

	is_str(text_plural(buf, sizeof buf, 1, "site", NULL), "1 site", "plural: 1 site");
	is_str(text_plural(buf, sizeof buf, 2, "site", NULL), "2 sites", "plural: 2 sites");
	is_str(text_plural(buf, sizeof buf, 0, "entry", "entries"), "0 entries",
	    "plural: an irregular one");
	is_str(text_count(buf, sizeof buf, 99999), "99999", "count: exact up to 99999");
	is_str(text_count(buf, sizeof buf, 200000), "200k", "count: 200000 is 200k");
	is_str(text_count(buf, sizeof buf, 1500000), "1.50M", "count: 3 significant digits");
	is_str(text_count(buf, sizeof buf, 999600), "1.00M", "count: 999.6k rounds up to 1.00M");
	model_init(&m);
	r = model_rank(&m, 1);
	r->units = r->last_units = 200000;
	columns_cell(a, sizeof a, &m, r, COL_UNITS, col_defs[COL_UNITS].width, 0);
	columns_cell(b, sizeof b, &m, r, COL_LAST, col_defs[COL_LAST].width, 0);
	ok(strstr(a, "200k") != NULL && strstr(b, "200k") != NULL,
	    "UNITS and LAST: 200000 in one form in both (%s|%s)", a, b);
	model_free(&m);
}

/* Several ranks on one node: a node row of their sums above them, in the table and --json. */
static void
test_node_sum(void)
{
	static const char *const ev[] = {
		"{\"v\":1,\"t\":0,\"ev\":\"start\",\"job\":\"5\",\"N\":300,\"ranks\":["
		    "{\"rank\":0,\"node\":\"h\",\"site\":\"S\",\"role\":\"master\"},"
		    "{\"rank\":1,\"node\":\"n1\",\"site\":\"S\",\"pr\":0.3},"
		    "{\"rank\":2,\"node\":\"n2\",\"site\":\"S\",\"pr\":0.4},"
		    "{\"rank\":3,\"node\":\"n1\",\"site\":\"S\",\"pr\":0.3}]}",
		"{\"v\":1,\"t\":1,\"ev\":\"chunk\",\"rank\":1,\"count\":100,\"t_calc\":0.8,\"t_comm\":0.2,\"t_exe\":1.0}",
		"{\"v\":1,\"t\":2,\"ev\":\"chunk\",\"rank\":3,\"count\":50,\"t_calc\":1.5,\"t_comm\":0.5,\"t_exe\":2.0}",
		"{\"v\":1,\"t\":2,\"ev\":\"chunk\",\"rank\":2,\"count\":150,\"t_calc\":1.5,\"t_comm\":0.5,\"t_exe\":2.0}",
	};
	struct mnode_sum s;
	struct model m;
	struct view v;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f;

	model_init(&m);
	for (i = 0; i < sizeof ev / sizeof ev[0]; i++)
		apply(&m, ev[i]);
	model_node_sum(&m, &m.ranks[3], &s);
	ok(s.nranks == 2 && s.lowest == 1 && s.units == 150, "node n1: 2 ranks, 150 units");
	is_dbl(s.t_calc, 2.3, 1e-9, "node n1: compute seconds summed");
	is_dbl(s.perf_f, 100 + 25, 1e-9, "node n1: throughput summed (100/s + 25/s)");
	is_dbl(s.pr, 0.6, 1e-9, "node n1: its share of the work");
	ok(model_node_shared(&m, &m.ranks[1]) && !model_node_shared(&m, &m.ranks[2]),
	    "n1 is shared, n2 is not");
	view_init(&v, &m);
	view_build(&v);
	/* S, 0 h, node n1, 1, 3, 2 n2: the node's ranks together where its first comes */
	ok(v.nrows == 6 && v.rows[2].kind == ROW_NODE && v.rows[2].id == 1 &&
	    v.rows[3].id == 1 && v.rows[4].id == 3 && v.rows[5].id == 2,
	    "rows: the node row, then its two ranks, then the rank alone on n2");
	v.sort = COL_UNITS;
	v.invert = 1;
	view_build(&v);
	ok(v.rows[1].kind == ROW_RANK && v.rows[1].id == 2 && v.rows[2].kind == ROW_NODE &&
	    v.rows[3].id == 1 && v.rows[4].id == 3 && v.rows[5].id == 0,
	    "sorted by units, largest first: n2's 150, n1's ranks under their node row, master");
	view_free(&v);
	f = open_memstream(&buf, &len);
	snapshot_json(&m, NULL, f);
	fclose(f);
	ok(strstr(buf, "\"per_node\"") != NULL && strstr(buf, "\"node\": \"n1\",\n      "
	    "\"site\": \"S\",\n      \"placed_ranks\": [\n        1,\n        3\n      ],\n      "
	    "\"units\": 150") != NULL, "--json: per_node has n1 with ranks 1 and 3, 150 units");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	snapshot_text(&m, NULL, f);
	fclose(f);
	ok(strstr(buf, "     n1 ") != NULL && strstr(buf, " 150 ") != NULL && strstr(buf, "2 ranks") !=
	    NULL, "--once: a node row for n1 with its 150 units and 2 ranks");
	ok(strstr(buf, "Workers 3 on 1 site ") != NULL, "--once: 1 site, not 1 sites");
	free(buf);
	model_free(&m);
}

/*
 * A hierarchy run (model-groups.c, view-groups.c): the start and end records of a real
 * run of grt-check under mpiexec (hierarchy site over a rank map: sub-masters 1 and 4,
 * ranks 2 and 3 on node a2, rank 7 alone on its site), and a large group that starts
 * folded.
 */
static void
test_groups(void)
{
	static const char *const ev[] = {
		"{\"v\":1,\"t\":0,\"ev\":\"start\",\"job\":\"\",\"scheme\":\"gss\",\"N\":3000,\"roun"
		    "ds\":1,\"ranks\":[{\"rank\":0,\"node\":\"m0\",\"site\":\"s0\",\"pf\":1,\"pr\":1,\""
		    "role\":\"master\"},{\"rank\":1,\"node\":\"a1\",\"site\":\"s1\",\"pf\":1,\"pr\":1,"
		    "\"role\":\"sub-master\",\"group\":1},{\"rank\":2,\"node\":\"a2\",\"site\":\"s1\""
		    ",\"pf\":1,\"pr\":1,\"role\":\"worker\",\"group\":1},{\"rank\":3,\"node\":\"a2\","
		    "\"site\":\"s1\",\"pf\":1,\"pr\":2,\"role\":\"worker\",\"group\":1},{\"rank\":4,\""
		    "node\":\"b1\",\"site\":\"s2\",\"pf\":1,\"pr\":1,\"role\":\"sub-master\",\"group\""
		    ":4},{\"rank\":5,\"node\":\"b2\",\"site\":\"s2\",\"pf\":1,\"pr\":1,\"role\":\"work"
		    "er\",\"group\":4},{\"rank\":6,\"node\":\"b3\",\"site\":\"s2\",\"pf\":1,\"pr\":1,\""
		    "role\":\"worker\",\"group\":4},{\"rank\":7,\"node\":\"c1\",\"site\":\"s3\",\"pf\""
		    ":1,\"pr\":1,\"role\":\"worker\",\"group\":7}]}",
		"{\"v\":1,\"t\":0.072240521,\"ev\":\"end\",\"status\":\"ok\",\"makespan\":0.072"
		    "240521,\"failed\":0,\"dropped\":0,\"requeued\":0,\"ranks\":[{\"rank\":1,\"u"
		    "nits\":0,\"t_calc\":0,\"t_comm\":0,\"t_idle\":0.072240521,\"state\":\"done"
		    "\",\"group\":1},{\"rank\":2,\"units\":808,\"t_calc\":0.000021109,\"t_comm\""
		    ":0.049793868,\"t_idle\":0.022425544,\"state\":\"done\",\"group\":1},{\"ra"
		    "nk\":3,\"units\":859,\"t_calc\":0.000067006,\"t_comm\":0.055287426,\"t_i"
		    "dle\":0.016886089,\"state\":\"done\",\"group\":1},{\"rank\":4,\"units\":0,\""
		    "t_calc\":0,\"t_comm\":0,\"t_idle\":0.072240521,\"state\":\"done\",\"group\""
		    ":4},{\"rank\":5,\"units\":397,\"t_calc\":0.000090036,\"t_comm\":0.045277"
		    "235,\"t_idle\":0.02687325,\"state\":\"done\",\"group\":4},{\"rank\":6,\"uni"
		    "ts\":610,\"t_calc\":0.000018584,\"t_comm\":0.025025715,\"t_idle\":0.047"
		    "196222,\"state\":\"done\",\"group\":4},{\"rank\":7,\"units\":326,\"t_calc\":"
		    "0.000010951,\"t_comm\":0.056800025,\"t_idle\":0.015429545,\"state\":\"d"
		    "one\",\"group\":7}]}",
	};
	struct mnode_sum s;
	struct model_stats st;
	struct model m;
	struct view v;
	char *buf = NULL, line[256], big[4096];
	size_t len = 0, i, o;
	FILE *f;
	int k;

	model_init(&m);
	for (i = 0; i < sizeof ev / sizeof ev[0]; i++)
		apply(&m, ev[i]);
	ok(m.ngroups == 2 && m.ranks[1].submaster && m.ranks[4].submaster &&
	    m.ranks[1].gsize == 2 && m.ranks[4].gsize == 2, "two sub-masters of 2 workers each");
	ok(m.ranks[2].group == 1 && m.ranks[3].group == 1 && m.ranks[6].group == 4 &&
	    m.ranks[7].group == -1 && m.ranks[0].group == -1 && m.ranks[1].group == -1,
	    "workers in their groups; the lone worker and the master in none");
	is_int(model_rank_state(&m, &m.ranks[1]), RS_SUBMASTER, "a sub-master's state");
	is_str(model_state_name(RS_SUBMASTER), "sub-master", "its name");
	model_stats(&m, &st);
	is_int(st.nworkers, 5, "the sub-masters are not counted as workers");
	model_group_sum(&m, &m.ranks[1], &s);
	ok(s.nranks == 2 && s.units == 808 + 859 && s.lowest == 1,
	    "group 1: 2 workers, their units from the end record");
	is_dbl(s.pr, 3.0, 1e-9, "group 1: its workers' PR summed");
	model_group_node_sum(&m, &m.ranks[2], &s);
	ok(s.nranks == 2 && s.units == 808 + 859, "node a2 in group 1: ranks 2 and 3");
	model_group_text(&m, &m.ranks[2], line, sizeof line);
	is_str(line, "group of sub-master 1 (node a1, 2 ranks)", "a worker's group in words");

	view_init(&v, &m);
	view_build(&v);
	/* s0 0 | s1 G1 N(a2) 2 3 | s2 G4 5 6 | s3 7 */
	ok(v.nrows == 13 && v.rows[3].kind == ROW_GROUP && v.rows[3].id == 1 &&
	    v.rows[4].kind == ROW_NODE && v.rows[5].id == 2 && v.rows[6].id == 3 &&
	    v.rows[8].kind == ROW_GROUP && v.rows[8].id == 4 && v.rows[9].id == 5 &&
	    v.rows[12].kind == ROW_RANK && v.rows[12].id == 7,
	    "rows: each group's row, then its workers (a2's under their node row)");
	for (k = 0; k < v.nrows; k++)
		if (v.rows[k].kind == ROW_RANK && (v.rows[k].id == 1 || v.rows[k].id == 4))
			break;
	is_int(k, v.nrows, "no sub-master has a rank row of its own");
	ok(view_fold_group(&v, &v.rows[5]) && v.sel_row.kind == ROW_GROUP && v.sel_row.id == 1,
	    "folding from a worker's row folds its group and selects the group's row");
	view_build(&v);
	ok(v.nrows == 10 && v.rows[3].kind == ROW_GROUP && v.rows[4].kind == ROW_SITE,
	    "group 1 folded: its row alone");
	ok(!view_fold_group(&v, &v.rows[11]), "the lone worker's row has no group to fold");
	view_free(&v);

	f = open_memstream(&buf, &len);
	snapshot_json(&m, NULL, f);
	fclose(f);
	ok(strstr(buf, "\"role\": \"sub-master\",\n      \"group\": 1,") != NULL &&
	    strstr(buf, "\"role\": \"master\",\n      \"group\": null,") != NULL,
	    "--json: each rank's role and group");
	free(buf);
	model_free(&m);

	/* a group of more than VIEW_GROUP_OPEN workers starts folded; - opens it */
	o = snprintf(big, sizeof big, "{\"v\":1,\"t\":0,\"ev\":\"start\",\"N\":100,\"ranks\":["
	    "{\"rank\":0,\"node\":\"m\",\"site\":\"S\",\"role\":\"master\"},"
	    "{\"rank\":1,\"node\":\"s\",\"site\":\"S\",\"role\":\"sub-master\",\"group\":1}");
	for (k = 2; k < VIEW_GROUP_OPEN + 3; k++)
		o += snprintf(big + o, sizeof big - o, ",{\"rank\":%d,\"node\":\"w%d\","
		    "\"site\":\"S\",\"role\":\"worker\",\"group\":1}", k, k);
	snprintf(big + o, sizeof big - o, "]}");
	model_init(&m);
	apply(&m, big);
	view_init(&v, &m);
	view_build(&v);
	ok(v.nrows == 3 && v.rows[2].kind == ROW_GROUP && view_group_folded(&v, 1),
	    "a group of VIEW_GROUP_OPEN + 1 workers starts folded: one row");
	view_fold_group(&v, &v.rows[2]);
	view_build(&v);
	is_int(v.nrows, 3 + VIEW_GROUP_OPEN + 1, "unfolded: its workers under it");
	view_free(&v);
	buf = NULL;
	f = open_memstream(&buf, &len);
	snapshot_text(&m, NULL, f);
	fclose(f);
	ok(strstr(buf, "\n+  1 s ") != NULL && strstr(buf, "sub-master, 17 ranks") != NULL &&
	    strstr(buf, " w2 ") == NULL, "--once: the large group as the table first has it, folded");
	free(buf);
	model_free(&m);
}

int
main(void)
{
	test_aggregate();
	test_relaunch();
	test_hist();
	test_view();
	test_snapshot();
	test_timeline();
	test_first_chunk();
	test_rank_events();
	test_tasks();
	test_over();
	test_window();
	test_keys();
	test_fit();
	test_counts();
	test_node_sum();
	test_groups();
	return tap_done();
}
