/*
 * yaml-doc.c — YAML text to a tree of mappings, lists and scalars with line:col marks.
 *
 * libyaml's own loader (yaml_parser_load) has no depth limit, its time grows with the square
 * of the depth and it leaves alias expansion to the caller (doc/reliability.md, "YAML
 * parsing"), so the tree is built here from the event stream, and every limit is checked
 * on the event that breaks it: nothing deeper than YDOC_MAX_DEPTH is ever allocated.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "broker/yaml-doc.h"
#include "common/file.h"
#include "common/xmalloc.h"

/* Maps up to this size are checked for duplicate keys on every insert; larger ones at end. */
#define YDOC_DUP_LINEAR	64

static void __attribute__((format(printf, 5, 0)))
ydoc_format(struct gs_error *err, const char *name, int line, int col, const char *fmt,
    va_list ap)
{
	int n;

	if (err == NULL)
		return;
	err->loc.file = name;
	err->loc.line = line;
	err->loc.col = col;
	if (line > 0)
		n = snprintf(err->msg, sizeof err->msg, "%s:%d:%d: ", name, line, col);
	else
		n = snprintf(err->msg, sizeof err->msg, "%s: ", name);
	if (n < 0 || (size_t)n >= sizeof err->msg)
		return;
	vsnprintf(err->msg + n, sizeof err->msg - n, fmt, ap);
}

static void __attribute__((format(printf, 5, 6)))
ydoc_errorat(struct gs_error *err, const char *name, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ydoc_format(err, name, line, col, fmt, ap);
	va_end(ap);
}

void
ydoc_verror(struct gs_error *err, const char *name, const struct ydoc_node *node,
    const char *fmt, va_list ap)
{
	if (node != NULL && node->origin != NULL)
		name = node->origin;
	ydoc_format(err, name, node != NULL ? node->line : 0, node != NULL ? node->col : 0, fmt,
	    ap);
}

void
ydoc_error(struct gs_error *err, const char *name, const struct ydoc_node *node,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ydoc_verror(err, name, node, fmt, ap);
	va_end(ap);
}

void
ydoc_free(struct ydoc_node *node)
{
	size_t i;

	if (node == NULL)
		return;
	switch (node->type) {
	case YDOC_SCALAR:
		free(node->value);
		break;
	case YDOC_MAP:
		for (i = 0; i < node->npairs; i++) {
			ydoc_free(node->pairs[i].key);
			ydoc_free(node->pairs[i].value);
		}
		free(node->pairs);
		break;
	case YDOC_SEQ:
		for (i = 0; i < node->nitems; i++)
			ydoc_free(node->items[i]);
		free(node->items);
		break;
	}
	free(node);
}

/* Line and column (1-based, in characters) of byte offset off. */
static void
ydoc_position(const char *buf, size_t off, int *line, int *col)
{
	size_t i;
	int l = 1, c = 1;

	for (i = 0; i < off; i++) {
		if (buf[i] == '\n') {
			l++;
			c = 1;
		} else if (((unsigned char)buf[i] & 0xc0) != 0x80)
			c++;
	}
	*line = l;
	*col = c;
}

/*
 * Reject NUL bytes and anything that is not well-formed UTF-8 (overlong forms, surrogates,
 * code points past U+10FFFF), naming the first bad byte's position.
 */
static int
ydoc_check_utf8(const char *name, const char *buf, size_t len, struct gs_error *err)
{
	const unsigned char *s = (const unsigned char *)buf;
	size_t i = 0, need, k;
	unsigned char lo, hi;
	int line, col;

	while (i < len) {
		unsigned char c = s[i];

		if (c == 0) {
			ydoc_position(buf, i, &line, &col);
			ydoc_errorat(err, name, line, col,
			    "binary data (a NUL byte): the file must be UTF-8 text");
			return -1;
		}
		if (c < 0x80) {
			i++;
			continue;
		}
		lo = 0x80;
		hi = 0xbf;
		if (c >= 0xc2 && c <= 0xdf)
			need = 1;
		else if (c >= 0xe0 && c <= 0xef) {
			need = 2;
			if (c == 0xe0)
				lo = 0xa0;
			else if (c == 0xed)
				hi = 0x9f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			need = 3;
			if (c == 0xf0)
				lo = 0x90;
			else if (c == 0xf4)
				hi = 0x8f;
		} else
			goto bad;
		if (len - i <= need)
			goto bad;
		if (s[i + 1] < lo || s[i + 1] > hi)
			goto bad;
		for (k = 2; k <= need; k++)
			if ((s[i + k] & 0xc0) != 0x80)
				goto bad;
		i += need + 1;
	}
	return 0;
bad:
	ydoc_position(buf, i, &line, &col);
	ydoc_errorat(err, name, line, col, "invalid UTF-8 (byte 0x%02x): the file must be UTF-8 text",
	    s[i]);
	return -1;
}

