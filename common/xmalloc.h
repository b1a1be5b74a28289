/*
 * xmalloc.h — allocation for the programs: these never return NULL (they die with a
 * message instead). libgrt does not use them: it returns GRT_ENOMEM.
 */
#ifndef GS_XMALLOC_H
#define GS_XMALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
int xasprintf(char **ret, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Free n allocated strings and the array that holds them. */
void strv_free(char **v, size_t n);

#endif
