/*
 * grt-task-proto.h — the messages of a task run (grt_tasks_run, doc/tasks.md), internal.
 * Every message has the tag GRT_TAG_TASK and is one MPI_BYTE buffer: a struct tk_hdr, then
 * the payload: a packed state (slen bytes), then nmsg task messages, each a struct tk_mhdr
 * and its bytes.
 */
#ifndef GRT_TASK_PROTO_H
#define GRT_TASK_PROTO_H

#include <stdint.h>

#define GRT_TAG_TASK	7110

enum tk_kind {
	TK_ASSIGN = 1,	/* master -> worker: hold this task (state, waiting messages) */
	TK_MOVE,	/* master -> holder: after the task's step, send it to rank arg */
	TK_STATE,	/* holder -> new holder: the task; flags TK_COPY: the master's copy */
	TK_LOC,		/* master -> workers: task is at rank arg from this epoch on */
	TK_MSG,		/* task arg -> task task: sent in step `step` */
	TK_STEP,	/* worker -> master: step `step` of task done (a wall, b wait, c cpu) */
	TK_ARRIVED,	/* worker -> master: task installed here (a seconds, slen bytes) */
	TK_CKPT,	/* worker -> master: the state after step `step`, and what it sent then */
	TK_FINAL,	/* worker -> master: the state after the last step */
	TK_BEAT,	/* worker -> master: alive, nothing else to say */
	TK_ROLLBACK,	/* master -> workers: drop every task; generation gen begins */
	TK_STOP,	/* master -> workers: leave (arg: GRT_STOP_DONE or GRT_STOP_ERROR) */
	TK_BYE,		/* worker -> master: stopped, its sends complete */
	TK_ERROR,	/* worker -> master: a callback (arg: enum tk_call) failed on task */
};

enum tk_call { TK_CALL_UNPACK, TK_CALL_PACK, TK_CALL_STEP, TK_CALL_PROTO };

#define TK_COPY	1	/* TK_STATE to the master: keep it, do not install it */

struct tk_hdr {
	int32_t kind;
	int32_t task;
	int32_t gen;		/* rollback generation: older ones are dropped */
	int32_t arg;
	int64_t step;		/* steps done (ASSIGN, STATE, CKPT, FINAL), or the step */
	int64_t epoch;		/* of the task's location (ASSIGN, STATE, LOC, MOVE) */
	int64_t slen;		/* bytes of packed state after the header */
	int32_t nmsg;		/* task messages after the state */
	int32_t flags;
	double a, b, c;
};

struct tk_mhdr {
	int32_t from;
	int32_t to;
	int64_t step;		/* the step it was sent in */
	int64_t len;
};

#endif
