/*
 * grt-deadline.c — the deadline of a worker's chunk or step from the times measured so
 * far (grt-deadline.h): adaptive, so that a silent worker is found in seconds, not after a
 * fixed minute, while one that is merely slower than before is left to finish.
 */
#include "runtime/core/grt-deadline.h"

double
grt_deadline_rate(double own_last, double own_mean, double job)
{
	double r = own_last > own_mean ? own_last : own_mean;

	if (job > r)
		r = job;
	return r > 0 ? r : 0;
}

double
grt_deadline_allow(double user, double factor, double expected)
{
	double floor = user > 0 ? user : GRT_DEADLINE_FLOOR, allow;

	if (expected <= 0)
		return user > 0 ? user : GRT_DEADLINE_FIRST;
	allow = factor * expected;
	return allow > floor ? allow : floor;
}
