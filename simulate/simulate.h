/*
 * simulate.h — a placed job as a SimGrid platform, for `gridsubmit simulate`
 * (doc/simulate.md): the hosts of its placement with their speeds, their links to the
 * master, the background load of their site file as speed traces, and the SMPI build of
 * its program. The launcher that runs smpirun on them is launch's (launcher-smpi.c).
 *
 * Speeds. smpirun turns every stretch of computation it measures on this host into flops
 * at smpi/host-speed (SIM_HOST_FLOPS), and a simulated host runs them at its own speed.
 * A node's speed per core is SIM_HOST_FLOPS x cpu_mhz x emulate.cpu_scale / host_mhz:
 * host_mhz is the clock this host counts as (the calibration, sim_opts.host_mhz), by
 * default the site file's fastest cpu_mhz, so that, as on the testbed, the fastest node
 * runs at this host's speed and the others in proportion to cpu_mhz x cpu_scale.
 */
#ifndef GS_SIMULATE_H
#define GS_SIMULATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "broker/broker.h"
#include "broker/errlist.h"

/* the flops per second of this host as smpirun is told it (smpi/host-speed) */
#define SIM_HOST_FLOPS	1e9
/* the smallest emulate.load_interval a speed trace can follow (seconds) */
#define SIM_LOAD_RESOLUTION	0.001

/*
 * SMPI loads the program once per rank (its globals are private to each): the memory maps
 * of the smpirun process, about SIM_MAPS_PER_RANK a rank over SIM_MAPS_BASE, must stay
 * under vm.max_map_count (doc/simulate.md, "Scale").
 */
#define SIM_MAPS_PER_RANK	7
#define SIM_MAPS_BASE		2000

/* How the links of a site reach the master. */
enum sim_links {
	SIM_LINKS_NODE,		/* each node its own link at the site's figures (the testbed) */
	SIM_LINKS_SITE,		/* the site's nodes share one link; a fast LAN inside the site */
};

struct sim_opts {
	double host_mhz;	/* the MHz this host counts as; 0: the site file's top cpu_mhz */
	enum sim_links links;
	uint64_t seed;		/* of the background load's arrivals (LOADGEN_SEED: the testbed's) */
	double first_contact_ms; /* a rank's CPU time at its first message, in ms of this
				    host (doc/simulate.md, "First contact"); < 0: the
				    runtime's own */
	char **cfg;		/* SimGrid settings "NAME:VALUE" given by the user, after ours */
	size_t ncfg;
};

/* The clock this host counts as for sites: o->host_mhz, else the top cpu_mhz of sites. */
double sim_host_mhz(const struct gs_sites *sites, const struct sim_opts *o);

/* A node's speed per core, in flops per second (above). */
double sim_node_speed(const struct gs_node *n, double host_mhz);

/*
 * What of sites the simulator cannot represent, each error located at the node's
 * definition and naming the field ("emulate.load_interval: ..."), added to errs. Returns
 * the number of errors added.
 */
size_t sim_check_sites(const struct gs_sites *sites, struct gs_errlist *errs);

/*
 * Write the platform of placement p into the job directory dir: platform.xml (hosts,
 * links, routes; atomically), hostfile.smpi (smpirun's "host:N" lines in rank order)
 * and, for every placed node with background load, load/HOST.trace. 0, or -1 with why.
 */
int sim_write_platform(const struct gs_sites *sites, const struct gs_placement *p,
    const struct sim_opts *o, const char *dir, char *why, size_t whylen);

/*
 * The speed trace of the background load of the node host (sim-load.c) on f: SimGrid's
 * "TIME VALUE" lines, VALUE the share of the node's speed its ranks get while the emulated
 * jobs run (1 when they get all they would on an idle node), repeated with LOOPAFTER; the
 * jobs arrive as common/loadgen.h draws them for seed and host, from an empty node. ranks:
 * the job's ranks on the node (below 1: none, the jobs have the cores); cores: its cores
 * (below 1 counts as 1). A node without load (e->load <= 0) gets "0 1". The same
 * arguments write the same bytes. 0, or -1 on a write error, or with errno EINVAL when
 * e->load_interval is below SIM_LOAD_RESOLUTION (sim_check_sites says so first).
 */
int sim_load_trace(FILE *f, const struct gs_emulate *e, int cores, int ranks, uint64_t seed,
    const char *host);

/*
 * A SimGrid setting "NAME:VALUE" to pass to smpirun (sim-cfg.c): 0, or -1 with why saying
 * what is wrong with it (not NAME:VALUE, or one libgrt's SMPI build cannot run under).
 */
int sim_cfg_check(const char *cfg, char *why, size_t whylen);

/*
 * The SMPI build of a job's program (an absolute path): smpi/NAME beside it, the place
 * `make` puts the examples' (build/examples/smpi/NAME). Returns it allocated, or NULL
 * with why saying where it was looked for and how to build it.
 */
char *sim_program(const char *program, char *why, size_t whylen);

#endif
