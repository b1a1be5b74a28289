/* launch-int.h — what the files of submit/launch/ share and nothing outside uses. */
#ifndef GS_LAUNCH_INT_H
#define GS_LAUNCH_INT_H

#include "broker.h"

/* The host of rank r of p: its node's, or the master's for a rank placed on no node. */
const char *launch_rank_host(const struct gs_sites *sites, const struct gs_placement *p, int r);

#endif
