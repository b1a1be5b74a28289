/*
 * grt-proto.h — the messages between the libgrt master and its workers (internal).
 * Every message is one MPI_BYTE buffer: a fixed header, then the payload.
 */
#ifndef GRT_PROTO_H
#define GRT_PROTO_H

#include <stdint.h>

enum {
	GRT_TAG_WORK = 7101,	/* master -> worker: compute a chunk */
	GRT_TAG_STOP = 7102,	/* master -> worker: no more work, leave grt_run */
	GRT_TAG_RESULT = 7103,	/* worker -> master: a chunk's result */
};

enum {
	GRT_WORK_CHUNK = 0,	/* a chunk whose result counts */
	GRT_WORK_SAMPLE = 1,	/* a unit timed for SWR (seed 002, eq. 3); result dropped */
};

enum {
	GRT_STOP_DONE = 0,	/* the run is over */
	GRT_STOP_DROPPED = 1,	/* the scheme cannot balance this worker (seed 000, sec. 3) */
	GRT_STOP_ERROR = 2,	/* the run failed */
};

struct grt_msg_work {
	int64_t seq;
	int64_t start;
	int64_t count;
	int32_t round;
	int32_t kind;
};

struct grt_msg_stop {
	int32_t reason;
	int32_t failure_seen;	/* 1: a rank failed; MPI_Finalize would hang, skip it */
};

struct grt_msg_result {
	int64_t seq;
	int64_t start;
	int64_t count;
	double t_calc;
	int32_t round;
	int32_t status;		/* 0, or the callback's error: the run fails with GRT_EAPP */
};

#endif
