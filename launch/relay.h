/*
 * relay.h — the supervisor's side of the relay (doc/runtime.md, "The relay"): when rank 0
 * runs on a node that does not share the job directory, the supervisor keeps that
 * directory for it. It listens on this host's address toward the node, rank 0's libgrt
 * connects (GRT_RELAY=ADDR:PORT), gets DIR/rankmap and the journal committed so far, and
 * sends its events, appended to DIR/events.jsonl as they come (the console and status
 * read them there), and its journal's records, appended to DIR/journal and fdatasync'ed
 * before each commit is acknowledged: a round counts as committed only when it is on
 * this host's disk.
 *
 * The frames (the runtime's runtime/core/grt-relay.h says the same; the layering keeps
 * that header out of launch/, and tests/launch/test-relay-wire.c ties the two): type (1
 * byte), three zero bytes, the payload's length (4 bytes, little-endian), the payload.
 */
#ifndef GS_RELAY_H
#define GS_RELAY_H

#include <pthread.h>
#include <stddef.h>

#include "common/secret.h"

#define RELAY_HELLO	'H'	/* rank 0: the files, please (the key) */
#define RELAY_EVENTS	'E'	/* rank 0: event lines */
#define RELAY_JOURNAL	'J'	/* both ways: journal bytes */
#define RELAY_TRUNCATE	'T'	/* rank 0: the journal's new length (u64) */
#define RELAY_COMMIT	'C'	/* rank 0: make it durable (u64 seq) */
#define RELAY_RANKMAP	'M'	/* supervisor: DIR/rankmap */
#define RELAY_READY	'D'	/* supervisor: the journal's length sent (u64) */
#define RELAY_ACK	'A'	/* supervisor: committed (u64 seq) */
#define RELAY_HEAD	8	/* bytes of a frame's header */
#define RELAY_MAX	(64u << 20)	/* bytes of a payload, at most */
#define RELAY_ENV	"GRT_RELAY"

struct relay {
	int lfd;		/* listening; -1: no relay */
	int stop[2];		/* written once: the thread drains and ends */
	pthread_t thread;
	int running;
	char *dir;		/* the job directory */
	double drain;		/* seconds the last connection may take to end (relay_close) */
	char key[SECRET_HEX + 1];	/* secret_new's hex digits: HELLO must carry them */
	char addr[120];		/* "A.B.C.D:PORT/KEY", GRT_RELAY's value */
};

/* No relay (relay_close does nothing). */
void relay_none(struct relay *r);

/*
 * Listen on ip (this host's address toward rank 0's node) and serve one rank 0 at a time
 * for the job directory dir, in a thread of its own, until relay_close. A connection is
 * served only when its first frame, within 30 s, is HELLO with the relay's key (a random
 * one, in GRT_RELAY after the address; the port is open to the whole network, like the
 * lease's, and what comes in is written into the job's journal). 0, or -1 with why.
 */
int relay_open(struct relay *r, const char *ip, const char *dir, char *why, size_t whylen);

/*
 * After mpiexec has ended: read what rank 0 sent before it ended (up to drain seconds
 * for a connection that stays open: a node cut off), then stop and close.
 */
void relay_close(struct relay *r, double drain);

#endif
