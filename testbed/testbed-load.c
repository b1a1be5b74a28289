/*
 * testbed-load.c — the background load of one testbed node (seed 001, section 5.2): CPU-bound
 * jobs arrive with exponential inter-arrival times (mean load_interval) and each takes a
 * fixed amount of work. The jobs share the node's CPUs (its quota), a processor-sharing
 * queue: with utilisation rho = work / (load_interval * cpus), the mean number of jobs on an
 * otherwise idle one-CPU node is rho / (1 - rho) (M/G/1-PS, whatever the work's
 * distribution), so work = cpus * load_interval * load / (1 + load) makes it load. A work of
 * load * load_interval, as first written, needs load CPUs: on a smaller node the jobs
 * piled up without bound (measured: 20 running after a minute for load 2 on half a CPU,
 * and the node's sshd, in the same cgroup, timed out). A job that would make more than
 * LOAD_MAX_FACTOR * load + LOAD_MAX_EXTRA run at once is not started (the node's own jobs
 * can take its CPUs too) and counted as dropped. The node's node_load1, as its
 * node_exporter serves it, is the one-minute exponential average of the running jobs, as
 * the kernel computes its own (sampled every second here), starting at load.
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

#include "common/clock.h"
#include "common/file.h"
#include "common/xmalloc.h"
#include "testbed/testbed.h"

#define LOAD_MAX_FACTOR	4
#define LOAD_MAX_EXTRA	4

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

/* dir/name (the node's textfile directory and its load.prom) replaced at once. */
static void
load_write(const char *dir, const char *name, double load1, int running, long dropped)
{
	char text[256];

	snprintf(text, sizeof text, "# emulated load (gridsubmit testbed)\nnode_load1 %.4f\n"
	    "gridsubmit_testbed_load_jobs %d\ngridsubmit_testbed_load_dropped %ld\n", load1,
	    running, dropped);
	file_write_atomic(dir, name, text, strlen(text), 0644);
}

void
tb_load_main(const char *promfile, double load, double interval, double cpus, unsigned seed)
{
	unsigned short xs[3] = { (unsigned short)seed, (unsigned short)(seed >> 16), 0x330e };
	double work = cpus * interval * load / (1 + load), next, tick, avg = load;
	const double decay = exp(-1.0 / 60.0);
	struct timespec ts = { 0, 100000000L };
	int running = 0, st, most = (int)(LOAD_MAX_FACTOR * load) + LOAD_MAX_EXTRA;
	const char *slash = strrchr(promfile, '/');
	char *dir = slash != NULL ? xstrndup(promfile, (size_t)(slash - promfile)) :
	    xstrdup(".");
	const char *name = slash != NULL ? slash + 1 : promfile;
	long dropped = 0;

	next = clock_mono() - interval * log(1.0 - erand48(xs));
	tick = clock_mono() + 1;
	load_write(dir, name, avg, running, dropped);
	for (;;) {
		double now = clock_mono();

		while (waitpid(-1, &st, WNOHANG) > 0)
			running--;
		if (now >= next) {
			pid_t pid = running < most ? fork() : -1;

			if (pid == 0)
				load_job(work);
			if (pid > 0)
				running++;
			else
				dropped++;
			next += -interval * log(1.0 - erand48(xs));
		}
		if (now >= tick) {
			avg = avg * decay + running * (1 - decay);
			load_write(dir, name, avg, running, dropped);
			tick += 1;
		}
		nanosleep(&ts, NULL);
	}
}
