/*
 * expr.c — the requirements language (expr.h): a tokenizer and a recursive-descent parser
 * (our own small language, so a hand-written parser is the simplest correct tool), type
 * checks at parse time, and evaluation that names the clause that failed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broker/expr.h"
#include "common/suggest.h"
#include "common/xmalloc.h"

/* Deeper nesting is refused rather than risking the stack on hostile input. */
#define EXPR_MAX_DEPTH	64

enum expr_type { TYPE_NUM, TYPE_STR };

enum expr_field {
	F_HOST, F_SITE, F_ARCH, F_CPU_MHZ, F_CORES, F_SLOTS, F_MEM_MB, F_LOAD1, F_COUNT
};

static const char *const expr_field_names[] = {
	"host", "site", "arch", "cpu_mhz", "cores", "slots", "mem_mb", "load1", NULL
};

static const enum expr_type expr_field_types[] = {
	TYPE_STR, TYPE_STR, TYPE_STR, TYPE_NUM, TYPE_NUM, TYPE_NUM, TYPE_NUM, TYPE_NUM
};

enum tok_kind {
	T_END, T_IDENT, T_NUM, T_STR, T_CMP, T_AND, T_OR, T_NOT, T_LPAREN, T_RPAREN
};

enum cmp_op { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };

static const char *const expr_op_names[] = { "==", "!=", "<", "<=", ">", ">=" };

struct token {
	enum tok_kind kind;
	size_t start, end;	/* byte offsets in the text */
	double num;
	char *str;		/* T_STR: the unescaped value; T_IDENT: the name */
	enum cmp_op op;
};

struct operand {
	int is_field;
	enum expr_field field;
	enum expr_type type;
	double num;
	char *str;
};

enum node_kind { N_OR, N_AND, N_NOT, N_CMP };

struct enode {
	enum node_kind kind;
	size_t start, end;	/* the clause's text, parentheses included */
	struct enode *left, *right;	/* N_OR, N_AND: both; N_NOT: left */
	struct operand a, b;	/* N_CMP */
	enum cmp_op op;
};

struct expr {
	char *text;
	struct enode *root;
};

struct parser {
	const char *text;
	size_t pos;
	struct token tok;	/* the current token */
	int depth;
	int failed;
	struct expr_error *err;
};

static void parser_next(struct parser *);

static void
parser_error(struct parser *p, size_t at, const char *fmt, ...)
{
	va_list ap;

	if (p->failed)
		return;
	p->failed = 1;
	p->err->col = (int)at + 1;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
	va_end(ap);
}

