/*
 * grt-comm.h — how the ranks of the loop runtime exchange their messages and wait: a
 * message sent to one rank, a message received, a result waited out, the end barrier, and
 * (grt-master.h, master_wait) the master waiting for a result. The task runtime sends
 * with these calls too, and receives in runtime/task/grt-task-comm-*.c. Two builds of
 * the same calls; the Makefile links one of them into each libgrt:
 *
 *   grt-comm-poll.c   libgrt under MPICH: one MPI message per message, found by probes
 *                     with a back-off; never a blocking call. A blocking MPICH call spins
 *                     on its core, and one on a dead rank never returns
 *                     (doc/reliability.md, "A dead worker under MPICH 4.0.2").
 *   grt-comm-block.c  libgrt under SimGrid's SMPI (gridsubmit simulate): blocking
 *                     receives, so that the simulator runs one event per message instead
 *                     of one per empty probe (doc/simulate.md, "Waiting in the SMPI
 *                     build"). SMPI's MPI_Probe is itself a loop of probes, so a message
 *                     travels as two: its length, then its bytes. No rank dies in a
 *                     simulation, so none waits for one that did.
 *
 * Both ends of a message use these calls, so the two builds never meet.
 */
#ifndef GRT_COMM_H
#define GRT_COMM_H

#include "runtime/core/grt-internal.h"

/*
 * 1 when receives block (grt-comm-block.c), 0 when they are polled. A master with nothing
 * of its own to compute then goes straight to master_wait: under SMPI a look that finds
 * nothing is a probe, which SimGrid charges simulated time for.
 */
extern const int grt_comm_blocks;

/* Send len bytes to dest; *req completes when buf may be reused. GRT_OK or GRT_EMPI. */
int grt_comm_isend(const void *buf, size_t len, int dest, int tag, MPI_Comm comm,
    MPI_Request *req);

/*
 * Receive the next message from source (or MPI_ANY_SOURCE) with tag (or MPI_ANY_TAG) into
 * buf (its len set), its source and tag in *st. With wait 0 it returns 0 at once when none
 * is there; else it waits for one. 1 when a message was received, or an error (< 0).
 */
int grt_comm_recv(MPI_Comm comm, int source, int tag, int wait, grt_buf *buf,
    MPI_Status *st);

/* The n bytes of st's message (its source and tag) into buf: 1, or an error (grt-comm.c) */
int grt_comm_take(MPI_Comm comm, const MPI_Status *st, int n, grt_buf *buf);

/*
 * Until a worker's result send *req to the master completes, or the master's STOP shows
 * that it never will (the master finished while this worker computed a requeued chunk's
 * duplicate): then grt_failure_seen is set. GRT_OK or GRT_EMPI.
 */
int grt_comm_sent(MPI_Comm comm, MPI_Request *req);

/* The end barrier of every rank of MPI_COMM_WORLD: 1 when all reached it, else 0. */
int grt_comm_all_ranks(void);

/*
 * SMPI build only (grt-comm-block.c): before a rank's first message, in or out, its first
 * contact (doc/simulate.md, "First contact"), once; grt_comm_isend and grt_comm_recv call
 * it, and so does the task runtime's wait (runtime/task/grt-task-comm-block.c), which
 * receives by its own means.
 */
void grt_comm_contact(void);

#endif
