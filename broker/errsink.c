/* errsink.c — a loader's errors into the file's list (errsink.h). */
#include <stdarg.h>

#include "broker/errsink.h"

int
errsink_keep(struct gs_errsink *s)
{
	errlist_add(s->errs, &s->err);
	return -1;
}

int
errsink_check(struct gs_errsink *s, int rc)
{
	return rc == 0 ? 0 : errsink_keep(s);
}

int
errsink_error(struct gs_errsink *s, const struct ydoc_node *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ydoc_verror(&s->err, s->name, n, fmt, ap);
	va_end(ap);
	return errsink_keep(s);
}
