/*
 * grt-pmi.h — the PMI-1 end of a rank that leaves without MPI_Finalize, the one copy that
 * grt_end() (runtime/core/grt-end.c) and the plain programs' interposer
 * (runtime/finalize/grt-finalize.c) both use. No MPI here: the interposer is built without
 * libmpi and includes this file as it is.
 */
#ifndef GRT_PMI_H
#define GRT_PMI_H

/*
 * Tell hydra's proxy that this rank ends on purpose: "cmd=finalize" on the connection hydra
 * handed over in PMI_FD, then its "cmd=finalize_ack" (the exchange MPICH's own MPI_Finalize
 * ends with). A rank that closes its PMI connection without it is taken for a failed one.
 * Without PMI_FD (another launcher) nothing is sent. A proxy that does not answer within
 * GRT_PMI_ACK_LIMIT ms costs only a wrong exit status, never a hang; an answer that is not
 * the acknowledgement is said on stderr. Returns 0 when acknowledged, -1 otherwise.
 */
#define GRT_PMI_ACK_LIMIT	1000
int grt_pmi_finalize(void);

#endif
