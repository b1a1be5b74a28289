/*
 * yaml-get.c — typed access to a parsed document (yaml-doc.h): keys of a mapping, known
 * keys with "did you mean", and scalars converted strictly (integers, numbers, booleans,
 * strings), every error located at its node as file:line:col.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broker/errlist.h"
#include "broker/yaml-doc.h"
#include "common/suggest.h"

int
ydoc_is_null(const struct ydoc_node *n)
{
	if (n == NULL)
		return 1;
	if (n->type != YDOC_SCALAR || !n->plain)
		return 0;
	return n->len == 0 || strcmp(n->value, "~") == 0 || strcmp(n->value, "null") == 0 ||
	    strcmp(n->value, "Null") == 0 || strcmp(n->value, "NULL") == 0;
}

struct ydoc_node *
ydoc_get(const struct ydoc_node *map, const char *key)
{
	size_t i;

	if (map == NULL || map->type != YDOC_MAP)
		return NULL;
	for (i = 0; i < map->npairs; i++)
		if (strcmp(map->pairs[i].key->value, key) == 0)
			return map->pairs[i].value;
	return NULL;
}

int
ydoc_known(const char *key, const char *const *known)
{
	size_t j;

	for (j = 0; known[j] != NULL; j++)
		if (strcmp(key, known[j]) == 0)
			return 1;
	return 0;
}

int
ydoc_given(const struct ydoc_node *map, const char *key, const char *const *known)
{
	const char *k, *guess;
	size_t i;

	if (map == NULL || map->type != YDOC_MAP)
		return 0;
	for (i = 0; i < map->npairs; i++) {
		k = map->pairs[i].key->value;
		if (strcmp(k, key) == 0)
			return 1;
		if (!ydoc_known(k, known) && (guess = suggest_closest(k, known)) != NULL &&
		    strcmp(guess, key) == 0)
			return 1;
	}
	return 0;
}

/* err: "unknown key 'k'" at the key k, with the nearest known key or the list of them. */
static void
ydoc_unknown_key(const char *name, const struct ydoc_node *k, const char *const *known,
    struct gs_error *err)
{
	const char *guess;
	char list[512];
	size_t j, n;

	if ((guess = suggest_closest(k->value, known)) != NULL) {
		ydoc_error(err, name, k, "unknown key '%.128s' (did you mean '%s'?)", k->value,
		    guess);
		return;
	}
	list[0] = '\0';
	for (j = 0, n = 0; known[j] != NULL; j++) {
		int w = snprintf(list + n, sizeof list - n, "%s%s", j ? ", " : "", known[j]);

		if (w < 0 || (size_t)w >= sizeof list - n)
			break;
		n += (size_t)w;
	}
	ydoc_error(err, name, k, "unknown key '%.128s' (expected one of: %s)", k->value, list);
}

int
ydoc_check_keys_all(const char *name, const struct ydoc_node *map,
    const char *const *known, struct gs_errlist *errs)
{
	struct gs_error err;
	size_t i;
	int rc = 0;

	for (i = 0; i < map->npairs; i++)
		if (!ydoc_known(map->pairs[i].key->value, known)) {
			ydoc_unknown_key(name, map->pairs[i].key, known, &err);
			errlist_add(errs, &err);
			rc = -1;
		}
	return rc;
}