/* The libyaml error, with its own text and mark. */
static void
ydoc_parser_error(const char *name, const char *buf, size_t len, const yaml_parser_t *p,
    struct gs_error *err)
{
	int line, col;
	const char *problem = p->problem != NULL ? p->problem : "cannot parse";

	switch (p->error) {
	case YAML_MEMORY_ERROR:
		ydoc_errorat(err, name, 0, 0, "out of memory while parsing");
		break;
	case YAML_READER_ERROR:
		ydoc_position(buf, p->problem_offset < len ? p->problem_offset : len, &line, &col);
		ydoc_errorat(err, name, line, col, "%s", problem);
		break;
	case YAML_SCANNER_ERROR:
	case YAML_PARSER_ERROR:
	default:
		line = (int)p->problem_mark.line + 1;
		col = (int)p->problem_mark.column + 1;
		if (p->problem_mark.index < len && buf[p->problem_mark.index] == '\t')
			ydoc_errorat(err, name, line, col,
			    "%s (indent with spaces, not tabs)", problem);
		else if (p->context != NULL)
			ydoc_errorat(err, name, line, col, "%s (%s at line %d, col %d)", problem,
			    p->context, (int)p->context_mark.line + 1,
			    (int)p->context_mark.column + 1);
		else
			ydoc_errorat(err, name, line, col, "%s", problem);
		break;
	}
}

static struct ydoc_node *
ydoc_node_new(enum ydoc_type type, const yaml_mark_t *mark)
{
	struct ydoc_node *n = xcalloc(1, sizeof *n);

	n->type = type;
	n->line = (int)mark->line + 1;
	n->col = (int)mark->column + 1;
	return n;
}

struct ydoc_node *
ydoc_scalar_new(const char *value, int line, int col, const char *origin)
{
	struct ydoc_node *n = xcalloc(1, sizeof *n);

	n->type = YDOC_SCALAR;
	n->line = line;
	n->col = col;
	n->origin = origin;
	n->value = xstrdup(value);
	n->len = strlen(value);
	n->quoted = 1;		/* a text, never a null */
	return n;
}

struct ydoc_node *
ydoc_copy(const struct ydoc_node *node, const char *origin)
{
	struct ydoc_node *n = xcalloc(1, sizeof *n);
	size_t i;

	*n = *node;
	n->origin = origin != NULL ? origin : node->origin;
	n->pairs = NULL;
	n->items = NULL;
	n->npairs = n->nitems = n->cap = 0;
	switch (node->type) {
	case YDOC_SCALAR:
		n->value = xstrndup(node->value, node->len);
		break;
	case YDOC_MAP:
		n->pairs = xcalloc(node->npairs + 1, sizeof *n->pairs);
		for (i = 0; i < node->npairs; i++) {
			n->pairs[i].key = ydoc_copy(node->pairs[i].key, origin);
			n->pairs[i].value = ydoc_copy(node->pairs[i].value, origin);
		}
		n->npairs = n->cap = node->npairs;
		break;
	case YDOC_SEQ:
		n->items = xcalloc(node->nitems + 1, sizeof *n->items);
		for (i = 0; i < node->nitems; i++)
			n->items[i] = ydoc_copy(node->items[i], origin);
		n->nitems = n->cap = node->nitems;
		break;
	}
	return n;
}

