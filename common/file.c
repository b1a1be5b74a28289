/* file.c — see file.h. */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file.h"
#include "common/xmalloc.h"

/* file_write_atomic's temporary files: ".NAME" then "." and 6 random characters, then this */
#define FILE_TMP_SUFFIX	".tmp"
#define FILE_TMP_RANDOM	6

int
file_read(const char *path, size_t max, char **buf, size_t *len)
{
	struct stat sb;
	size_t cap, n = 0;
	ssize_t r;
	int fd, saved;

	*buf = NULL;
	*len = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && (size_t)sb.st_size > max) {
		close(fd);
		errno = EFBIG;
		return -1;
	}
	/*
	 * up to one byte more than max: a file that grew past it is seen, never cut. A file
	 * of size 0 may be a /proc one, whose size says nothing and whose sysctl values read
	 * only whole, in one read from the start: a page at once.
	 */
	cap = S_ISREG(sb.st_mode) && sb.st_size > 0 && (size_t)sb.st_size < max ?
	    (size_t)sb.st_size + 1 : 4096;
	*buf = xmalloc(cap + 1);
	for (;;) {
		if (n == cap) {
			if (cap > max)
				break;
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			*buf = xreallocarray(*buf, cap + 1, 1);
		}
		if ((r = read(fd, *buf + n, cap - n)) == -1) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > max) {
		errno = EFBIG;
		goto fail;
	}
	close(fd);
	(*buf)[n] = '\0';
	*len = n;
	return 0;
fail:
	saved = errno;
	close(fd);
	free(*buf);
	*buf = NULL;
	errno = saved;
	return -1;
}

char *
file_beside_self(const char *name)
{
	char self[PATH_MAX], *slash, *path;
	ssize_t n;

	if ((n = readlink("/proc/self/exe", self, sizeof self - 1)) < 0)
		return NULL;
	self[n] = '\0';
	if ((slash = strrchr(self, '/')) != NULL)
		*slash = '\0';
	xasprintf(&path, "%s/%s", self, name);
	if (access(path, X_OK) != 0) {
		free(path);
		return NULL;
	}
	return path;
}

char *
file_which(const char *name, const char *dirs)
{
	const char *d, *e;
	struct stat sb;
	char *path;

	for (d = dirs; *d != '\0'; d = *e != '\0' ? e + 1 : e) {
		e = d + strcspn(d, ":");
		if (*d != '/')
			continue;
		xasprintf(&path, "%.*s/%s", (int)(e - d), d, name);
		if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && access(path, X_OK) == 0)
			return path;
		free(path);
	}
	return NULL;
}

int
file_write(const char *path, const void *p, size_t len)
{
	const char *b = p;
	ssize_t n;
	int fd, rc = 0;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) == -1)
		return -1;
	while (len > 0 && rc == 0) {
		n = write(fd, b, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			rc = -1;
		else
			b += n, len -= (size_t)n;
	}
	if (close(fd) != 0)
		rc = -1;
	return rc;
}

/* file.h. */
int
file_write_all(int fd, const void *p, size_t len)
{
	const char *b = p;
	ssize_t n;

	while (len > 0) {
		if ((n = write(fd, b, len)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		b += n;
		len -= (size_t)n;
	}
	return 0;
}

static int
file_fsync_dir(const char *dir)
{
	int fd, rc, saved;

	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return -1;
	rc = fsync(fd);
	saved = errno;
	close(fd);
	errno = saved;
	return rc;
}

int
file_write_atomic(const char *dir, const char *name, const void *data, size_t len, int mode)
{
	char tmp[PATH_MAX], path[PATH_MAX];
	int fd, saved;

	if (*name == '\0' || strchr(name, '/') != NULL) {
		errno = EINVAL;
		return -1;
	}
	if (snprintf(tmp, sizeof tmp, "%s/.%s.XXXXXX" FILE_TMP_SUFFIX, dir, name) >=
	    (int)sizeof tmp || snprintf(path, sizeof path, "%s/%s", dir, name) >=
	    (int)sizeof path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/* O_CREAT | O_EXCL (mkostemps' own) and O_NOFOLLOW: a new file, never a planted one */
	if ((fd = mkostemps(tmp, (int)strlen(FILE_TMP_SUFFIX), O_CLOEXEC | O_NOFOLLOW)) == -1)
		return -1;
	if (file_write_all(fd, data, len) == -1 || fchmod(fd, (mode_t)mode) == -1 ||
	    fsync(fd) == -1)
		goto fail;
	if (close(fd) == -1) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) == -1)
		goto fail;
	return file_fsync_dir(dir);
fail:
	saved = errno;
	if (fd != -1)
		close(fd);
	unlink(tmp);
	errno = saved;
	return -1;
}

int
file_atomic_sweep(const char *dir, const char *name)
{
	size_t nlen = strlen(name), slen = strlen(FILE_TMP_SUFFIX), len;
	struct dirent *de;
	int rc = 0, saved = 0;
	const char *e;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		e = de->d_name;
		len = strlen(e);
		if (len != 1 + nlen + 1 + FILE_TMP_RANDOM + slen || e[0] != '.' ||
		    strncmp(e + 1, name, nlen) != 0 || e[1 + nlen] != '.' ||
		    strcmp(e + len - slen, FILE_TMP_SUFFIX) != 0)
			continue;
		if (unlinkat(dirfd(d), e, 0) == -1 && errno != ENOENT) {
			saved = errno;
			rc = -1;
		}
	}
	closedir(d);
	errno = saved;
	return rc;
}
