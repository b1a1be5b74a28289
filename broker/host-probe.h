/*
 * host-probe.h — this machine as the broker sees it (doc/broker.md, "This host"): the
 * cores this process may use, its memory and its clock, read from the kernel, for the
 * nodes of a site file whose host is this host and whose values the file leaves out (the
 * embedded sites/localhost.yaml leaves them all out).
 */
#ifndef GS_HOST_PROBE_H
#define GS_HOST_PROBE_H

#include "broker/site.h"

/*
 * What was read, each value with how (a static string, named by rank --explain):
 * cores: sched_getaffinity's CPUs ("affinity"), lowered to a cgroup v2 cpu.max quota
 *   rounded up ("cgroup cpu.max") when that is fewer; the online CPUs ("online CPUs")
 *   when affinity cannot be read; at least 1.
 * mem_mb: /proc/meminfo's MemTotal in MiB ("MemTotal"), lowered to the cgroup v2
 *   memory.max ("cgroup memory.max"); 0 with how "unreadable" when neither can be read.
 * cpu_mhz: sysfs cpufreq's cpuinfo_max_freq ("cpufreq"), else the highest "cpu MHz" of
 *   /proc/cpuinfo ("/proc/cpuinfo"); 0 with how "unreadable".
 * The cgroup limits are the lowest of the process's cgroup and its ancestors'.
 */
struct host_facts {
	int cores;
	double mem_mb;
	double cpu_mhz;
	const char *cores_how, *mem_how, *mhz_how;
};

/*
 * Read this host; root is prefixed to every /proc and /sys path ("" for the real files;
 * a directory laid out like them for a test). Never fails: what cannot be read is said
 * in its how.
 */
void host_probe_read(const char *root, struct host_facts *f);

/*
 * Fill the values of every node of sites whose source is GS_SRC_HOST (site-load.c sets
 * it for a value left out on a node whose host is this host) from one reading of this
 * host; slots follow cores where the file left slots out. Reads nothing when no node
 * needs it.
 */
void host_probe_fill(struct gs_sites *sites);

#endif
