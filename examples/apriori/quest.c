/*
 * quest.c — a synthetic transaction database in the style of the IBM Quest generator that
 * made the datasets of seed 002, 4.3 (table 4: D10K..D150K, T5, I10), after the procedure
 * of Agrawal and Srikant, "Fast algorithms for mining association rules" (VLDB 1994),
 * section 2.4.3:
 *  - L potentially large itemsets ("patterns") over N items; a pattern's size is Poisson
 *    with mean I; the first pattern's items are random; each later pattern takes a fraction
 *    of its items from the previous one (exponential, mean 0.5: the correlation level) and
 *    the rest at random; each has a weight (exponential, mean 1; normalised: the
 *    probability of picking it) and a corruption level (normal, mean 0.5, variance 0.1).
 *  - A transaction's size is Poisson with mean T; patterns picked by weight are added to it,
 *    each after dropping items while a uniform draw is below its corruption level; a pattern
 *    that does not fit goes in anyway half of the time and waits for the next transaction
 *    otherwise.
 * Everything comes from one splitmix64 stream seeded by --seed, so every run (and every
 * rank) makes the same database. Items in a transaction are sorted and distinct.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apriori.h"

struct rng {
	uint64_t s;
};

static uint64_t
rng_next(struct rng *r)
{
	uint64_t x = (r->s += 0x9e3779b97f4a7c15u);

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
	return x ^ (x >> 31);
}

/* Uniform in [0, 1). */
static double
rng_unif(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

static double
rng_exp(struct rng *r, double mean)
{
	return -mean * log(1.0 - rng_unif(r));
}

/* Knuth's method: fine for the small means here (T, I <= ~50). */
static int
rng_poisson(struct rng *r, double mean)
{
	double l = exp(-mean), p = 1;
	int k = 0;

	do {
		k++;
		p *= rng_unif(r);
	} while (p > l && k < 10000);
	return k - 1;
}

static double
rng_normal(struct rng *r, double mean, double var)
{
	double u = rng_unif(r), v = rng_unif(r);

	return mean + sqrt(var) * sqrt(-2.0 * log(1.0 - u)) * cos(2 * M_PI * v);
}

static int
cmp_int32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* Sort and remove duplicates; returns the new length. */
static int
set_normalise(int32_t *v, int n)
{
	int i, o = 0;

	qsort(v, (size_t)n, sizeof *v, cmp_int32);
	for (i = 0; i < n; i++)
		if (o == 0 || v[o - 1] != v[i])
			v[o++] = v[i];
	return o;
}

static int
db_push(struct tdb *db, const int32_t *items, int n)
{
	if (db->nitems + (size_t)n > db->capitems) {
		size_t cap = db->capitems ? db->capitems * 2 : 4096;
		int32_t *p;

		while (cap < db->nitems + (size_t)n)
			cap *= 2;
		if ((p = realloc(db->items, cap * sizeof *p)) == NULL)
			return -1;
		db->items = p;
		db->capitems = cap;
	}
	memcpy(db->items + db->nitems, items, (size_t)n * sizeof *items);
	db->nitems += (size_t)n;
	db->off[++db->ntrans] = db->nitems;
	return 0;
}

int
quest_generate(const struct quest_params *q, struct tdb *db)
{
	struct rng r = { q->seed };
	int32_t **pat = NULL, *plen = NULL, *tr = NULL, prev_len = 0;
	double *cum = NULL, *corr = NULL, wsum = 0;
	int i, rc = -1, maxt, pending = -1;

	memset(db, 0, sizeof *db);
	if (q->ntrans < 1 || q->nitems < 1 || q->npats < 1 || q->tlen <= 0 || q->plen <= 0)
		return -1;
	if ((db->off = malloc((size_t)(q->ntrans + 1) * sizeof *db->off)) == NULL ||
	    (pat = calloc((size_t)q->npats, sizeof *pat)) == NULL ||
	    (plen = calloc((size_t)q->npats, sizeof *plen)) == NULL ||
	    (cum = malloc((size_t)q->npats * sizeof *cum)) == NULL ||
	    (corr = malloc((size_t)q->npats * sizeof *corr)) == NULL)
		goto out;
	db->off[0] = 0;

	/* the potentially large itemsets */
	for (i = 0; i < q->npats; i++) {
		int n = rng_poisson(&r, q->plen), from_prev, k;

		if (n < 1)
			n = 1;
		if (n > q->nitems)
			n = q->nitems;
		if ((pat[i] = malloc((size_t)n * sizeof *pat[i])) == NULL)
			goto out;
		from_prev = 0;
		if (i > 0) {
			double f = rng_exp(&r, 0.5);

			from_prev = (int)(f > 1 ? n : f * n + 0.5);
			if (from_prev > prev_len)
				from_prev = prev_len;
		}
		for (k = 0; k < from_prev; k++)
			pat[i][k] = pat[i - 1][rng_next(&r) % (uint64_t)prev_len];
		for (; k < n; k++)
			pat[i][k] = (int32_t)(rng_next(&r) % (uint64_t)q->nitems);
		plen[i] = set_normalise(pat[i], n);
		prev_len = plen[i];
		wsum += cum[i] = rng_exp(&r, 1.0);
		corr[i] = rng_normal(&r, 0.5, 0.1);
		corr[i] = corr[i] < 0 ? 0 : corr[i] > 1 ? 1 : corr[i];
	}
	for (i = 1; i < q->npats; i++)
		cum[i] += cum[i - 1];

	maxt = 4 * (int)(q->tlen + q->plen) + 64;
	if ((tr = malloc((size_t)maxt * 2 * sizeof *tr)) == NULL)
		goto out;
	for (i = 0; i < q->ntrans; i++) {
		int want = rng_poisson(&r, q->tlen), n = 0, tries;

		if (want < 1)
			want = 1;
		/* bounded: a pattern corrupted to nothing adds no item */
		for (tries = 0; tries < 1000; tries++) {
			int p, m, k;
			int32_t buf[1024];

			if (pending >= 0) {
				p = pending;
				pending = -1;
			} else {
				double u = rng_unif(&r) * wsum;
				int lo = 0, hi = q->npats - 1;

				while (lo < hi) {
					int mid = (lo + hi) / 2;

					if (cum[mid] < u)
						lo = mid + 1;
					else
						hi = mid;
				}
				p = lo;
			}
			/* corrupt: drop random items while a uniform draw is below corr */
			m = plen[p] < 1024 ? plen[p] : 1024;
			memcpy(buf, pat[p], (size_t)m * sizeof *buf);
			while (m > 0 && rng_unif(&r) < corr[p]) {
				k = (int)(rng_next(&r) % (uint64_t)m);
				buf[k] = buf[--m];
			}
			if (n + m > want && n > 0) {
				if (rng_unif(&r) < 0.5)
					pending = p;	/* next transaction */
				else if (n + m <= 2 * maxt) {
					memcpy(tr + n, buf, (size_t)m * sizeof *tr);
					n += m;
				}
				break;
			}
			if (n + m > 2 * maxt)
				break;
			memcpy(tr + n, buf, (size_t)m * sizeof *tr);
			n += m;
			if (n >= want)
				break;
		}
		n = set_normalise(tr, n);
		if (db_push(db, tr, n) != 0)
			goto out;
	}
	db->nitems_universe = q->nitems;
	rc = 0;
out:
	for (i = 0; pat != NULL && i < q->npats; i++)
		free(pat[i]);
	free(pat);
	free(plen);
	free(cum);
	free(corr);
	free(tr);
	if (rc != 0)
		tdb_free(db);
	return rc;
}

void
tdb_free(struct tdb *db)
{
	free(db->off);
	free(db->items);
	memset(db, 0, sizeof *db);
}
