/* pstat.h — a process as /proc/PID/stat tells it: its state, parent, group and start time. */
#ifndef GS_PSTAT_H
#define GS_PSTAT_H

#include <sys/types.h>

struct pstat {
	char state;		/* R, S, D, Z, ... */
	pid_t ppid;
	pid_t pgrp;
	unsigned long long start;	/* clock ticks since boot: a recycled pid differs */
};

/* 0 with ps filled, or -1 when there is no such process. */
int pstat_read(pid_t pid, struct pstat *ps);

/* The start time of pid (clock ticks since boot), 0 when unknown. */
unsigned long long pstat_start_time(pid_t pid);

#endif
