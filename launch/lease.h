/*
 * lease.h — what ties a multi-site job's ranks to the job, wherever they run
 * (doc/architecture.md, "No orphan on any site"):
 * - a tag, GRIDSUBMIT_JOB=TAG in every rank's environment (ID-RANDOM, also in DIR/job-tag):
 *   how cancel finds the job's processes on a node, whatever their process group;
 * - a lease, GRIDSUBMIT_LEASE=ADDR:PORT: a TCP port the supervisor listens on. Every
 *   gridsubmit-rank holds a connection to it, opened with the launch's secret (in
 *   mpiexec's environment, GRIDSUBMIT_LEASE_SECRET, never in an argv), and both sides beat
 *   on it (lease-proto.h). The wrapper stops its program when the connection ends (the
 *   supervisor died) or the supervisor is silent for its timeout; the supervisor, while
 *   it watches a launch, judges a node lost when a connection from it is silent for
 *   lease_timeout seconds or says its proxy died. A rank that runs outside the job
 *   directory sends its end there (one line, common/rank-end.h) before it closes it.
 *   Connections that never send the secret are closed after LEASE_AUTH_WAIT seconds, at
 *   most LEASE_PENDING_MAX wait at once, and none of them is ever evidence.
 */
#ifndef GS_LEASE_H
#define GS_LEASE_H

#include <netinet/in.h>
#include <stddef.h>

#include "store/jobstore.h"

#define LEASE_ENV	"GRIDSUBMIT_LEASE"
#define LEASE_TAG_ENV	"GRIDSUBMIT_JOB"
#define LEASE_TAG_FILE	"job-tag"
#define LEASE_PENDING_MAX	64	/* connections waiting for their secret at once */

/* How a connection named its node (lease_silent). */
enum {
	LEASE_LOST_SILENT = 1,	/* silent for lease_timeout seconds during the launch */
	LEASE_LOST_PROXY,	/* its wrapper said its hydra proxy died */
	LEASE_LOST_OPEN,	/* still open once the failed launch was cleaned up */
};

struct lease_peer {
	struct in_addr addr;	/* where the connection came from */
	int how;		/* a LEASE_LOST_* */
};

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
 * toward another, the socket is replaced by one there. Every call draws a new secret.
 */
void lease_open(char **argv);

/* In mpiexec's child before its exec: the secret into its environment (none: nothing). */
void lease_child_env(void);

/* Accept the ranks' connections waiting (never blocks); call it while the job runs. */
void lease_accept(void);

/*
 * Where the ranks' ends that arrive on the lease go (DIR/rank-ends; NULL: nowhere): each
 * complete, well-formed line is appended there as it is.
 */
void lease_ends_file(const char *path);

/*
 * Accept, then read every held connection without blocking: a rank's end line is recorded
 * (lease_ends_file), a connection its rank closed is closed, one without the secret in
 * time is closed; a beat goes to every authenticated one each second. Call it while the
 * job runs, at least every second.
 */
void lease_read(void);

/*
 * Judge the launch's connections from now on (timeout > 0, seconds of silence that lose
 * a node) or no more (0: what arrives later is no evidence). Every count starts afresh.
 */
void lease_watch(double timeout);

/* Connections judged lost (silent, or their proxy died) since lease_watch. */
size_t lease_lost_count(void);

/*
 * 1 when an authenticated connection from addr was judged silent during the last watch
 * (until lease_silent empties the list): its node cannot be reached, and its wrappers stop
 * their programs themselves when the beats stop.
 */
int lease_silent_from(struct in_addr addr);

/* lease_read until every held connection has ended or wait seconds have passed. */
void lease_drain(double wait);

/*
 * After a launch has ended and been cleaned up (doc/restarts.md): the authenticated
 * connections judged lost during the watch, and those still open after up to wait
 * seconds, into peers (at most max; the count is returned). Every rank that ended closed
 * its connection, so one still open comes from a node that never told us: cut off,
 * frozen or down. Every connection is closed then and the watch ends: the next launch
 * holds only its own.
 */
size_t lease_silent(struct lease_peer *peers, size_t max, double wait);

#endif
