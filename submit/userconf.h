/*
 * userconf.h — the user's configuration file (broker/config.h) as the commands use it:
 * read once per process, on the first command that takes a default from it.
 */
#ifndef GS_USERCONF_H
#define GS_USERCONF_H

#include "broker/config.h"

/*
 * The configuration (every field unset when there is no file), or NULL when the file is
 * invalid or unreadable: its errors are printed on stderr, once; the command then exits
 * EXIT_INPUT.
 */
const struct gs_config *userconf(void);

#endif
