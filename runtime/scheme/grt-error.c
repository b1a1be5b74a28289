/* grt-error.c — text of the libgrt error codes. */
#include "grt/grt-error.h"

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
		return "cannot read or write the event file or the journal";
	case GRT_EAPP:
		return "an application callback failed";
	case GRT_ENOWORKERS:
		return "every worker failed or was dropped before the work was done";
	case GRT_EPROTO:
		return "malformed message between master and worker";
	case GRT_EMASTER:
		return "the master ended the run after an error (see the master's message)";
	case GRT_EJOURNAL:
		return "the journal cannot be resumed: it is corrupt or another run's";
	case GRT_ETIMEOUT:
		return "the run reached its time limit (GRT_TIME_LIMIT)";
	}
	return "unknown error";
}
