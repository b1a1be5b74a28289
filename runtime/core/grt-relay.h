/*
 * grt-relay.h — rank 0's side of the relay (doc/runtime.md, "The relay"), internal. When
 * rank 0 runs on a node that does not share the job directory, gridsubmit listens on
 * GRT_RELAY=ADDR:PORT and keeps the job directory for it: the master connects at start,
 * gets the rank map and the journal committed so far (written where rankmap_path and
 * journal_path say, on the node), then sends its events and journal records as frames;
 * a journal commit waits until the supervisor has them fdatasync'ed and says so.
 *
 * A frame: type (1 byte), three zero bytes, the payload's length (4 bytes, little-endian),
 * the payload. The supervisor's side, launch/relay.c, writes the same format down again
 * (the layering keeps launch/ out of the runtime); tests/launch/test-relay-wire.c ties
 * the two.
 *	rank 0 -> supervisor: HELLO (the key), EVENTS (lines), JOURNAL (records),
 *	                      TRUNCATE (u64: the journal's new length), COMMIT (u64 seq)
 *	supervisor -> rank 0: RANKMAP (the file), JOURNAL (its bytes, in frames),
 *	                      READY (u64: the journal's length), ACK (u64 seq)
 */
#ifndef GRT_RELAY_H
#define GRT_RELAY_H

#include <pthread.h>
#include <stdint.h>

#include "runtime/core/grt-sink.h"

#define GRT_RELAY_HELLO		'H'
#define GRT_RELAY_EVENTS	'E'
#define GRT_RELAY_JOURNAL	'J'
#define GRT_RELAY_TRUNCATE	'T'
#define GRT_RELAY_COMMIT	'C'
#define GRT_RELAY_RANKMAP	'M'
#define GRT_RELAY_READY		'D'
#define GRT_RELAY_ACK		'A'
#define GRT_RELAY_HEAD		8		/* bytes of a frame's header */
#define GRT_RELAY_MAX		(64u << 20)	/* bytes of a payload, at most */
#define GRT_RELAY_TIMEOUT	30		/* seconds to connect, or for an answer */

struct grt_relay {
	int fd;			/* -1: none */
	pthread_mutex_t mu;	/* one frame at a time: the master's events, the journal's
				   writer thread */
	uint64_t seq;		/* the last commit asked for */
	uint64_t journal_len;	/* the supervisor's journal's length at HELLO */
};

/*
 * Connect to addr ("A.B.C.D:PORT/KEY"), say HELLO with KEY (the supervisor serves no one
 * else), and write what the supervisor sends: the
 * rank map to rankmap (NULL: not wanted), the journal to journal (replaced; NULL: not
 * wanted). Returns GRT_OK, or GRT_EIO with why saying what failed.
 */
int grt_relay_open(struct grt_relay *r, const char *addr, const char *rankmap,
    const char *journal, char *why, size_t whylen);

/* One frame; 0, or -1 (the connection is then unusable). Any thread. */
int grt_relay_send(struct grt_relay *r, int type, const void *p, size_t len);

/* COMMIT, then wait for its ACK: 0, or -1. The journal's writer thread only. */
int grt_relay_commit(struct grt_relay *r);

/* Sinks of frames of type on r (GRT_RELAY_EVENTS, GRT_RELAY_JOURNAL). */
void grt_relay_sink(struct grt_relay *r, int type, struct grt_sink *s);

/* Close the connection (after every sink is done with it). */
void grt_relay_close(struct grt_relay *r);

#endif
