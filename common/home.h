/*
 * home.h — gridsubmit's state directory: $GRIDSUBMIT_HOME, else $XDG_STATE_HOME/gridsubmit,
 * else ~/.local/state/gridsubmit. The job store (store/), the testbeds, the experiments,
 * the ssh control sockets and the managed known_hosts live under it.
 */
#ifndef GS_HOME_H
#define GS_HOME_H

#include <stddef.h>

/*
 * The state directory's absolute path, worked out once (a relative GRIDSUBMIT_HOME from
 * the current directory, and put back in the environment absolute); nothing is made or
 * checked. NULL with why when there is no place for it.
 */
const char *home_path(char *why, size_t whylen);

/*
 * The state directory, made (0700) the first time it is asked for and then remembered:
 * for the commands that write. NULL with why set when there is no place for it, it cannot
 * be made, it is not a directory, it is not the user's, or its group or others may write
 * it (doc/security.md; a shared one such as /tmp is told to use a directory of one's own).
 */
const char *home_root(char *why, size_t whylen);

/*
 * The state directory for the commands that only read: as home_root, but never made. A
 * missing one is returned as it is (its jobs read as none); one that exists is checked as
 * home_root checks it.
 */
const char *home_find(char *why, size_t whylen);

/* mkdir -p path, the parts it makes with mode. 0, or -1 with errno. */
int home_mkdirs(const char *path, unsigned mode);

#endif
