/*
 * testbed.h — the emulated grid of `gridsubmit testbed` (doc/testbed.md): one network
 * namespace per node on a bridge, sshd and a node_exporter in each, tc shaping of each
 * node's link, a CPU quota per node (cgroups), background load generators. Everything
 * created is first written to a manifest, so that `down` removes it all, also after a
 * crash halfway through `up`. A site behind Slurm also gets its login host and a Slurm of its
 * own: munged and slurmctld on the login host, slurmd on each node (testbed-slurm.c).
 */
#ifndef GS_TESTBED_H
#define GS_TESTBED_H

#include <sys/types.h>

#include <stdio.h>

#include "broker/site.h"

/*
 * Each testbed takes a private /16 of its own at up, the first free one of 10.213.0.0/16 ..
 * 10.244.0.0/16 (its bridge at .0.1), so that testbeds of other names or users can be up
 * side by side; the choice is made under a lock of this host's (testbed-net.c).
 */
#define TB_NET_FIRST	213
#define TB_NET_COUNT	32
#define TB_NET_OLD	"10.213"	/* the net of a manifest written before the choice */
#define TB_NET_LOCK	"/run/lock/gridsubmit-testbed.lock"
#define TB_SSH_PORT	22
#define TB_EXPORTER_PORT 9100
#define TB_CG_PERIOD	100000	/* cgroup CPU period (microseconds) */
#define TB_CPU_MIN	0.01	/* the smallest quota cgroups take: 1 ms per period */
#define TB_SPEED_RESERVE 0.5	/* CPUs no quota may take: the master rank, the delay lines */
#define TB_SLURMCTLD_PORT 6817	/* Slurm's defaults: each login host and node has its own address */
#define TB_SLURMD_PORT	6818
#define TB_SLURM_IDLE_WAIT 30.0	/* seconds `up` waits for Slurm to see every node idle */

struct tb_node {
	const struct gs_node *node;
	char addr[16];		/* NET.S.N: S = site index + 1, N = node index in site + 1 */
	char netns[300];	/* gs-TAG-HOST */
	char veth[16];		/* root side, on the bridge */
	char peer[16];		/* node side before it is renamed eth0 in the namespace */
	char *dir;		/* STATE/nodes/HOST */
	char *cgroup;		/* the node's cgroup directory, or NULL */
	int lat_how;		/* TB_LAT_*: how the site's latency_ms is emulated */
	const char *slurm_conf;	/* a Slurm site's: SLURM_CONF of its daemons and sessions */
	const char *slurm_dir;	/* its STATE/slurm/LOGIN (brought back in a private_fs) */
	long sshd_pid;		/* its sshd: a private_fs node's slurmd joins its mounts */
};

/*
 * A site behind Slurm (gs_site.sched, testbed-slurm.c): its login host, a namespace like a
 * node's with sshd only, at the address after the site's last node; the files of its Slurm
 * (key, slurm.conf, state, spool, logs) in dir.
 */
struct tb_slurm {
	size_t site;		/* index into sites.sites */
	struct gs_node host;	/* the login host as a node: host = the scheduler's login */
	struct tb_node tn;	/* its namespace, address, sshd */
	char *dir;		/* STATE/slurm/LOGIN */
	char *conf;		/* DIR/slurm.conf */
	char cluster[16];	/* ClusterName: gsTAGsS, S the site's index + 1 */
};

/* How a node's link latency is emulated (testbed-latency.c). */
#define TB_LAT_NONE	0	/* latency_ms is 0 */
#define TB_LAT_NETEM	1	/* tc netem under the htb class */
#define TB_LAT_DELAY	2	/* gridsubmit-delay on an NFQUEUE queue in the namespace */

struct testbed {
	char *name;
	char *dir;		/* $GRIDSUBMIT_HOME/testbed/NAME */
	char tag[5];		/* 4 hex digits from dir: short interface names */
	char bridge[16];
	char net[8];		/* its /16: "10.N" (the bridge is NET.0.1) */
	int net_lock;		/* TB_NET_LOCK while net is chosen and claimed, else -1 */
	FILE *manifest;
	struct gs_sites sites;
	int loaded;
	struct tb_node *nodes;
	size_t n;
	int cg_version;		/* 2, 1, or 0 when no cpu controller is usable */
	char *cg_root;		/* STATE's cgroup parent: .../gridsubmit-TAG */
	int have_netem;
	int speeds;		/* 1: quotas emulate relative speeds; 0: --no-speeds */
	double *cpus;		/* per node of sites.nodes: its CPU quota (CPUs) */
	double cpu_per_mhz;	/* speeds: the scale chosen (CPUs per MHz of capacity) */
	double shrink;		/* speeds: cpu_per_mhz × the file's top cpu_mhz, <= 1 */
	double host_cpus;	/* this host's CPUs, as the quotas were planned */
	struct tb_slurm *slurm;	/* one per Slurm site (tb_slurm_plan) */
	size_t nslurm;
};

/*
 * testbed-util.c. The testbed's functions say what failed on stderr themselves, as
 * "gridsubmit testbed: ...", and return -1 (or NULL): "(said)" below; its caller, `gridsubmit
 * testbed`, takes down what was built and exits.
 */
