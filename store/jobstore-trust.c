/*
 * jobstore-trust.c — whether a path of the store may be believed: jobs/, a job directory
 * and its state.json are the user's own and no one else can write them (jobstore-int.h).
 * The root is checked by home.c; what lies below it is checked here, since a directory
 * that another user made or can write lets them plant the state that cancel acts on
 * (doc/security.md).
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "store/jobstore-int.h"

int
jobstore_trust(const char *path, int dir, char *why, size_t whylen)
{
	struct stat sb;

	/* lstat: a symbolic link planted in the store is never followed */
	if (lstat(path, &sb) == -1) {
		if (errno == ENOENT)
			return 1;
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (dir ? !S_ISDIR(sb.st_mode) : !S_ISREG(sb.st_mode))
		snprintf(why, whylen, "%s: not a %s (a symbolic link or something else put "
		    "there); the job store only holds what gridsubmit made", path,
		    dir ? "directory" : "regular file");
	else if (sb.st_uid != geteuid())
		snprintf(why, whylen, "%s: belongs to uid %lu, not to you (uid %lu): the job "
		    "store only trusts what it made; remove it or give it back (chown)", path,
		    (unsigned long)sb.st_uid, (unsigned long)geteuid());
	else if (sb.st_mode & (S_IWGRP | S_IWOTH))
		snprintf(why, whylen, "%s: writable by %s: others could change the job; make it "
		    "yours alone (chmod go-w)", path, sb.st_mode & S_IWOTH ? "others" :
		    "its group");
	else
		return 0;
	return -1;
}
