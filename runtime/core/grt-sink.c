/* grt-sink.c — the file sink (grt-sink.h): write(2) and fdatasync(2) on a descriptor. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "runtime/core/grt-sink.h"

/* All of len bytes to the file; 0, or -1 with errno. */
static int
sink_file_write(struct grt_sink *s, const void *p, size_t len)
{
	return grt_write_all(s->fd, p, len);
}

/* grt-sink.h. */
int
grt_write_all(int fd, const void *p, size_t len)
{
	const unsigned char *b = p;
	ssize_t n;

	while (len > 0) {
		n = write(fd, b, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		b += n;
		len -= (size_t)n;
	}
	return 0;
}

/* EINVAL: a descriptor that cannot sync (a pipe, a terminal) has nothing to make durable */
static int
sink_file_sync(struct grt_sink *s)
{
	return fdatasync(s->fd) == 0 || errno == EINVAL ? 0 : -1;
}

/* grt-sink.h. */
void
grt_sink_file(struct grt_sink *s, int fd)
{
	memset(s, 0, sizeof *s);
	s->write = sink_file_write;
	s->sync = sink_file_sync;
	s->fd = fd;
}
