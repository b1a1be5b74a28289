/*
 * clock.h — the two clocks gridsubmit reads, in seconds as doubles: a monotonic one for
 * deadlines and durations, and the wall clock for times that are recorded (state.json).
 */
#ifndef GS_CLOCK_H
#define GS_CLOCK_H

/* CLOCK_MONOTONIC: for deadlines, timeouts and elapsed times; never jumps. */
double clock_mono(void);

/* CLOCK_REALTIME: seconds since the epoch, for times shown or stored. */
double clock_wall(void);

#endif
