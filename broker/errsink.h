/*
 * errsink.h — where a loader reports the errors of the file it reads (the site, job and
 * experiment loaders): the file's name, the error being built, and the file's list of
 * every error (errlist.h) it goes to. Each function returns -1 when it kept an error, so a
 * check reads `return errsink_error(...)`.
 */
#ifndef GS_ERRSINK_H
#define GS_ERRSINK_H

#include "broker/errlist.h"
#include "broker/yaml-doc.h"

struct gs_errsink {
	const char *name;		/* the file as given, named in the errors */
	struct gs_error err;		/* the error being reported */
	struct gs_errlist *errs;	/* every error of the file */
};

/* s->err is one of the file's errors: keep it. Returns -1. */
int errsink_keep(struct gs_errsink *s);

/* The result of a ydoc_*() check that filled s->err: 0, or -1 with the error kept. */
int errsink_check(struct gs_errsink *s, int rc);

/* An error located at node n (ydoc_verror), kept. Returns -1. */
int errsink_error(struct gs_errsink *s, const struct ydoc_node *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
