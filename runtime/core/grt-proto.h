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
	GRT_TAG_ROLE = 7104,	/* master -> a rank of a group, first: its sub-master, or
				   the workers it leads (doc/runtime.md, "The hierarchy") */
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

/*
 * ROLE: boss is the rank that sends this rank its chunks from now on. A sub-master (boss 0)
 * gets nworkers > 0, then nworkers struct grt_msg_member; a worker gets nworkers 0.
 */
struct grt_msg_role {
	int32_t boss;
	int32_t nworkers;
};

struct grt_msg_member {
	int32_t rank;
	int32_t pad;
	double pr;		/* its PR, 0 when the rank map gives none */
	double cpu_mhz;		/* its clock, 0 when unknown */
};

/*
 * A sub-master's RESULT of a chunk: the header (t_calc: the group's wall time on it),
 * then one part per piece its workers computed, each followed by len result bytes.
 */
struct grt_msg_part {
	int64_t start;
	int64_t count;
	double t_calc;
	double t_exe;		/* on the sub-master: from the piece's start to its result */
	int32_t rank;		/* the worker that computed it */
	int32_t kind;		/* GRT_PART_RESULT, or GRT_PART_FAILED */
	uint64_t len;
};

enum {
	GRT_PART_RESULT = 0,	/* len result bytes of [start, start+count) follow */
	GRT_PART_FAILED = 1,	/* rank missed a deadline of its sub-master, which requeued
				   count units of it in the group; no bytes */
};

#endif
