/* file.h — a whole small file into memory, with a cap. */
#ifndef GS_FILE_H
#define GS_FILE_H

#include <stddef.h>

/*
 * The whole of path into *buf (allocated, NUL-terminated; its length in *len), reading at
 * most max bytes. Returns 0, or -1 with errno set (EFBIG: the file is larger than max;
 * *buf is then NULL).
 */
int file_read(const char *path, size_t max, char **buf, size_t *len);

#endif
