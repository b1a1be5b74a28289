/* file.h — a whole small file into memory, with a cap, and back. */
#ifndef GS_FILE_H
#define GS_FILE_H

#include <stddef.h>

/*
 * The whole of path into *buf (allocated, NUL-terminated; its length in *len), reading at
 * most max bytes. Returns 0, or -1 with errno set (EFBIG: the file is larger than max;
 * *buf is then NULL).
 */
int file_read(const char *path, size_t max, char **buf, size_t *len);

/* Make path hold exactly the len bytes at p (created 0644 or truncated); 0, or -1. */
int file_write(const char *path, const void *p, size_t len);

/*
 * The program name next to the running one (/proc/self/exe): how gridsubmit finds its own
 * helpers in the build directory and in an install's bin. Allocated; NULL when it is not
 * there or not executable.
 */
char *file_beside_self(const char *name);

#endif
