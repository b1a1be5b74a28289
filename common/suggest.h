/* suggest.h — "did you mean" for unknown commands, options and YAML keys. */
#ifndef GS_SUGGEST_H
#define GS_SUGGEST_H

#include <stddef.h>

/* Edit distance (insert, delete, substitute, swap of neighbours), capped at 255. */
int suggest_distance(const char *a, const char *b);

/*
 * The candidate closest to word, or NULL when none is close enough to be a plausible typo
 * (distance at most 1 for short words, at most a third of the length for longer ones).
 * candidates is NULL-terminated.
 */
const char *suggest_closest(const char *word, const char *const *candidates);

#endif
