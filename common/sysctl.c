/*
 * sysctl.c — a kernel parameter as a whole number (sysctl.h): /proc/sys/A/B/C for A.B.C,
 * read with the one small-file reader and written in one write, as sysctl(8) does.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file.h"
#include "common/sysctl.h"

/* /proc/sys/... of name into path; -1 (EINVAL) for a name that could leave /proc/sys. */
static int
sysctl_path(const char *name, char *path, size_t len)
{
	char *p;

	if (name[0] == '\0' || name[0] == '.' || strchr(name, '/') != NULL ||
	    strstr(name, "..") != NULL ||
	    (size_t)snprintf(path, len, "/proc/sys/%s", name) >= len) {
		errno = EINVAL;
		return -1;
	}
	for (p = path + strlen("/proc/sys/"); *p != '\0'; p++)
		if (*p == '.')
			*p = '/';
	return 0;
}

int
sysctl_read(const char *name, long *v)
{
	char path[PATH_MAX], *buf, *end;
	size_t len;
	long x;

	if (sysctl_path(name, path, sizeof path) == -1 || file_read(path, 64, &buf, &len) == -1)
		return -1;
	errno = 0;
	x = strtol(buf, &end, 10);
	if (errno != 0 || end == buf || (*end != '\n' && *end != '\0')) {
		free(buf);
		errno = EINVAL;
		return -1;
	}
	free(buf);
	*v = x;
	return 0;
}

int
sysctl_write(const char *name, long v)
{
	char path[PATH_MAX], text[32];
	int fd, rc, n;

	if (sysctl_path(name, path, sizeof path) == -1)
		return -1;
	n = snprintf(text, sizeof text, "%ld\n", v);
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1)
		return -1;
	rc = write(fd, text, (size_t)n) == n ? 0 : -1;
	if (close(fd) == -1)
		rc = -1;
	return rc;
}
