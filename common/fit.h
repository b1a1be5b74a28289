/*
 * fit.h — text in a given width without a word cut in half: prose is cut at a word
 * boundary, a name (a node, a site) at one of its parts, and what was cut ends with an
 * ellipsis, so a narrow terminal never shows "unfo" for "unfold" nor "node1" for
 * "node12". Pure strings: the console, its --once, list's columns and the unit tests share
 * it.
 */
#ifndef COMMON_FIT_H
#define COMMON_FIT_H

#include <stddef.h>

/*
 * Fit the cleaned string s in at most width columns into dst (dstsz >= 4 * width + 4).
 * A string that fits is copied whole (trailing blanks dropped); a longer one is cut after
 * its last whole word that leaves room for the ellipsis ("\u2026" when utf8, else "..."),
 * or inside its first word when even that is too long. As text_fit, utf8 0 turns every
 * non-ASCII character into '?'. Returns dst.
 */
char *fit_words(char *dst, size_t dstsz, const char *s, int width, int utf8);

/*
 * A name in exactly width columns (padded on the right, or on the left when right): whole
 * when it fits; otherwise cut after its last part that leaves room for the ellipsis
 * (parts end before '.', '-' or '_': "fa1.site-b.example" in 10 is "fa1.site-…"), or
 * inside its first part, always marked, so that a cut name never passes for another.
 * dstsz >= 4 * width + 4. Returns dst.
 */
char *fit_name(char *dst, size_t dstsz, const char *name, int width, int right, int utf8);

#endif