void
ydoc_merge(struct ydoc_node *dst, const struct ydoc_node *over, const char *origin)
{
	size_t i, j;

	for (i = 0; i < over->npairs; i++) {
		const struct ydoc_pair *op = &over->pairs[i];

		for (j = 0; j < dst->npairs; j++)
			if (strcmp(dst->pairs[j].key->value, op->key->value) == 0)
				break;
		if (j < dst->npairs && dst->pairs[j].value->type == YDOC_MAP &&
		    op->value->type == YDOC_MAP) {
			ydoc_merge(dst->pairs[j].value, op->value, origin);
			continue;
		}
		if (j < dst->npairs) {
			ydoc_free(dst->pairs[j].value);
			dst->pairs[j].value = ydoc_copy(op->value, origin);
			continue;
		}
		dst->pairs = xreallocarray(dst->pairs, dst->npairs + 1, sizeof *dst->pairs);
		dst->pairs[dst->npairs].key = ydoc_copy(op->key, origin);
		dst->pairs[dst->npairs].value = ydoc_copy(op->value, origin);
		dst->npairs++;
		dst->cap = dst->npairs;
	}
}

static int
ydoc_pair_cmp(const void *a, const void *b)
{
	const struct ydoc_pair *pa = *(const struct ydoc_pair *const *)a;
	const struct ydoc_pair *pb = *(const struct ydoc_pair *const *)b;
	int c = strcmp(pa->key->value, pb->key->value);

	if (c != 0)
		return c;
	return pa < pb ? -1 : pa > pb;
}

/* A duplicate key of a large map (checked at its end, in O(n log n)): the earliest repeat. */
static int
ydoc_check_dups_sorted(const char *name, const struct ydoc_node *map, struct gs_error *err)
{
	struct ydoc_pair **v;
	const struct ydoc_pair *first = NULL, *dup = NULL;
	size_t i;

	v = xreallocarray(NULL, map->npairs, sizeof *v);
	for (i = 0; i < map->npairs; i++)
		v[i] = &map->pairs[i];
	qsort(v, map->npairs, sizeof *v, ydoc_pair_cmp);
	for (i = 1; i < map->npairs; i++) {
		if (strcmp(v[i]->key->value, v[i - 1]->key->value) != 0)
			continue;
		if (i >= 2 && strcmp(v[i]->key->value, v[i - 2]->key->value) == 0)
			continue;	/* a third copy: the second one is reported */
		if (dup == NULL || v[i] < dup) {
			dup = v[i];
			first = v[i - 1];
		}
	}
	free(v);
	if (dup == NULL)
		return 0;
	ydoc_error(err, name, dup->key, "duplicate key '%s' (first at line %d, col %d)",
	    dup->key->value, first->key->line, first->key->col);
	return -1;
}

struct ydoc_builder {
	const char *name;
	struct ydoc_node *root;
	struct ydoc_node *stack[YDOC_MAX_DEPTH + 1];
	int depth;
	struct gs_error *err;
};

/* Put a new node in its parent: a list item, a mapping key, or the value of the last key. */
static int
ydoc_attach(struct ydoc_builder *b, struct ydoc_node *n)
{
	struct ydoc_node *parent;
	struct ydoc_pair *pair;
	size_t i;

	if (b->depth == 0) {
		b->root = n;
		return 0;
	}
	parent = b->stack[b->depth - 1];
	if (parent->type == YDOC_SEQ) {
		if (parent->nitems == parent->cap) {
			parent->cap = parent->cap ? parent->cap * 2 : 4;
			parent->items = xreallocarray(parent->items, parent->cap,
			    sizeof *parent->items);
		}
		parent->items[parent->nitems++] = n;
		return 0;
	}
	if (parent->npairs > 0 && parent->pairs[parent->npairs - 1].value == NULL) {
		parent->pairs[parent->npairs - 1].value = n;
		return 0;
	}
	/* a key: stored at once so that everything is reachable from the root on error */
	if (parent->npairs == parent->cap) {
		parent->cap = parent->cap ? parent->cap * 2 : 4;
		parent->pairs = xreallocarray(parent->pairs, parent->cap, sizeof *parent->pairs);
	}
	pair = &parent->pairs[parent->npairs++];
	pair->key = n;
	pair->value = NULL;
	if (n->type != YDOC_SCALAR) {
		ydoc_error(b->err, b->name, n, "a key must be plain text, not %s",
		    n->type == YDOC_MAP ? "a mapping" : "a list");
		return -1;
	}
	if (parent->npairs <= YDOC_DUP_LINEAR) {
		for (i = 0; i + 1 < parent->npairs; i++) {
			const struct ydoc_node *k = parent->pairs[i].key;

			if (strcmp(k->value, n->value) == 0) {
				ydoc_error(b->err, b->name, n,
				    "duplicate key '%s' (first at line %d, col %d)", n->value,
				    k->line, k->col);
				return -1;
			}
		}
	}
	return 0;
}

