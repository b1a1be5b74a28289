/*
 * host-probe.c — this host's cores, memory and clock (host-probe.h), read the way a
 * process finds its own share of a machine: its CPU affinity and cgroup v2 limits first,
 * because a container or a Slurm step sees the whole machine in /proc but may use only
 * part of it.
 */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker/host-probe.h"
#include "common/file.h"

/* Bigger than any of the small files read here (/proc/cpuinfo of a few hundred CPUs). */
#define HP_MAX_FILE	(4u << 20)

/* root + path into buf; 0, or -1 when it does not fit. */
static int
hp_path(char *buf, size_t len, const char *root, const char *path)
{
	int n = snprintf(buf, len, "%s%s", root, path);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* The whole of root/path (allocated, NUL-terminated), or NULL. */
static char *
hp_read(const char *root, const char *path)
{
	char full[4096], *buf;
	size_t len;

	if (hp_path(full, sizeof full, root, path) == -1 ||
	    file_read(full, HP_MAX_FILE, &buf, &len) == -1)
		return NULL;
	return buf;
}

/* The cgroup v2 path of this process ("0::/PATH" of /proc/self/cgroup), or NULL. */
static char *
hp_cgroup(const char *root)
{
	char *buf = hp_read(root, "/proc/self/cgroup"), *p, *eol, *path = NULL;

	for (p = buf; p != NULL && *p != '\0'; p = eol + 1) {
		if ((eol = strchr(p, '\n')) != NULL)
			*eol = '\0';
		if (strncmp(p, "0::/", 4) == 0) {
			path = strdup(p + 3);
			break;
		}
		if (eol == NULL)
			break;
	}
	free(buf);
	return path;
}

/*
 * The lowest limit that file (cpu.max or memory.max) sets in the cgroup at cg and its
 * ancestors, as read by parse; -1 when none sets one ("max", or no such file).
 */
static double
hp_cgroup_limit(const char *root, const char *cg, const char *file,
    double (*parse)(const char *))
{
	char path[4096], *buf, *slash;
	double low = -1, v;

	/* the root cgroup "/" is the directory itself */
	if (hp_path(path, sizeof path, "/sys/fs/cgroup", strcmp(cg, "/") == 0 ? "" : cg) == -1)
		return -1;
	for (;;) {
		size_t n = strlen(path);

		if (n + 1 + strlen(file) + 1 > sizeof path)
			return low;
		snprintf(path + n, sizeof path - n, "/%s", file);
		if ((buf = hp_read(root, path)) != NULL) {
			if ((v = parse(buf)) >= 0 && (low < 0 || v < low))
				low = v;
			free(buf);
		}
		path[n] = '\0';
		if (strcmp(path, "/sys/fs/cgroup") == 0 ||
		    (slash = strrchr(path, '/')) == NULL)
			return low;
		*slash = '\0';
	}
}

/* cpu.max: "QUOTA PERIOD" in microseconds, or "max PERIOD": CPUs, rounded up. */
static double
hp_parse_cpu_max(const char *s)
{
	double quota, period;

	if (sscanf(s, "%lf %lf", &quota, &period) != 2 || quota <= 0 || period <= 0)
		return -1;
	return ceil(quota / period);
}

/* memory.max: bytes, or "max": MiB. */
static double
hp_parse_mem_max(const char *s)
{
	double bytes;

	if (sscanf(s, "%lf", &bytes) != 1 || bytes <= 0)
		return -1;
	return bytes / (1024.0 * 1024.0);
}

/* cores: the affinity's CPUs, lowered to the cgroup's quota (host-probe.h). */
static void
hp_cores(const char *cg, const char *root, struct host_facts *f)
{
	cpu_set_t set;
	double quota;
	long online;

	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) {
		f->cores = CPU_COUNT(&set);
		f->cores_how = "affinity";
	} else {
		online = sysconf(_SC_NPROCESSORS_ONLN);
		f->cores = online > 0 ? (int)online : 1;
		f->cores_how = "online CPUs";
	}
	if (cg != NULL && (quota = hp_cgroup_limit(root, cg, "cpu.max",
	    hp_parse_cpu_max)) >= 1 && quota < f->cores) {
		f->cores = (int)quota;
		f->cores_how = "cgroup cpu.max";
	}
}

/* mem_mb: MemTotal, lowered to the cgroup's memory.max. */
static void
hp_mem(const char *cg, const char *root, struct host_facts *f)
{
	char *buf = hp_read(root, "/proc/meminfo"), *p;
	double kb, limit;

	f->mem_mb = 0;
	f->mem_how = "unreadable";
	if (buf != NULL && (p = strstr(buf, "MemTotal:")) != NULL &&
	    sscanf(p + 9, "%lf", &kb) == 1 && kb > 0) {
		f->mem_mb = kb / 1024.0;
		f->mem_how = "MemTotal";
	}
	free(buf);
	if (cg != NULL && (limit = hp_cgroup_limit(root, cg, "memory.max",
	    hp_parse_mem_max)) > 0 && (f->mem_mb == 0 || limit < f->mem_mb)) {
		f->mem_mb = limit;
		f->mem_how = "cgroup memory.max";
	}
}

/*
 * cpu_mhz: the CPU's maximum clock from cpufreq; a VM without cpufreq says only the
 * current clock of each CPU in /proc/cpuinfo, of which the highest is taken.
 */
static void
hp_mhz(const char *root, struct host_facts *f)
{
	char *buf, *p;
	double v, best = 0;

	f->cpu_mhz = 0;
	f->mhz_how = "unreadable";
	buf = hp_read(root, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
	if (buf != NULL && sscanf(buf, "%lf", &v) == 1 && v > 0) {
		/* kHz */
		f->cpu_mhz = v / 1000.0;
		f->mhz_how = "cpufreq";
		free(buf);
		return;
	}
	free(buf);
	buf = hp_read(root, "/proc/cpuinfo");
	for (p = buf; p != NULL && (p = strstr(p, "cpu MHz")) != NULL; p += 7) {
		const char *colon = strchr(p, ':');

		if (colon != NULL && sscanf(colon + 1, "%lf", &v) == 1 && v > best)
			best = v;
	}
	free(buf);
	if (best > 0) {
		f->cpu_mhz = best;
		f->mhz_how = "/proc/cpuinfo";
	}
}

void
host_probe_read(const char *root, struct host_facts *f)
{
	char *cg = hp_cgroup(root);

	memset(f, 0, sizeof *f);
	hp_cores(cg, root, f);
	hp_mem(cg, root, f);
	hp_mhz(root, f);
	free(cg);
}

void
host_probe_fill(struct gs_sites *sites)
{
	struct host_facts f;
	int read = 0;
	size_t i;

	for (i = 0; i < sites->nnodes; i++) {
		struct gs_node *n = &sites->nodes[i];

		if (n->cores_src != GS_SRC_HOST && n->mhz_src != GS_SRC_HOST &&
		    n->mem_src != GS_SRC_HOST)
			continue;
		if (!read)
			host_probe_read("", &f);
		read = 1;
		if (n->cores_src == GS_SRC_HOST) {
			n->cores = f.cores;
			n->cores_how = f.cores_how;
			if (n->slots_auto)
				n->slots = f.cores;
		}
		if (n->mhz_src == GS_SRC_HOST) {
			n->cpu_mhz = f.cpu_mhz;
			n->mhz_how = f.mhz_how;
		}
		if (n->mem_src == GS_SRC_HOST) {
			n->mem_mb = f.mem_mb;
			n->mem_how = f.mem_how;
		}
	}
}
