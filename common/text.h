/*
 * text.h — the console's text hygiene: everything shown comes from outside (host names,
 * site names, reasons in events), so strings are cleaned once where they enter
 * (doc/reliability.md, "The console") and measured in display columns where they are drawn.
 */
#ifndef GS_TEXT_H
#define GS_TEXT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Copy src (srclen bytes, need not be NUL-terminated) into dst (dstsz bytes, always
 * NUL-terminated): C0 controls, DEL, C1 controls (raw 0x80-0x9f or U+0080-U+009F) and the
 * bidi controls (U+061C, U+200E/F, U+202A-U+202E, U+2066-U+2069) are removed, tab/CR/LF become
 * a space, bytes that are not UTF-8 become '?', and the copy is cut at a character boundary
 * so that it fits. Returns the length of dst.
 */
size_t text_clean(char *dst, size_t dstsz, const char *src, size_t srclen);

/* Decode one UTF-8 character of s (n > 0 bytes); returns its length, or 0 when invalid. */
size_t text_utf8_next(const char *s, size_t n, uint32_t *cp);

/* Display columns of a cleaned string (wcwidth in a UTF-8 locale; '?' counts 1 otherwise). */
int text_width(const char *s);

/*
 * Fit a cleaned string in exactly width columns: cut or padded with spaces, aligned left
 * (right = 0) or right. When utf8 is 0 every non-ASCII character becomes '?', so that a
 * terminal in the C locale shows no mojibake. Returns dst (dstsz must be >= 4 * width + 1).
 */
char *text_fit(char *dst, size_t dstsz, const char *s, int width, int right, int utf8);

/* "1:02.3" under an hour, else "1:02:03"; negative as "-". */
char *text_clock(char *dst, size_t dstsz, double secs);
/* A number in at most width characters: fewer decimals first, then k/M/G suffixes. */
char *text_num(char *dst, size_t dstsz, double v, int decimals, int width);
/*
 * The plural ending of a count in English: "" for 1, "s" otherwise ("1 site", "0 sites",
 * "2 sites"), so that a count never reads "1 sites".
 */
const char *text_plural(long long n);

#endif
