/*
 * testbed-limits.c — the kernel limits a grid of this size needs (doc/testbed.md, "Kernel
 * limits"), raised by `up` and restored by `down`. Linux keeps one neighbour table per
 * protocol for all network namespaces, capped by net.ipv4.neigh.default.gc_thresh3 (1024
 * by default) in this host's namespace only: 65 namespaces that all talk to each other
 * hold 65 x 64 entries, and the kernel then refuses new ones ("neighbor table overflow",
 * connect: No route to host). Each testbed up adds what its hosts need to the values the
 * host had before the first testbed raised them; down takes its share away again, and the
 * last one down writes back the host's own values.
 *
 * Several testbeds are up side by side, each by its own gridsubmit: the shares live in
 * TB_LIMITS_DIR (under /run: gone at a reboot, as the values written are), changed only
 * under TB_NET_LOCK. There, `saved` holds "NAME OLD SET" per parameter (the host's value,
 * the one last written) and one file per testbed, named by its tag, "NAME NEED" lines. A
 * share whose testbed's bridge is gone (taken down without its own down, the host's state
 * directory removed) is dropped at the next change. A value someone else changed since
 * it was written is left as it is, and said.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file.h"
#include "common/sysctl.h"
#include "common/xmalloc.h"
#include "testbed/testbed.h"

#define TB_LIMITS_DIR	"/run/gridsubmit-testbed-limits"
#define TB_LIMITS_SAVED	"saved"
#define TB_LIMITS_MAX	8

/*
 * The parameters and what a grid of h hosts (this one included) adds to each. IPv4: an
 * entry per pair of hosts, twice that as the hard cap (entries being resolved count too);
 * IPv6 carries no traffic on the testbed, but each namespace holds entries of its own
 * (measured: 385 for 64 nodes just after up, about 6 a host), counted 4 a host below the
 * hard cap and 8 in it.
 */
struct tb_limit {
	const char *name;
	long per_pair;		/* times h x (h - 1) */
	long per_host;		/* times h */
};

static const struct tb_limit tb_limits[] = {
	{ "net.ipv4.neigh.default.gc_thresh1", 1, 0 },
	{ "net.ipv4.neigh.default.gc_thresh2", 1, 0 },
	{ "net.ipv4.neigh.default.gc_thresh3", 2, 0 },
	{ "net.ipv6.neigh.default.gc_thresh1", 0, 4 },
	{ "net.ipv6.neigh.default.gc_thresh2", 0, 4 },
	{ "net.ipv6.neigh.default.gc_thresh3", 0, 8 },
	{ NULL, 0, 0 }
};

/* One parameter's state across the testbeds up (the saved file and every share). */
struct tb_limit_state {
	long old;		/* the host's own value; -1: not saved (nothing raised) */
	long set;		/* the value last written */
	long need;		/* the shares added up */
};

/* What a grid of h hosts adds to parameter i. */
static long
tb_limits_need(size_t i, long hosts)
{
	return tb_limits[i].per_pair * hosts * (hosts - 1) + tb_limits[i].per_host * hosts;
}

/* The index of name in tb_limits, or -1. */
static int
tb_limit_index(const char *name)
{
	int i;

	for (i = 0; tb_limits[i].name != NULL; i++)
		if (strcmp(tb_limits[i].name, name) == 0)
			return i;
	return -1;
}

/* Read the saved file into st (old -1 for a parameter it lacks). */
static void
tb_limits_read_saved(struct tb_limit_state *st)
{
	char name[128], line[256];
	long old, set;
	FILE *f;
	int i;

	for (i = 0; tb_limits[i].name != NULL; i++)
		st[i] = (struct tb_limit_state){ -1, -1, 0 };
	if ((f = fopen(TB_LIMITS_DIR "/" TB_LIMITS_SAVED, "r")) == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "%127s %ld %ld", name, &old, &set) == 3 &&
		    (i = tb_limit_index(name)) >= 0) {
			st[i].old = old;
			st[i].set = set;
		}
	fclose(f);
}

/* Write st as the saved file; 0, or -1 (said). */
static int
tb_limits_write_saved(const struct tb_limit_state *st)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int i, rc;

	if ((f = open_memstream(&text, &len)) == NULL)
		return tb_syserr("%s/%s", TB_LIMITS_DIR, TB_LIMITS_SAVED);
	for (i = 0; tb_limits[i].name != NULL; i++)
		if (st[i].old >= 0)
			fprintf(f, "%s %ld %ld\n", tb_limits[i].name, st[i].old, st[i].set);
	fclose(f);
	rc = file_write_atomic(TB_LIMITS_DIR, TB_LIMITS_SAVED, text, len, 0600);
	free(text);
	return rc == -1 ? tb_syserr("%s/%s", TB_LIMITS_DIR, TB_LIMITS_SAVED) : 0;
}

/*
 * Add up the shares of the testbeds still up into st; the share of a testbed whose bridge
 * is gone is removed.
 */