int
ydoc_no_controls(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

void
ydoc_describe(const struct ydoc_node *n, char *buf, size_t len)
{
	size_t i, o = 0;

	if (n == NULL || ydoc_is_null(n)) {
		snprintf(buf, len, "empty");
		return;
	}
	if (n->type == YDOC_MAP) {
		snprintf(buf, len, "a mapping");
		return;
	}
	if (n->type == YDOC_SEQ) {
		snprintf(buf, len, "a list");
		return;
	}
	/* the text quoted, shortened and with control bytes shown as '?' */
	if (len < 8) {
		snprintf(buf, len, "'...'");
		return;
	}
	buf[o++] = '\'';
	for (i = 0; i < n->len && o + 6 < len; i++) {
		unsigned char c = (unsigned char)n->value[i];

		buf[o++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	if (i < n->len) {
		/* do not cut a UTF-8 sequence in half */
		while (o > 1 && ((unsigned char)buf[o - 1] & 0xc0) == 0x80)
			o--;
		if (o > 1 && ((unsigned char)buf[o - 1] & 0xc0) == 0xc0)
			o--;
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o++] = '\'';
	buf[o] = '\0';
}

static int
ydoc_type_error(const char *name, const char *key, const struct ydoc_node *node,
    const char *what, struct gs_error *err)
{
	char desc[96];

	ydoc_describe(node, desc, sizeof desc);
	ydoc_error(err, name, node, "'%s' must be %s, not %s", key, what, desc);
	return -1;
}

int
ydoc_int(const char *name, const char *key, const struct ydoc_node *node, const char *what,
    long long min, long long max, long long *out, struct gs_error *err)
{
	const char *s;
	long long v = 0;
	int neg = 0, digits = 0;

	if (node->type != YDOC_SCALAR || ydoc_is_null(node))
		return ydoc_type_error(name, key, node, what, err);
	s = node->value;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	for (; *s >= '0' && *s <= '9'; s++) {
		if (++digits > 18)
			return ydoc_type_error(name, key, node, what, err);
		v = v * 10 + (*s - '0');
	}
	if (*s != '\0' || digits == 0)
		return ydoc_type_error(name, key, node, what, err);
	if (neg)
		v = -v;
	if (v < min || v > max)
		return ydoc_type_error(name, key, node, what, err);
	*out = v;
	return 0;
}

/* Decimal text only: no hex, inf or nan, which strtod would take. */
static int
ydoc_is_decimal(const char *s)
{
	int digits = 0;

	if (*s == '-' || *s == '+')
		s++;
	for (; *s >= '0' && *s <= '9'; s++)
		digits++;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			digits++;
	if (digits == 0)
		return 0;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '-' || *s == '+')
			s++;
		if (*s < '0' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return *s == '\0';
}

int
ydoc_num(const char *name, const char *key, const struct ydoc_node *node, const char *what,
    double lo, int lo_open, double hi, int hi_open, double *out, struct gs_error *err)
{
	double v;

	if (node->type != YDOC_SCALAR || ydoc_is_null(node) || !ydoc_is_decimal(node->value))
		return ydoc_type_error(name, key, node, what, err);
	errno = 0;
	v = strtod(node->value, NULL);
	if (!isfinite(v) || (lo_open ? v <= lo : v < lo) || (hi_open ? v >= hi : v > hi))
		return ydoc_type_error(name, key, node, what, err);
	*out = v;
	return 0;
}

int
ydoc_bool(const char *name, const char *key, const struct ydoc_node *node, int *out,
    struct gs_error *err)
{
	if (node->type == YDOC_SCALAR && node->plain) {
		if (strcmp(node->value, "true") == 0) {
			*out = 1;
			return 0;
		}
		if (strcmp(node->value, "false") == 0) {
			*out = 0;
			return 0;
		}
	}
	return ydoc_type_error(name, key, node, "true or false", err);
}

int
ydoc_choice(const char *name, const char *key, const struct ydoc_node *node,
    const char *const *words, int *out, struct gs_error *err)
{
	char what[128];
	size_t o = 0;
	int i, n;

	for (n = 0; words[n] != NULL; n++)
		if (node->type == YDOC_SCALAR && node->plain && strcmp(node->value, words[n]) == 0) {
			*out = n;
			return 0;
		}
	for (i = 0; i < n && o < sizeof what; i++)
		o += (size_t)snprintf(what + o, sizeof what - o, "%s%s",
		    i == 0 ? "" : i == n - 1 ? " or " : ", ", words[i]);
	return ydoc_type_error(name, key, node, what, err);
}

int
ydoc_str(const char *name, const char *key, const struct ydoc_node *node, const char **out,
    struct gs_error *err)
{
	if (node->type != YDOC_SCALAR || ydoc_is_null(node))
		return ydoc_type_error(name, key, node, "a string", err);
	*out = node->value;
	return 0;
}

int
ydoc_want(const char *name, const char *key, const struct ydoc_node *node,
    enum ydoc_type type, struct gs_error *err)
{
	if (node->type == type)
		return 0;
	return ydoc_type_error(name, key, node, type == YDOC_MAP ? "a mapping" :
	    type == YDOC_SEQ ? "a list" : "a single value", err);
}
