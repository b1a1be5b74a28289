/*
 * errs-text.h — what the loader unit tests (site, job, configuration files) share: an
 * error list as errlist_print shows it, to compare with the expected text. Included once
 * per test program (each is its own executable).
 */
#ifndef TEST_ERRS_TEXT_H
#define TEST_ERRS_TEXT_H

#include <stdio.h>

#include "broker/errlist.h"

/* What errlist_print shows, without its last newline, allocated. */
static inline char *
errs_text(const struct gs_errlist *errs)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	errlist_print(errs, f);
	fclose(f);
	if (len > 0 && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return buf;
}

#endif
