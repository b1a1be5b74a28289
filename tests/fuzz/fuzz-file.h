/*
 * fuzz-file.h — what the fuzz targets of readers that take a path share: a private
 * directory made once per process, and the fuzzer's bytes written into a file there.
 */
#ifndef GS_FUZZ_FILE_H
#define GS_FUZZ_FILE_H

#include <stddef.h>

/* The process's own temporary directory (made on the first call; aborts when it cannot). */
const char *fuzz_dir(void);

/* data[0, size) as the whole of fuzz_dir()/name, whose path goes to path; aborts on error. */
void fuzz_write(const char *name, const void *data, size_t size, char *path, size_t len);

#endif
