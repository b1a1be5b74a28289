/*
 * apriori — frequent itemsets by Apriori's Count Distribution (seed 002, 4.3; Agrawal and
 * Shafer's CD) through libgrt, over a synthetic Quest-style database (quest.c).
 *
 * The master holds the database, as in the paper ("a large database is generated and
 * stored in some station"; it is the data that gets distributed). Pass k of Apriori is
 * libgrt round k: units are blocks of --block transactions (block 1: one unit per
 * transaction); a chunk carries its transactions and L(k-1), the frequent (k-1)-itemsets
 * merged at the end of pass k-1. Every rank regenerates the candidates C(k) from L(k-1)
 * with the same apriori-gen (join, then prune by the Apriori property), once per round,
 * so they come in the same order everywhere and the result can be a bare vector of
 * counts: this keeps the input payload small (L(k-1) is much smaller than C(k)) at the
 * price of apriori-gen on every rank. A worker returns the local support count of every
 * candidate in its transactions; the master sums them (the MPI_Reduce of the paper's
 * code), keeps the candidates with count >= minsup as L(k), and makes C(k+1).
 *   input payload, chunk of transactions t1..tm:  12 + 4*(k-1)*|L(k-1)| + 4*sum(1 + |ti|)
 *   result payload: 8 + 4*|C(k)| bytes (dense counts), or 8 + 8*nnz (sparse index/count
 *   pairs) when fewer than half of the candidates occur in the chunk
 * libgrt fixes the number of rounds before the run, so the run has --passes rounds; the
 * passes after the last non-empty candidate set send neither transactions nor L and
 * return nothing: they cost one message pair per chunk.
 *
 * The master checks every pass (the candidates and all their counts, hence also the
 * frequent itemsets) against its own sequential Apriori over the whole database.
 *
 * usage: apriori [--d D] [--t T] [--i I] [--items N] [--patterns L] [--seed S]
 *                [--minsup FRACTION] [--block B] [--passes K] [--scheme S]
 *                [--slow RANK:FACTOR,...] [--no-check] [--corrupt-unit U]
 *                [--generate FILE]
 * Defaults: D10K T5 I10 as in seed 002, table 4, with Quest's N = 1000 items and
 * L = 2000 patterns; minsup 0.004 (five passes on D10K). --generate writes the database
 * (one transaction per line) and exits. --slow makes a rank repeat each chunk's counting
 * FACTOR times; --corrupt-unit U makes whoever counts unit U add one to the first
 * candidate's count.
 * Exit status: 0 ok, 1 wrong result or runtime error, 2 usage.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include <grt/grt.h>

#include "apriori.h"

#define MAX_K	64	/* longest itemset considered */

/* A set of k-itemsets in lexicographic order, with a hash index. */
struct cset {
	int k;
	int64_t n;
	int32_t *items;		/* n x k */
	int64_t *slot;		/* hsize entries: candidate index, or -1 */
	size_t hsize;
	unsigned char *used;	/* per item id: appears in some candidate */
	int nuniv;
};

/* One pass: its candidates and their support counts. */
struct pass {
	struct cset c;
	uint32_t *count;
	int64_t nfreq;
};

/* A whole Apriori run (the master's, or the sequential reference). */
struct run {
	struct pass *p;		/* passes 1..np */
	int np;
	int32_t *l;		/* L(k-1) of the current pass: nl x (k-1) */
	int64_t nl;
};

struct apriori {
	struct quest_params q;
	int64_t block;		/* transactions per unit */
	uint32_t minsup;	/* support count */
	int passes;
	int slow;
	int64_t corrupt;	/* unit, or -1 */
	struct tdb db;		/* master */
	struct run run;		/* master */
	double bytes;		/* master: payload bytes */

	/* compute side (workers, or the master when it computes too) */
	int wround;
	struct cset wc;
	uint32_t *wcount;
	int32_t *scratch;
	size_t scratchcap;
};

static void
cset_free(struct cset *c)
{
	free(c->items);
	free(c->slot);
	free(c->used);
	memset(c, 0, sizeof *c);
}

static size_t
cset_hash(const int32_t *v, int k)
{
	uint64_t h = 0xcbf29ce484222325u;
	int i;

	for (i = 0; i < k; i++)
		h = (h ^ (uint32_t)v[i]) * 0x100000001b3u;
	return (size_t)(h ^ (h >> 29));
}

