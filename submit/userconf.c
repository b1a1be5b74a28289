/*
 * userconf.c — the user's configuration file, read once for the process (userconf.h).
 */
#include <stdio.h>

#include "broker/errlist.h"
#include "submit/userconf.h"

static struct gs_config uc_config;
static int uc_state;		/* 0: not read yet; 1: read; -1: invalid, errors printed */

const struct gs_config *
userconf(void)
{
	struct gs_errlist errs;

	if (uc_state == 0) {
		if (config_load(&uc_config, &errs) == 0)
			uc_state = 1;
		else {
			errlist_print(&errs, stderr);
			uc_state = -1;
		}
	}
	return uc_state == 1 ? &uc_config : NULL;
}
