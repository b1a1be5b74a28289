/*
 * grt-sum.c — a user's own libgrt program, as the install tests build it against an
 * installed libgrt (test-install.sh, test-configure.sh): the sum of 0..999 over 1,000 units
 * with the scheme of argv[1], printed by the master as "SCHEME sum 499500".
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <grt/grt.h>

static int
compute(void *ctx, int round, int64_t start, int64_t count, const void *in, size_t inlen,
    grt_buf *out)
{
	int64_t i, s = 0;

	for (i = start; i < start + count; i++)
		s += i;
	return grt_buf_append(out, &s, sizeof s);
}

static int
merge(void *ctx, int round, int64_t start, int64_t count, const void *res, size_t len)
{
	int64_t s;

	if (len != sizeof s)
		return -1;
	memcpy(&s, res, sizeof s);
	*(int64_t *)ctx += s;
	return 0;
}

int
main(int argc, char **argv)
{
	int64_t total = 0;
	struct grt_app app = { .units = 1000, .rounds = 1, .ctx = &total,
	    .compute = compute, .merge = merge };
	struct grt_config cfg;
	struct grt_report rep;
	char why[256];
	int rc;

	MPI_Init(&argc, &argv);
	if ((rc = grt_config_init(&cfg, argc > 1 ? argv[1] : "gss", why, sizeof why)) !=
	    GRT_OK)
		fprintf(stderr, "grt-sum: %s\n", why);
	else if ((rc = grt_run(MPI_COMM_WORLD, &app, &cfg, &rep)) != GRT_OK)
		fprintf(stderr, "grt-sum: %s\n", grt_strerror(rc));
	else if (rep.is_master)
		printf("%s sum %" PRId64 "\n", grt_scheme_name(cfg.sched.scheme), total);
	return grt_end(rc);
}
