/*
 * finalize-check — a plain MPI program (no libgrt) that says what its MPI_Finalize did:
 * every rank sums its rank with MPI_Allreduce, calls MPI_Finalize, and prints after it
 * "finalize-check: rank R sum S finalize RC finalized F pmpi P", F what MPI_Finalized says
 * (the interposer's answer when it is preloaded) and P what the MPI library's own
 * PMPI_Finalized says (0 when the interposer ended the rank without PMPI_Finalize, 1
 * after the real one). tests/runtime/test-finalize.sh runs it with
 * runtime/finalize/grt-finalize.c preloaded and without.
 */
#include <mpi.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
	int rank, size, sum = 0, rc, flag = 0, pflag = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	rc = MPI_Finalize();
	MPI_Finalized(&flag);
	PMPI_Finalized(&pflag);
	printf("finalize-check: rank %d sum %d finalize %d finalized %d pmpi %d\n", rank, sum,
	    rc, flag, pflag);
	return sum == size * (size - 1) / 2 && rc == MPI_SUCCESS && flag ? 0 : 1;
}
