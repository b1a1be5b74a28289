/*
 * scheme-split.c — turning per-worker weights (CPU clock, PR, measured speed) into whole
 * units, and laying the reserved chunks out. Only the active workers take part.
 *
 * Shares are computed in long double (64-bit mantissa on x86-64: exact for every int64
 * count), so that a huge N near INT64_MAX/2 is not rounded before it is split.
 */
#include <math.h>

#include "runtime/scheme/scheme-int.h"

/*
 * floor() that forgives the representation error of decimal ratios: 0.7 * 1000 is
 * 699.99999999999995559 in long double, and a user who asks for SWR 0.7 of 1000 units
 * means 700. A value within 1e-9 of the integer above it counts as that integer.
 */
long double
sched_floor(long double x)
{
	return floorl(x + 1e-9L);
}

/*
 * The weights of the active workers (NULL w: all 1) into s->weight; returns their sum.
 * Weights that cannot split anything (a measured speed of 1/denormal is inf; a 0) make
 * the split equal rather than lose units.
 */
static long double
sched_weights(struct grt_sched *s, const double *w)
{
	long double sum = 0;
	int i, bad = 0;

	for (i = 0; i < s->nw; i++) {
		s->use[i] = (unsigned char)sched_is_active(s, i);
		s->weight[i] = s->use[i] ? (w != NULL ? w[i] : 1.0) : 0.0;
		if (s->use[i] && !(isfinite(s->weight[i]) && s->weight[i] > 0))
			bad = 1;
		sum += s->weight[i];
	}
	if (bad || !isfinite((double)sum)) {
		for (sum = 0, i = 0; i < s->nw; i++) {
			s->weight[i] = s->use[i] ? 1.0 : 0.0;
			sum += s->weight[i];
		}
	}
	return sum;
}

/*
 * out[i] = floor(total * w_i / sum w) for the active workers, 0 for the others; returns the
 * sum of out[], never above floor(total). The leftovers are the caller's (a dynamic phase).
 */
int64_t
sched_split_floor(struct grt_sched *s, long double total, const double *w, int64_t *out)
{
	long double sum, x;
	int64_t got = 0, cap;
	int i, big;

	sum = sched_weights(s, w);
	cap = (int64_t)sched_floor(total);
	for (i = 0; i < s->nw; i++) {
		out[i] = 0;
		if (!s->use[i] || sum <= 0)
			continue;
		x = sched_floor(total * s->weight[i] / sum);
		out[i] = x < 0 ? 0 : x > cap ? cap : (int64_t)x;
		got += out[i];
	}
	/* rounding of the quotients may overshoot by a unit or two: take them back */
	while (got > cap) {
		big = 0;
		for (i = 1; i < s->nw; i++)
			if (out[i] > out[big])
				big = i;
		out[big]--;
		got--;
	}
	return got;
}

static inline int
sched_key_before(const struct sched_key *a, const struct sched_key *b)
{
	return a->key > b->key || (a->key == b->key && a->idx < b->idx);
}

/* Hoare partition of k[lo..hi] around its middle entry; *pi, *pj get the split. */
static void
sched_partition(struct sched_key *k, int lo, int hi, int *pi, int *pj)
{
	struct sched_key pivot = k[lo + (hi - lo) / 2], t;
	int i = lo, j = hi;

	while (i <= j) {
		while (sched_key_before(&k[i], &pivot))
			i++;
		while (sched_key_before(&pivot, &k[j]))
			j--;
		if (i <= j) {
			t = k[i];
			k[i] = k[j];
			k[j] = t;
			i++;
			j--;
		}
	}
	*pi = i;
	*pj = j;
}

/*
 * Sort by key, largest first; equal keys by lowest index (every tie rule of the spec).
 * The order is total (indices are unique), so any correct sort gives the same result;
 * an inline quicksort is 3x faster than qsort() on the 4096 keys of a hetcomm round.
 */
void
sched_sort_keys(struct sched_key *k, int n)
{
	struct sched_key t;
	int i, j;

	while (n > 16) {
		sched_partition(k, 0, n - 1, &i, &j);
		/* recurse into the smaller part, loop on the larger: O(log n) stack */
		if (j + 1 < n - i) {
			sched_sort_keys(k, j + 1);
			k += i;
			n -= i;
		} else {
			sched_sort_keys(k + i, n - i);
			n = j + 1;
		}
	}
	for (i = 1; i < n; i++) {
		t = k[i];
		for (j = i; j > 0 && sched_key_before(&t, &k[j - 1]); j--)
			k[j] = k[j - 1];
		k[j] = t;
	}
}

/*
 * Move the top entries of the order of sched_sort_keys() to k[0..top), in any order:
 * Hoare's selection, O(n) on average, where the largest-remainder rule only needs to know
 * which workers get a leftover unit (a full sort of 4096 keys per round cost ~1 ms).
 */
void
sched_select_keys(struct sched_key *k, int n, int top)
{
	int lo = 0, hi = n - 1, i, j, want = top - 1;

	if (top <= 0 || top >= n)
		return;
	while (lo < hi) {
		sched_partition(k, lo, hi, &i, &j);
		if (want <= j)
			hi = j;
		else if (want >= i)
			lo = i;
		else
			break;
	}
}

/*
 * Largest remainder (Hamilton): out[i] = floor(share_i), then the units left over go one
 * each to the active workers with the largest fractional part of share_i, ties to the
 * lowest index, so that out[] sums to exactly total. share[] (may be NULL) gets share_i.
 */
void
sched_split_largest(struct grt_sched *s, int64_t total, const double *w, int64_t *out,
    double *share)
{
	long double sum, x, f;
	int64_t got = 0, left;
	int i, nk = 0;

	sum = sched_weights(s, w);
	for (i = 0; i < s->nw; i++) {
		out[i] = 0;
		if (share != NULL)
			share[i] = 0;
		if (!s->use[i] || sum <= 0)
			continue;
		x = (long double)total * s->weight[i] / sum;
		f = sched_floor(x);
		if (f < 0)
			f = 0;
		if (f > total)
			f = total;
		out[i] = (int64_t)f;
		got += out[i];
		if (share != NULL)
			share[i] = (double)x;
		s->keys[nk].key = x - f > 0 ? (double)(x - f) : 0;
		s->keys[nk].idx = i;
		nk++;
	}
	if (nk == 0)
		return;
	if (got > total) {
		/* overshoot from rounding (pathological): take back from the smallest remainders */
		sched_sort_keys(s->keys, nk);
		while (got > total)
			for (i = nk - 1; i >= 0 && got > total; i--)
				if (out[s->keys[i].idx] > 0) {
					out[s->keys[i].idx]--;
					got--;
				}
	}
	left = total - got;	/* < nk unless the quotients were badly rounded */
	if (left >= nk)
		for (i = 0; i < nk; i++)
			out[s->keys[i].idx] += left / nk;
	left %= nk;
	sched_select_keys(s->keys, nk, (int)left);
	for (i = 0; i < left; i++)
		out[s->keys[i].idx]++;
}

/*
 * Reserve first[w] = units[w] for the workers in the given order (NULL: 0..P-1), laid out
 * one after the other from unit 0. Returns where the layout ends (the pool's start).
 */
int64_t
sched_layout(struct grt_sched *s, const int *order, const int64_t *units)
{
	int64_t at = 0;
	int i, w;

	for (i = 0; i < s->nw; i++) {
		w = order != NULL ? order[i] : i;
		s->first[w].start = at;
		s->first[w].count = units[w];
		at += units[w];
	}
	return at;
}
