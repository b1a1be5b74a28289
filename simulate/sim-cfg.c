/*
 * sim-cfg.c — a SimGrid setting given to smpirun after gridsubmit's own (simulate --cfg,
 * an experiment's cfg parameter): NAME:VALUE, and none that would undo what libgrt's SMPI
 * build needs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simulate/simulate.h"

/*
 * libgrt's SMPI build sends a message's 8-byte length with MPI_Send ahead of its bytes
 * (runtime/comm/grt-comm-block.c), which must not wait for the receiver: a master blocked
 * there on a worker that waits for the master to take its result would never move again.
 */
#define CFG_DETACHED	"smpi/send-is-detached-thresh:"
#define CFG_DETACHED_MIN 8

int
sim_cfg_check(const char *cfg, char *why, size_t whylen)
{
	if (strchr(cfg, ':') == NULL || cfg[0] == ':') {
		snprintf(why, whylen, "'%s' is not NAME:VALUE (a SimGrid setting, e.g. "
		    "smpi/iprobe:1e-5)", cfg);
		return -1;
	}
	if (strncmp(cfg, CFG_DETACHED, strlen(CFG_DETACHED)) == 0 &&
	    !(strtod(cfg + strlen(CFG_DETACHED), NULL) >= CFG_DETACHED_MIN)) {
		snprintf(why, whylen, "'%s': the runtime's SMPI build needs messages of %d bytes "
		    "sent without waiting for the receiver (at least %d; doc/simulate.md)", cfg,
		    CFG_DETACHED_MIN, CFG_DETACHED_MIN);
		return -1;
	}
	return 0;
}
