/*
 * config.h — the user's configuration file (README.md, "Configuration file"): defaults for
 * what neither the command line nor the job file says. Precedence: command line > job file
 * > configuration file > built-in default.
 *
 *   sites: tiger                  # --sites when not given: a NAME (sites_find) or a path,
 *                                 # relative to this file's directory
 *   scheme: pwd                   # the runtime scheme when the job and --scheme give none
 *   metrics_timeout: 2            # seconds for reading live metrics (rank --timeout)
 */
#ifndef GS_CONFIG_H
#define GS_CONFIG_H

#include <stddef.h>

#include "broker/site.h"

struct gs_errlist;

struct gs_config {
	char *path;		/* the file read, or NULL when there is none */
	char *sites;		/* a site file path or NAME (as --sites takes it), or NULL */
	struct gs_loc sites_loc;	/* where sites: is written (file: path) */
	char *scheme;		/* a scheme's canonical name, or NULL */
	double metrics_timeout;	/* seconds, or 0: unset */
};

/*
 * gridsubmit's directory of the user's configuration: $XDG_CONFIG_HOME/gridsubmit (when
 * absolute, as the XDG base directory spec says), else $HOME/.config/gridsubmit. Allocated;
 * NULL when neither variable says.
 */
char *config_dir(void);

/*
 * Read the user's configuration file: $GRIDSUBMIT_CONFIG when set (empty: none at all),
 * else config.yaml in config_dir(). A missing default file is no configuration (0, every
 * field unset); a file GRIDSUBMIT_CONFIG names must exist. Returns 0, or -1 with every
 * error of the file in errs (errlist.h), in file order: unknown keys with "did you mean",
 * and a site file that sites: names but is not there (a NAME with "did you mean").
 */
int config_load(struct gs_config *cfg, struct gs_errlist *errs);
/*
 * The same from memory; name is the file (errors, and the directory sites: is relative
 * to). The site file sites: names is not looked for.
 */
int config_load_buffer(const char *name, const char *buf, size_t len, struct gs_config *cfg,
    struct gs_errlist *errs);
void config_free(struct gs_config *cfg);

#endif
