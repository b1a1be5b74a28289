/*
 * expr.h — the requirements language of job files (gridsubmit-sites(5),
 * REQUIREMENTS):
 *
 *	expr    := and ( "||" and )*
 *	and     := unary ( "&&" unary )*
 *	unary   := "!" unary | "(" expr ")" | operand cmp operand
 *	cmp     := "==" | "!=" | "<" | "<=" | ">" | ">="
 *	operand := field | number | "double-quoted string"
 *
 * Fields: host, site, arch (strings); cpu_mhz, cores, slots, mem_mb, load1 (numbers).
 * Types are checked when parsing: strings compare only with == and !=, and never with
 * numbers; an unknown field gets a "did you mean". A node without an arch compares as "".
 */
#ifndef GS_EXPR_H
#define GS_EXPR_H

#include <stddef.h>

#include "broker/site.h"

struct expr;

struct expr_error {
	int col;		/* 1-based byte column in the expression text */
	char msg[256];		/* "unknown field 'mem_mbb' (did you mean 'mem_mb'?)" */
};

/* Parse text. Returns the tree, or NULL with err filled. */
struct expr *expr_parse(const char *text, struct expr_error *err);

/*
 * Evaluate e for node n of sites. Returns 1 when the node passes, 0 when it fails; then, if
 * why is not NULL, *why is an allocated string naming the smallest failing clause and the
 * node's values of its fields: "mem_mb >= 512 (mem_mb is 256)". For a && b that is the
 * operand that failed (recursively); a disjunction, a negation or a comparison is reported
 * whole.
 */
int expr_eval(const struct expr *e, const struct gs_sites *sites, const struct gs_node *n,
    char **why);

void expr_free(struct expr *e);

#endif
