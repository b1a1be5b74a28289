/*
 * hostrange.c — host lists as in Slurm: "lz0[1-4]" is lz01..lz04, "n[001-128]" keeps the
 * zero padding of the lower bound, "a[1,3,5-7]b" takes a list, and several bracket groups
 * multiply (the last one varies fastest). Also the host name check every ssh argument relies
 * on (doc/reliability.md, "SSH").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broker/site.h"
#include "common/xmalloc.h"

/* A typo like n[1-1000000] must not allocate a million names. */
#define HOSTRANGE_MAX	100000
#define HOSTRANGE_DIGITS 9

struct hr_range {
	long lo, hi;
	int width;
};

struct hr_group {
	const char *lit;	/* the text before the group */
	size_t litlen;
	struct hr_range *r;
	size_t nr;
	long count;
};

static int
hr_number(const char **sp, long *v, int *width)
{
	const char *s = *sp;
	int n = 0;

	*v = 0;
	while (*s >= '0' && *s <= '9') {
		if (++n > HOSTRANGE_DIGITS)
			return -1;
		*v = *v * 10 + (*s++ - '0');
	}
	if (n == 0)
		return -1;
	*width = n;
	*sp = s;
	return 0;
}

/* Parse "1-4,7]" (after the '['); *sp ends after the ']'. */
static int
hr_group_parse(const char **sp, struct hr_group *g, char *why, size_t whylen)
{
	const char *s = *sp, *start = *sp - 1;
	struct hr_range r;
	int w2;

	if (*s == ']') {
		snprintf(why, whylen, "empty brackets '[]'");
		return -1;
	}
	for (;;) {
		if (hr_number(&s, &r.lo, &r.width) == -1)
			goto bad;
		r.hi = r.lo;
		if (*s == '-') {
			s++;
			if (hr_number(&s, &r.hi, &w2) == -1)
				goto bad;
			if (r.hi < r.lo) {
				snprintf(why, whylen, "range %ld-%ld goes down", r.lo, r.hi);
				return -1;
			}
		}
		g->r = xreallocarray(g->r, g->nr + 1, sizeof *g->r);
		g->r[g->nr++] = r;
		g->count += r.hi - r.lo + 1;
		if (g->count > HOSTRANGE_MAX) {
			snprintf(why, whylen, "expands to more than %d names", HOSTRANGE_MAX);
			return -1;
		}
		if (*s == ',') {
			s++;
			continue;
		}
		if (*s == ']')
			break;
		goto bad;
	}
	*sp = s + 1;
	return 0;
bad:
	if (strchr(start, ']') == NULL)
		snprintf(why, whylen, "'[' without ']'");
	else
		snprintf(why, whylen, "bad range '%.*s' (expected numbers such as [1-4] or "
		    "[1,3,5-7])", (int)(strchr(start, ']') - start + 1), start);
	return -1;
}

void
hostrange_free(char **names, int n)
{
	int i;

	if (names == NULL)
		return;
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int
hostrange_expand(const char *pattern, char ***out, char *why, size_t whylen)
{
	struct hr_group *g = NULL;
	size_t ng = 0, i, len, tail_len;
	const char *s = pattern, *lit = pattern, *tail;
	long total = 1, idx, k, v = 0;
	char **names = NULL, *buf = NULL;
	int rc = -1;
	size_t j, o;

	*out = NULL;
	if (*pattern == '\0') {
		snprintf(why, whylen, "empty host name");
		return -1;
	}
	if (strpbrk(pattern, "[]") == NULL) {
		/* the common case, one plain name: no parsing, two allocations */
		names = xmalloc(sizeof *names);
		names[0] = xstrdup(pattern);
		*out = names;
		return 1;
	}
	while (*s != '\0') {
		if (*s == ']') {
			snprintf(why, whylen, "']' without '['");
			goto done;
		}
		if (*s != '[') {
			s++;
			continue;
		}
		g = xreallocarray(g, ng + 1, sizeof *g);
		memset(&g[ng], 0, sizeof g[ng]);
		g[ng].lit = lit;
		g[ng].litlen = (size_t)(s - lit);
		ng++;
		s++;
		if (hr_group_parse(&s, &g[ng - 1], why, whylen) == -1)
			goto done;
		total *= g[ng - 1].count;
		if (total > HOSTRANGE_MAX) {
			snprintf(why, whylen, "expands to more than %d names", HOSTRANGE_MAX);
			goto done;
		}
		lit = s;
	}
	tail = lit;
	tail_len = strlen(tail);

	/*
	 * The longest name: every literal plus the widest number of each group. Refused past
	 * 253 bytes, the limit of a host name, so that a long prefix times 100,000 names
	 * cannot take gigabytes.
	 */
	len = tail_len;
	for (i = 0; i < ng; i++) {
		int w = 0;

		for (j = 0; j < g[i].nr; j++) {
			int d = snprintf(NULL, 0, "%0*ld", g[i].r[j].width, g[i].r[j].hi);

			if (d > w)
				w = d;
		}
		len += g[i].litlen + (size_t)w;
	}
	if (len > 253) {
		snprintf(why, whylen, "names longer than 253 characters");
		goto done;
	}
	len++;
	buf = xmalloc(len);
	names = xreallocarray(NULL, (size_t)total, sizeof *names);
	for (idx = 0; idx < total; idx++) {
		long rest = idx, div = total;

		o = 0;
		for (i = 0; i < ng; i++) {
			div /= g[i].count;
			k = rest / div;
			rest %= div;
			for (j = 0; j < g[i].nr; j++) {
				long n = g[i].r[j].hi - g[i].r[j].lo + 1;

				if (k < n) {
					v = g[i].r[j].lo + k;
					break;
				}
				k -= n;
			}
			memcpy(buf + o, g[i].lit, g[i].litlen);
			o += g[i].litlen;
			o += (size_t)snprintf(buf + o, len - o, "%0*ld", g[i].r[j].width, v);
		}
		memcpy(buf + o, tail, tail_len);
		o += tail_len;
		buf[o] = '\0';
		names[idx] = xstrdup(buf);
	}
	*out = names;
	rc = (int)total;
done:
	for (i = 0; i < ng; i++)
		free(g[i].r);
	free(g);
	free(buf);
	return rc;
}
