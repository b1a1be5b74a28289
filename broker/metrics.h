/*
 * metrics.h — live node metrics (doc/broker.md, "Live metrics"): every node's monitor URL
 * (Prometheus node_exporter text format) fetched concurrently with libcurl's multi interface, and the
 * CS and CL terms of the performance function (seed 002, eq. 2) computed from them.
 */
#ifndef GS_METRICS_H
#define GS_METRICS_H

#include <stddef.h>

#include "broker/site.h"

struct metrics_opts {
	double connect_timeout;	/* seconds; <= 0: 2 */
	double timeout;		/* seconds for the whole fetch; <= 0: 5 */
	size_t max_body;	/* bytes per response; 0: 4 MiB */
	int max_parallel;	/* connections at once; <= 0: 256 (capped by RLIMIT_NOFILE) */
};

#define METRICS_CONNECT_TIMEOUT	2.0
#define METRICS_TIMEOUT		5.0
/* The range a timeout may be set to (rank --timeout, the configuration's metrics_timeout). */
#define METRICS_TIMEOUT_MIN	0.1
#define METRICS_TIMEOUT_MAX	600.0
#define METRICS_MAX_BODY	(4u * 1024 * 1024)
#define METRICS_MAX_PARALLEL	256

/*
 * What a monitor may claim (doc/broker.md, "Values from a monitor"): a response beyond
 * these is refused whole, as a broken or hostile exporter, so that it cannot steer the
 * placement. 4096 CPUs is Linux's default NR_CPUS on x86_64; no CPU is clocked at 10 GHz;
 * 64 TiB is above the largest single machines sold.
 */
#define METRICS_MAX_CORES	4096
#define METRICS_MAX_MHZ		10000.0
#define METRICS_MAX_MEM_MB	(64.0 * 1024 * 1024)
/*
 * Bounds on a response's work and on the rest of its values: at most this many sample
 * lines are read (node_exporter serves a few thousand; 4096 CPUs with a dozen lines each
 * are about 50,000); a load above 1,000,000 (a run queue of 250 per CPU of the largest
 * machine) is refused; a clock below 1 MHz is none (no CPU made since 1975 is that
 * slow, and CS = MHz x cores must never come near 0); a CPU counter above 10^12 s
 * (31,000 years) is left out of the busy fraction, as a NaN is.
 */
#define METRICS_MAX_SAMPLES	200000
#define METRICS_MAX_LOAD	1000000.0
#define METRICS_MIN_MHZ		1.0
#define METRICS_MAX_CPU_SECONDS	1e12

/* What one response says. */
struct metrics_sample {
	double load1;		/* node_load1 */
	int cores;		/* distinct cpu labels of node_cpu_seconds_total{mode="idle"}; 0 */
	double mhz;		/* mean CPU frequency, 0 when the exporter has none */
	/*
	 * The highest maximum frequency of node_cpu_frequency_max_hertz (cpuinfo_max_freq),
	 * else of node_cpu_scaling_frequency_max_hertz, in MHz; 0 when it has neither.
	 */
	double max_mhz;
	double mem_mb;		/* node_memory_MemTotal_bytes in MiB, 0 when absent */
	double cpu_total;	/* node_cpu_seconds_total summed over every cpu and mode */
	double cpu_idle;	/* the same over modes idle and iowait (not busy) */
};

/*
 * Fetch the metrics of every node with a monitor URL (identical URLs fetched once), all at
 * once, and apply them: have_metrics, load1, live_cores, live_mhz, live_cpu_total,
 * live_cpu_idle, and the values the site file left to the monitor (cores, slots following
 * them, cpu_mhz, mem_mb: node-values.h), values_read once all of those were there; or
 * have_metrics = 0 and stale = "URL: reason" (the site-file values, and values read
 * before, stay). Nodes without a URL are left alone.
 * Returns within opt->timeout (plus scheduling slack) the number of nodes whose metrics were
 * read, or -1 when libcurl cannot be set up (every monitored node is then stale). opt may
 * be NULL for the defaults.
 */
int metrics_fetch(struct gs_sites *sites, const struct metrics_opts *opt);

/*
 * Parse a Prometheus text-format body. Returns 0, or -1 with why ("no node_load1 in the
 * response", "not Prometheus text format (line 3)", "node_load1 is NaN", "it claims more
 * than 4096 CPUs", "more than 200000 samples"). The work is bounded: each line is read
 * once, a CPU label is looked up in a hash of at most METRICS_MAX_CORES + 1 entries.
 */
int metrics_parse(const char *body, size_t len, struct metrics_sample *out, char *why,
    size_t whylen);

/*
 * metrics_parse that gives up once clock_mono() passes deadline (<= 0: never), looked at
 * every 1,024 lines: -1 with why "no time left to read its N lines" (the fetch's deadline
 * bounds the parse as it bounds the transfer).
 */
int metrics_parse_by(const char *body, size_t len, double deadline,
    struct metrics_sample *out, char *why, size_t whylen);

/* Clear a node's live values and stale reason (before a new fetch). */
void metrics_clear(struct gs_node *n);

/*
 * The terms of the performance function (seed 002, eq. 2; doc/broker.md, "The terms"):
 * usable cores = the site file's cores, capped by the CPUs the exporter saw (a node cannot
 *   use more cores than it has; the site file may grant fewer); at least 1.
 * MHz = the live mean frequency when the exporter has one, else the site file's cpu_mhz.
 * CS = MHz x usable cores.
 * CL = 1 + load1 / cores, cores being every CPU the exporter saw (load1 is system-wide),
 *   else the site file's; 1 without live metrics.
 */
int metrics_node_cores(const struct gs_node *n);
double metrics_node_mhz(const struct gs_node *n);
double metrics_node_cs(const struct gs_node *n);
double metrics_node_cl(const struct gs_node *n);

#endif
