/* pstat.c — a process as /proc/PID/stat tells it (pstat.h). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/pstat.h"

int
pstat_read(pid_t pid, struct pstat *ps)
{
	char path[64], buf[1024], *p;
	unsigned long long start;
	int ppid, pgrp, fd;
	ssize_t n;
	char state;

	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* the command name may hold spaces and parentheses: the fields follow the last ')' */
	if ((p = strrchr(buf, ')')) == NULL)
		return -1;
	if (sscanf(p + 1, " %c %d %d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d "
	    "%*d %*d %llu", &state, &ppid, &pgrp, &start) != 4)
		return -1;
	ps->state = state;
	ps->ppid = (pid_t)ppid;
	ps->pgrp = (pid_t)pgrp;
	ps->start = start;
	return 0;
}

unsigned long long
pstat_start_time(pid_t pid)
{
	struct pstat ps;

	return pstat_read(pid, &ps) == 0 ? ps.start : 0;
}