static int
ydoc_no_anchor_tag(struct ydoc_builder *b, const yaml_event_t *ev, const yaml_char_t *anchor,
    const yaml_char_t *tag)
{
	if (anchor != NULL) {
		ydoc_errorat(b->err, b->name, (int)ev->start_mark.line + 1,
		    (int)ev->start_mark.column + 1,
		    "anchors are not allowed ('&%.64s'): write the value out", (const char *)anchor);
		return -1;
	}
	if (tag != NULL) {
		ydoc_errorat(b->err, b->name, (int)ev->start_mark.line + 1,
		    (int)ev->start_mark.column + 1, "tags are not allowed ('%.64s')",
		    (const char *)tag);
		return -1;
	}
	return 0;
}

/* One event into the tree. Returns 1 at the end of the stream, 0 to go on, -1 on error. */
static int
ydoc_event(struct ydoc_builder *b, yaml_event_t *ev, int *ndocs)
{
	struct ydoc_node *n;
	const yaml_mark_t *m = &ev->start_mark;

	switch (ev->type) {
	case YAML_STREAM_END_EVENT:
		return 1;
	case YAML_DOCUMENT_START_EVENT:
		if (++*ndocs > 1) {
			ydoc_errorat(b->err, b->name, (int)m->line + 1, (int)m->column + 1,
			    "a second document: a file holds one document");
			return -1;
		}
		return 0;
	case YAML_ALIAS_EVENT:
		ydoc_errorat(b->err, b->name, (int)m->line + 1, (int)m->column + 1,
		    "aliases are not allowed ('*%.64s'): write the value out",
		    (const char *)ev->data.alias.anchor);
		return -1;
	case YAML_SCALAR_EVENT:
		if (ydoc_no_anchor_tag(b, ev, ev->data.scalar.anchor, ev->data.scalar.tag) == -1)
			return -1;
		n = ydoc_node_new(YDOC_SCALAR, m);
		n->len = ev->data.scalar.length;
		/*
		 * Take libyaml's NUL-terminated copy rather than copy it again: libyaml
		 * allocates with malloc() and its yaml_event_delete() skips a NULL value.
		 * (The text cannot hold a NUL: ydoc_check_utf8() refused those.)
		 */
		n->value = (char *)ev->data.scalar.value;
		ev->data.scalar.value = NULL;
		n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		n->quoted = ev->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
		    ev->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
		if (ydoc_attach(b, n) == -1)
			return -1;
		return 0;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		if (ev->type == YAML_SEQUENCE_START_EVENT) {
			if (ydoc_no_anchor_tag(b, ev, ev->data.sequence_start.anchor,
			    ev->data.sequence_start.tag) == -1)
				return -1;
		} else if (ydoc_no_anchor_tag(b, ev, ev->data.mapping_start.anchor,
		    ev->data.mapping_start.tag) == -1)
			return -1;
		if (b->depth >= YDOC_MAX_DEPTH) {
			ydoc_errorat(b->err, b->name, (int)m->line + 1, (int)m->column + 1,
			    "nesting deeper than %d levels", YDOC_MAX_DEPTH);
			return -1;
		}
		n = ydoc_node_new(ev->type == YAML_SEQUENCE_START_EVENT ? YDOC_SEQ : YDOC_MAP, m);
		if (ydoc_attach(b, n) == -1)
			return -1;
		b->stack[b->depth++] = n;
		return 0;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		if (b->depth == 0)
			return 0;
		n = b->stack[--b->depth];
		if (n->type == YDOC_MAP && n->npairs > YDOC_DUP_LINEAR &&
		    ydoc_check_dups_sorted(b->name, n, b->err) == -1)
			return -1;
		return 0;
	default:
		return 0;
	}
}

