/*
 * test-host-values.c — a node's values and where they come from: this host read from a
 * tree laid out as /proc and /sys are (cgroup v2 limits of the process and its ancestors,
 * MemTotal, cpufreq, /proc/cpuinfo, what is missing), and the values a monitor's answer
 * fills in, the reasons a node whose monitor never gave them cannot be ranked, and the
 * names of the sources. The real /proc and a real node_exporter: tests/broker/test-hosts.sh.
 */
#include <sys/stat.h>

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker/host-probe.h"
#include "broker/node-values.h"
#include "common/file.h"
#include "common/fstree.h"
#include "tests/tap.h"

static char root[] = "/tmp/gs-host-values.XXXXXX";

/* root/path with text in it, its directories made. */
static void
put(const char *path, const char *text)
{
	char full[512], *p;

	snprintf(full, sizeof full, "%s/%s", root, path);
	for (p = full + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(full, 0755);
		*p = '/';
	}
	if (file_write(full, text, strlen(text)) != 0)
		ok(0, "cannot write %s", full);
}

static void
test_probe(void)
{
	struct host_facts f;
	cpu_set_t set;
	int mine = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;

	/* nothing to read but the affinity */
	host_probe_read(root, &f);
	is_int(f.cores, mine, "empty tree: the affinity's CPUs");
	is_str(f.cores_how, "affinity", "empty tree: cores from the affinity");
	is_str(f.mem_how, "unreadable", "empty tree: memory unreadable");
	is_dbl(f.mem_mb, 0, 0, "empty tree: memory 0");
	is_str(f.mhz_how, "unreadable", "empty tree: clock unreadable");

	put("proc/self/cgroup", "12:cpu:/v1/only\n0::/a/b\n");
	put("proc/meminfo", "MemTotal:       16777216 kB\nMemFree:  1 kB\n");
	put("proc/cpuinfo", "processor\t: 0\ncpu MHz\t\t: 1800.5\n\nprocessor\t: 1\n"
	    "cpu MHz\t\t: 2400.25\n");
	put("sys/fs/cgroup/a/b/cpu.max", "50000 100000\n");
	put("sys/fs/cgroup/a/b/memory.max", "max\n");
	put("sys/fs/cgroup/a/memory.max", "1073741824\n");
	host_probe_read(root, &f);
	/* half a CPU is one, rounded up; lower than the affinity's only with 2 or more */
	is_int(f.cores, 1, "cpu.max 0.5 CPU: 1 core");
	is_str(f.cores_how, mine > 1 ? "cgroup cpu.max" : "affinity", "cpu.max: its source");
	is_dbl(f.mem_mb, 1024, 1e-9, "an ancestor's memory.max, lower than MemTotal");
	is_str(f.mem_how, "cgroup memory.max", "memory.max: its source");
	is_dbl(f.cpu_mhz, 2400.25, 1e-9, "/proc/cpuinfo: the highest cpu MHz");
	is_str(f.mhz_how, "/proc/cpuinfo", "cpu MHz: its source");

	put("sys/fs/cgroup/a/b/cpu.max", "max 100000\n");
	put("sys/fs/cgroup/a/memory.max", "68719476736\n");
	put("sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "3600000\n");
	host_probe_read(root, &f);
	is_int(f.cores, mine, "cpu.max max: the affinity's");
	is_dbl(f.mem_mb, 16384, 1e-9, "memory.max above MemTotal: MemTotal in MiB");
	is_str(f.mem_how, "MemTotal", "MemTotal: its source");
	is_dbl(f.cpu_mhz, 3600, 1e-9, "cpufreq's maximum, before /proc/cpuinfo");
	is_str(f.mhz_how, "cpufreq", "cpufreq: its source");

	put("sys/fs/cgroup/a/b/cpu.max", "250000 100000\n");
	host_probe_read(root, &f);
	is_int(f.cores, mine < 3 ? mine : 3, "cpu.max 2.5 CPUs: 3, or the affinity's when fewer");
	ok(fstree_remove(root) == 0, "tree removed");
}

static struct gs_node
monitored(int cores_left, int mhz_left, int mem_left)
{
	struct gs_node n;

	memset(&n, 0, sizeof n);
	n.host = "n1";
	n.monitor = "http://n1:9100/metrics";
	n.cores_src = cores_left ? GS_SRC_MONITOR : GS_SRC_SITE;
	n.mhz_src = mhz_left ? GS_SRC_MONITOR : GS_SRC_SITE;
	n.mem_src = mem_left ? GS_SRC_MONITOR : GS_SRC_SITE;
	n.slots_auto = 1;
	if (!cores_left)
		n.cores = n.slots = 2;
	if (!mhz_left)
		n.cpu_mhz = 1500;
	return n;
}

static void
test_values(void)
{
	struct metrics_sample s = { .load1 = 0.5, .cores = 8, .mhz = 2000, .max_mhz = 3000,
	    .mem_mb = 4096 };
	struct gs_node n = monitored(1, 1, 1);
	char buf[1024];

	is_str(node_values_missing(&n, buf, sizeof buf), "cores, cpu_mhz, mem_mb left to its "
	    "monitor http://n1:9100/metrics, which was not read (metrics are off)",
	    "not read: every value named");
	is_str(node_value_source(&n, NODE_VALUE_CORES, buf, sizeof buf),
	    "monitor http://n1:9100/metrics, not read", "source before the answer");
	n.stale = "http://n1:9100/metrics: connection refused";
	is_str(node_values_missing(&n, buf, sizeof buf), "cores, cpu_mhz, mem_mb left to its "
	    "monitor, which cannot be read: http://n1:9100/metrics: connection refused",
	    "stale: the reason");
	n.stale = NULL;
	n.have_metrics = 1;
	node_values_from_monitor(&n, &s);
	ok(node_values_missing(&n, buf, sizeof buf) == NULL, "answered: nothing missing");
	is_int(n.cores, 8, "cores from the CPUs");
	is_int(n.slots, 8, "slots follow the cores");
	is_dbl(n.cpu_mhz, 3000, 0, "cpu_mhz from the maximum clock, not the current one");
	is_dbl(n.mem_mb, 4096, 0, "mem_mb from MemTotal");
	is_str(node_value_source(&n, NODE_VALUE_MEM, buf, sizeof buf),
	    "monitor http://n1:9100/metrics", "source after the answer");
	/* a later answer that fails keeps what was read */
	n.have_metrics = 0;
	n.stale = "http://n1:9100/metrics: timed out after 5.0 s";
	ok(node_values_missing(&n, buf, sizeof buf) == NULL, "read once: kept");

	n = monitored(0, 1, 0);
	s.max_mhz = 0;
	n.have_metrics = 1;
	node_values_from_monitor(&n, &s);
	is_str(node_values_missing(&n, buf, sizeof buf), "its monitor http://n1:9100/metrics "
	    "serves no node_cpu_frequency_max_hertz or node_cpu_scaling_frequency_max_hertz "
	    "(for cpu_mhz)", "an answer without the clock: the metric named");
	is_int(n.cores, 2, "a value the site file gives is not replaced");
	is_str(node_value_source(&n, NODE_VALUE_CORES, buf, sizeof buf), "site file",
	    "site file: its source");

	n.cores_src = GS_SRC_HOST;
	n.cores_how = "affinity";
	n.mem_src = GS_SRC_NONE;
	is_str(node_value_source(&n, NODE_VALUE_CORES, buf, sizeof buf), "this host: affinity",
	    "this host: its source");
	is_str(node_value_source(&n, NODE_VALUE_MEM, buf, sizeof buf), "not given",
	    "left out with neither: not given");
}

int
main(void)
{
	if (mkdtemp(root) == NULL) {
		ok(0, "mkdtemp");
		return 1;
	}
	test_probe();
	test_values();
	return tap_done();
}