int tb_run(const char *what, ...);		/* NULL-terminated argv; 0 or -1 (said) */
int tb_run_quiet(const char *what, ...);	/* same, nothing said */
/* The manifest's next line, durable; 0 or -1 (said): then what it names must not be made. */
int tb_manifest_add(struct testbed *tb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Say "gridsubmit testbed: WHAT: strerror(errno)"; returns -1, errno kept. */
int tb_syserr(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The tag and bridge of the testbed in dir (its state directory, unique on this host). */
void tb_names(struct testbed *tb, const char *dir);
long long tb_proc_start(long pid);		/* /proc/PID/stat start time, -1 if gone */
int tb_wait_port(const char *addr, int port, double seconds);
/*
 * A process forked for a host that the manifest could not record (`down` would not find
 * it): killed, with its session, and reaped.
 */
void tb_kill_unrecorded(pid_t pid);
/*
 * In a child forked for a node (_exit(127) on failure): a session of its own with default
 * signal actions, in the network namespace at nspath; then stdin from /dev/null and
 * stdout/stderr appended to log.
 */
void tb_child_enter(const char *nspath);
void tb_child_output(const char *log);

/*
 * testbed-net.c: take TB_NET_LOCK and choose tb->net, the first /16 no address of this
 * host is in (held until tb_net_release, once the bridge has NET.0.1: another up then sees
 * it taken); 0, or -1 (said: none is free, or the lock cannot be had).
 */
int tb_net_take(struct testbed *tb);
void tb_net_release(struct testbed *tb);

/* testbed-up.c: 0, -1 (failed, said), or TB_UP_REFUSED (the file cannot be emulated here) */
#define TB_UP_REFUSED	(-2)
int tb_up(struct testbed *tb);
char *tb_which(const char *tool);	/* absolute path in $PATH or the sbin dirs, or NULL */
int tb_mkdir(const char *path, mode_t mode);	/* 0, or -1 (said); an existing one is fine */
void tb_yq(FILE *f, const char *s);		/* a YAML double-quoted scalar */
/*
 * A host's namespace, link (shaped, its latency emulated) and address; then its sshd (its
 * pid in tn->sshd_pid). 0 or -1 (said).
 */
int tb_host_net(struct testbed *tb, struct tb_node *tn);
int tb_host_sshd(struct testbed *tb, struct tb_node *tn);
/*
 * Fork a process into a host (testbed-up.c): its namespaces and cgroup, SLURM_CONF when it
 * has one; argv NULL runs the load generator. The pid goes to the manifest as WHAT; -1
 * (said) when it cannot be started or recorded.
 */
pid_t tb_spawn(struct testbed *tb, struct tb_node *tn, const char *what, char *const argv[],
    const char *promfile);

/*
 * testbed-slurm.c (doc/testbed.md, "A Slurm site"). Before anything is built: the Slurm
 * sites of the file in tb->slurm, refusing what cannot be emulated (TB_UP_REFUSED, said)
 * and what is missing here (-1). Before the nodes, their directories. After the nodes:
 * per Slurm site its login host, munged, slurmctld and a slurmd per node, then the wait
 * for every node idle; 0 or -1 (said).
 * The scheduler: map of a site as written, for the derived site file. The Slurm of a
 * node's site (NULL: none).
 */
int tb_slurm_plan(struct testbed *tb);
int tb_slurm_dirs(struct testbed *tb);
int tb_slurm_up(struct testbed *tb);
void tb_slurm_yaml(FILE *f, const struct gs_sched *sc);
struct tb_slurm *tb_slurm_of(struct testbed *tb, int site);
void tb_slurm_free(struct testbed *tb);

/*
 * testbed-latency.c: before anything is built, whether the kernel has sch_netem
 * (tb->have_netem), and a refusal of every site whose latency_ms could be emulated only by
 * a delay line this host lacks; 0 or -1 (said). Then per node, emulate its latency_ms
 * (after tc shaping); 0 or -1 (said).
 */
int tb_latency_check(struct testbed *tb);
int tb_latency_node(struct testbed *tb, struct tb_node *tn);
const char *tb_latency_name(int how);

/*
 * testbed-speed.c (doc/testbed.md, "Relative speeds"): before anything is built, every
 * node's quota in tb->cpus, from cpu_mhz × cores × emulate.cpu_scale on one scale that fits
 * this host (tb->speeds), else cpu_scale × cores; -1 (each node said, and what to do) when
 * a quota would be below TB_CPU_MIN. Then the scale line and its manifest entry (0, or -1
 * said); the warning when no cgroup cpu controller is usable; the CPUs a node has (for its
 * load); its cpu_scale in the derived site file, describing the quota applied.
 */
double tb_host_cpus(void);
int tb_speed_plan(struct testbed *tb);
int tb_speed_report(struct testbed *tb);
void tb_speed_unavailable(const struct testbed *tb, const char *why);
double tb_node_cpus(const struct testbed *tb, const struct tb_node *tn);
double tb_speed_cpu_scale(const struct testbed *tb, const struct gs_node *n);
void tb_speed_fmt(char *buf, size_t len, double x);	/* 3 digits, no e-notation */

/*
 * testbed-limits.c (doc/testbed.md, "Kernel limits"): this testbed's share of the kernel's
 * neighbour tables added to what this host had, once its bridge is up (the manifest says
 * so first: down gives it back even after a crash of up); 0, or -1 (said). Its share,
 * named by its tag, given back: the host's own values again once no testbed holds one.
 */
int tb_limits_raise(struct testbed *tb);
int tb_limits_release(const char *tag, int verbose);

/* testbed-down.c */
int tb_down(const char *dir, int verbose);
int tb_status(const char *dir, int json);

/* testbed-fs.c: in a node's sshd before exec, for emulate.private_fs; 0 or -1 (said) */
int tb_private_fs(const struct testbed *tb, const struct tb_node *tn);

/*
 * testbed-load.c: the background load generator of the node host, whose CPU capacity is
 * cpus (its quota), with the arrivals of common/loadgen.h for host (never returns)
 */
void tb_load_main(const char *promfile, const char *host, double load, double interval,
    double cpus) __attribute__((__noreturn__));

#endif