static int
cset_index(struct cset *c)
{
	int64_t i;
	size_t h;

	c->hsize = 16;
	while (c->hsize < 2 * (size_t)c->n)
		c->hsize *= 2;
	if ((c->slot = malloc(c->hsize * sizeof *c->slot)) == NULL ||
	    (c->used = calloc((size_t)c->nuniv, 1)) == NULL)
		return -1;
	memset(c->slot, 0xff, c->hsize * sizeof *c->slot);
	for (i = 0; i < c->n; i++) {
		const int32_t *v = c->items + (size_t)i * c->k;
		int j;

		for (h = cset_hash(v, c->k) & (c->hsize - 1); c->slot[h] >= 0;
		    h = (h + 1) & (c->hsize - 1))
			;
		c->slot[h] = i;
		for (j = 0; j < c->k; j++)
			c->used[v[j]] = 1;
	}
	return 0;
}

static int64_t
cset_find(const struct cset *c, const int32_t *v)
{
	size_t h;

	for (h = cset_hash(v, c->k) & (c->hsize - 1); c->slot[h] >= 0;
	    h = (h + 1) & (c->hsize - 1))
		if (memcmp(c->items + (size_t)c->slot[h] * c->k, v, (size_t)c->k * sizeof *v) == 0)
			return c->slot[h];
	return -1;
}

