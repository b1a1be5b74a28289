/*
 * testbed.h — the emulated grid of `gridsubmit testbed` (doc/testbed.md): one network
 * namespace per node on a bridge, sshd and a node_exporter in each, tc shaping of each
 * node's link, a CPU quota per node (cgroups), background load generators. Everything
 * created is first written to a manifest, so that `down` removes it all, also after a
 * crash halfway through `up`.
 */
#ifndef GS_TESTBED_H
#define GS_TESTBED_H

#include <stdio.h>

#include "site.h"

#define TB_PREFIX	"10.213"	/* the testbed's private /16; the bridge is .0.1 */
#define TB_BRIDGE_ADDR	TB_PREFIX ".0.1"
#define TB_SSH_PORT	22
#define TB_EXPORTER_PORT 9100

struct tb_node {
	const struct gs_node *node;
	char addr[16];		/* 10.213.S.N: S = site index + 1, N = node index in site + 1 */
	char netns[300];	/* gs-TAG-HOST */
	char veth[16];		/* root side, on the bridge */
	char peer[16];		/* node side before it is renamed eth0 in the namespace */
	char *dir;		/* STATE/nodes/HOST */
	char *cgroup;		/* the node's cgroup directory, or NULL */
};

struct testbed {
	char *name;
	char *dir;		/* $GRIDSUBMIT_HOME/testbed/NAME */
	char tag[5];		/* 4 hex digits from the name: short interface names */
	char bridge[16];
	FILE *manifest;
	struct gs_sites sites;
	int loaded;
	struct tb_node *nodes;
	size_t n;
	int cg_version;		/* 2, 1, or 0 when no cpu controller is usable */
	char *cg_root;		/* STATE's cgroup parent: .../gridsubmit-TAG */
	int have_netem;
};

/* testbed-util.c */
int tb_run(const char *what, ...);		/* NULL-terminated argv; 0 or -1 (reported) */
int tb_run_quiet(const char *what, ...);	/* same, no report */
void tb_manifest_add(struct testbed *tb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void tb_names(struct testbed *tb, const char *name);
long long tb_proc_start(long pid);		/* /proc/PID/stat start time, -1 if gone */
int tb_write_file(const char *path, const char *text, int mode);
int tb_wait_port(const char *addr, int port, double seconds);

/* testbed-up.c */
int tb_up(struct testbed *tb);

/* testbed-down.c */
int tb_down(const char *dir, int verbose);
int tb_status(const char *dir, int json);

/* testbed-load.c: the background load generator of one node (never returns) */
void tb_load_main(const char *promfile, double load, double interval, unsigned seed)
    __attribute__((__noreturn__));

#endif
