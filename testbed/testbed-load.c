/*
 * testbed-load.c — the background load of one testbed node (seed 001, section 5.2), the
 * model of common/loadgen.h run by real processes: CPU-bound jobs arrive with exponential
 * inter-arrival times (mean load_interval), drawn by loadgen for the node's host name and
 * LOADGEN_SEED, so that `gridsubmit simulate` with that seed meets the same arrivals; each
 * spins until it has used loadgen_work() CPU seconds. The jobs share the node's CPUs (its
 * quota), a processor-sharing queue: on an otherwise idle node the mean number running is
 * load. A work of load * load_interval, as first written, needed load CPUs: on a smaller
 * node the jobs piled up without bound (measured: 20 running after a minute for load 2 on
 * half a CPU, and the node's sshd, in the same cgroup, timed out). A job that would make
 * more than loadgen_most() run at once is not started and counted as dropped. The node
 * starts with no job running, as the simulation's. Each arrival is a line on stdout (the
 * node's load.log): its time since the start and whether it ran. The node's node_load1,
 * as its node_exporter serves it, is the one-minute exponential average of the running
 * jobs, as the kernel computes its own (sampled every second here), starting at load.
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
#include "common/loadgen.h"
#include "common/xmalloc.h"
#include "testbed/testbed.h"

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
tb_load_main(const char *promfile, const char *host, double load, double interval,
    double cpus)
{
	double work = loadgen_work(cpus, interval, load), start, next, tick, avg = load;
	const double decay = exp(-1.0 / 60.0);
	struct timespec ts = { 0, 100000000L };
	int running = 0, st, most = loadgen_most(load);
	const char *slash = strrchr(promfile, '/');
	char *dir = slash != NULL ? xstrndup(promfile, (size_t)(slash - promfile)) :
	    xstrdup(".");
	const char *name = slash != NULL ? slash + 1 : promfile;
	struct loadgen gen;
	long dropped = 0, arrivals = 0;

	loadgen_init(&gen, LOADGEN_SEED, host);
	start = clock_mono();
	next = start + loadgen_next(&gen, interval);
	tick = start + 1;
	printf("load %g, interval %g s, work %g CPU s, at most %d jobs, seed %d\n", load,
	    interval, work, most, LOADGEN_SEED);
	fflush(stdout);
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
			printf("arrival %ld at %.3f s: %s\n", ++arrivals, next - start,
			    pid > 0 ? "started" : "dropped");
			fflush(stdout);
			next += loadgen_next(&gen, interval);
		}
		if (now >= tick) {
			avg = avg * decay + running * (1 - decay);
			load_write(dir, name, avg, running, dropped);
			tick += 1;
		}
		nanosleep(&ts, NULL);
	}
}
