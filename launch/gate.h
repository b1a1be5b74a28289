/*
 * gate.h — rank 0's start gate, for a launch that starts mpiexec before its preflight has
 * passed (doc/architecture.md, "Speculative launch"). The supervisor makes a FIFO in the
 * job directory and holds it open; gridsubmit-rank --gate waits there before it starts
 * rank 0's program, and no other rank gets past MPI_Init before rank 0 enters it.
 */
#ifndef GS_GATE_H
#define GS_GATE_H

#include "store/jobstore.h"

struct gate {
	char *path;	/* DIR/.gate */
	int fd;		/* held open for writing: its end (our death) closes the gate */
};

/* Make and open the gate of st's job. Returns 0, or -1 with why. */
int gate_open(const struct job_state *st, struct gate *g, char *why, size_t whylen);

/*
 * Let rank 0 start (go) or call the launch off (!go). The gate stays open: the byte waits
 * in the FIFO until rank 0 reads it, also when rank 0's wrapper has not opened it yet.
 */
void gate_release(struct gate *g, int go);

/* Close and remove the gate (after mpiexec has ended); a gate never released says no. */
void gate_close(struct gate *g);

#endif
