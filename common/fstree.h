/*
 * fstree.h — file trees on this host: remove one (rm -r), copy one (cp -rL), measure one.
 * Copies take regular files and directories, following symbolic links (a link back to a
 * directory above it is an error, not a loop), at most FSTREE_DEPTH_MAX directories deep;
 * permission bits are kept, made readable and writable by the owner.
 */
#ifndef GS_FSTREE_H
#define GS_FSTREE_H

#include <stddef.h>

#define FSTREE_DEPTH_MAX	64

/* Remove path and everything below it, without following links. 0, or -1 with errno. */
int fstree_remove(const char *path);

/*
 * Copy the file or directory from to the path to: first as to.tmp, renamed to to once
 * everything is there, so that to is whole or absent; a file or directory already at to
 * is replaced (from may be to itself). 0, or -1 with a message in why naming the path
 * that failed (nothing is left behind).
 */
int fstree_copy(const char *from, const char *to, char *why, size_t whylen);

/* Bytes of the regular files at or below path (following links), and their number. */
long long fstree_size(const char *path, size_t *files);

#endif
