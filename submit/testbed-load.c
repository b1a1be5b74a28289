/*
 * testbed-load.c — the background load of one testbed node (seed 001, section 5.2): CPU-bound
 * jobs arrive with exponential inter-arrival times (mean load_interval) and each takes a
 * fixed amount of work, load * load_interval CPU seconds, so that on an idle node the mean
 * number of running jobs is load (Little's law). The node's node_load1, as its
 * node_exporter serves it, is the one-minute exponential average of the running jobs, as the
 * kernel computes its own (sampled every second here), starting at load.
 */
#include <sys/wait.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "remote.h"
#include "testbed.h"

static double
load_cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One background job: spin until it has used work CPU seconds. */
static void __attribute__((__noreturn__))
load_job(double work)
{
	volatile unsigned long x = 0;

	prctl(PR_SET_NAME, "gs-load-job");
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	while (load_cpu_seconds() < work)
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
	_exit(0);
}

static void
load_write(const char *promfile, double load1, int running)
{
	char text[256];

	snprintf(text, sizeof text, "# emulated load (gridsubmit testbed)\nnode_load1 %.4f\n"
	    "gridsubmit_testbed_load_jobs %d\n", load1, running);
	tb_write_file(promfile, text, 0644);
}

void
tb_load_main(const char *promfile, double load, double interval, unsigned seed)
{
	unsigned short xs[3] = { (unsigned short)seed, (unsigned short)(seed >> 16), 0x330e };
	double work = load * interval, next, tick, avg = load;
	const double decay = exp(-1.0 / 60.0);
	struct timespec ts = { 0, 100000000L };
	int running = 0, st;

	next = remote_now() - interval * log(1.0 - erand48(xs));
	tick = remote_now() + 1;
	load_write(promfile, avg, running);
	for (;;) {
		double now = remote_now();

		while (waitpid(-1, &st, WNOHANG) > 0)
			running--;
		if (now >= next) {
			pid_t pid = fork();

			if (pid == 0)
				load_job(work);
			if (pid > 0)
				running++;
			next += -interval * log(1.0 - erand48(xs));
		}
		if (now >= tick) {
			avg = avg * decay + running * (1 - decay);
			load_write(promfile, avg, running);
			tick += 1;
		}
		nanosleep(&ts, NULL);
	}
}
