/*
 * exp.h — scripted batch experiments (doc/experiments.md): an experiment file read into a
 * model, its points (the matrix's cross product, or zip's pairs) and runs, each point's
 * parameters as the overlay laid on the job file (job_load_file_overlay_errs), and the
 * metrics of a finished run read from its job directory.
 */
#ifndef GS_EXP_H
#define GS_EXP_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "broker/site.h"
#include "broker/yaml-doc.h"

#define EXP_MAX_POINTS	100000	/* points x repeat; more is surely a mistake */
#define EXP_MAX_REPEAT	10000

/* What a parameter of the matrix sets. */
enum exp_target {
	EXP_JOB_KEY,		/* a top-level key of the job file (ranks, sites, rank_weights) */
	EXP_RUNTIME_KEY,	/* a runtime: key (scheme, swr, k, alpha, ...) */
	EXP_FREE		/* a name used only as {name} in args, or mode (below) */
};

/*
 * What a run of a point is: the reserved parameter mode (doc/experiments.md, "Modes"),
 * run when the experiment has none. It sets nothing in the job (EXP_FREE, never laid
 * over the job file).
 */
enum exp_mode {
	EXP_MODE_RUN,		/* a real launch */
	EXP_MODE_TESTBED,	/* the same, on the experiment's testbed: (required) */
	EXP_MODE_SIMULATE	/* the job on SimGrid (gridsubmit simulate) */
};

/* The modes' names by enum exp_mode, NULL-terminated. */
extern const char *const exp_mode_names[];

struct exp_param {
	char *name;
	enum exp_target target;
	const struct ydoc_node *key;	/* in the experiment's tree, for errors */
	const struct ydoc_node **values;	/* the list's items (in the tree) */
	char **texts;		/* each value as text: a scalar's, or JSON for a collection */
	size_t nvalues;
};

/* A metric read from the program's standard output: the first group of regex. */
struct exp_metric {
	char *name;
	char *pattern;
	regex_t re;
};

struct exp_plot {
	char *x, *y, *series;	/* parameter, metric, parameter (or NULL: one series) */
	char *errorbars;	/* none, ci95, sd, minmax */
	char *file;		/* fig6.png: the base name's images and files */
};

struct exp_claim;

struct exp_table {
	char *rows, *cols;	/* parameters (cols may be NULL) */
	char *value;		/* a metric, default makespan */
	char *stat;		/* median, mean, min, max, sd, n */
};

struct exp {
	char *path;		/* the experiment file, absolute */
	char *name;		/* names the results directory */
	char *job;		/* the job file, absolute */
	char *sites;		/* a site file, absolute, or NULL: the embedded default */
	int testbed;		/* 1: sites is brought up as a testbed for the experiment */
	int zip;		/* 1: zip: (pairs), 0: matrix: (cross product) */
	struct exp_param *params;
	size_t nparams;
	int mode_param;		/* the index of the parameter mode, or -1: every point runs */
	size_t npoints;
	const struct ydoc_node *args;	/* the args template, or NULL: the job's own */
	int repeat;
	int random_order;	/* order: random (default) or sequential */
	int have_seed;
	uint64_t seed;		/* seed: given, else chosen at the first run and stored */
	char **baseline_keys;	/* baseline: parameter = value (as text) */
	char **baseline_vals;
	size_t nbaseline;
	struct exp_metric *metrics;
	size_t nmetrics;
	struct exp_table table;
	struct exp_plot *plots;
	size_t nplots;
	struct exp_claim *claims;	/* claims: (exp-claim.h), in the file's order */
	size_t nclaims;
	char hash[17];		/* FNV-1a 64 of the file's bytes, hex: a changed file is refused */

	struct ydoc_node *root;	/* the parsed file: params and args point into it */
};

/*
 * Load and check an experiment file: keys, types, parameters (each a job key, a runtime
 * key or a {name} of args), {names} defined, baseline and report naming known parameters
 * and metrics, every point's job loadable with its overlay (so that a bad value is found
 * before the first run, located in the experiment file). Returns 0, or -1 with errs
 * (errlist.h): every error of the experiment file, in file order up to the cap, or, when
 * it has none, every error of the job file the first failing point loads.
 */
struct gs_errlist;
int exp_load_errs(const char *path, struct exp *e, struct gs_errlist *errs);
/*
 * The copy of an experiment file kept in its results directory (for report and show),
 * read as if it were orig: relative paths resolve against orig's directory, and the job
 * file need not exist any more (its points are not loaded). Errors as exp_load_errs.
 */
int exp_load_stored(const char *copy, const char *orig, struct exp *e,
    struct gs_errlist *errs);
void exp_free(struct exp *e);

/* Point p's value index of each parameter (npoints = product, or the zip length). */
size_t exp_point_index(const struct exp *e, size_t point, size_t param);

/* The text of parameter i at point p. */
const char *exp_point_text(const struct exp *e, size_t point, size_t param);

/*
 * The same value as JSON, typed as the file wrote it: a plain scalar that YAML reads as a
 * number (3, 0.5, 1e6) a number, a plain true or false a boolean, a plain null, ~ or
 * nothing null, any other scalar a string, a list or map the same of its items. NULL when
 * out of memory.
 */
json_t *exp_point_json(const struct exp *e, size_t point, size_t param);

/* The index of the parameter called name, or -1. */
int exp_param_find(const struct exp *e, const char *name);

/* The mode of point p's runs (EXP_MODE_RUN without a mode parameter). */
enum exp_mode exp_point_mode(const struct exp *e, size_t point);

/* 1 when some point of e is not simulated (its runs need the real nodes, or a testbed). */
int exp_has_real_points(const struct exp *e);

/*
 * The runs of e in the order they run, from seed (exp-order.c): order[i] is the i-th run's
 * index r (point r / repeat, repetition r % repeat + 1), shuffled when e->random_order, and
 * seeds[i] its {seed}; both arrays hold npoints x repeat entries.
 */
void exp_run_order(const struct exp *e, uint64_t seed, size_t *order, uint64_t *seeds);

/*
 * The overlay of a run of point p (seed: the run's, as {seed}; rep: as {rep}): a mapping
 * to lay over the job file, with args substituted. Free with ydoc_free.
 */
struct ydoc_node *exp_overlay(const struct exp *e, size_t point, int rep, uint64_t seed);

/*
 * The point that is p's baseline (p with the baseline's values), or (size_t)-1 when the
 * experiment has no baseline or no point matches.
 */
size_t exp_baseline_point(const struct exp *e, size_t point);

/* "scheme=gss size=64": the point's parameters, for progress lines. Allocated. */
char *exp_point_label(const struct exp *e, size_t point);

/* The built-in metrics of every run (doc/experiments.md, "Metrics"). */
extern const char *const exp_builtin_metrics[];

/*
 * Write len bytes to dir/name whole (the job store's atomic writer: temp, fsync,
 * rename). 0, or -1 with why naming the file (exp-file.c).
 */
int exp_write_file(const char *dir, const char *name, const void *buf, size_t len,
    char *why, size_t whylen);

/* FNV-1a 64 of len bytes, as 16 hex digits into out[17]. */
void exp_hash(const void *p, size_t len, char out[17]);

#endif
