/*
 * numarg.h — a command-line number read whole: all of the string, in a range. The
 * examples' option parsers share it.
 */
#ifndef GS_NUMARG_H
#define GS_NUMARG_H

#include <stdint.h>

/* A whole decimal number in [min, max] into *out: 0, or -1 (NULL, garbage, out of range). */
int numarg_int(const char *v, int64_t min, int64_t max, int64_t *out);
/* A finite number in [min, max] into *out: 0 or -1. */
int numarg_double(const char *v, double min, double max, double *out);

#endif