static int
is_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
is_ident_char(int c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* A decimal number: -?digits[.digits][e[+-]digits]; no hex, inf or nan (strtod takes them). */
static void
parser_number(struct parser *p)
{
	const char *s = p->text;
	size_t i = p->pos, digits = 0;
	char buf[64];

	if (s[i] == '-')
		i++;
	while (is_digit((unsigned char)s[i])) {
		i++;
		digits++;
	}
	if (s[i] == '.') {
		i++;
		while (is_digit((unsigned char)s[i])) {
			i++;
			digits++;
		}
	}
	if (digits > 0 && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1;

		if (s[j] == '+' || s[j] == '-')
			j++;
		if (is_digit((unsigned char)s[j])) {
			while (is_digit((unsigned char)s[j]))
				j++;
			i = j;
		}
	}
	if (digits == 0 || is_ident_char((unsigned char)s[i]) || s[i] == '.' ||
	    i - p->pos >= sizeof buf) {
		while (is_ident_char((unsigned char)s[i]) || s[i] == '.')
			i++;
		parser_error(p, p->pos, "bad number '%.*s'", (int)(i - p->pos), s + p->pos);
		return;
	}
	memcpy(buf, s + p->pos, i - p->pos);
	buf[i - p->pos] = '\0';
	p->tok.kind = T_NUM;
	p->tok.num = strtod(buf, NULL);
	p->pos = i;
}

/* A double-quoted string with \" and \\ as its only escapes. */
static void
parser_string(struct parser *p)
{
	const char *s = p->text;
	size_t i = p->pos + 1, n = 0;
	char *out;

	out = xmalloc(strlen(s + i) + 1);
	for (;;) {
		unsigned char c = s[i];

		if (c == '\0' || c == '\n' || c == '\r') {
			parser_error(p, p->pos, "unterminated string");
			free(out);
			return;
		}
		if (c == '"')
			break;
		if (c == '\\') {
			if (s[i + 1] != '"' && s[i + 1] != '\\') {
				parser_error(p, i, "unknown escape '\\%c' (only \\\" and \\\\)",
				    s[i + 1] != '\0' ? s[i + 1] : ' ');
				free(out);
				return;
			}
			i++;
			c = s[i];
		}
		out[n++] = c;
		i++;
	}
	out[n] = '\0';
	p->tok.kind = T_STR;
	p->tok.str = out;
	p->pos = i + 1;
}

static void
parser_next(struct parser *p)
{
	const char *s = p->text;
	unsigned char c;

	free(p->tok.str);
	p->tok.str = NULL;
	if (p->failed) {
		p->tok.kind = T_END;
		return;
	}
	while (s[p->pos] == ' ' || s[p->pos] == '\t' || s[p->pos] == '\n' || s[p->pos] == '\r')
		p->pos++;
	p->tok.start = p->pos;
	c = s[p->pos];
	if (c == '\0') {
		p->tok.kind = T_END;
	} else if (is_ident_start(c)) {
		size_t i = p->pos;

		while (is_ident_char((unsigned char)s[i]))
			i++;
		p->tok.kind = T_IDENT;
		p->tok.str = xstrndup(s + p->pos, i - p->pos);
		p->pos = i;
	} else if (is_digit(c) || c == '.' || (c == '-' &&
	    (is_digit((unsigned char)s[p->pos + 1]) || s[p->pos + 1] == '.'))) {
		parser_number(p);
	} else if (c == '"') {
		parser_string(p);
	} else if (c == '\'') {
		parser_error(p, p->pos, "strings are written in double quotes");
	} else if (c == '(' || c == ')') {
		p->tok.kind = c == '(' ? T_LPAREN : T_RPAREN;
		p->pos++;
	} else if (c == '&' || c == '|') {
		if (s[p->pos + 1] != c) {
			parser_error(p, p->pos, "'%c' is not an operator (did you mean '%c%c'?)",
			    c, c, c);
		} else {
			p->tok.kind = c == '&' ? T_AND : T_OR;
			p->pos += 2;
		}
	} else if (c == '=' || c == '!' || c == '<' || c == '>') {
		int eq = s[p->pos + 1] == '=';

		if (c == '=' && !eq) {
			parser_error(p, p->pos, "'=' is not an operator (did you mean '=='?)");
		} else if (c == '!' && !eq) {
			p->tok.kind = T_NOT;
			p->pos++;
		} else {
			p->tok.kind = T_CMP;
			if (c == '=')
				p->tok.op = OP_EQ;
			else if (c == '!')
				p->tok.op = OP_NE;
			else if (c == '<')
				p->tok.op = eq ? OP_LE : OP_LT;
			else
				p->tok.op = eq ? OP_GE : OP_GT;
			p->pos += eq ? 2 : 1;
		}
	} else if (c < 0x20 || c >= 0x7f) {
		parser_error(p, p->pos, "unexpected byte 0x%02x", c);
	} else {
		parser_error(p, p->pos, "unexpected '%c'", c);
	}
	p->tok.end = p->pos;
	if (p->failed)
		p->tok.kind = T_END;
}

static void
enode_free(struct enode *n)
{
	if (n == NULL)
		return;
	enode_free(n->left);
	enode_free(n->right);
	free(n->a.str);
	free(n->b.str);
	free(n);
}

/* The description of the current token for "expected X, found Y" messages. */
static void
parser_found(struct parser *p, char *buf, size_t len)
{
	size_t n = p->tok.end - p->tok.start;

	if (p->tok.kind == T_END)
		snprintf(buf, len, "the end");
	else
		snprintf(buf, len, "'%.*s'", n > 40 ? 40 : (int)n, p->text + p->tok.start);
}

static int
parser_operand(struct parser *p, struct operand *o)
{
	char found[64];
	int i;

	switch (p->tok.kind) {
	case T_NUM:
		o->type = TYPE_NUM;
		o->num = p->tok.num;
		break;
	case T_STR:
		o->type = TYPE_STR;
		o->str = p->tok.str;
		p->tok.str = NULL;
		break;
	case T_IDENT:
		for (i = 0; expr_field_names[i] != NULL; i++)
			if (strcmp(p->tok.str, expr_field_names[i]) == 0)
				break;
		if (expr_field_names[i] == NULL) {
			const char *guess;

			if (strcmp(p->tok.str, "and") == 0 || strcmp(p->tok.str, "or") == 0 ||
			    strcmp(p->tok.str, "not") == 0) {
				parser_error(p, p->tok.start, "unknown field '%s' (write '%s')",
				    p->tok.str, p->tok.str[0] == 'a' ? "&&" :
				    p->tok.str[0] == 'o' ? "||" : "!");
				return -1;
			}
			guess = suggest_closest(p->tok.str, expr_field_names);
			if (guess != NULL)
				parser_error(p, p->tok.start,
				    "unknown field '%s' (did you mean '%s'?)", p->tok.str, guess);
			else
				parser_error(p, p->tok.start, "unknown field '%s' (fields: host, "
				    "site, arch, cpu_mhz, cores, slots, mem_mb, load1)", p->tok.str);
			return -1;
		}
		o->is_field = 1;
		o->field = (enum expr_field)i;
		o->type = expr_field_types[i];
		break;
	default:
		parser_found(p, found, sizeof found);
		parser_error(p, p->tok.start, "expected a field, a number or a string, found %s",
		    found);
		return -1;
	}
	parser_next(p);
	return p->failed ? -1 : 0;
}

static const char *
operand_describe(const struct operand *o, char *buf, size_t len)
{
	if (o->is_field)
		snprintf(buf, len, "'%s' (a %s)", expr_field_names[o->field],
		    o->type == TYPE_NUM ? "number" : "string");
	else if (o->type == TYPE_NUM)
		snprintf(buf, len, "the number %g", o->num);
	else
		snprintf(buf, len, "the string \"%.40s\"", o->str);
	return buf;
}

static struct enode *parser_or(struct parser *);

static struct enode *
parser_cmp(struct parser *p)
{
	struct enode *n;
	char found[64], da[80], db[80];
	size_t opat, bat;

	n = xcalloc(1, sizeof *n);
	n->kind = N_CMP;
	n->start = p->tok.start;
	if (parser_operand(p, &n->a) == -1)
		goto fail;
	if (p->tok.kind != T_CMP) {
		parser_found(p, found, sizeof found);
		parser_error(p, p->tok.start, "expected a comparison (==, !=, <, <=, >, >=) "
		    "after '%.*s', found %s", (int)(p->tok.start - n->start),
		    p->text + n->start, found);
		goto fail;
	}
	n->op = p->tok.op;
	opat = p->tok.start;
	parser_next(p);
	bat = p->tok.start;
	n->end = p->tok.end;
	if (parser_operand(p, &n->b) == -1)
		goto fail;
	/* Types are checked here, so a bad requirement fails before any node is looked at. */
	if (n->a.type != n->b.type) {
		parser_error(p, bat, "cannot compare %s with %s",
		    operand_describe(&n->a, da, sizeof da), operand_describe(&n->b, db, sizeof db));
		goto fail;
	}
	if (n->a.type == TYPE_STR && n->op != OP_EQ && n->op != OP_NE) {
		parser_error(p, opat, "'%s' compares numbers, and %s is a string (use == or !=)",
		    expr_op_names[n->op], operand_describe(n->a.is_field ? &n->a : &n->b, da,
		    sizeof da));
		goto fail;
	}
	return n;
fail:
	enode_free(n);
	return NULL;
}

static struct enode *
parser_unary(struct parser *p)
{
	struct enode *n, *inner;
	size_t start = p->tok.start;
	char found[64];

	if (++p->depth > EXPR_MAX_DEPTH) {
		parser_error(p, start, "nesting deeper than %d", EXPR_MAX_DEPTH);
		return NULL;
	}
	if (p->tok.kind == T_NOT) {
		parser_next(p);
		if ((inner = parser_unary(p)) == NULL)
			return NULL;
		n = xcalloc(1, sizeof *n);
		n->kind = N_NOT;
		n->left = inner;
		n->start = start;
		n->end = inner->end;
	} else if (p->tok.kind == T_LPAREN) {
		parser_next(p);
		if ((n = parser_or(p)) == NULL)
			return NULL;
		if (p->tok.kind != T_RPAREN) {
			parser_found(p, found, sizeof found);
			parser_error(p, p->tok.start, "expected ')' to close the '(' at column "
			    "%zu, found %s", start + 1, found);
			enode_free(n);
			return NULL;
		}
		/* The clause's text keeps its parentheses: "(a || b)" reads better. */
		n->start = start;
		n->end = p->tok.end;
		parser_next(p);
	} else {
		n = parser_cmp(p);
	}
	p->depth--;
	return n;
}

static struct enode *
parser_binary(struct parser *p, enum node_kind kind)
{
	struct enode *left, *right, *n;
	enum tok_kind tk = kind == N_OR ? T_OR : T_AND;

	left = kind == N_OR ? parser_binary(p, N_AND) : parser_unary(p);
	if (left == NULL)
		return NULL;
	while (p->tok.kind == tk) {
		parser_next(p);
		right = kind == N_OR ? parser_binary(p, N_AND) : parser_unary(p);
		if (right == NULL) {
			enode_free(left);
			return NULL;
		}
		n = xcalloc(1, sizeof *n);
		n->kind = kind;
		n->left = left;
		n->right = right;
		n->start = left->start;
		n->end = right->end;
		left = n;
	}
	return left;
}

static struct enode *
parser_or(struct parser *p)
{
	return parser_binary(p, N_OR);
}

struct expr *
expr_parse(const char *text, struct expr_error *err)
{
	struct parser p;
	struct enode *root;
	struct expr *e;
	char found[64];

	memset(&p, 0, sizeof p);
	memset(err, 0, sizeof *err);
	p.text = text;
	p.err = err;
	parser_next(&p);
	if (p.tok.kind == T_END && !p.failed) {
		parser_error(&p, p.tok.start, "empty expression");
		return NULL;
	}
	root = parser_or(&p);
	if (root != NULL && p.tok.kind != T_END) {
		parser_found(&p, found, sizeof found);
		parser_error(&p, p.tok.start, "expected '&&', '||' or the end, found %s", found);
	}
	free(p.tok.str);
	if (p.failed) {
		enode_free(root);
		return NULL;
	}
	e = xmalloc(sizeof *e);
	e->text = xstrdup(text);
	e->root = root;
	return e;
}

void
expr_free(struct expr *e)
{
	if (e == NULL)
		return;
	enode_free(e->root);
	free(e->text);
	free(e);
}

/* --- evaluation */

static const char *
field_str(enum expr_field f, const struct gs_sites *sites, const struct gs_node *n)
{
	switch (f) {
	case F_HOST:
		return n->host != NULL ? n->host : "";
	case F_SITE:
		if (n->site >= 0 && (size_t)n->site < sites->nsites &&
		    sites->sites[n->site].name != NULL)
			return sites->sites[n->site].name;
		return "";
	case F_ARCH:
		return n->arch != NULL ? n->arch : "";
	default:
		return "";
	}
}

/*
 * Requirements describe the node as its site file does (cpu_mhz, cores: the hardware), so a
 * node does not pass or fail with its CPU governor; load1 is the live value (0 when the
 * node has no metrics).
 */
static double
field_num(enum expr_field f, const struct gs_node *n)
{
	switch (f) {
	case F_CPU_MHZ:
		return n->cpu_mhz;
	case F_CORES:
		return n->cores;
	case F_SLOTS:
		return n->slots;
	case F_MEM_MB:
		return n->mem_mb;
	case F_LOAD1:
		return n->have_metrics ? n->load1 : 0;
	default:
		return 0;
	}
}

static int
cmp_eval(const struct enode *e, const struct gs_sites *sites, const struct gs_node *n)
{
	if (e->a.type == TYPE_STR) {
		const char *a, *b;
		int eq;

		a = e->a.is_field ? field_str(e->a.field, sites, n) : e->a.str;
		b = e->b.is_field ? field_str(e->b.field, sites, n) : e->b.str;
		eq = strcmp(a, b) == 0;
		return e->op == OP_EQ ? eq : !eq;
	} else {
		double a, b;

		a = e->a.is_field ? field_num(e->a.field, n) : e->a.num;
		b = e->b.is_field ? field_num(e->b.field, n) : e->b.num;
		switch (e->op) {
		case OP_EQ:
			return a == b;
		case OP_NE:
			return a != b;
		case OP_LT:
			return a < b;
		case OP_LE:
			return a <= b;
		case OP_GT:
			return a > b;
		case OP_GE:
			return a >= b;
		}
	}
	return 0;
}

/* Evaluate; on failure *failed is the smallest failing clause (see expr.h). */
static int
enode_eval(const struct enode *e, const struct gs_sites *sites, const struct gs_node *n,
    const struct enode **failed)
{
	switch (e->kind) {
	case N_AND:
		if (!enode_eval(e->left, sites, n, failed))
			return 0;
		return enode_eval(e->right, sites, n, failed);
	case N_OR:
		if (enode_eval(e->left, sites, n, failed) ||
		    enode_eval(e->right, sites, n, failed))
			return 1;
		break;
	case N_NOT:
		if (!enode_eval(e->left, sites, n, failed))
			return 1;
		break;
	case N_CMP:
		if (cmp_eval(e, sites, n))
			return 1;
		break;
	}
	*failed = e;
	return 0;
}

/* The fields a clause reads, in order of first appearance. */
static void
enode_fields(const struct enode *e, int *seen, enum expr_field *order, int *n)
{
	if (e == NULL)
		return;
	if (e->kind == N_CMP) {
		const struct operand *ops[2] = { &e->a, &e->b };
		int i;

		for (i = 0; i < 2; i++)
			if (ops[i]->is_field && !seen[ops[i]->field]) {
				seen[ops[i]->field] = 1;
				order[(*n)++] = ops[i]->field;
			}
		return;
	}
	enode_fields(e->left, seen, order, n);
	enode_fields(e->right, seen, order, n);
}

static char *
expr_why(const struct expr *x, const struct enode *e, const struct gs_sites *sites,
    const struct gs_node *n)
{
	int seen[F_COUNT] = { 0 };
	enum expr_field order[F_COUNT];
	int nf = 0, i;
	size_t len, cap;
	char *buf;

	enode_fields(e, seen, order, &nf);
	cap = (e->end - e->start) + 64 + (size_t)nf * 64;
	for (i = 0; i < nf; i++)
		if (expr_field_types[order[i]] == TYPE_STR)
			cap += strlen(field_str(order[i], sites, n));
	buf = xmalloc(cap);
	len = (size_t)snprintf(buf, cap, "%.*s", (int)(e->end - e->start), x->text + e->start);
	for (i = 0; i < nf; i++) {
		enum expr_field f = order[i];
		const char *name = expr_field_names[f];

		len += (size_t)snprintf(buf + len, cap - len, "%s", i == 0 ? " (" : ", ");
		if (f == F_ARCH && n->arch == NULL)
			len += (size_t)snprintf(buf + len, cap - len, "arch is unset");
		else if (f == F_LOAD1 && !n->have_metrics)
			len += (size_t)snprintf(buf + len, cap - len, "load1 is unknown, taken as 0");
		else if (expr_field_types[f] == TYPE_STR)
			len += (size_t)snprintf(buf + len, cap - len, "%s is \"%s\"", name,
			    field_str(f, sites, n));
		else
			len += (size_t)snprintf(buf + len, cap - len, "%s is %g", name,
			    field_num(f, n));
	}
	if (nf > 0)
		snprintf(buf + len, cap - len, ")");
	return buf;
}

int
expr_eval(const struct expr *e, const struct gs_sites *sites, const struct gs_node *n,
    char **why)
{
	const struct enode *failed = NULL;

	if (why != NULL)
		*why = NULL;
	if (enode_eval(e->root, sites, n, &failed))
		return 1;
	if (why != NULL)
		*why = expr_why(e, failed, sites, n);
	return 0;
}
