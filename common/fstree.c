/* fstree.c — remove, copy and measure file trees on this host (fstree.h). */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fstree.h"
#include "common/xmalloc.h"

static int
fstree_rm(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

int
fstree_remove(const char *path)
{
	return nftw(path, fstree_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static int
fstree_fail(char *why, size_t whylen, const char *path, const char *reason)
{
	snprintf(why, whylen, "%s: %s", path, reason != NULL ? reason : strerror(errno));
	return -1;
}

static int
fstree_copy_file(const char *from, const char *to, mode_t mode, char *why, size_t whylen)
{
	char buf[65536];
	ssize_t n, w = 0, off;
	int in, out, rc;

	if ((in = open(from, O_RDONLY | O_CLOEXEC)) == -1)
		return fstree_fail(why, whylen, from, NULL);
	if ((out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)) == -1) {
		rc = fstree_fail(why, whylen, to, NULL);
		close(in);
		return rc;
	}
	while (w >= 0 && (n = read(in, buf, sizeof buf)) > 0)
		for (off = 0; off < n && (w = write(out, buf + off, (size_t)(n - off))) >= 0;
		    off += w)
			;
	rc = w < 0 ? fstree_fail(why, whylen, to, NULL) :
	    n < 0 ? fstree_fail(why, whylen, from, NULL) : 0;
	close(in);
	if (fchmod(out, mode) == -1 && rc == 0)
		rc = fstree_fail(why, whylen, to, NULL);
	if (close(out) == -1 && rc == 0)
		rc = fstree_fail(why, whylen, to, NULL);
	return rc;
}

/* The directories from the top of a copy down to the one being copied. */
struct fstree_path {
	dev_t dev[FSTREE_DEPTH_MAX + 1];
	ino_t ino[FSTREE_DEPTH_MAX + 1];
	int depth;
};

static int fstree_copy_at(const char *from, const char *to, struct fstree_path *up,
    char *why, size_t whylen);

static int
fstree_copy_dir(const char *from, const char *to, const struct stat *sb,
    struct fstree_path *up, char *why, size_t whylen)
{
	mode_t mode = (sb->st_mode & 0755) | 0700;
	struct dirent *de;
	char *f, *t;
	DIR *dir;
	int rc = 0, i;

	for (i = 0; i < up->depth; i++)
		if (up->dev[i] == sb->st_dev && up->ino[i] == sb->st_ino)
			return fstree_fail(why, whylen, from, "a symbolic link loop (it leads "
			    "back to a directory above it)");
	if (up->depth > FSTREE_DEPTH_MAX)
		return fstree_fail(why, whylen, from, "more directories deep than gridsubmit "
		    "copies (64)");
	if (mkdir(to, 0700) == -1)
		return fstree_fail(why, whylen, to, NULL);
	if ((dir = opendir(from)) == NULL)
		return fstree_fail(why, whylen, from, NULL);
	up->dev[up->depth] = sb->st_dev;
	up->ino[up->depth] = sb->st_ino;
	up->depth++;
	while (rc == 0) {
		errno = 0;
		if ((de = readdir(dir)) == NULL) {
			if (errno != 0)
				rc = fstree_fail(why, whylen, from, NULL);
			break;
		}
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		xasprintf(&f, "%s/%s", from, de->d_name);
		xasprintf(&t, "%s/%s", to, de->d_name);
		rc = fstree_copy_at(f, t, up, why, whylen);
		free(f);
		free(t);
	}
	closedir(dir);
	up->depth--;
	if (rc == 0 && chmod(to, mode) == -1)
		rc = fstree_fail(why, whylen, to, NULL);
	return rc;
}

static int
fstree_copy_at(const char *from, const char *to, struct fstree_path *up, char *why,
    size_t whylen)
{
	struct stat sb;

	if (stat(from, &sb) == -1)
		return fstree_fail(why, whylen, from, NULL);
	if (S_ISDIR(sb.st_mode))
		return fstree_copy_dir(from, to, &sb, up, why, whylen);
	if (S_ISREG(sb.st_mode))
		return fstree_copy_file(from, to, (sb.st_mode & 0755) | 0600, why, whylen);
	return fstree_fail(why, whylen, from, "not a regular file or directory");
}

/*
 * Put the copy tmp in the place of the directory to (a relaunch stages again), which
 * rename(2) does not do for a directory with entries. 0, or -1 with errno and to kept.
 */
static int
fstree_replace_dir(const char *tmp, const char *to)
{
	char *old;
	int rc = -1, saved;

	xasprintf(&old, "%s.old", to);
	fstree_remove(old);
	if (rename(to, old) == 0) {
		if ((rc = rename(tmp, to)) == 0)
			fstree_remove(old);
		else {
			saved = errno;
			rename(old, to);
			errno = saved;
		}
	}
	free(old);
	return rc;
}

int
fstree_copy(const char *from, const char *to, char *why, size_t whylen)
{
	struct fstree_path up;
	char *tmp;
	int rc;

	up.depth = 0;
	xasprintf(&tmp, "%s.tmp", to);
	fstree_remove(tmp);	/* a leftover of a copy that was killed; usually none */
	rc = fstree_copy_at(from, tmp, &up, why, whylen);
	if (rc == 0 && rename(tmp, to) == -1 && ((errno != ENOTEMPTY && errno != EEXIST) ||
	    fstree_replace_dir(tmp, to) == -1))
		rc = fstree_fail(why, whylen, to, NULL);
	if (rc != 0)
		fstree_remove(tmp);
	free(tmp);
	return rc;
}

static long long
fstree_size_at(const char *path, int depth, size_t *files)
{
	struct dirent *de;
	struct stat sb;
	long long bytes = 0;
	char *p;
	DIR *dir;

	if (stat(path, &sb) == -1)
		return 0;
	if (S_ISREG(sb.st_mode)) {
		(*files)++;
		return (long long)sb.st_size;
	}
	if (!S_ISDIR(sb.st_mode) || depth > FSTREE_DEPTH_MAX || (dir = opendir(path)) == NULL)
		return 0;
	while ((de = readdir(dir)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		xasprintf(&p, "%s/%s", path, de->d_name);
		bytes += fstree_size_at(p, depth + 1, files);
		free(p);
	}
	closedir(dir);
	return bytes;
}

long long
fstree_size(const char *path, size_t *files)
{
	*files = 0;
	return fstree_size_at(path, 0, files);
}
