/*
 * jobrun-nofile.c — the parts of a job that the command line gives rather than a job
 * file: `run|submit [-n N] [--name NAME] [--stage-in F]... -- PROGRAM [ARGS...]`, as srun
 * users expect, and --name and --stage-in over a job file too.
 *
 * A run without a job file is made into the document a job file would be (name, program,
 * args, ranks) and loaded through the job loader's own checks (job_load_doc_errs), so that
 * it is the same job as the file the job directory then records (jobrun-jobfile.c). What
 * the options name is checked before the job takes an id: the program as mpiexec would
 * start it, each --stage-in as the loader checks a stage_in item. Every such error is the
 * command line's: exit 2, the option named.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "broker/errlist.h"
#include "broker/job.h"
#include "broker/yaml-doc.h"
#include "broker/yaml-emit.h"
#include "common/file.h"
#include "common/xmalloc.h"
#include "submit/cmd.h"
#include "submit/jobrun.h"

/* A run without a job file starts one process unless -n says more (srun -n, mpiexec -n). */
#define NOFILE_DEFAULT_RANKS	1

/* What the errors of a's options say first: "gridsubmit run". */
static void __attribute__((format(printf, 2, 3)))
nofile_error(const struct jobrun_args *a, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "gridsubmit%s%s: ", a->cmd != NULL ? " " : "",
	    a->cmd != NULL ? a->cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* word made absolute against the current directory. Allocated, or NULL. */
static char *
nofile_abs(const char *word)
{
	char cwd[PATH_MAX], *path;

	if (word[0] == '/')
		return xstrdup(word);
	if (getcwd(cwd, sizeof cwd) == NULL)
		return NULL;
	xasprintf(&path, "%s/%s", cwd, word);
	return path;
}

/*
 * The program as mpiexec and srun find it: a word with a '/' from the current directory,
 * one without in PATH (file_which: its absolute directories in order, the first regular
 * file that may be executed). Its absolute path (allocated), or NULL with the error
 * printed.
 */
static char *
nofile_program(const struct jobrun_args *a, const char *word)
{
	const char *path = getenv("PATH");
	char *cand, why[PATH_MAX + 128];

	if (*word == '\0') {
		nofile_error(a, "-- PROGRAM: an empty word is no program");
		return NULL;
	}
	if (strchr(word, '/') != NULL &&
	    (cand = nofile_abs(word)) == NULL) {
		nofile_error(a, "%s: the current directory: %s", word, strerror(errno));
		return NULL;
	}
	/* POSIX leaves a missing PATH to the implementation: glibc's execvp default */
	if (strchr(word, '/') != NULL ||
	    (cand = file_which(word, path != NULL ? path : "/bin:/usr/bin")) != NULL) {
		/* the job file's program: passes the same check (job-load.c) */
		if (job_program_check(cand, strchr(word, '/') != NULL ? word : cand, why,
		    sizeof why) == 0)
			return cand;
		nofile_error(a, "%s", why);
		free(cand);
		return NULL;
	}
	/* mpiexec and srun never run a file of the current directory by its bare name */
	if (access(word, F_OK) == 0)
		nofile_error(a, "%s: not found in PATH (give a path to run the file of this "
		    "directory: ./%s)", word, word);
	else
		nofile_error(a, "%s: not found in PATH", word);
	return NULL;
}

/* A scalar from origin, its option: quoted (a word as typed) or plain (a number). */
static struct ydoc_node *
nofile_scalar(const char *s, int plain, const char *origin)
{
	struct ydoc_node *n = ydoc_scalar_new(s, 0, 0, origin);

	n->plain = plain;
	n->quoted = !plain;
	return n;
}

struct ydoc_node *
jobrun_nofile_doc(const struct jobrun_args *a, const char *program)
{
	struct ydoc_node *doc, *args;
	char num[32], *base;
	int i;

	doc = xcalloc(1, sizeof *doc);
	doc->type = YDOC_MAP;
	base = job_path_base(program);
	ydoc_set(doc, "name", a->name != NULL ? nofile_scalar(a->name, 0, "--name") :
	    nofile_scalar(base, 0, "-- PROGRAM"));
	free(base);
	ydoc_set(doc, "program", nofile_scalar(program, 0, "-- PROGRAM"));
	args = xcalloc(1, sizeof *args);
	args->type = YDOC_SEQ;
	args->origin = "-- ARGS";
	args->cap = (size_t)a->nmore_args;
	args->items = xcalloc(args->cap + 1, sizeof *args->items);
	for (i = 1; i < a->nmore_args; i++)
		args->items[args->nitems++] = nofile_scalar(a->more_args[i], 0, "-- ARGS");
	ydoc_set(doc, "args", args);
	snprintf(num, sizeof num, "%d", a->ranks > 0 ? a->ranks : NOFILE_DEFAULT_RANKS);
	ydoc_set(doc, "ranks", nofile_scalar(num, 1, "--ranks"));
	return doc;
}

/* --name checked as a job file's name: is: 0, or -1 with the error printed. */
static int
nofile_name_check(const struct jobrun_args *a)
{
	if (a->name == NULL || job_name_ok(a->name))
		return 0;
	nofile_error(a, "--name: '%s' is not %s", a->name, JOB_NAME_WHAT);
	return -1;
}

int
jobrun_nofile_load(const struct jobrun_args *a, struct gs_job *job)
{
	struct ydoc_node *doc;
	struct gs_errlist errs;
	char *program;
	size_t i;
	int rc;

	if (nofile_name_check(a) != 0)
		return EXIT_USAGE;
	if ((program = nofile_program(a, a->more_args[0])) == NULL)
		return EXIT_USAGE;
	doc = jobrun_nofile_doc(a, program);
	free(program);
	rc = job_load_doc_errs("the command line", doc, job, &errs);
	ydoc_free(doc);
	if (rc == 0)
		return EXIT_OK;
	for (i = 0; i < errs.n; i++)
		nofile_error(a, "%s", errlist_get(&errs, i)->msg);
	return EXIT_USAGE;
}

int
jobrun_nofile_apply(const struct jobrun_args *a, struct gs_job *job)
{
	char why[PATH_MAX + 256];
	int i;

	if (nofile_name_check(a) != 0)
		return EXIT_USAGE;
	if (a->name != NULL) {
		free(job->name);
		job->name = xstrdup(a->name);
	}
	for (i = 0; i < a->nstage_in; i++)
		if (job_stage_in_add(job, a->stage_in[i], why, sizeof why) != 0) {
			nofile_error(a, "--stage-in: %s", why);
			return EXIT_USAGE;
		}
	return EXIT_OK;
}
