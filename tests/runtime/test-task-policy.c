/*
 * test-task-policy.c — the migration policies (runtime/task/grt-task-policy.c, doc/tasks.md
 * "Policies") on hand-made snapshots: load-diff moves from the worker whose load rose most
 * to an idle spare (else the worker whose load fell most), only past the threshold and only
 * when the gain beats the cost; load-abs waits for TP_ABS_HOLD looks over the threshold;
 * a task that is not movable, or has one step left, stays.
 */
#include <string.h>

#include "runtime/task/grt-task-policy.h"
#include "tests/tap.h"

#define NW	5	/* index 0 is the master: never a target */

static struct tp_worker w[NW];
static struct tp_task t[3];

/* Workers 1..3 hold tasks 0..2, worker 4 is an idle spare; no load, 1 s per step. */
static void
reset(void)
{
	static const char *const names[NW] = { "m", "n1", "n2", "n3", "n4" };
	int i;

	memset(w, 0, sizeof w);
	memset(t, 0, sizeof t);
	for (i = 1; i < NW; i++) {
		w[i].alive = 1;
		w[i].tasks = i <= 3;
		w[i].mhz = 1000;
		w[i].lat = 0.01;
		w[i].rate = 10e6;
		w[i].node = names[i];
	}
	w[0].node = names[0];
	for (i = 0; i < 3; i++) {
		t[i].at = i + 1;
		t[i].movable = 1;
		t[i].left = 100;
		t[i].step_s = 1;
		t[i].bytes = 1e6;
	}
}

static int
decide(int policy, double th, struct tp_decision *d)
{
	memset(d, 0, sizeof *d);
	d->task = d->to = -1;
	return tp_decide(policy, th, w, NW, t, 3, d);
}

static void
check_load_diff(void)
{
	struct tp_decision d;

	reset();
	ok(decide(TP_LOAD_DIFF, 0, &d) == 0, "load-diff: no load, no move");
	w[2].load = w[2].rise = 2;
	ok(decide(TP_LOAD_DIFF, 0, &d) == 1, "load-diff: a node's load rose by 2: a move");
	is_int(d.task, 1, "load-diff: the task of the node whose load rose");
	is_int(d.to, 4, "load-diff: to the idle spare");
	ok(strstr(d.reason, "load-diff: n2 load 2.00 rose 2.00; n4 load 0.00, idle") != NULL,
	    "load-diff: the reason names both nodes and their loads (%s)", d.reason);

	/* the one that rose most is the source */
	w[3].load = w[3].rise = 3;
	decide(TP_LOAD_DIFF, 0, &d);
	is_int(d.task, 2, "load-diff: from the node whose load rose most");

	/* a rise under the threshold does nothing */
	reset();
	w[2].load = w[2].rise = 0.4;
	ok(decide(TP_LOAD_DIFF, 0, &d) == 0, "load-diff: a rise of 0.4 < 0.5: no move");
	ok(decide(TP_LOAD_DIFF, 0.3, &d) == 1, "load-diff: ... but over a threshold of 0.3");

	/* no spare: the worker whose load fell most, if it is lower by the threshold */
	reset();
	w[4].alive = 0;
	w[2].load = w[2].rise = 2;
	w[1].load = 1.8;
	w[1].rise = -0.2;
	w[3].load = 0.2;
	w[3].rise = -1;
	ok(decide(TP_LOAD_DIFF, 0, &d) == 1, "load-diff, no spare: a move");
	is_int(d.to, 3, "load-diff, no spare: to the node whose load fell most");

	/* a loaded spare is no target */
	reset();
	w[2].load = w[2].rise = 2;
	w[4].load = 1.9;
	w[1].load = w[3].load = 1.9;
	ok(decide(TP_LOAD_DIFF, 0, &d) == 0, "load-diff: every other node as loaded: no move");

	/* a task that just moved, or is ending, stays */
	reset();
	w[2].load = w[2].rise = 2;
	t[1].movable = 0;
	ok(decide(TP_LOAD_DIFF, 0, &d) == 0, "load-diff: a task not movable (gap, moving) stays");
	t[1].movable = 1;
	t[1].left = 1;
	ok(decide(TP_LOAD_DIFF, 0, &d) == 0, "load-diff: a task with its last step left stays");

	/* the benefit test: 3 steps left of 0.1 s, a 100 MB state at 10 MB/s: not worth it */
	t[1].left = 3;
	t[1].step_s = 0.1;
	t[1].bytes = 100e6;
	ok(decide(TP_LOAD_DIFF, 0, &d) == 0, "load-diff: a move that costs more than it gains: none");
	t[1].bytes = 1e3;
	ok(decide(TP_LOAD_DIFF, 0, &d) == 1, "load-diff: ... the same with a small state: a move");
}

static void
check_load_abs(void)
{
	struct tp_decision d;

	reset();
	w[2].load = 2;
	w[2].over = TP_ABS_HOLD - 1;
	ok(decide(TP_LOAD_ABS, 0, &d) == 0, "load-abs: over 1.5 for %d looks: not yet",
	    TP_ABS_HOLD - 1);
	w[2].over = TP_ABS_HOLD;
	ok(decide(TP_LOAD_ABS, 0, &d) == 1, "load-abs: over 1.5 for %d looks: a move",
	    TP_ABS_HOLD);
	is_int(d.to, 4, "load-abs: to the idle spare");
	ok(strncmp(d.reason, "load-abs: n2 load 2.00 over 1.5 for 3 looks", 43) == 0,
	    "load-abs: the reason (%s)", d.reason);
	w[2].load = 1.4;
	ok(decide(TP_LOAD_ABS, 0, &d) == 0, "load-abs: under the threshold now: no move");
	w[2].load = 2;
	w[4].load = 1.6;
	w[1].load = w[3].load = 1.6;
	ok(decide(TP_LOAD_ABS, 0, &d) == 0, "load-abs: no node under the threshold: no move");
	ok(decide(TP_LOAD_ABS, 1.8, &d) == 1, "load-abs: threshold 1.8: a node under it");
}

static void
check_speed(void)
{
	struct tp_worker a, b;

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	a.mhz = b.mhz = 1000;
	a.tasks = 1;
	a.load = 1;
	is_dbl(tp_step_after(&a, &b, 2.0), 1.0, 1e-12,
	    "a step of 2 s on a node with load 1 takes 1 s on an idle one");
	b.tasks = 1;
	is_dbl(tp_step_after(&a, &b, 2.0), 2.0, 1e-12,
	    "... on an idle node that already holds a task, 2 s (they share it)");
	b.tasks = 0;
	b.mhz = 2000;
	is_dbl(tp_step_after(&a, &b, 2.0), 0.5, 1e-12, "... on an idle node twice as fast, 0.5 s");
	b.mhz = 0;
	is_dbl(tp_step_after(&a, &b, 2.0), 1.0, 1e-12, "an unknown clock counts as equal");
}

int
main(void)
{
	check_load_diff();
	check_load_abs();
	check_speed();
	return tap_done();
}
