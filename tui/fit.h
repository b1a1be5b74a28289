/*
 * fit.h — prose in a given width without a word cut in half: what does not fit is cut at
 * a word boundary and ends with an ellipsis, so a narrow terminal never shows "unfo" for
 * "unfold". Pure strings: the screen and the unit tests share it.
 */
#ifndef TUI_FIT_H
#define TUI_FIT_H

#include <stddef.h>

/*
 * Fit the cleaned string s in at most width columns into dst (dstsz >= 4 * width + 4).
 * A string that fits is copied whole (trailing blanks dropped); a longer one is cut after
 * its last whole word that leaves room for the ellipsis ("\u2026" when utf8, else "..."),
 * or inside its first word when even that is too long. As text_fit, utf8 0 turns every
 * non-ASCII character into '?'. Returns dst.
 */
char *fit_words(char *dst, size_t dstsz, const char *s, int width, int utf8);

#endif
