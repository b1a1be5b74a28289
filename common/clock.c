/* clock.c — see clock.h. */
#include <time.h>

#include "common/clock.h"

static double
clock_read(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

double
clock_mono(void)
{
	return clock_read(CLOCK_MONOTONIC);
}

double
clock_wall(void)
{
	return clock_read(CLOCK_REALTIME);
}
