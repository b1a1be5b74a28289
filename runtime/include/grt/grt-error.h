/* grt-error.h — the error codes of libgrt (no MPI needed, so pure code can include it). */
#ifndef GRT_ERROR_H
#define GRT_ERROR_H

#define GRT_OK		0
#define GRT_EINVAL	(-1)	/* a bad parameter, or a bad GRT_* environment value */
#define GRT_ENOMEM	(-2)	/* out of memory */
#define GRT_EMPI	(-3)	/* an MPI call failed */
#define GRT_EIO		(-4)	/* the event file or the journal cannot be used */
#define GRT_EAPP	(-5)	/* an application callback returned non-zero */
#define GRT_ENOWORKERS	(-6)	/* every worker failed or was dropped with units left */
#define GRT_EPROTO	(-7)	/* a malformed message between master and worker */
#define GRT_EJOURNAL	(-8)	/* the journal is corrupt or another run's (grt.h) */
#define GRT_EMASTER	(-9)	/* a worker: the master ended the run after an error */
#define GRT_ETIMEOUT	(-10)	/* the master ended the run at its time limit (GRT_TIME_LIMIT) */

const char *grt_strerror(int code);

#endif
