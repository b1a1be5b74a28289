/*
 * scheme-drive.h — what the scheme unit tests (tests/runtime/test-scheme*.c) share: schemes
 * made or the test ends, every chunk of a round recorded in recs[], checks on them, and a
 * fixed random stream. Included once per test program (each is its own executable).
 */
#ifndef TEST_SCHEME_DRIVE_H
#define TEST_SCHEME_DRIVE_H

struct rec {
	int w;
	int64_t start;
	int64_t count;
};

#define MAXREC 20000
static struct rec recs[MAXREC];
static inline grt_sched *
mk(const struct grt_sched_conf *c, int p, int64_t n)
{
	int err = 99;
	grt_sched *s = grt_sched_new(c, p, n, &err);

	if (s == NULL || err != GRT_OK) {
		printf("# grt_sched_new(%s, P=%d, N=%lld) failed: %d\n",
		    grt_scheme_name(c->scheme), p, (long long)n, err);
		exit(1);
	}
	return s;
}

/* The chunk counts of recs[0..nr) as "a,b,c". */
static inline const char *
counts(int nr)
{
	static char buf[65536];
	size_t at = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < nr && i < MAXREC && at < sizeof buf - 32; i++)
		at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%lld", i ? "," : "",
		    (long long)recs[i].count);
	return buf;
}

/* 1 when recs[0..nr) are laid end to end from 0 and cover exactly [0, n). */
static inline int
contiguous(int nr, int64_t n)
{
	int64_t at = 0;
	int i;

	for (i = 0; i < nr; i++) {
		if (recs[i].start != at || recs[i].count < 1)
			return 0;
		at += recs[i].count;
	}
	return at == n;
}

/* A fixed xorshift stream: runs are reproducible. */
static inline uint64_t
rnd(void)
{
	static uint64_t x = 0x9e3779b97f4a7c15ULL;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

static inline double
rnd01(void)
{
	return (double)(rnd() >> 11) / 9007199254740992.0;
}

#endif
