/*
 * grt-sink.h — where the master's event stream and journal records go, internal: a file
 * of the job directory, or the relay to the supervisor (grt-relay.h) when rank 0 runs on
 * a node that does not share that directory (doc/runtime.md, "The relay"). The writers
 * (grt-events.c, grt-journal.c) call write and sync and know nothing of which.
 */
#ifndef GRT_SINK_H
#define GRT_SINK_H

#include <stddef.h>

struct grt_relay;

struct grt_sink {
	/* all of len bytes at p: 0, or -1 (errno set) */
	int (*write)(struct grt_sink *s, const void *p, size_t len);
	/* what was written is durable where it goes (a file: fdatasync; the relay: on the
	   submitting host's disk, acknowledged): 0, or -1 */
	int (*sync)(struct grt_sink *s);
	int fd;			/* the file's, or the relay's socket */
	struct grt_relay *relay;	/* the relay sinks' connection */
	int frame;		/* the relay sinks' frame type (grt-relay.h) */
};

/* All of len bytes at p to the file fd (a short write continued); 0, or -1 with errno. */
int grt_write_all(int fd, const void *p, size_t len);

/* A sink writing to the file open on fd (which stays the caller's to close). */
void grt_sink_file(struct grt_sink *s, int fd);

#endif
