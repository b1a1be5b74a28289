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

struct gs_errsink;

#define EXP_MAX_POINTS	100000	/* points x repeat; more is surely a mistake */
#define EXP_MAX_REPEAT	10000

/* What a parameter of the matrix sets. */
enum exp_target {
	EXP_JOB_KEY,		/* a top-level key of the job file (ranks, sites, rank_weights) */
	EXP_RUNTIME_KEY,	/* a runtime: key (scheme, swr, k, alpha, ...) */
	EXP_SITE_KEY,		/* a key of the site file: emulate: or link: (exp-site.c) */
	EXP_SIM_KEY,		/* an option of simulate, for simulated points (exp-sim.c) */
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
	int repeat;		/* runs per point; with repeat_mode, the largest */
	int repeat_mode[3];	/* repeat: {MODE: N}: runs per point by enum exp_mode, or 0 */
	size_t nruns;		/* the runs of every point (exp_point_repeat added up) */
	size_t *run_first;	/* point p's runs are nruns' [run_first[p], run_first[p + 1]) */
	size_t *site_group;	/* per point: the first point with its site parameters' values */
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
 * The point's parameters of one target as "load=0.5 latency_ms=3" (EXP_SITE_KEY) or
 * "host_mhz=500" (EXP_SIM_KEY); "" when it has none (allocated).
 */
char *exp_point_settings(const struct exp *e, size_t point, enum exp_target target);

/*
 * The same value as JSON, typed as the file wrote it: a plain scalar that YAML reads as a
 * number (3, 0.5, 1e6) a number, a plain true or false a boolean, a plain null, ~ or
 * nothing null, any other scalar a string, a list or map the same of its items. NULL when
 * out of memory.
 */
json_t *exp_point_json(const struct exp *e, size_t point, size_t param);

/* The index of the parameter called name, or -1. */
int exp_param_find(const struct exp *e, const char *name);
/* A value node as text: a scalar as it is, a list or mapping as compact JSON (exp-load.c). */
char *exp_value_text(const struct ydoc_node *n);

/* The mode of point p's runs (EXP_MODE_RUN without a mode parameter). */
enum exp_mode exp_point_mode(const struct exp *e, size_t point);

/* 1 when some point of e is not simulated (its runs need the real nodes, or a testbed). */
int exp_has_real_points(const struct exp *e);

/*
 * repeat: (node n, or NULL: 1) into e: a number, or a mapping of modes to numbers, each
 * mistake kept in sink; e->nruns and e->run_first from it (exp-repeat.c).
 */
void exp_repeat_load(struct exp *e, struct gs_errsink *sink, const struct ydoc_node *n);

/* The runs of point p: repeat:, or repeat:'s count for the point's mode. */
int exp_point_repeat(const struct exp *e, size_t point);

/* repeat: as text: "5", or "testbed 5, simulate 20" (allocated). */
char *exp_repeat_label(const struct exp *e);

/* Run r (0-based, of e->nruns) is of point *point, its repetition *rep (from 1). */
void exp_run_point(const struct exp *e, size_t r, size_t *point, int *rep);

/*
 * The runs of e in the order they run, from seed (exp-order.c): order[i] is the i-th run's
 * index r (exp_run_point), shuffled when e->random_order, and seeds[i] its {seed}; both
 * arrays hold e->nruns entries. With site parameters the runs of the points that share
 * their values run together, each group where its first run fell (exp-site.c: a testbed
 * is brought up once per group).
 */
void exp_run_order(const struct exp *e, uint64_t seed, size_t *order, uint64_t *seeds);

/*
 * Site parameters (exp-site.c): the keys of a site file a parameter may set, laid over
 * every node's emulate: (load, load_interval, cpu_scale) or every site's link:
 * (bandwidth_mbps, latency_ms), or over the sites a mapping names ({tiger-a: 0.5}).
 * exp_site_param: 1 when name is one. exp_site_check: every value checked, each error at
 * the value in the experiment file (sink), the names of sites against e->sites (or the
 * embedded site file); e->site_group filled. exp_site_has: 1 when e has one.
 * exp_site_write: the site file in with point's parameters laid over it, written
 * whole to dir/name; 0, or -1 with why.
 */
int exp_site_param(const char *name);
int exp_site_check(struct exp *e, struct gs_errsink *sink);
int exp_site_has(const struct exp *e);
int exp_site_write(const struct exp *e, size_t point, const char *in, const char *dir,
    const char *name, char *why, size_t whylen);

/*
 * Simulate's options as parameters (exp-sim.c): links, host_mhz, first_contact_ms and cfg
 * (a NAME:VALUE or a list of them), for simulated points; a point of another mode ignores
 * them. exp_sim_param: 1 when name is one. exp_sim_check: every value checked at its node
 * (sink); a simulate parameter in an experiment without a simulated point is an error.
 */
int exp_sim_param(const char *name);
int exp_sim_check(struct exp *e, struct gs_errsink *sink);

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
