/* text.c — cleaning of strings from events, and display-width aware fitting. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "common/text.h"

size_t
text_utf8_next(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t c;
	size_t len, i;

	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if (u[0] >= 0xc2 && u[0] <= 0xdf) {
		len = 2;
		c = u[0] & 0x1f;
	} else if (u[0] >= 0xe0 && u[0] <= 0xef) {
		len = 3;
		c = u[0] & 0x0f;
	} else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
		len = 4;
		c = u[0] & 0x07;
	} else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (u[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past U+10FFFF are not characters. */
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* Characters that could move the cursor, change the terminal or reorder the line. */
static int
text_is_control(uint32_t c)
{
	if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f))
		return 1;
	if (c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) ||
	    (c >= 0x2066 && c <= 0x2069))
		return 1;
	return 0;
}

size_t
text_clean(char *dst, size_t dstsz, const char *src, size_t srclen)
{
	size_t i = 0, o = 0, k;
	uint32_t c;

	if (dstsz == 0)
		return 0;
	while (i < srclen) {
		k = text_utf8_next(src + i, srclen - i, &c);
		if (k == 0) {
			/* Not UTF-8: one '?' per bad byte, never the byte itself. */
			if (o + 1 >= dstsz)
				break;
			dst[o++] = '?';
			i++;
			continue;
		}
		if (c == '\t' || c == '\n' || c == '\r') {
			if (o + 1 >= dstsz)
				break;
			dst[o++] = ' ';
		} else if (!text_is_control(c)) {
			if (o + k >= dstsz)
				break;
			memcpy(dst + o, src + i, k);
			o += k;
		}
		i += k;
	}
	dst[o] = '\0';
	return o;
}

static int
text_cp_width(uint32_t c)
{
	int w;

	if (c < 0x80)
		return 1;
	w = wcwidth((wchar_t)c);
	return w < 0 ? 1 : w;
}

int
text_width(const char *s)
{
	size_t n = strlen(s), i = 0, k;
	uint32_t c;
	int w = 0;

	while (i < n) {
		if ((k = text_utf8_next(s + i, n - i, &c)) == 0) {
			k = 1;
			c = '?';
		}
		w += text_cp_width(c);
		i += k;
	}
	return w;
}

char *
text_fit(char *dst, size_t dstsz, const char *s, int width, int right, int utf8)
{
	char body[1024];
	size_t n = strlen(s), i = 0, k, o = 0;
	uint32_t c;
	int w = 0, cw, pad;

	while (i < n && o + 4 < sizeof body) {
		k = text_utf8_next(s + i, n - i, &c);
		if (k == 0 || (!utf8 && c >= 0x80) || (utf8 && c >= 0x80 && wcwidth((wchar_t)c) < 0)) {
			cw = 1;
			if (w + cw > width)
				break;
			body[o++] = '?';
			i += k == 0 ? 1 : k;
		} else {
			cw = text_cp_width(c);
			if (w + cw > width)
				break;
			memcpy(body + o, s + i, k);
			o += k;
			i += k;
		}
		w += cw;
	}
	body[o] = '\0';
	pad = width - w;
	if (pad < 0)
		pad = 0;
	if ((size_t)width + o + 1 > dstsz)
		pad = 0;
	if (right)
		snprintf(dst, dstsz, "%*s%s", pad, "", body);
	else
		snprintf(dst, dstsz, "%s%*s", body, pad, "");
	return dst;
}

char *
text_clock(char *dst, size_t dstsz, double secs)
{
	long long s;

	if (!isfinite(secs) || secs < 0) {
		snprintf(dst, dstsz, "-");
		return dst;
	}
	if (secs < 3600) {
		s = (long long)(secs / 60);
		snprintf(dst, dstsz, "%lld:%04.1f", s, secs - 60.0 * s);
		/* 59.96 rounds up to "60.0": show the carry the way a clock would. */
		if (strstr(dst, ":60.0") != NULL)
			snprintf(dst, dstsz, "%lld:00.0", s + 1);
		return dst;
	}
	s = (long long)secs;
	snprintf(dst, dstsz, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
	return dst;
}

char *
text_num(char *dst, size_t dstsz, double v, int decimals, int width)
{
	static const char suffix[] = "kMGTP";
	double x;
	int d, i;

	if (!isfinite(v)) {
		snprintf(dst, dstsz, "-");
		return dst;
	}
	for (d = decimals; d >= 0; d--) {
		snprintf(dst, dstsz, "%.*f", d, v);
		if ((int)strlen(dst) <= width)
			return dst;
	}
	x = v;
	for (i = 0; i < (int)sizeof suffix - 1; i++) {
		x /= 1000.0;
		for (d = 1; d >= 0; d--) {
			snprintf(dst, dstsz, "%.*f%c", d, x, suffix[i]);
			if ((int)strlen(dst) <= width)
				return dst;
		}
	}
	return dst;
}

const char *
text_plural(long long n)
{
	return n == 1 ? "" : "s";
}
