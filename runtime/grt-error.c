/* grt-error.c — text of the libgrt error codes. */
#include "grt-error.h"

const char *
grt_strerror(int code)
{
	switch (code) {
	case GRT_OK:
		return "success";
	case GRT_EINVAL:
		return "invalid parameter";
	case GRT_ENOMEM:
		return "out of memory";
	case GRT_EMPI:
		return "an MPI call failed";
	case GRT_EIO:
		return "cannot write the event file";
	case GRT_EAPP:
		return "an application callback failed";
	case GRT_ENOWORKERS:
		return "every worker failed or was dropped before the work was done";
	case GRT_EPROTO:
		return "malformed message between master and worker";
	}
	return "unknown error";
}
