/* test-expr.c — the requirements language: evaluation, failing clauses, parse errors. */
#include <stdlib.h>
#include <string.h>

#include "broker/expr.h"
#include "tests/tap.h"

static struct gs_site tsites[] = {
	{ "THU", 1000, 0.2, NULL, { NULL, 0, 0 } },
	{ "LZ", 100, 2, NULL, { NULL, 0, 0 } },
};

static struct gs_node tnodes[3];
static struct gs_sites tgrid;

static void
grid_init(void)
{
	memset(tnodes, 0, sizeof tnodes);
	tnodes[0].host = "delta1";
	tnodes[0].site = 0;
	tnodes[0].cpu_mhz = 3001;
	tnodes[0].cores = 1;
	tnodes[0].slots = 1;
	tnodes[0].mem_mb = 1024;
	tnodes[0].arch = "x86_64";
	tnodes[1].host = "lz01";
	tnodes[1].site = 1;
	tnodes[1].cpu_mhz = 898;
	tnodes[1].cores = 1;
	tnodes[1].slots = 1;
	tnodes[1].mem_mb = 256;
	tnodes[1].arch = NULL;
	tnodes[2].host = "lz02";
	tnodes[2].site = 1;
	tnodes[2].cpu_mhz = 898;
	tnodes[2].cores = 4;
	tnodes[2].slots = 4;
	tnodes[2].mem_mb = 2048;
	tnodes[2].arch = "aarch64";
	tnodes[2].have_metrics = 1;
	tnodes[2].load1 = 3.5;
	tgrid.sites = tsites;
	tgrid.nsites = 2;
	tgrid.nodes = tnodes;
	tgrid.nnodes = 3;
}

/* Evaluate text on node i; returns 1/0 and the failing clause in why (or "" when it passes). */
static int
eval(const char *text, int i, char *why, size_t len)
{
	struct expr_error err;
	struct expr *e;
	char *w = NULL;
	int rc;

	*why = '\0';
	if ((e = expr_parse(text, &err)) == NULL) {
		snprintf(why, len, "parse error %d: %s", err.col, err.msg);
		return -1;
	}
	rc = expr_eval(e, &tgrid, &tnodes[i], &w);
	if (w != NULL)
		snprintf(why, len, "%s", w);
	free(w);
	expr_free(e);
	return rc;
}

static void
check_eval(const char *text, int node, int want, const char *wantwhy)
{
	char why[512];
	int rc = eval(text, node, why, sizeof why);

	is_int(rc, want, "'%s' on %s is %d", text, tnodes[node].host, want);
	is_str(why, wantwhy, "'%s' on %s: failing clause", text, tnodes[node].host);
}

static void
check_error(const char *text, int col, const char *msg)
{
	struct expr_error err;
	struct expr *e;

	e = expr_parse(text, &err);
	ok(e == NULL, "'%s' does not parse", text);
	expr_free(e);
	is_int(err.col, col, "'%s': error column", text);
	is_str(err.msg, msg, "'%s': error message", text);
}