/* Is the (m)-itemset v in the sorted list l of n m-itemsets? */
static int
list_has(const int32_t *l, int64_t n, int m, const int32_t *v)
{
	int64_t lo = 0, hi = n;

	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;
		int r = 0, j;

		for (j = 0; j < m && r == 0; j++)
			r = (l[mid * m + j] > v[j]) - (l[mid * m + j] < v[j]);
		if (r == 0)
			return 1;
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/*
 * apriori-gen (Agrawal and Srikant 1994, 2.1.1): C(k) from L(k-1) (nl sorted itemsets of
 * km1 = k-1 items): join two itemsets that share their first k-2 items, then prune a
 * candidate with a (k-1)-subset that is not frequent. With km1 = 0, C(1) = every item.
 * The output is sorted, the same on every rank.
 */
static int
cset_gen(const int32_t *l, int64_t nl, int km1, int nuniv, struct cset *c)
{
	size_t cap = 0;
	int32_t cand[MAX_K], sub[MAX_K];
	int64_t i, j;
	int d, x, y, k = km1 + 1;

	memset(c, 0, sizeof *c);
	c->k = k;
	c->nuniv = nuniv;
	if (km1 == 0) {
		if ((c->items = malloc((size_t)nuniv * sizeof *c->items)) == NULL)
			return -1;
		for (i = 0; i < nuniv; i++)
			c->items[i] = (int32_t)i;
		c->n = nuniv;
		return cset_index(c);
	}
	if (k > MAX_K)
		return cset_index(c);
	for (i = 0; i < nl; i++) {
		const int32_t *p = l + (size_t)i * km1;

		for (j = i + 1; j < nl; j++) {
			const int32_t *q = l + (size_t)j * km1;
			int ok = 1;

			if (memcmp(p, q, (size_t)(km1 - 1) * sizeof *p) != 0)
				break;	/* sorted: no later itemset shares the prefix */
			memcpy(cand, p, (size_t)km1 * sizeof *p);
			cand[km1] = q[km1 - 1];
			/* the subsets without the last two items are p and q themselves */
			for (d = 0; d < km1 - 1 && ok; d++) {
				for (x = 0, y = 0; x < k; x++)
					if (x != d)
						sub[y++] = cand[x];
				ok = list_has(l, nl, km1, sub);
			}
			if (!ok)
				continue;
			if ((size_t)c->n == cap) {
				size_t ncap = cap ? cap * 2 : 1024;
				int32_t *np = realloc(c->items, ncap * k * sizeof *np);

				if (np == NULL)
					return -1;
				c->items = np;
				cap = ncap;
			}
			memcpy(c->items + (size_t)c->n * k, cand, (size_t)k * sizeof *cand);
			c->n++;
		}
	}
	return cset_index(c);
}

/* C(m, k), saturated at limit. */
static double
binom(int m, int k)
{
	double r = 1;
	int i;

	for (i = 1; i <= k; i++)
		r = r * (m - k + i) / i;
	return r;
}

/*
 * Add one transaction's support to count[]. Items in no candidate are dropped first; then
 * whichever is cheaper: look up each k-subset of the transaction in the hash, or test each
 * candidate for inclusion.
 */
static void
count_trans(const struct cset *c, const int32_t *tr, int len, int32_t *t, uint32_t *count)
{
	int32_t key[MAX_K];
	int idx[MAX_K];
	int64_t i, f;
	int m = 0, j, k = c->k;

	for (j = 0; j < len; j++)
		if (tr[j] >= 0 && tr[j] < c->nuniv && c->used[tr[j]])
			t[m++] = tr[j];
	if (m < k || c->n == 0)
		return;
	if (binom(m, k) * k <= (double)c->n * (m + k)) {
		for (j = 0; j < k; j++)
			idx[j] = j;
		for (;;) {
			for (j = 0; j < k; j++)
				key[j] = t[idx[j]];
			if ((f = cset_find(c, key)) >= 0)
				count[f]++;
			for (j = k - 1; j >= 0 && idx[j] == m - k + j; j--)
				;
			if (j < 0)
				break;
			idx[j]++;
			for (j++; j < k; j++)
				idx[j] = idx[j - 1] + 1;
		}
		return;
	}
	for (i = 0; i < c->n; i++) {
		const int32_t *v = c->items + (size_t)i * k;
		int a = 0, b = 0;

		while (a < k && b < m) {
			if (v[a] == t[b])
				a++, b++;
			else if (v[a] > t[b])
				b++;
			else
				break;
		}
		if (a == k)
			count[i]++;
	}
}

/* The transactions [first, last) of unit range [start, start+count). */
static void
unit_trans(const struct apriori *ap, int64_t start, int64_t count, int64_t *first,
    int64_t *last)
{
	*first = start * ap->block;
	*last = (start + count) * ap->block;
	if (*last > ap->q.ntrans)
		*last = ap->q.ntrans;
	if (*first > *last)
		*first = *last;
}

static void
pass_free(struct pass *p)
{
	cset_free(&p->c);
	free(p->count);
}

static void
run_free(struct run *r)
{
	int i;

	for (i = 0; i < r->np; i++)
		pass_free(&r->p[i]);
	free(r->p);
	free(r->l);
	memset(r, 0, sizeof *r);
}

/* Start pass np+1 of r: its candidates from r->l. */
static int
run_begin_pass(struct run *r, int nuniv)
{
	struct pass *np = realloc(r->p, (size_t)(r->np + 1) * sizeof *np);
	struct pass *p;

	if (np == NULL)
		return -1;
	r->p = np;
	p = &r->p[r->np];
	memset(p, 0, sizeof *p);
	if (cset_gen(r->l, r->nl, r->np, nuniv, &p->c) != 0 ||
	    (p->count = calloc((size_t)p->c.n + 1, sizeof *p->count)) == NULL)
		return -1;
	r->np++;
	return 0;
}

/* End the current pass: L(k) = the candidates with support >= minsup. */
static int
run_end_pass(struct run *r, uint32_t minsup)
{
	struct pass *p = &r->p[r->np - 1];
	int64_t i;
	int k = p->c.k;

	free(r->l);
	r->nl = 0;
	if ((r->l = malloc(((size_t)p->c.n + 1) * k * sizeof *r->l)) == NULL)
		return -1;
	for (i = 0; i < p->c.n; i++)
		if (p->count[i] >= minsup)
			memcpy(r->l + (size_t)r->nl++ * k, p->c.items + (size_t)i * k,
			    (size_t)k * sizeof *r->l);
	p->nfreq = r->nl;
	return 0;
}

static int
scratch_reserve(struct apriori *ap, size_t n)
{
	if (n > ap->scratchcap) {
		int32_t *p = realloc(ap->scratch, n * sizeof *p);

		if (p == NULL)
			return -1;
		ap->scratch = p;
		ap->scratchcap = n;
	}
	return 0;
}

/* The sequential reference: the same passes over the whole database on one rank. */
static int
apriori_seq(struct apriori *ap, struct run *r)
{
	int64_t t;

	memset(r, 0, sizeof *r);
	while (r->np < ap->passes) {
		struct pass *p;

		if (run_begin_pass(r, ap->q.nitems) != 0)
			return -1;
		p = &r->p[r->np - 1];
		if (p->c.n == 0)
			break;
		for (t = 0; t < ap->db.ntrans; t++) {
			size_t o = ap->db.off[t];
			int len = (int)(ap->db.off[t + 1] - o);

			if (scratch_reserve(ap, (size_t)len) != 0)
				return -1;
			count_trans(&p->c, ap->db.items + o, len, ap->scratch, p->count);
		}
		if (run_end_pass(r, ap->minsup) != 0)
			return -1;
	}
	return 0;
}

static int
ap_pack(void *ctx, int round, int64_t start, int64_t count, grt_buf *in)
{
	struct apriori *ap = ctx;
	struct run *r = &ap->run;
	int64_t first, last, t;
	int32_t h[3];
	size_t before = in->len;
	int empty;

	/* after the last candidates the (empty) pass stays current for the rounds left */
	empty = r->p[r->np - 1].c.n == 0;
	if (empty ? round < r->np : round != r->np)
		return -1;
	unit_trans(ap, start, count, &first, &last);
	h[0] = round;
	h[1] = empty ? 0 : (int32_t)r->nl;
	h[2] = empty ? 0 : (int32_t)(last - first);
	if (grt_buf_append(in, h, sizeof h) != GRT_OK)
		return -1;
	if (!empty && (grt_buf_append(in, r->l, (size_t)r->nl * (round - 1) * sizeof *r->l) !=
	    GRT_OK))
		return -1;
	for (t = first; !empty && t < last; t++) {
		size_t o = ap->db.off[t];
		int32_t len = (int32_t)(ap->db.off[t + 1] - o);

		if (grt_buf_append(in, &len, sizeof len) != GRT_OK ||
		    grt_buf_append(in, ap->db.items + o, (size_t)len * sizeof len) != GRT_OK)
			return -1;
	}
	ap->bytes += (double)(in->len - before);
	return 0;
}

/* The candidates of round on the compute side, regenerated when the round changes. */
static int
ap_candidates(struct apriori *ap, int round, const int32_t *l, int64_t nl)
{
	if (ap->wround == round)
		return 0;
	cset_free(&ap->wc);
	free(ap->wcount);
	ap->wcount = NULL;
	ap->wround = 0;
	if (cset_gen(l, nl, round - 1, ap->q.nitems, &ap->wc) != 0 ||
	    (ap->wcount = malloc(((size_t)ap->wc.n + 1) * sizeof *ap->wcount)) == NULL)
		return -1;
	ap->wround = round;
	return 0;
}

static int
ap_compute(void *ctx, int round, int64_t start, int64_t count, const void *in,
    size_t inlen, grt_buf *out)
{
	struct apriori *ap = ctx;
	const int32_t *p = in, *end = p + inlen / sizeof *p, *tr0;
	int64_t first, last, i, nnz = 0;
	int32_t h[3];
	uint32_t hdr[2];
	int rep, t;

	if (inlen < sizeof h || inlen % sizeof *p != 0)
		return -1;
	memcpy(h, p, sizeof h);
	p += 3;
	unit_trans(ap, start, count, &first, &last);
	if (h[0] != round || h[1] < 0 || h[2] < 0 ||
	    (h[2] != 0 && h[2] != last - first) || (round > 1 && h[2] != 0 && h[1] == 0))
		return -1;
	if (h[2] == 0 && last > first)
		return 0;	/* a pass after the last candidates: nothing to count */
	if ((size_t)(end - p) < (size_t)h[1] * (round - 1))
		return -1;
	if (ap_candidates(ap, round, p, h[1]) != 0)
		return -1;
	tr0 = p + (size_t)h[1] * (round - 1);
	for (rep = 0; rep < ap->slow; rep++) {
		memset(ap->wcount, 0, (size_t)ap->wc.n * sizeof *ap->wcount);
		for (p = tr0, t = 0; t < h[2]; t++) {
			int32_t len;

			if (p >= end || (len = *p++) < 0 || end - p < len ||
			    scratch_reserve(ap, (size_t)len + 1) != 0)
				return -1;
			count_trans(&ap->wc, p, len, ap->scratch, ap->wcount);
			p += len;
		}
	}
	if (ap->corrupt >= start && ap->corrupt < start + count && ap->wc.n > 0)
		ap->wcount[0]++;
	for (i = 0; i < ap->wc.n; i++)
		nnz += ap->wcount[i] != 0;
	/* sparse (index, count) pairs when that is smaller than the dense vector */
	hdr[0] = 2 * nnz < ap->wc.n;
	hdr[1] = hdr[0] ? (uint32_t)nnz : (uint32_t)ap->wc.n;
	if (grt_buf_append(out, hdr, sizeof hdr) != GRT_OK)
		return -1;
	if (!hdr[0])
		return grt_buf_append(out, ap->wcount, (size_t)ap->wc.n * sizeof *ap->wcount) ==
		    GRT_OK ? 0 : -1;
	for (i = 0; i < ap->wc.n; i++) {
		uint32_t pair[2] = { (uint32_t)i, ap->wcount[i] };

		if (pair[1] != 0 && grt_buf_append(out, pair, sizeof pair) != GRT_OK)
			return -1;
	}
	return 0;
}

static int
ap_merge(void *ctx, int round, int64_t start, int64_t count, const void *res,
    size_t reslen)
{
	struct apriori *ap = ctx;
	struct pass *p = &ap->run.p[ap->run.np - 1];
	const uint32_t *v = res;
	uint32_t hdr[2], i;

	if (p->c.n == 0 ? round < ap->run.np : round != ap->run.np)
		return -1;
	ap->bytes += (double)reslen;
	if (p->c.n == 0 || reslen == 0)
		return p->c.n == 0 && reslen == 0 ? 0 : -1;
	if (reslen < sizeof hdr)
		return -1;
	memcpy(hdr, v, sizeof hdr);
	v += 2;
	if (hdr[0] == 0) {
		if (hdr[1] != p->c.n || reslen != sizeof hdr + (size_t)hdr[1] * sizeof *v)
			return -1;
		for (i = 0; i < hdr[1]; i++)
			p->count[i] += v[i];
		return 0;
	}
	if (hdr[0] != 1 || reslen != sizeof hdr + (size_t)hdr[1] * 2 * sizeof *v)
		return -1;
	for (i = 0; i < hdr[1]; i++) {
		if (v[2 * i] >= p->c.n)
			return -1;
		p->count[v[2 * i]] += v[2 * i + 1];
	}
	return 0;
}

/* Master: pass k is merged; keep L(k) and make C(k+1) for the next round. */
static int
ap_round_done(void *ctx, int round)
{
	struct apriori *ap = ctx;

	if (ap->run.p[ap->run.np - 1].c.n == 0)
		return 0;	/* past the end: stays empty */
	if (run_end_pass(&ap->run, ap->minsup) != 0)
		return -1;
	if (round < ap->passes && run_begin_pass(&ap->run, ap->q.nitems) != 0)
		return -1;
	return 0;
}

/* Compare the distributed passes with the sequential ones; 0 when equal. */
static int
ap_check(const struct run *par, const struct run *seq, char *why, size_t whylen)
{
	int i, np = par->np;

	/* the parallel run may carry one trailing empty pass the sequential one stops at */
	if (np != seq->np) {
		snprintf(why, whylen, "%d passes, the sequential run has %d", np, seq->np);
		return -1;
	}
	for (i = 0; i < np; i++) {
		const struct pass *a = &par->p[i], *b = &seq->p[i];
		int64_t j;

		if (a->c.n != b->c.n || memcmp(a->c.items, b->c.items,
		    (size_t)a->c.n * a->c.k * sizeof *a->c.items) != 0) {
			snprintf(why, whylen, "pass %d: %lld candidates, the sequential run has "
			    "%lld (or they differ)", i + 1, (long long)a->c.n, (long long)b->c.n);
			return -1;
		}
		for (j = 0; j < a->c.n; j++) {
			if (a->count[j] != b->count[j]) {
				snprintf(why, whylen, "pass %d: candidate %lld has support %u, the "
				    "sequential run counts %u", i + 1, (long long)j, a->count[j],
				    b->count[j]);
				return -1;
			}
		}
		if (a->nfreq != b->nfreq) {
			snprintf(why, whylen, "pass %d: %lld frequent itemsets, the sequential run "
			    "has %lld", i + 1, (long long)a->nfreq, (long long)b->nfreq);
			return -1;
		}
	}
	return 0;
}

static int
ap_write_db(const struct tdb *db, const char *path)
{
	char tmp[4096];
	FILE *f;
	int64_t t;
	size_t o;
	int ok;

	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	if ((f = fopen(tmp, "w")) == NULL)
		return -1;
	for (t = 0; t < db->ntrans; t++)
		for (o = db->off[t]; o < db->off[t + 1]; o++)
			fprintf(f, "%d%c", db->items[o], o + 1 < db->off[t + 1] ? ' ' : '\n');
	ok = !ferror(f);
	ok &= fclose(f) == 0;
	if (!ok || rename(tmp, path) != 0) {
		remove(tmp);
		return -1;
	}
	return 0;
}

static int
usage(int rank, const char *bad)
{
	if (rank == 0) {
		if (bad != NULL)
			fprintf(stderr, "apriori: bad argument '%s'\n", bad);
		fprintf(stderr, "usage: apriori [--d D] [--t T] [--i I] [--items N] "
		    "[--patterns L] [--seed S] [--minsup FRACTION] [--block B] [--passes K] "
		    "[--scheme S] [--slow RANK:FACTOR,...] [--no-check] [--corrupt-unit U] "
		    "[--generate FILE]\n");
	}
	MPI_Finalize();
	return 2;
}

/* Positive number from a string, 0 when it is not one. */
static double
posnum(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	return *s != '\0' && *end == '\0' && errno == 0 && isfinite(v) && v > 0 ? v : 0;
}

int
main(int argc, char **argv)
{
	struct apriori ap;
	struct grt_config cfg;
	struct grt_report rep;
	struct grt_app app;
	struct run seq;
	const char *scheme = NULL, *slow = NULL, *gen = NULL;
	double minsup = 0.004, x;
	char lsizes[256];
	int rank, size, check = 1, i, rc;
	char why[160];
	int64_t nfreq = 0;
	size_t o;

	memset(&ap, 0, sizeof ap);
	memset(&seq, 0, sizeof seq);
	ap.q.ntrans = 10000;
	ap.q.tlen = 5;
	ap.q.plen = 10;
	ap.q.nitems = 1000;
	ap.q.npats = 2000;
	ap.q.seed = 1;
	ap.block = 100;
	ap.passes = 10;
	ap.corrupt = -1;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		x = v != NULL ? posnum(v) : 0;
		if (strcmp(a, "--check") == 0)
			check = 1;
		else if (strcmp(a, "--no-check") == 0)
			check = 0;
		else if (strcmp(a, "--d") == 0 && x >= 1 && x <= 1e8 && x == floor(x))
			ap.q.ntrans = (int64_t)x, i++;
		else if (strcmp(a, "--t") == 0 && x > 0 && x <= 50)
			ap.q.tlen = x, i++;
		else if (strcmp(a, "--i") == 0 && x > 0 && x <= 50)
			ap.q.plen = x, i++;
		else if (strcmp(a, "--items") == 0 && x >= 1 && x <= 1e6 && x == floor(x))
			ap.q.nitems = (int)x, i++;
		else if (strcmp(a, "--patterns") == 0 && x >= 1 && x <= 1e6 && x == floor(x))
			ap.q.npats = (int)x, i++;
		else if (strcmp(a, "--seed") == 0 && x >= 1 && x == floor(x))
			ap.q.seed = (uint64_t)x, i++;
		else if (strcmp(a, "--minsup") == 0 && x > 0 && x <= 1)
			minsup = x, i++;
		else if (strcmp(a, "--block") == 0 && x >= 1 && x <= 1e8 && x == floor(x))
			ap.block = (int64_t)x, i++;
		else if (strcmp(a, "--passes") == 0 && x >= 1 && x <= MAX_K && x == floor(x))
			ap.passes = (int)x, i++;
		else if (strcmp(a, "--scheme") == 0 && v != NULL)
			scheme = argv[++i];
		else if (strcmp(a, "--slow") == 0 && v != NULL)
			slow = argv[++i];
		else if (strcmp(a, "--corrupt-unit") == 0 && v != NULL &&
		    (ap.corrupt = atoll(v)) >= 0)
			i++;
		else if (strcmp(a, "--generate") == 0 && v != NULL)
			gen = argv[++i];
		else
			return usage(rank, a);
	}
	ap.minsup = (uint32_t)ceil(minsup * (double)ap.q.ntrans);
	if (ap.minsup < 1)
		ap.minsup = 1;
	if ((ap.slow = grt_rank_factor(slow, rank)) < 1)
		return usage(rank, slow);
	if (grt_config_init(&cfg, scheme, why, sizeof why) != GRT_OK) {
		if (rank == 0)
			fprintf(stderr, "apriori: %s\n", why);
		MPI_Finalize();
		return 2;
	}
	if (rank == 0 && quest_generate(&ap.q, &ap.db) != 0) {
		fprintf(stderr, "apriori: cannot generate the database (out of memory?)\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (gen != NULL) {
		rc = 0;
		if (rank == 0 && ap_write_db(&ap.db, gen) != 0) {
			fprintf(stderr, "apriori: cannot write %s: %s\n", gen, strerror(errno));
			rc = 1;
		}
		tdb_free(&ap.db);
		MPI_Finalize();
		return rc;
	}
	if (rank == 0 && run_begin_pass(&ap.run, ap.q.nitems) != 0) {
		fprintf(stderr, "apriori: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}

	memset(&app, 0, sizeof app);
	app.units = (ap.q.ntrans + ap.block - 1) / ap.block;
	app.rounds = ap.passes;
	app.ctx = &ap;
	app.compute = ap_compute;
	app.pack = ap_pack;
	app.merge = ap_merge;
	app.round_done = ap_round_done;
	rc = grt_run(MPI_COMM_WORLD, &app, &cfg, &rep);
	if (rc != GRT_OK)
		fprintf(stderr, "apriori: rank %d: %s\n", rank, grt_report_error(rc, &rep));
	else if (rep.is_master) {
		const char *verdict = "not checked";
		char whybad[256];

		/* a trailing pass with no candidates is not a pass */
		if (ap.run.np > 0 && ap.run.p[ap.run.np - 1].c.n == 0)
			pass_free(&ap.run.p[--ap.run.np]);
		if (check) {
			if (apriori_seq(&ap, &seq) != 0) {
				fprintf(stderr, "apriori: out of memory for the sequential run\n");
				rc = GRT_EAPP;
			} else {
				if (seq.np > 0 && seq.p[seq.np - 1].c.n == 0)
					pass_free(&seq.p[--seq.np]);
				if (ap_check(&ap.run, &seq, whybad, sizeof whybad) != 0) {
					fprintf(stderr, "apriori: wrong result: %s\n", whybad);
					rc = GRT_EAPP;
				}
			}
			verdict = rc == GRT_OK ? "match the sequential run" : "WRONG";
		}
		lsizes[0] = '\0';
		for (i = 0, o = 0; i < ap.run.np && o < sizeof lsizes - 24; i++) {
			o += (size_t)snprintf(lsizes + o, sizeof lsizes - o, "%s%lld",
			    i ? "+" : "", (long long)ap.run.p[i].nfreq);
			nfreq += ap.run.p[i].nfreq;
		}
		printf("apriori: D%lld T%g I%g N%d, %lld units of %lld transactions, minsup %u, "
		    "%d passes, %lld frequent itemsets (%s), scheme %s, %d ranks, makespan "
		    "%.3f s, %.1f MB moved, %d failed, %lld units requeued, itemsets %s\n",
		    (long long)ap.q.ntrans, ap.q.tlen, ap.q.plen, ap.q.nitems,
		    (long long)app.units, (long long)ap.block, ap.minsup, ap.run.np,
		    (long long)nfreq, lsizes[0] ? lsizes : "none",
		    grt_scheme_name(cfg.sched.scheme), size, rep.makespan, ap.bytes / 1e6,
		    rep.failed_ranks, (long long)rep.requeued, verdict);
		if (rep.events_lost)
			fprintf(stderr, "apriori: warning: the event log is incomplete\n");
	}
	run_free(&ap.run);
	run_free(&seq);
	cset_free(&ap.wc);
	free(ap.wcount);
	free(ap.scratch);
	tdb_free(&ap.db);
	return grt_end(rc);
}
