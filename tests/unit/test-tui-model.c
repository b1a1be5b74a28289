/* test-tui-model.c — aggregation of events into per-rank state and job meters; rows; snapshot. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "events-read.h"
#include "model.h"
#include "snapshot.h"
#include "view.h"

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
	apply(&m, "{\"v\":1,\"t\":100,\"ev\":\"chunk\",\"rank\":2,\"count\":5}");
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
	ok(strstr(buf, "\"schema_version\": 1") != NULL, "json has schema_version 1");
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
	is_int(st.nsites, 2, "sites of the new ranks only");
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
	return tap_done();
}
