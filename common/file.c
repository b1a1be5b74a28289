/* file.c — see file.h. */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file.h"
#include "common/xmalloc.h"

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
