/*
 * site.h — the node model of the broker: site files (gridsubmit-sites(5), SITE FILES)
 * loaded into sites and nodes, host ranges expanded, defaults merged.
 */
#ifndef GS_SITE_H
#define GS_SITE_H

#include <stddef.h>

#include "remote/remote.h"

/* Where something was read: for "file:line:col: message" errors. */
struct gs_loc {
	const char *file;	/* points to the owning model's path */
	int line;		/* 1-based */
	int col;		/* 1-based */
};

/* An error with its location, already formatted as "file:line:col: message". */
struct gs_error {
	char msg[1024];
	/*
	 * Where, when the YAML reader (yaml-doc.h) formatted it; line 0: not located. A list of
	 * errors (errlist.h) orders by it. file is the name being read: valid while it is.
	 */
	struct gs_loc loc;
};

struct gs_emulate {
	double cpu_scale;	/* 0 < cpu_scale <= 1: CPU quota of the testbed node; 1 = none */
	double load;		/* mean background CPU-bound jobs (seed 001, 5.2); 0 = none */
	double load_interval;	/* mean seconds between load arrivals (exponential) */
	int private_fs;		/* 1: the testbed node does not see this host's files */
};

/*
 * Where a node's cores, cpu_mhz and mem_mb come from (node-values.h): the site file (the
 * default), this host read by the broker (host-probe.h) when the node's host is this host,
 * or the node's monitor (metrics.h) when the site file leaves them to it; NONE: mem_mb
 * left out with neither (0, unknown, as before sources existed).
 */
enum gs_src {
	GS_SRC_SITE = 0,
	GS_SRC_HOST,
	GS_SRC_MONITOR,
	GS_SRC_NONE
};

struct gs_node {
	char *host;		/* one expanded host name */
	int site;		/* index into gs_sites.sites */
	double cpu_mhz;		/* CPU clock (MHz) */
	int cores;		/* usable cores */
	int slots;		/* ranks that may run here (default: cores) */
	double mem_mb;
	/*
	 * The source of each value; for GS_SRC_HOST how this host was read ("affinity",
	 * "cgroup cpu.max", "MemTotal", ...: a static string), for GS_SRC_MONITOR the
	 * metric it came from once read (static), else NULL. slots_auto: the site file left
	 * slots out, so they follow cores wherever cores come from.
	 */
	enum gs_src cores_src, mhz_src, mem_src;
	const char *cores_how, *mhz_how, *mem_how;
	int slots_auto;
	char *arch;		/* "x86_64", ... or NULL */
	struct remote_ssh ssh;
	char *monitor;		/* metrics URL with {host} expanded, or NULL */
	struct gs_emulate emulate;
	struct gs_loc loc;	/* where the node (or its host range) was defined */

	/* live metrics (metrics.h); site-file values stay in the fields above */
	int have_metrics;	/* 1 when the monitor answered */
	double load1;		/* node_load1 */
	int live_cores;		/* distinct CPUs seen, 0 if unknown */
	double live_mhz;	/* CPU frequency, 0 if unknown */
	double live_cpu_total;	/* CPU seconds so far, all modes (metrics_sample); 0 if unknown */
	double live_cpu_idle;	/* of which idle or iowait */
	char *stale;		/* why metrics could not be read, or NULL */
	int values_read;	/* 1: every value left to the monitor was read once */

	/* a relaunch leaves out a node that failed (doc/restarts.md): why, or NULL */
	char *excluded;

	/*
	 * A node of a Slurm site (gs_site.sched), from Slurm's own view of it (slurm-site.h):
	 * why Slurm cannot give it ("drained: disk full", "down", "not a node of Slurm"), or
	 * NULL; busy: 1 allocated to others (the ranking leaves it out), 2 the same but
	 * admitted because the job fits no other way (it will wait in Slurm's queue), else 0;
	 * Slurm's CPULoad, or -1 when not read; its features (comma-separated), or NULL.
	 */
	char *unavailable;
	int busy;
	double sched_load;
	char *features;
};

/*
 * A site behind a batch scheduler (gridsubmit-sites(5), "scheduler"): its nodes are
 * reached inside an allocation, through the login host (slurm-site.h).
 */