int
main(void)
{
	char deep[300];
	size_t i;

	grid_init();

	/* the example of gridsubmit-sites(5), REQUIREMENTS */
	check_eval("mem_mb >= 256 && arch == \"x86_64\"", 0, 1, "");
	check_eval("mem_mb >= 256 && arch == \"x86_64\"", 1, 0, "arch == \"x86_64\" (arch is unset)");
	check_eval("mem_mb >= 256 && arch == \"x86_64\"", 2, 0,
	    "arch == \"x86_64\" (arch is \"aarch64\")");
	check_eval("mem_mb >= 512", 1, 0, "mem_mb >= 512 (mem_mb is 256)");
	/* a && b: the operand that failed, even inside parentheses */
	check_eval("cores >= 1 && (mem_mb > 300 && cpu_mhz > 500)", 1, 0,
	    "mem_mb > 300 (mem_mb is 256)");
	/* a || b: the whole disjunction, parentheses kept, every field's value */
	check_eval("(mem_mb >= 512 || cores > 2) && site == \"LZ\"", 1, 0,
	    "(mem_mb >= 512 || cores > 2) (mem_mb is 256, cores is 1)");
	check_eval("(mem_mb >= 512 || cores > 2) && site == \"LZ\"", 0, 0,
	    "site == \"LZ\" (site is \"THU\")");
	check_eval("(mem_mb >= 512 || cores > 2) && site == \"LZ\"", 2, 1, "");
	/* ! is reported whole */
	check_eval("!(site == \"LZ\")", 1, 0, "!(site == \"LZ\") (site is \"LZ\")");
	check_eval("!(site == \"LZ\")", 0, 1, "");
	check_eval("!!(cores == 1)", 0, 1, "");
	/* && binds tighter than || */
	check_eval("site == \"LZ\" || site == \"THU\" && mem_mb > 2000", 1, 1, "");
	check_eval("site == \"LZ\" || site == \"THU\" && mem_mb > 2000", 0, 0,
	    "site == \"LZ\" || site == \"THU\" && mem_mb > 2000 (site is \"THU\", mem_mb is 1024)");
	/* load1: live when the node has metrics, else 0 */
	check_eval("load1 < 1", 2, 0, "load1 < 1 (load1 is 3.5)");
	check_eval("load1 < 1", 1, 1, "");
	check_eval("load1 > 0", 1, 0, "load1 > 0 (load1 is unknown, taken as 0)");
	/* numbers, literals on either side, fields on both sides */
	check_eval("cpu_mhz > 2.5e3", 0, 1, "");
	check_eval("cpu_mhz > 2.5e3", 1, 0, "cpu_mhz > 2.5e3 (cpu_mhz is 898)");
	check_eval("-1 < cores && 0.5 <= cores", 1, 1, "");
	check_eval("4 == cores", 1, 0, "4 == cores (cores is 1)");
	check_eval("cores == slots", 2, 1, "");
	check_eval("1 == 2", 0, 0, "1 == 2");
	check_eval("host != \"delta1\"", 0, 0, "host != \"delta1\" (host is \"delta1\")");
	check_eval("host != \"delta1\"", 1, 1, "");
	check_eval("arch == \"\"", 1, 1, "");
	check_eval("arch == \"a\\\"b\\\\\"", 1, 0, "arch == \"a\\\"b\\\\\" (arch is unset)");
	check_eval("  mem_mb>=256&&cores<=1  ", 1, 1, "");
	check_eval("cpu_mhz != 898 || mem_mb < 100 || cores > 1", 1, 0,
	    "cpu_mhz != 898 || mem_mb < 100 || cores > 1 (cpu_mhz is 898, mem_mb is 256, "
	    "cores is 1)");

	/* parse errors: column and message */
	check_error("", 1, "empty expression");
	check_error("   ", 4, "empty expression");
	check_error("mem_mbb >= 1", 1, "unknown field 'mem_mbb' (did you mean 'mem_mb'?)");
	check_error("cores > 1 && memory > 5", 14, "unknown field 'memory' (fields: host, site, "
	    "arch, cpu_mhz, cores, slots, mem_mb, load1)");
	check_error("arch < 5", 8, "cannot compare 'arch' (a string) with the number 5");
	check_error("5 == arch", 6, "cannot compare the number 5 with 'arch' (a string)");
	check_error("arch < \"x\"", 6, "'<' compares numbers, and 'arch' (a string) is a string "
	    "(use == or !=)");
	check_error("mem_mb = 5", 8, "'=' is not an operator (did you mean '=='?)");
	check_error("mem_mb >= 5 &", 13, "'&' is not an operator (did you mean '&&'?)");
	check_error("mem_mb >= 5 || ", 16, "expected a field, a number or a string, found the end");
	check_error("(mem_mb >= 5", 13, "expected ')' to close the '(' at column 1, found the end");
	check_error("arch == \"x86", 9, "unterminated string");
	check_error("arch == 'x86'", 9, "strings are written in double quotes");
	check_error("mem_mb", 7, "expected a comparison (==, !=, <, <=, >, >=) after 'mem_mb', "
	    "found the end");
	check_error("mem_mb >= 5 cores", 13, "expected '&&', '||' or the end, found 'cores'");
	check_error("mem_mb >= 512MB", 11, "bad number '512MB'");
	check_error("mem_mb >= 0x10", 11, "bad number '0x10'");
	check_error("mem_mb >= 1.2.3", 11, "bad number '1.2.3'");
	check_error("cores > 1 and cores < 4", 11, "expected '&&', '||' or the end, found 'and'");
	check_error("not cores > 1", 1, "unknown field 'not' (write '!')");
	check_error("cores > 1 )", 11, "expected '&&', '||' or the end, found ')'");
	check_error("cores >\x01 1", 8, "unexpected byte 0x01");
	check_error("arch == \"a\\nb\"", 11, "unknown escape '\\n' (only \\\" and \\\\)");
	check_error("cores > > 1", 9, "expected a field, a number or a string, found '>'");
	check_error("() ", 2, "expected a field, a number or a string, found ')'");
	for (i = 0; i < 100; i++)
		deep[i] = '(';
	strcpy(deep + 100, "cores > 1");
	check_error(deep, 65, "nesting deeper than 64");
	for (i = 0; i < 100; i++)
		deep[i] = '!';
	check_error(deep, 65, "nesting deeper than 64");

	return tap_done();
}
