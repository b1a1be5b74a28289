/*
 * test-deadline.c — the deadline of a worker's chunk (runtime/core/grt-deadline.c,
 * doc/runtime.md "Failures"): nothing measured, the generous first bound or the job's
 * deadline; then a multiple of the expected time, floored by 2 s or by the job's deadline;
 * the expected rate is the slowest of the worker's last, its mean and the job's slowest
 * chunk, so a silent worker of short chunks is found in seconds and a slow one is not.
 */
#include "runtime/core/grt-deadline.h"
#include "tests/tap.h"

static void
check_rate(void)
{
	is_dbl(grt_deadline_rate(0, 0, 0), 0, 0, "nothing measured: no rate");
	is_dbl(grt_deadline_rate(0, 0, 0.02), 0.02, 0,
	    "a worker with no chunk of its own: the job's rate");
	is_dbl(grt_deadline_rate(0.01, 0.01, 0.5), 0.5, 0,
	    "a worker whose chunks were cheap: the job's slowest chunk's rate");
	is_dbl(grt_deadline_rate(0.01, 0.03, 0.02), 0.03, 0,
	    "its last chunk cheaper than its mean: the mean");
	is_dbl(grt_deadline_rate(0.05, 0.03, 0.02), 0.05, 0,
	    "its last chunk slower than its mean: the last");
}

static void
check_allow(void)
{
	is_dbl(grt_deadline_allow(0, GRT_DEADLINE_FACTOR, 0), 60, 0,
	    "the job's first chunks, nothing measured: 60 s");
	is_dbl(grt_deadline_allow(7, GRT_DEADLINE_FACTOR, 0), 7, 0,
	    "... or the job's deadline when it sets one");
	is_dbl(grt_deadline_allow(0, GRT_DEADLINE_FACTOR, 0.1), 2, 0,
	    "a chunk of 0.1 s: the floor, 2 s");
	is_dbl(grt_deadline_allow(0, GRT_DEADLINE_FACTOR, 1), 4, 1e-12,
	    "a chunk of 1 s: 4 x 1 s, so a silent worker is requeued within 5 s");
	ok(grt_deadline_allow(0, GRT_DEADLINE_FACTOR, 1) > 3 * 1.3,
	    "a chunk of 1 s on a worker become 3 times slower, and 30%% noise, is in time");
	is_dbl(grt_deadline_allow(0, GRT_DEADLINE_FACTOR, 100), 400, 1e-9,
	    "a chunk of 100 s: 400 s, no fixed cap");
	is_dbl(grt_deadline_allow(60, GRT_DEADLINE_FACTOR, 1), 60, 0,
	    "deadline: 60 is the floor (the old default's behaviour)");
	is_dbl(grt_deadline_allow(3, GRT_DEADLINE_FACTOR, 0.1), 3, 0,
	    "deadline: 3 over a chunk of 0.1 s: 3 s");
	is_dbl(grt_deadline_allow(3, GRT_DEADLINE_FACTOR, 10), 40, 1e-9,
	    "deadline: 3 under a chunk of 10 s: 4 x 10 s");
}

int
main(void)
{
	check_rate();
	check_allow();
	return tap_done();
}
