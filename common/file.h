/*
 * file.h — a whole small file into memory, with a cap, and back: atomically (the one writer
 * of every file that others read while it may change), or plainly; and where a program is
 * (beside gridsubmit, or in PATH).
 */
#ifndef GS_FILE_H
#define GS_FILE_H

#include <stddef.h>

/*
 * The whole of path into *buf (allocated, NUL-terminated; its length in *len), reading at
 * most max bytes. Returns 0, or -1 with errno set (EFBIG: the file is larger than max;
 * *buf is then NULL).
 */
int file_read(const char *path, size_t max, char **buf, size_t *len);

/*
 * Replace dir/name (name: no '/') with the len bytes at data, atomically: the bytes go to
 * a new temporary file in dir, ".NAME.XXXXXX.tmp" (created with O_EXCL, which never opens
 * an existing file nor follows a link), which gets exactly mode (the umask does not narrow
 * it), is fsync'd and renamed over dir/name; then dir is fsync'd. A reader sees the old file
 * or the whole new one, never a part of it, and so does anyone after a crash. A failure
 * before the rename removes the temporary file and leaves dir/name as it was; a failure of
 * dir's fsync after it leaves the new dir/name in place, not known to survive a crash (the
 * caller that undoes a creation removes it). 0, or -1 with errno.
 */
int file_write_atomic(const char *dir, const char *name, const void *data, size_t len,
    int mode);

/*
 * Remove the temporary files of dir/name that a file_write_atomic killed in its middle
 * left (SIGKILL). Call it only when no one writes dir/name any more. 0, or -1 with errno.
 */
int file_atomic_sweep(const char *dir, const char *name);

/*
 * Make path hold exactly the len bytes at p (created 0644 or truncated) with a plain
 * write: a reader may see it half-written, and a crash may leave it so. For files that no
 * one reads meanwhile (the tests' own); file_write_atomic for the others. 0, or -1.
 */
int file_write(const char *path, const void *p, size_t len);

/*
 * All len bytes at p to the open file fd, a short write continued; 0, or -1 with errno
 * (ENOSPC for a write that wrote nothing).
 */
int file_write_all(int fd, const void *p, size_t len);

/*
 * The program name next to the running one (/proc/self/exe): how gridsubmit finds its own
 * helpers in the build directory and in an install's bin. Allocated; NULL when it is not
 * there or not executable.
 */
char *file_beside_self(const char *name);

/*
 * The program name (no '/') as a command search finds it in dirs, a colon-separated list
 * as PATH is: dir/name of the first directory holding a regular file of that name that
 * this process may execute. Only absolute directories are searched: an empty or relative
 * entry would take a program from wherever the current directory happens to be. Allocated;
 * NULL when none has it.
 */
char *file_which(const char *name, const char *dirs);

#endif
