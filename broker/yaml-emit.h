/*
 * yaml-emit.h — a tree of yaml-doc.h written back as YAML with libyaml's emitter, so that
 * gridsubmit can write a file its own loaders read as the tree it came from.
 */
#ifndef GS_YAML_EMIT_H
#define GS_YAML_EMIT_H

#include <stddef.h>

#include "broker/yaml-doc.h"

/*
 * The text head (lines of comments, or NULL), then root as one YAML document, into an
 * allocated buffer (*len bytes, NUL-terminated). Scalars keep what the loaders tell
 * apart: a plain one stays plain (a null, a boolean, a word of a choice), any other is
 * written double-quoted (its text exact, never a null). Returns 0, or -1 when libyaml's
 * emitter refused the tree (a key that is not a scalar).
 */
int ydoc_emit(const struct ydoc_node *root, const char *head, char **buf, size_t *len);

/*
 * Set key of the mapping map to value (taken over): the value of an existing key is
 * freed and replaced, in place; a new key goes last.
 */
void ydoc_set(struct ydoc_node *map, const char *key, struct ydoc_node *value);

#endif
