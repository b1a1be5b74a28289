/*
 * job.h — job files (gridsubmit-sites(5), JOB FILES): what to run, where, and how
 * the runtime balances it.
 */
#ifndef GS_JOB_H
#define GS_JOB_H

#include <stddef.h>

#include "broker/site.h"

struct gs_kv {
	char *key;
	char *value;
};

struct gs_job {
	char *path;		/* the job file */
	char *name;		/* default: the file name without .yaml */
	char *program;		/* absolute path (relative ones resolved against the job file) */
	char **args;
	size_t nargs;
	int ranks;		/* MPI processes, the master included (>= 1) */
	int min_ranks;		/* accept fewer (down to this) when not enough nodes; = ranks */
	char **sites;		/* only these sites; NULL/0 = all */
	size_t nsites;
	char *requirements;	/* expression text, or NULL */
	double w1, w2;		/* rank_weights cpu, bandwidth; w1 + w2 = 1 (default 1, 0) */
	/* runtime: scheme and its parameters, passed to every rank as GRT_<KEY> */
	struct gs_kv *runtime;
	size_t nruntime;
	struct gs_kv *env;	/* environment for the program */
	size_t nenv;
	char **stage_in;	/* files relative to the job file */
	size_t nstage_in;
	char **stage_out;
	size_t nstage_out;
	int restarts;		/* relaunches after a failure (doc/restarts.md); default 3 */
	int lease_timeout;	/* seconds of silence on the lease that lose a node; 10 */
	int keep_journal;	/* 1: keep DIR/journal when the job is done (default: removed) */
	int oversubscribe;	/* 1: more ranks than slots may run (broker_place_job) */
	/*
	 * time_limit: the job's time on a Slurm site (sbatch --time), as Slurm takes it
	 * ("HH:MM:SS", ...; slurm_time_parse), or NULL: the site's scheduler: {time}.
	 */
	char *time_limit;
	struct gs_loc loc;
	/*
	 * Where the requirements text starts (its first character; after the quote of a quoted
	 * string), so that an expression error can name file:line:col+offset. line 0: no
	 * requirements, or a block scalar (| or >) whose offsets do not map to columns.
	 */
	struct gs_loc requirements_loc;
};

/*
 * Load a job file, or (_buffer) len bytes of buf named name. Returns 0, or -1 with every
 * error of the file in errs, as sites_load_file_errs() does: its keys and values, the
 * requirements expression (located where its mistake is) and, for a file read from disk,
 * what it names there, each located at its value: the program (job_program_check) and
 * every stage_in item that is not a file or a directory. A buffer's name need not be a
 * file, so nothing is looked for on disk for it.
 */
struct gs_errlist;
int job_load_file_errs(const char *path, struct gs_job *out, struct gs_errlist *errs);
int job_load_buffer_errs(const char *name, const char *buf, size_t len, struct gs_job *out,
    struct gs_errlist *errs);
/*
 * The same with the mapping overlay laid over the file's top level first (ydoc_merge), its
 * nodes' errors naming origin (and listed after the file's own): how an experiment sets a
 * run's parameters (args, runtime keys, ranks, ...) without a job file of its own, so that
 * the job file's relative paths keep their meaning. overlay NULL: job_load_file_errs.
 */
struct ydoc_node;
int job_load_file_overlay_errs(const char *path, const struct ydoc_node *overlay,
    const char *origin, struct gs_job *out, struct gs_errlist *errs);
/*
 * The same, with the site file the job goes with (NULL: none): each name of the job's
 * sites: that is none of known's is one of the file's errors, with "did you mean".
 */
int job_load_file_sites_errs(const char *path, const struct ydoc_node *overlay,
    const char *origin, const struct gs_sites *known, struct gs_job *out,
    struct gs_errlist *errs);
/*
 * A job from a document built in memory instead of read from a file (run -- PROGRAM: the
 * command line made into a job file's keys, each node's origin naming the option it came
 * from), named name, through the same checks as a file. Returns 0, or -1 with every
 * error in errs. doc is not changed.
 */
int job_load_doc_errs(const char *name, const struct ydoc_node *doc, struct gs_job *out,
    struct gs_errlist *errs);
void job_free(struct gs_job *job);

/*
 * 1 when s may name a job (name:, --name): JOB_NAME_WHAT, the words of its errors.
 */
#define JOB_NAME_WHAT	"a job name (at most 128 bytes, no '/' or control characters)"
int job_name_ok(const char *s);

/*
 * The name path gets in a job directory (a stage_in item, the program in a node's bin/):
 * its last component, trailing slashes dropped. Allocated.
 */
char *job_path_base(const char *path);

/*
 * job-files.c: where stage_in item i is read from, relative to the job file's directory
 * (an absolute item, which only the command line gives, as it is), trailing slashes
 * dropped (allocated); and, before a job is made, the check that every stage_in item
 * exists and is a file or a directory: 0, or -1 with why naming the first that is not
 * ("stage_in: PATH: No such file or directory").
 */
char *job_stage_in_source(const struct gs_job *job, size_t i);
int job_stage_in_check(const struct gs_job *job, char *why, size_t whylen);
/* The check of item i alone: 0, or -1 with why ("/jobs/in.dat: No such file or directory"). */
int job_stage_in_item_check(const struct gs_job *job, size_t i, char *why, size_t whylen);

/*
 * job-program.c: whether path (absolute) can be started as a job's program: it exists, is
 * a regular file that may be executed and starts as a program does (an ELF header or
 * "#!"). 0, or -1 with why calling it name, the path as the user gave it ("/tmp: is a
 * directory, not a program").
 */
int job_program_check(const char *path, const char *name, char *why, size_t whylen);
/* 1 when the file at path starts as something execve runs: an ELF header or "#!". */
int job_program_starts_as_one(const char *path);

/*
 * 1 when base is a name gridsubmit keeps in a job directory for itself (job.yaml,
 * state.json, bin, ...): a stage_in item of that name would replace it.
 */
int job_stage_name_ours(const char *base);

/*
 * Append path, a stage_in item of the command line (--stage-in: relative to the current
 * directory, or absolute), to the loaded job, as an absolute item. The same checks as the
 * job file's items: it exists and is a file or a directory, the name it gets in the job
 * directory is a name, not gridsubmit's own and no other item's. 0, or -1 with why
 * ("data.txt: No such file or directory") and the job unchanged.
 */
int job_stage_in_add(struct gs_job *job, const char *path, char *why, size_t whylen);

/* The runtime parameter key's value, or NULL. */
const char *job_runtime_get(const struct gs_job *job, const char *key);
/* Set (or replace) a runtime parameter, e.g. from --scheme. */
void job_runtime_set(struct gs_job *job, const char *key, const char *value);

/*
 * A scheme's name at node (file name) into its canonical name (*canon, static storage): any
 * case of a name runtime/include/grt/scheme.h knows. Returns 0, or -1 with err "unknown scheme 'x'
 * (did you mean 'y'?)" (or the list of schemes) at node.
 */
int job_scheme_parse(const char *name, const struct ydoc_node *node, const char **canon,
    struct gs_error *err);

#endif