struct ydoc_node *
ydoc_parse(const char *name, const char *buf, size_t len, struct gs_error *err)
{
	struct ydoc_builder b;
	yaml_parser_t p;
	yaml_event_t ev;
	int ndocs = 0, rc = 0;

	if (len > YDOC_MAX_BYTES) {
		ydoc_errorat(err, name, 0, 0, "larger than 1 MiB (%zu bytes): not a site or job file",
		    len);
		return NULL;
	}
	if (ydoc_check_utf8(name, buf, len, err) == -1)
		return NULL;

	memset(&b, 0, sizeof b);
	b.name = name;
	b.err = err;
	if (!yaml_parser_initialize(&p)) {
		ydoc_errorat(err, name, 0, 0, "out of memory while parsing");
		return NULL;
	}
	yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	while (rc == 0) {
		if (!yaml_parser_parse(&p, &ev)) {
			ydoc_parser_error(name, buf, len, &p, err);
			rc = -1;
			break;
		}
		rc = ydoc_event(&b, &ev, &ndocs);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	if (rc == -1) {
		ydoc_free(b.root);
		return NULL;
	}
	if (b.root == NULL || ydoc_is_null(b.root)) {
		ydoc_free(b.root);
		ydoc_errorat(err, name, 1, 1, "empty file: expected a mapping of keys");
		return NULL;
	}
	if (b.root->type != YDOC_MAP) {
		char what[96];

		ydoc_describe(b.root, what, sizeof what);
		ydoc_error(err, name, b.root, "the top level must be a mapping of keys, not %s",
		    what);
		ydoc_free(b.root);
		return NULL;
	}
	return b.root;
}

int
ydoc_read_file(const char *path, char **bufp, size_t *lenp, struct gs_error *err)
{
	struct stat sb;

	if (file_read(path, YDOC_MAX_BYTES, bufp, lenp) == 0)
		return 0;
	if (errno == EFBIG && stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
		ydoc_errorat(err, path, 0, 0,
		    "larger than 1 MiB (%lld bytes): not a site or job file",
		    (long long)sb.st_size);
	else if (errno == EFBIG)
		ydoc_errorat(err, path, 0, 0, "larger than 1 MiB: not a site or job file");
	else if (errno == ENOENT || errno == EACCES || errno == ENOTDIR || errno == ELOOP ||
	    errno == ENAMETOOLONG)
		ydoc_errorat(err, path, 0, 0, "cannot open: %s", strerror(errno));
	else
		ydoc_errorat(err, path, 0, 0, "cannot read: %s", strerror(errno));
	return -1;
}

static uint64_t
ydoc_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

void
ydoc_strset_init(struct ydoc_strset *set)
{
	set->cap = 16;
	set->n = 0;
	set->key = xcalloc(set->cap, sizeof *set->key);
	set->val = xcalloc(set->cap, sizeof *set->val);
}

static size_t
ydoc_strset_slot(const char **key, size_t cap, const char *k)
{
	size_t i = (size_t)ydoc_hash(k) & (cap - 1);

	while (key[i] != NULL && strcmp(key[i], k) != 0)
		i = (i + 1) & (cap - 1);
	return i;
}

long
ydoc_strset_find(const struct ydoc_strset *set, const char *k)
{
	size_t i = ydoc_strset_slot(set->key, set->cap, k);

	return set->key[i] != NULL ? (long)set->val[i] : -1;
}

long
ydoc_strset_add(struct ydoc_strset *set, const char *k, size_t val)
{
	size_t i, j, ncap;
	const char **nkey;
	size_t *nval;

	i = ydoc_strset_slot(set->key, set->cap, k);
	if (set->key[i] != NULL)
		return (long)set->val[i];
	if (2 * (set->n + 1) > set->cap) {
		ncap = set->cap * 2;
		nkey = xcalloc(ncap, sizeof *nkey);
		nval = xcalloc(ncap, sizeof *nval);
		for (j = 0; j < set->cap; j++) {
			if (set->key[j] == NULL)
				continue;
			i = ydoc_strset_slot(nkey, ncap, set->key[j]);
			nkey[i] = set->key[j];
			nval[i] = set->val[j];
		}
		free(set->key);
		free(set->val);
		set->key = nkey;
		set->val = nval;
		set->cap = ncap;
		i = ydoc_strset_slot(set->key, set->cap, k);
	}
	set->key[i] = k;
	set->val[i] = val;
	set->n++;
	return -1;
}

void
ydoc_strset_free(struct ydoc_strset *set)
{
	free(set->key);
	free(set->val);
	memset(set, 0, sizeof *set);
}
