/*
 * yaml-doc.h — a YAML file read into a small tree of mappings, lists and scalars, each with
 * its line:col, for the site, job, experiment and configuration loaders. Built from
 * libyaml's event API so that the limits of doc/reliability.md ("YAML parsing") hold before
 * any tree exists: input at most 1 MiB, UTF-8 only (no NUL), nesting at most 64 deep, no
 * anchors or aliases, no duplicate keys, one document whose top level is a mapping.
 */
#ifndef GS_YAML_DOC_H
#define GS_YAML_DOC_H

#include <stdarg.h>
#include <stddef.h>

#include "broker/site.h"

#define YDOC_MAX_BYTES	(1024 * 1024)
#define YDOC_MAX_DEPTH	64

enum ydoc_type {
	YDOC_SCALAR,
	YDOC_MAP,
	YDOC_SEQ
};

struct ydoc_pair;

struct ydoc_node {
	enum ydoc_type type;
	int line;		/* 1-based */
	int col;		/* 1-based */

	/* YDOC_SCALAR */
	char *value;		/* NUL-terminated (the YAML text cannot hold a NUL) */
	size_t len;
	int plain;		/* 1: unquoted; a plain "", "~" or "null" is a null */
	int quoted;		/* 1: '...' or "..." (the text starts one column later) */
	/*
	 * The file this node was read from when it is not the document's own: a node copied
	 * in by ydoc_merge (an experiment's parameter laid over a job file), so that its
	 * errors name the file and line it came from. NULL: the document's file.
	 */
	const char *origin;

	/* YDOC_MAP */
	struct ydoc_pair *pairs;
	size_t npairs;

	/* YDOC_SEQ */
	struct ydoc_node **items;
	size_t nitems;

	size_t cap;		/* allocated pairs or items */
};

struct ydoc_pair {
	struct ydoc_node *key;		/* always a scalar */
	struct ydoc_node *value;
};

/*
 * Parse buf (len bytes; need not be NUL-terminated) named name in errors. Returns the
 * top-level mapping, or NULL with err filled as "name:line:col: message".
 */
struct ydoc_node *ydoc_parse(const char *name, const char *buf, size_t len,
    struct gs_error *err);
void ydoc_free(struct ydoc_node *node);

/*
 * Read a whole file (at most YDOC_MAX_BYTES; the check happens before reading it all) into
 * an allocated buffer. Returns 0, or -1 with err filled.
 */
int ydoc_read_file(const char *path, char **buf, size_t *len, struct gs_error *err);

/*
 * A deep copy of node whose nodes all carry origin (kept as a pointer: it must outlive the
 * copy); NULL origin keeps each node's own.
 */
struct ydoc_node *ydoc_copy(const struct ydoc_node *node, const char *origin);

/*
 * Lay the mapping over on top of the mapping dst: a key of over that dst lacks is added, a
 * key both have is replaced by over's value, except that two mappings are merged key by
 * key. What is added is a copy (ydoc_copy with origin); over is not changed.
 */
void ydoc_merge(struct ydoc_node *dst, const struct ydoc_node *over, const char *origin);

/* A new scalar with text value (copied) at line:col of origin (may be NULL). */
struct ydoc_node *ydoc_scalar_new(const char *value, int line, int col, const char *origin);

/* 1 when a scalar is a YAML null: plain "", "~", "null", "Null" or "NULL". */
int ydoc_is_null(const struct ydoc_node *node);

/* The value of key in a mapping, or NULL. */
struct ydoc_node *ydoc_get(const struct ydoc_node *map, const char *key);

/*
 * Check that every key of map is one of known (NULL-terminated): each unknown key adds
 * "unknown key 'k' (did you mean 'x'?)" at the key to errs; -1 when there was one.
 */
struct gs_errlist;
int ydoc_check_keys_all(const char *name, const struct ydoc_node *map,
    const char *const *known, struct gs_errlist *errs);
/* 1 when key is one of known (NULL-terminated). */
int ydoc_known(const char *key, const char *const *known);
/*
 * 1 when map has key, or an unknown key that ydoc_check_keys_all() takes for a misspelling of
 * it: that key's error is the one to fix, not a second one saying key is missing.
 */
int ydoc_given(const struct ydoc_node *map, const char *key, const char *const *known);

/*
 * Fill err with "name:line:col: " and the formatted message, at node's position (named
 * by the node's origin when it has one), and set err->loc.
 */
void ydoc_error(struct gs_error *err, const char *name, const struct ydoc_node *node,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void ydoc_verror(struct gs_error *err, const char *name, const struct ydoc_node *node,
    const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));

/*
 * Strict scalar conversions. Each returns 0, or -1 with err filled as
 * "'key' must be WHAT, not 'text'" (or "not a mapping", "not a list", "not empty").
 * The range is part of WHAT: e.g. ydoc_int(.., "a whole number >= 1", 1, INT_MAX, ..).
 */
int ydoc_int(const char *name, const char *key, const struct ydoc_node *node,
    const char *what, long long min, long long max, long long *out, struct gs_error *err);
/* Numbers: decimal, optional fraction and exponent; finite. lo_open/hi_open: (lo / hi). */
int ydoc_num(const char *name, const char *key, const struct ydoc_node *node,
    const char *what, double lo, int lo_open, double hi, int hi_open, double *out,
    struct gs_error *err);
int ydoc_bool(const char *name, const char *key, const struct ydoc_node *node, int *out,
    struct gs_error *err);
/* One of the plain words of a NULL-terminated list; *out gets its index. */
int ydoc_choice(const char *name, const char *key, const struct ydoc_node *node,
    const char *const *words, int *out, struct gs_error *err);
/* Any non-null scalar; returns its text (owned by the tree). */
int ydoc_str(const char *name, const char *key, const struct ydoc_node *node,
    const char **out, struct gs_error *err);
/* Type checks for collections: "'key' must be a mapping, not ..." */
int ydoc_want(const char *name, const char *key, const struct ydoc_node *node,
    enum ydoc_type type, struct gs_error *err);

/*
 * A set of strings (pointers kept, not copied) with a value each: duplicate hosts, sites and
 * names found in linear time, since a hostile 1 MiB file can hold a hundred thousand names.
 */
struct ydoc_strset {
	const char **key;
	size_t *val;
	size_t cap;
	size_t n;
};

void ydoc_strset_init(struct ydoc_strset *set);
/* Add key with val; returns -1 when new, else the value stored earlier with that key. */
long ydoc_strset_add(struct ydoc_strset *set, const char *key, size_t val);
/* The value stored with key, or -1. */
long ydoc_strset_find(const struct ydoc_strset *set, const char *key);
void ydoc_strset_free(struct ydoc_strset *set);

/* "'x'", "a mapping", "a list" or "empty": what a value is, for "not ..." messages. */
void ydoc_describe(const struct ydoc_node *node, char *buf, size_t len);

/* 1 when s has no C0 control character and no DEL: fit to be a file name or a word. */
int ydoc_no_controls(const char *s);

#endif
