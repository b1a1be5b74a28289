/* fit.c — cutting prose at a word and names at a part, with an ellipsis (fit.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/fit.h"
#include "common/text.h"

#define FIT_MAX	255	/* columns of s considered; prose is never longer on a screen */
#define FIT_SEP	".-_"	/* what separates the parts of a name */

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

/* Prose: a cut may come at a blank after a word. */
static int
fit_word_brk(const char *s, size_t i)
{
	return s[i] == ' ' && s[i - 1] != ' ';
}

/* A name: a cut may come at a separator after a part. */
static int
fit_name_brk(const char *s, size_t i)
{
	return strchr(FIT_SEP, s[i]) != NULL && strchr(FIT_SEP, s[i - 1]) == NULL;
}

/*
 * Where to cut full (n bytes, cleaned) so that what is kept fits in room columns: at the
 * last place brk_at allows, else (one long word or part) as much as fits. Returns the
 * bytes kept.
 */
static size_t
fit_cut(const char *full, size_t n, int room, int (*brk_at)(const char *, size_t))
{
	size_t i = 0, k, cut = 0, brk = 0;
	uint32_t c;
	int col = 0, cw;

	while (i < n) {
		if ((k = text_utf8_next(full + i, n - i, &c)) == 0)
			k = 1;
		cw = fit_char_width(full + i, k);
		if (col + cw > room)
			break;
		if (i > 0 && brk_at(full, i))
			brk = i;
		col += cw;
		i += k;
		cut = i;
	}
	if (i < n && i > 0 && brk_at(full, i))
		brk = i;
	return brk > 0 ? brk : cut;
}

char *
fit_words(char *dst, size_t dstsz, const char *s, int width, int utf8)
{
	const char *ell = utf8 ? "\xe2\x80\xa6" : "...";
	int ew = utf8 ? 1 : 3, sw = text_width(s);
	char full[4 * FIT_MAX + 1];
	size_t n;

	if (width < 0)
		width = 0;
	text_fit(full, sizeof full, s, sw < FIT_MAX ? sw : FIT_MAX, 0, utf8);
	if (sw <= width || width <= ew) {
		/* It fits, or there is no room for a marker: as much as fits. */
		if (sw > width)
			text_fit(full, sizeof full, s, width, 0, utf8);
		snprintf(dst, dstsz, "%.*s", (int)fit_trim(full, strlen(full)), full);
		return dst;
	}
	n = fit_trim(full, fit_cut(full, strlen(full), width - ew, fit_word_brk));
	snprintf(dst, dstsz, "%.*s%s", (int)n, full, ell);
	return dst;
}

char *
fit_name(char *dst, size_t dstsz, const char *name, int width, int right, int utf8)
{
	const char *ell = utf8 ? "\xe2\x80\xa6" : "...";
	int ew = utf8 ? 1 : 3, sw = text_width(name), pad;
	char full[4 * FIT_MAX + 1];
	size_t n;

	if (width < 0)
		width = 0;
	if (sw <= width || width <= ew)
		return text_fit(dst, dstsz, name, width, right, utf8);
	text_fit(full, sizeof full, name, sw < FIT_MAX ? sw : FIT_MAX, 0, utf8);
	n = fit_cut(full, strlen(full), width - ew, fit_name_brk);
	full[n] = '\0';
	/* padded here: the ellipsis is one column whatever the locale says of it */
	pad = width - text_width(full) - ew;
	pad = pad > 0 ? pad : 0;
	snprintf(dst, dstsz, "%*s%s%s%*s", right ? pad : 0, "", full, ell, right ? 0 : pad, "");
	return dst;
}