struct gs_sched {
	char *type;		/* "slurm" */
	char *login;		/* the login host */
	struct remote_ssh ssh;	/* how the login host is reached: the site's ssh settings */
	char *partition;	/* NULL: Slurm's default for each of these */
	char *account;
	char *time;		/* the allocation's time limit, as Slurm takes it ("HH:MM:SS") */
	char *qos;
	int auto_nodes;		/* nodes: auto — the nodes are read from Slurm */
	/*
	 * nodes: auto — what a node read from Slurm starts with: the merged defaults of the
	 * site (ssh, cpu_mhz, slots, arch, emulate); its monitor is the unexpanded template.
	 */
	struct gs_node proto;
	struct gs_loc loc;	/* where scheduler: is */
};

struct gs_site {
	char *name;
	double bandwidth_mbps;	/* link to the master */
	double latency_ms;
	struct gs_sched *sched;	/* NULL: the nodes are reached over ssh */
	struct gs_loc loc;
};

struct gs_sites {
	char *path;		/* the file (or "<embedded>/sites/localhost.yaml") */
	char *master;		/* host of rank 0; NULL: the submitting host */
	struct gs_site *sites;
	size_t nsites;
	struct gs_node *nodes;
	size_t nnodes;
};

/*
 * Load a site file: path as sites_find() resolves it (out->path is the resolved file).
 * Returns 0, or -1 with every error of the file in errs (errlist.h: "file:line:col:
 * message" in file order, the message saying what was expected and, for an unknown key,
 * the nearest known one). Rejects: input over 1 MiB, non-UTF-8 or binary input, anchors
 * and aliases, nesting deeper than 64, duplicate keys, duplicate hosts, wrong scalar types.
 * A YAML error (syntax, and the limits just named) stops the reading: it is the only one.
 */
struct gs_errlist;
int sites_load_file_errs(const char *path, struct gs_sites *out, struct gs_errlist *errs);

/* 1 when a --sites argument is a NAME: not empty, no '/', no ".yaml" suffix. */
int sites_arg_is_name(const char *arg);
/*
 * The file a --sites argument means: a path as it is; a NAME is NAME.yaml in
 * $XDG_CONFIG_HOME/gridsubmit/sites (default ~/.config/gridsubmit/sites), else in the
 * sites/ of the clone whose build/gridsubmit this program is, else in the installed
 * PREFIX/share/gridsubmit/sites. Returns an allocated path, or NULL with err naming the
 * places searched and, when one is near, the NAME meant ("did you mean").
 */
char *sites_find(const char *arg, struct gs_error *err);
/*
 * Every NAME that sites_find finds, from all its places: sorted, each once, as an allocated
 * array of allocated strings (free with strv_free), its length in *n.
 */
char **sites_names(size_t *n);
/* The same from memory; name is used in error messages. */
int sites_load_buffer_errs(const char *name, const char *buf, size_t len,
    struct gs_sites *out, struct gs_errlist *errs);
/* The embedded default, sites/localhost.yaml as built into the program. */
int sites_load_default_errs(struct gs_sites *out, struct gs_errlist *errs);
void sites_free(struct gs_sites *s);

/*
 * Expand a host range ("lz0[1-4]", "n[001-128]", "a[1,3,5-7]b") into names. Returns the
 * count (>= 1) and an allocated array in *out, or -1 with a message in why.
 */
int hostrange_expand(const char *pattern, char ***out, char *why, size_t whylen);
/* Free what hostrange_expand() returned (n names and the array). */
void hostrange_free(char **names, int n);

/*
 * slurm-time.c: a time limit in one of Slurm's formats ("MM", "MM:SS", "HH:MM:SS",
 * "D-HH", "D-HH:MM", "D-HH:MM:SS"; minutes and seconds below 60 after another field,
 * hours below 24 after days): a site's scheduler: {time} and the job file's time_limit.
 * Returns 0 with the seconds in *seconds (> 0), or -1 when s is not one.
 */
int slurm_time_parse(const char *s, long long *seconds);

/*
 * The ssh_config of a job (path) for every node of sites and the login host of every Slurm
 * site, with their ssh: settings (remote_write_ssh_config). 0, or -1 with why.
 */
int sites_write_ssh_config(const struct gs_sites *sites, const char *path, char *why,
    size_t whylen);

/* A monitor URL template with every {host} replaced by host (allocated). */
char *sites_monitor_expand(const char *tmpl, const char *host);


#endif
