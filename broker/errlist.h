/*
 * errlist.h — every error of one file, as a compiler reports them: each one
 * "file:line:col: message", in the file's order, at most GS_ERRLIST_MAX, then the single
 * line "file: too many errors, stopping". The site, job and configuration loaders fill one
 * (sites_load_file_errs(), job_load_file_errs(), config_load()); the commands print it.
 *
 * A struct gs_error is one error; a struct gs_errlist holds the first GS_ERRLIST_MAX of a
 * file's errors by position, whatever order they were found in (a loader checks keys in
 * its own order, and a check over the whole file comes last). It needs no freeing.
 */
#ifndef GS_ERRLIST_H
#define GS_ERRLIST_H

#include <stddef.h>
#include <stdio.h>

#include "broker/site.h"

#define GS_ERRLIST_MAX	20

struct gs_errlist {
	char file[1024];	/* the file read: named by the "too many errors" line */
	struct gs_error err[GS_ERRLIST_MAX];	/* kept errors, in the order they came */
	unsigned char other[GS_ERRLIST_MAX];	/* 1: located in another file (an overlay's) */
	unsigned char order[GS_ERRLIST_MAX];	/* indices into err, in file order */
	size_t n;		/* errors kept */
	size_t dropped;		/* errors past the cap, each later in the file than all kept */
};

/* An empty list for the errors of file. */
void errlist_init(struct gs_errlist *l, const char *file);

/*
 * Add an error. Its place comes from err->loc (as the YAML reader sets it): errors of the
 * list's own file first, then those of another file (err->loc.file differs: an experiment's
 * overlay), each by line and column; an error without a line goes first, equal positions
 * keep the order they came in. Past GS_ERRLIST_MAX the latest in the file is dropped.
 */
void errlist_add(struct gs_errlist *l, const struct gs_error *err);

/* The i-th error in file order (i < l->n); its loc.file is NULL (the message names it). */
const struct gs_error *errlist_get(const struct gs_errlist *l, size_t i);

/* The first error into err (an empty message when there is none): the tests' checks of one. */
void errlist_first(const struct gs_errlist *l, struct gs_error *err);

/* Every error, one line each, then "file: too many errors, stopping" when some were dropped. */
void errlist_print(const struct gs_errlist *l, FILE *f);

#endif
