/*
 * exp-testbed-share.c — a testbed shared by experiments running at the same time (two
 * experiments on TIGER from two shells, or `make reproduce`'s simulated half beside a
 * testbed half): the one that ends first must not take the testbed down under the other's
 * runs. Each experiment using a testbed holds a shared lock on
 * $GRIDSUBMIT_HOME/testbed/NAME.users (flock, released by the kernel when the experiment
 * dies however it dies); joining (the status asked, the testbed brought up) and leaving
 * (the users counted, the testbed taken down) are done one experiment at a time, under the
 * exclusive lock of NAME.guard; an experiment that brought it up leaves NAME.by-experiment
 * beside it, and the last user to leave takes down a testbed so marked. The mark names the testbed it was made for (the
 * inode and time of its derived site file, NAME/sites.yaml, which every `up` writes
 * anew), so that a mark left by a killed experiment never speaks for a testbed brought up
 * by hand since: such a testbed is never taken down by an experiment (doc/experiments.md,
 * "Testbeds").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "submit/cmd.h"
#include "submit/exp-run.h"

/* file's testbed's NAME.suffix (NAME: its base up to the first '.'), in testbed_dir() */
static char *
share_name(const char *file, const char *suffix)
{
	const char *base = strrchr(file, '/') != NULL ? strrchr(file, '/') + 1 : file;
	char *name;

	xasprintf(&name, "%.*s.%s", (int)strcspn(base, "."), base, suffix);
	return name;
}

/* $GRIDSUBMIT_HOME/testbed, where every testbed keeps its state */
static char *
testbed_dir(void)
{
	char *dir;

	xasprintf(&dir, "%s/testbed", cmd_home());
	return dir;
}

/* file's testbed's lock NAME.suffix, held as op says (LOCK_EX, LOCK_SH); -1 (said) */
static int
share_lock(const char *file, const char *suffix, int op)
{
	char *dir = testbed_dir(), *name = share_name(file, suffix), *path;
	int fd;

	if (mkdir(dir, 0700) == -1 && errno != EEXIST)
		log_warn("cannot create %s", dir);
	xasprintf(&path, "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd == -1)
		log_warn("cannot open %s", path);
	else if (flock(fd, op) == -1) {
		log_warn("cannot lock %s", path);
		close(fd);
		fd = -1;
	}
	free(path);
	free(name);
	free(dir);
	return fd;
}

int
exp_share_guard(const char *file)
{
	return share_lock(file, "guard", LOCK_EX);
}

int
exp_share_join(const char *file)
{
	return share_lock(file, "users", LOCK_SH);
}

int
exp_share_last(int fd)
{
	return fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0;
}

/*
 * The identity of file's testbed as it is now (its derived file's inode and time), or
 * NULL when it has none (not up).
 */
static char *
share_identity(const char *file)
{
	const char *base = strrchr(file, '/') != NULL ? strrchr(file, '/') + 1 : file;
	char *dir = testbed_dir(), *derived, *id = NULL;
	struct stat st;

	xasprintf(&derived, "%s/%.*s/sites.yaml", dir, (int)strcspn(base, "."), base);
	if (stat(derived, &st) == 0)
		xasprintf(&id, "%llu %lld.%09ld\n", (unsigned long long)st.st_ino,
		    (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	free(derived);
	free(dir);
	return id;
}

void
exp_share_mark(const char *file, int marked)
{
	char *dir = testbed_dir(), *name = share_name(file, "by-experiment"), *path, *id = NULL;

	xasprintf(&path, "%s/%s", dir, name);
	if (marked && (id = share_identity(file)) != NULL) {
		if (file_write_atomic(dir, name, id, strlen(id), 0600) != 0)
			log_warn("cannot write %s", path);
	} else if (unlink(path) == -1 && errno != ENOENT)
		log_warn("cannot remove %s", path);
	free(id);
	free(path);
	free(name);
	free(dir);
}

int
exp_share_marked(const char *file)
{
	char *dir = testbed_dir(), *name = share_name(file, "by-experiment"), *path;
	char *id = share_identity(file), *mark = NULL;
	size_t len;
	int marked;

	xasprintf(&path, "%s/%s", dir, name);
	marked = id != NULL && file_read(path, 128, &mark, &len) == 0 && strcmp(mark, id) == 0;
	free(mark);
	free(id);
	free(path);
	free(name);
	free(dir);
	return marked;
}