static void
tb_limits_read_shares(struct tb_limit_state *st)
{
	char name[128], line[256], path[600];
	struct dirent *de;
	long need;
	DIR *d;
	FILE *f;
	int i;

	if ((d = opendir(TB_LIMITS_DIR)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || strcmp(de->d_name, TB_LIMITS_SAVED) == 0 ||
		    strlen(de->d_name) != 4)
			continue;
		snprintf(path, sizeof path, "/sys/class/net/gs%sbr", de->d_name);
		if (access(path, F_OK) == -1) {
			unlinkat(dirfd(d), de->d_name, 0);
			continue;
		}
		snprintf(path, sizeof path, "%s/%s", TB_LIMITS_DIR, de->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		while (fgets(line, sizeof line, f) != NULL)
			if (sscanf(line, "%127s %ld", name, &need) == 2 && need > 0 &&
			    (i = tb_limit_index(name)) >= 0)
				st[i].need += need;
		fclose(f);
	}
	closedir(d);
}

/*
 * Write every parameter as the shares want it: the host's value plus their sum, or the
 * host's value alone when no share is left (then the saved file goes). A value that is no
 * longer the one written was changed by someone else: kept, and said. 0, or -1 (said).
 */
static int
tb_limits_apply(struct tb_limit_state *st, int verbose)
{
	long now, want;
	int i, bad = 0, left = 0;

	for (i = 0; tb_limits[i].name != NULL; i++) {
		if (st[i].old < 0)
			continue;
		want = st[i].old + st[i].need;
		if (sysctl_read(tb_limits[i].name, &now) == -1)
			continue;
		if (st[i].set >= 0 && now != st[i].set) {
			fprintf(stderr, "gridsubmit testbed: %s is %ld, not the %ld a testbed "
			    "set: left as it is\n", tb_limits[i].name, now, st[i].set);
			st[i].old = -1;
			continue;
		}
		if (now != want && sysctl_write(tb_limits[i].name, want) == -1) {
			bad = tb_syserr("cannot set %s to %ld", tb_limits[i].name, want);
			continue;
		}
		if (verbose && now != want)
			printf("gridsubmit testbed: %s %ld -> %ld%s\n", tb_limits[i].name, now,
			    want, st[i].need == 0 ? " (restored)" : "");
		st[i].set = want;
		if (st[i].need > 0)
			left = 1;
		else
			st[i].old = -1;
	}
	if (!left) {
		if (unlink(TB_LIMITS_DIR "/" TB_LIMITS_SAVED) == -1 && errno != ENOENT)
			bad = tb_syserr("%s/%s", TB_LIMITS_DIR, TB_LIMITS_SAVED);
		return bad;
	}
	return tb_limits_write_saved(st) == -1 ? -1 : bad;
}

/* TB_NET_LOCK, held until closed; -1 (said). */
static int
tb_limits_lock(void)
{
	int fd;

	if ((fd = open(TB_NET_LOCK, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) == -1 ||
	    flock(fd, LOCK_EX) == -1) {
		if (fd != -1)
			close(fd);
		return tb_syserr("%s", TB_NET_LOCK);
	}
	return fd;
}

int
tb_limits_raise(struct testbed *tb)
{
	struct tb_limit_state st[TB_LIMITS_MAX];
	long hosts = (long)tb->sites.nnodes + (long)tb->nslurm + 1, now;
	char *text = NULL, name[8];
	size_t len = 0, i;
	FILE *f;
	int fd, rc;

	/* first in the manifest: down gives the share back whatever happens after */
	if (tb_manifest_add(tb, "limits %s", tb->tag) == -1 || (fd = tb_limits_lock()) == -1)
		return -1;
	rc = -1;
	if (tb_mkdir(TB_LIMITS_DIR, 0700) == -1)
		goto out;
	tb_limits_read_saved(st);
	for (i = 0; tb_limits[i].name != NULL; i++)
		if (st[i].old < 0 && sysctl_read(tb_limits[i].name, &now) == 0)
			st[i] = (struct tb_limit_state){ now, now, 0 };
	/* the host's values, before anything is written */
	if (tb_limits_write_saved(st) == -1 || (f = open_memstream(&text, &len)) == NULL)
		goto out;
	for (i = 0; tb_limits[i].name != NULL; i++)
		fprintf(f, "%s %ld\n", tb_limits[i].name, tb_limits_need(i, hosts));
	fclose(f);
	snprintf(name, sizeof name, "%s", tb->tag);
	if (file_write_atomic(TB_LIMITS_DIR, name, text, len, 0600) == -1) {
		tb_syserr("%s/%s", TB_LIMITS_DIR, name);
		goto out;
	}
	for (i = 0; tb_limits[i].name != NULL; i++)
		st[i].need = 0;
	tb_limits_read_shares(st);
	rc = tb_limits_apply(st, 1);
out:
	free(text);
	close(fd);
	return rc;
}

int
tb_limits_release(const char *tag, int verbose)
{
	struct tb_limit_state st[TB_LIMITS_MAX];
	char path[600];
	int fd, rc;

	if ((fd = tb_limits_lock()) == -1)
		return -1;
	snprintf(path, sizeof path, "%s/%s", TB_LIMITS_DIR, tag);
	rc = unlink(path) == -1 && errno != ENOENT ? tb_syserr("%s", path) : 0;
	tb_limits_read_saved(st);
	tb_limits_read_shares(st);
	if (tb_limits_apply(st, verbose) == -1)
		rc = -1;
	close(fd);
	return rc;
}
