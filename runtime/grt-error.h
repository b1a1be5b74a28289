/* grt-error.h — the error codes of libgrt (no MPI needed, so pure code can include it). */
#ifndef GRT_ERROR_H
#define GRT_ERROR_H

#define GRT_OK		0
#define GRT_EINVAL	(-1)	/* a bad parameter, or a bad GRT_* environment value */
#define GRT_ENOMEM	(-2)	/* out of memory */
#define GRT_EMPI	(-3)	/* an MPI call failed */
#define GRT_EIO		(-4)	/* the event file cannot be written */
#define GRT_EAPP	(-5)	/* an application callback returned non-zero */
#define GRT_ENOWORKERS	(-6)	/* every worker failed or was dropped with units left */
#define GRT_EPROTO	(-7)	/* a malformed message between master and worker */

const char *grt_strerror(int code);

#endif
