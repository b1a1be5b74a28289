/*
 * hello.c — the smallest libgrt program, grt.h's "Typical program": the sum of i*i over 1000
 * units; rank 0, the master, deals them out to the others, its workers (-n 2: one worker).
 */
#include <stdio.h>
#include <string.h>
#include <grt/grt.h>

/* A worker: the units [start, start+count), their sum as the chunk's result. */
static int
compute(void *ctx, int round, int64_t start, int64_t count, const void *in, size_t inlen,
    grt_buf *out)
{
	long long sum = 0;
	for (int64_t i = start; i < start + count; i++)
		sum += i * i;
	return grt_buf_append(out, &sum, sizeof sum);
}

/* The master: a chunk's result added to the total, ctx. */
static int
merge(void *ctx, int round, int64_t start, int64_t count, const void *res, size_t len)
{
	long long sum;
	memcpy(&sum, res, sizeof sum);
	*(long long *)ctx += sum;
	return 0;
}

int
main(int argc, char **argv)
{
	long long total = 0;
	struct grt_app app = { .units = 1000, .rounds = 1, .ctx = &total, .compute = compute,
	    .merge = merge };
	struct grt_config cfg;
	struct grt_report rep;
	char why[256];
	int rc, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if ((rc = grt_config_init(&cfg, NULL, why, sizeof why)) != GRT_OK)
		fprintf(stderr, "hello: %s\n", why);
	else if ((rc = grt_run(MPI_COMM_WORLD, &app, &cfg, &rep)) != GRT_OK)
		fprintf(stderr, "hello: %s\n", grt_report_error(rc, &rep));
	else if (rep.is_master)
		printf("hello: sum %lld, the master and %d worker(s)\n", total, size - 1);
	return grt_end(rc);
}
