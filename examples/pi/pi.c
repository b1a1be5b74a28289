/*
 * pi.c — a plain MPI program (no libgrt): pi as the integral of 4/(1+x^2) over [0,1] by the
 * midpoint rule, the intervals dealt round-robin over the ranks and summed with MPI_Reduce.
 * What gridsubmit runs for a program written for mpiexec alone: it is judged by its ranks'
 * exit statuses (doc/restarts.md, "Programs without libgrt").
 *
 * usage: pi [--n INTERVALS] [--repeat K] [--fail RANK:STATUS]
 * --repeat integrates K times (a longer run, same result); --fail makes RANK exit with
 * STATUS after its share, before the reduction: a failing rank on purpose.
 * Rank 0 prints one line: the value, its error against M_PI, and "matches" or "WRONG".
 * Exit status: 0 ok, 1 wrong result, 2 usage error, STATUS on the failing rank.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI_TOLERANCE	1e-9	/* the midpoint rule's error at 1e6 intervals is ~1e-13 */

struct pi_opts {
	long long n;		/* intervals */
	int repeat;
	int fail_rank;		/* -1: none */
	int fail_status;
};

/* The options into o: 0, or -1 with the usage said on rank 0. */
static int
pi_args(int argc, char **argv, int rank, struct pi_opts *o)
{
	char *end;
	int i;

	o->n = 100000000;
	o->repeat = 1;
	o->fail_rank = -1;
	for (i = 1; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--n") == 0) {
			o->n = strtoll(argv[++i], &end, 10);
			if (*end != '\0' || o->n < 1)
				goto usage;
		} else if (i + 1 < argc && strcmp(argv[i], "--repeat") == 0) {
			o->repeat = (int)strtol(argv[++i], &end, 10);
			if (*end != '\0' || o->repeat < 1)
				goto usage;
		} else if (i + 1 < argc && strcmp(argv[i], "--fail") == 0) {
			if (sscanf(argv[++i], "%d:%d", &o->fail_rank, &o->fail_status) != 2 ||
			    o->fail_rank < 0 || o->fail_status < 1 || o->fail_status > 255)
				goto usage;
		} else
			goto usage;
	}
	return 0;
usage:
	if (rank == 0)
		fprintf(stderr, "usage: pi [--n INTERVALS] [--repeat K] [--fail RANK:STATUS]\n");
	return -1;
}

/* This rank's share of the midpoint sum: intervals rank, rank+size, ... */
static double
pi_share(long long n, int rank, int size)
{
	double h = 1.0 / (double)n, sum = 0, x;
	long long i;

	for (i = rank; i < n; i += size) {
		x = h * ((double)i + 0.5);
		sum += 4.0 / (1.0 + x * x);
	}
	return sum * h;
}

int
main(int argc, char **argv)
{
	struct pi_opts o;
	double mine = 0, pi = 0;
	int rank, size, k;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (pi_args(argc, argv, rank, &o) != 0) {
		MPI_Finalize();
		return 2;
	}
	for (k = 0; k < o.repeat; k++)
		mine = pi_share(o.n, rank, size);
	if (rank == o.fail_rank) {
		fprintf(stderr, "pi: rank %d fails on purpose with status %d\n", rank,
		    o.fail_status);
		exit(o.fail_status);
	}
	MPI_Reduce(&mine, &pi, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("pi %.15f error %.1e (%lld intervals, %d ranks, %d times): %s\n", pi,
		    fabs(pi - M_PI), o.n, size, o.repeat,
		    fabs(pi - M_PI) < PI_TOLERANCE ? "matches M_PI" : "WRONG");
	MPI_Finalize();
	return rank == 0 && fabs(pi - M_PI) >= PI_TOLERANCE ? 1 : 0;
}
