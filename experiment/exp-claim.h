/*
 * exp-claim.h — the claims of an experiment file (doc/experiments.md, "Claims"): a
 * paper's statement in a form the experiment checks (the lowest, the highest, below, a
 * ratio of medians within a bound, a gap that grows, the minimum of a sweep), loaded and
 * checked with the rest of the file (exp-claim-load.c), evaluated over the done runs with
 * a stated test (exp-claim-eval.c: one-sided Mann-Whitney U with Holm's correction, a
 * seeded bootstrap interval) into holds, fails or not separable, and written into the
 * reports and the reproduction document (exp-claim-out.c).
 */
#ifndef GS_EXP_CLAIM_H
#define GS_EXP_CLAIM_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "broker/errsink.h"
#include "experiment/exp-report.h"
#include "experiment/exp.h"

#define EXP_CLAIM_ALPHA		0.05	/* the family's level, after Holm */
#define EXP_CLAIM_MIN_RUNS	3	/* runs per group below which nothing holds */

enum exp_claim_form {
	EXP_CLAIM_LOWEST,	/* {p: v}: v's runs below those of every other value of p */
	EXP_CLAIM_HIGHEST,	/* the same, above */
	EXP_CLAIM_MINIMUM_AT,	/* a sweep's minimum: evaluated as lowest */
	EXP_CLAIM_BELOW,	/* [A, B]: A's runs below B's */
	EXP_CLAIM_RATIO,	/* [A, B]: median(A) / median(B) at most or at least a bound */
	EXP_CLAIM_GAP_GROWS	/* [A, B]: B below A, the relative gap growing with over */
};

/* The forms' keys in the file, by enum exp_claim_form. */
extern const char *const exp_claim_forms[];

struct exp_claim {
	char *id, *says, *paper;
	char *note;		/* why testbed and simulation differ, or NULL */
	char *metric;		/* default the report's value metric */
	int line;		/* of the claim in the file, for messages */
	enum exp_claim_form form;
	/* where: per parameter NULL (any value) or one byte per value, 1 when kept */
	unsigned char **where;
	unsigned char *per;	/* per parameter: 1 when checked at each value */
	int param, value;	/* lowest, highest, minimum_at: the parameter and value index */
	int *group[2];		/* below, ratio, gap_grows: per parameter a value index, or -1 */
	int over;		/* gap_grows: the numeric parameter the gap grows with */
	double bound;		/* ratio: at_most or at_least */
	int at_least;		/* ratio: 1 at_least, 0 at_most */
	int by_mode;		/* 1: evaluated once per value of mode */
};

/*
 * claims: (the node n, a list) into e->claims, each mistake kept in sink at its line and
 * column: unknown keys (did you mean), a missing or malformed id, says or paper, an id
 * twice, parameters and values the matrix lacks, an unknown metric, not exactly one form,
 * at_most/at_least without ratio, over without gap_grows or over a parameter that is not
 * numeric. Needs e's parameters, metrics and report table loaded.
 */
void exp_claims_load(struct gs_errsink *sink, struct exp *e, const struct ydoc_node *n);
void exp_claims_free(struct exp *e);

enum exp_verdict {
	EXP_HOLDS,
	EXP_FAILS,
	EXP_NOT_SEPARABLE
};

/* The verdicts' words, by enum exp_verdict: "holds", "fails", "not separable". */
extern const char *const exp_verdict_names[];

/* A group of runs a claim compared: its label ("scheme=pwd size=64"), n, median, interval. */
struct exp_claim_group {
	char *label;
	size_t n;
	double median;
	double lo, hi;		/* the bootstrap 95% interval of the median; NaN when n == 0 */
};

/* One evaluation of a claim: once, or once per mode. */
struct exp_claim_result {
	const struct exp_claim *claim;
	const char *mode;	/* the mode of its runs, or NULL (no mode, or several) */
	enum exp_verdict verdict;
	size_t n;		/* the smallest group's runs */
	const char *test;	/* the test, in words */
	double p;		/* the deciding p-value (Holm-adjusted), NaN when none */
	char *summary;		/* the verdict line's explanation */
	char *detail;		/* the comparison that decided */
	struct exp_claim_group *groups;
	size_t ngroups;
};

/*
 * Every claim of r's experiment, over r's done runs (pending and failed ones left out):
 * an array (NULL when there is no claim) of *n results, in the file's order, a claim by
 * mode in the order of mode's values. seed drives the bootstrap (with each claim's id).
 */
struct exp_claim_result *exp_claims_eval(const struct exp_report *r, size_t *n);
void exp_claim_results_free(struct exp_claim_result *res, size_t n);

/* "pwd-best (simulate): holds — Mann-Whitney U, each p <= 0.002 (Holm), n=20" (allocated). */
char *exp_claim_line(const struct exp_claim_result *c);

/* results.json's "claims" array. */
json_t *exp_claims_json(const struct exp_claim_result *res, size_t n);

/* summary.md's "Claims" section (nothing when there is no claim). */
void exp_claims_markdown(FILE *f, const struct exp_claim_result *res, size_t n);

/*
 * The reproduction document's section of one experiment (exp_repro): per claim a row with
 * the paper's figure, the testbed's and the simulation's groups, the verdict per mode, and
 * the claim's note as "why they differ".
 */
void exp_claims_repro(FILE *f, const struct exp_report *r);

#endif
