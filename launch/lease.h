/*
 * lease.h — what ties a multi-site job's ranks to the job, wherever they run
 * (doc/architecture.md, "No orphan on any site"):
 * - a tag, GRIDSUBMIT_JOB=TAG in every rank's environment (ID-RANDOM, also in DIR/job-tag):
 *   how cancel finds the job's processes on a node, whatever their process group;
 * - a lease, GRIDSUBMIT_LEASE=ADDR:PORT: a TCP port the supervisor listens on and never
 *   writes to. Every gridsubmit-rank holds a connection to it and stops its program when
 *   the connection ends: the supervisor died (the kernel closes it) or its host went
 *   silent for GRIDSUBMIT_LEASE_TIMEOUT seconds (keepalives). A rank that runs outside the
 *   job directory sends its end there (one line, common/rank-end.h) before it closes it.
 */
#ifndef GS_LEASE_H
#define GS_LEASE_H

#include <netinet/in.h>
#include <stddef.h>

#include "store/jobstore.h"

#define LEASE_ENV	"GRIDSUBMIT_LEASE"
#define LEASE_TAG_ENV	"GRIDSUBMIT_JOB"
#define LEASE_TAG_FILE	"job-tag"

/*
 * A new tag for the job (allocated, "ID-" and 32 hex digits), written to DIR/job-tag
 * first. NULL with why set when it cannot be written.
 */
char *lease_tag_new(const struct job_state *st, char *why, size_t whylen);

/* The tag of DIR/job-tag into buf: 0, or -1 when there is none (or it is malformed). */
int lease_tag_read(const char *dir, char *buf, size_t len);

/*
 * In the supervisor, before mpiexec starts: listen on the address of the "-genv
 * GRIDSUBMIT_LEASE ADDR:0" of argv and put the port there. When it cannot (a warning is
 * printed) the value becomes empty and the ranks run without a lease. No lease in argv:
 * nothing to do. A relaunch toward the same address keeps the socket (and its port);
 * toward another, the socket is replaced by one there.
 */
void lease_open(char **argv);

/* Accept the ranks' connections waiting (never blocks); call it while the job runs. */
void lease_accept(void);

/*
 * Where the ranks' ends that arrive on the lease go (DIR/rank-ends; NULL: nowhere): each
 * complete, well-formed line is appended there as it is.
 */
void lease_ends_file(const char *path);

/*
 * Accept, then read every held connection without blocking: a rank's end line is recorded
 * (lease_ends_file), a connection its rank closed is closed. Call it while the job runs.
 */
void lease_read(void);

/* lease_read until every held connection has ended or wait seconds have passed. */
void lease_drain(double wait);

/*
 * After a launch has ended and been cleaned up (doc/restarts.md): the peer addresses of
 * the lease connections still open after up to wait seconds, into addrs (at most max;
 * the count is returned). Every rank that ended closed its connection, so one still open
 * comes from a node that never told us: cut off, frozen or down. Every connection is
 * closed then: the next launch holds only its own.
 */
size_t lease_silent(struct in_addr *addrs, size_t max, double wait);

#endif
