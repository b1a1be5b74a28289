/*
 * rank-preload.h — the library gridsubmit-rank preloads into its program: the end of a
 * plain MPI program without MPICH's hang over tcp (runtime/finalize/grt-finalize.c). It
 * lives next to gridsubmit-rank, here and in a node's bin/ (launch/stage.c copies both).
 */
#ifndef RANK_PRELOAD_H
#define RANK_PRELOAD_H

#define RANK_FINALIZE_LIB	"libgridsubmit-finalize.so"

/*
 * In the child, before it runs the program: LD_PRELOAD gets RANK_FINALIZE_LIB from this
 * wrapper's directory, after whatever the job's own LD_PRELOAD holds. Nothing changes when
 * the library is not there or its path has a character ld.so would split it at (a space or
 * a colon). Returns 1 when it was added, 0 otherwise.
 */
int rank_preload_finalize(void);

#endif
