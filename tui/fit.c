/* fit.c — cutting prose at a word boundary, with an ellipsis (fit.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/text.h"
#include "tui/fit.h"

#define FIT_MAX	255	/* columns of s considered; prose is never longer on a screen */

/* Columns of the one character at s (k bytes). */
static int
fit_char_width(const char *s, size_t k)
{
	char one[8];

	if (k >= sizeof one)
		return 1;
	memcpy(one, s, k);
	one[k] = '\0';
	return text_width(one);
}

static size_t
fit_trim(const char *s, size_t n)
{
	while (n > 0 && s[n - 1] == ' ')
		n--;
	return n;
}

char *
fit_words(char *dst, size_t dstsz, const char *s, int width, int utf8)
{
	const char *ell = utf8 ? "\xe2\x80\xa6" : "...";
	int ew = utf8 ? 1 : 3, col = 0, cw, sw = text_width(s);
	char full[4 * FIT_MAX + 1];
	size_t i = 0, n, k, cut = 0, brk = 0;
	uint32_t c;

	if (width < 0)
		width = 0;
	text_fit(full, sizeof full, s, sw < FIT_MAX ? sw : FIT_MAX, 0, utf8);
	n = strlen(full);
	if (sw <= width || width <= ew) {
		/* It fits, or there is no room for a marker: as much as fits. */
		if (sw > width)
			text_fit(full, sizeof full, s, width, 0, utf8);
		snprintf(dst, dstsz, "%.*s", (int)fit_trim(full, strlen(full)), full);
		return dst;
	}
	while (i < n) {
		if ((k = text_utf8_next(full + i, n - i, &c)) == 0)
			k = 1;
		cw = fit_char_width(full + i, k);
		if (col + cw > width - ew)
			break;
		/* A blank after a word: the text may be cut here. */
		if (full[i] == ' ' && i > 0 && full[i - 1] != ' ')
			brk = i;
		col += cw;
		i += k;
		cut = i;
	}
	if (i < n && full[i] == ' ')
		brk = i;
	n = fit_trim(full, brk > 0 ? brk : cut);
	snprintf(dst, dstsz, "%.*s%s", (int)n, full, ell);
	return dst;
}
