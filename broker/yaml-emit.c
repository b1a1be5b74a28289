/*
 * yaml-emit.c — a yaml-doc.h tree back into YAML text (yaml-emit.h), through libyaml's
 * emitter: the quoting and escaping are libyaml's, so the text reads back as the tree.
 */
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "broker/yaml-emit.h"
#include "common/xmalloc.h"

struct ye_out {
	char *buf;
	size_t len, cap;
};

static void
ye_append(struct ye_out *o, const void *p, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		while (o->len + n + 1 > o->cap)
			o->cap = o->cap ? o->cap * 2 : 4096;
		o->buf = xreallocarray(o->buf, o->cap, 1);
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

static int
ye_write(void *data, unsigned char *p, size_t n)
{
	ye_append(data, p, n);
	return 1;
}

/* A scalar event: plain stays plain (libyaml quotes it only where plain cannot be read). */
static int
ye_scalar(yaml_emitter_t *em, const struct ydoc_node *n, int key)
{
	yaml_event_t ev;
	int plain = key || n->plain;

	if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (const yaml_char_t *)n->value,
	    (int)n->len, plain, !plain, plain ? YAML_PLAIN_SCALAR_STYLE :
	    YAML_DOUBLE_QUOTED_SCALAR_STYLE))
		return -1;
	return yaml_emitter_emit(em, &ev) ? 0 : -1;
}

static int
ye_node(yaml_emitter_t *em, const struct ydoc_node *n)
{
	yaml_event_t ev;
	size_t i;

	switch (n->type) {
	case YDOC_SCALAR:
		return ye_scalar(em, n, 0);
	case YDOC_MAP:
		if (!yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
		    YAML_ANY_MAPPING_STYLE) || !yaml_emitter_emit(em, &ev))
			return -1;
		for (i = 0; i < n->npairs; i++)
			if (n->pairs[i].key->type != YDOC_SCALAR ||
			    ye_scalar(em, n->pairs[i].key, 1) == -1 ||
			    ye_node(em, n->pairs[i].value) == -1)
				return -1;
		if (!yaml_mapping_end_event_initialize(&ev) || !yaml_emitter_emit(em, &ev))
			return -1;
		return 0;
	case YDOC_SEQ:
		if (!yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
		    YAML_ANY_SEQUENCE_STYLE) || !yaml_emitter_emit(em, &ev))
			return -1;
		for (i = 0; i < n->nitems; i++)
			if (ye_node(em, n->items[i]) == -1)
				return -1;
		if (!yaml_sequence_end_event_initialize(&ev) || !yaml_emitter_emit(em, &ev))
			return -1;
		return 0;
	}
	return -1;
}

int
ydoc_emit(const struct ydoc_node *root, const char *head, char **buf, size_t *len)
{
	struct ye_out o = { NULL, 0, 0 };
	yaml_emitter_t em;
	yaml_event_t ev;
	int rc = -1;

	if (head != NULL)
		ye_append(&o, head, strlen(head));
	if (!yaml_emitter_initialize(&em))
		return -1;
	yaml_emitter_set_output(&em, ye_write, &o);
	yaml_emitter_set_unicode(&em, 1);
	/* no folding of long lines: one value, one line, as a person would grep it */
	yaml_emitter_set_width(&em, -1);
	if (yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) &&
	    yaml_emitter_emit(&em, &ev) &&
	    yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1) &&
	    yaml_emitter_emit(&em, &ev) && ye_node(&em, root) == 0 &&
	    yaml_document_end_event_initialize(&ev, 1) && yaml_emitter_emit(&em, &ev) &&
	    yaml_stream_end_event_initialize(&ev) && yaml_emitter_emit(&em, &ev) &&
	    yaml_emitter_flush(&em))
		rc = 0;
	yaml_emitter_delete(&em);
	if (rc == -1) {
		free(o.buf);
		return -1;
	}
	if (o.buf == NULL)
		ye_append(&o, "", 0);
	*buf = o.buf;
	*len = o.len;
	return 0;
}

void
ydoc_set(struct ydoc_node *map, const char *key, struct ydoc_node *value)
{
	size_t i;

	for (i = 0; i < map->npairs; i++)
		if (strcmp(map->pairs[i].key->value, key) == 0) {
			ydoc_free(map->pairs[i].value);
			map->pairs[i].value = value;
			return;
		}
	map->pairs = xreallocarray(map->pairs, map->npairs + 1, sizeof *map->pairs);
	map->pairs[map->npairs].key = ydoc_scalar_new(key, value->line, value->col,
	    value->origin);
	map->pairs[map->npairs].value = value;
	map->npairs++;
	map->cap = map->npairs;
}
