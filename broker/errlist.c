/*
 * errlist.c — a file's errors in file order, capped (errlist.h): the first GS_ERRLIST_MAX
 * by position are kept, in bounded memory however many a hostile file holds.
 */
#include <string.h>

#include "broker/errlist.h"

void
errlist_init(struct gs_errlist *l, const char *file)
{
	l->n = 0;
	l->dropped = 0;
	snprintf(l->file, sizeof l->file, "%s", file);
}

/* <0, 0, >0 as the kept error at slot s comes before, with, or after (other, loc). */
static int
errlist_cmp(const struct gs_errlist *l, size_t s, int other, const struct gs_loc *loc)
{
	const struct gs_loc *k = &l->err[s].loc;

	if (l->other[s] != other)
		return l->other[s] - other;
	if (k->line != loc->line)
		return k->line < loc->line ? -1 : 1;
	if (k->col != loc->col)
		return k->col < loc->col ? -1 : 1;
	return 0;
}

void
errlist_add(struct gs_errlist *l, const struct gs_error *err)
{
	int other = err->loc.file != NULL && strcmp(err->loc.file, l->file) != 0;
	size_t pos, slot, kept;

	/* after every kept error that is not later in the file */
	for (pos = l->n; pos > 0 && errlist_cmp(l, l->order[pos - 1], other, &err->loc) > 0;
	    pos--)
		;
	if (l->n == GS_ERRLIST_MAX) {
		l->dropped++;
		if (pos == GS_ERRLIST_MAX)
			return;
		/* the latest kept error makes room */
		slot = l->order[GS_ERRLIST_MAX - 1];
		kept = GS_ERRLIST_MAX - 1;
	} else {
		slot = l->n;
		kept = l->n++;
	}
	memmove(&l->order[pos + 1], &l->order[pos], kept - pos);
	l->order[pos] = (unsigned char)slot;
	l->err[slot] = *err;
	l->err[slot].loc.file = NULL;
	l->other[slot] = (unsigned char)other;
}

const struct gs_error *
errlist_get(const struct gs_errlist *l, size_t i)
{
	return &l->err[l->order[i]];
}

void
errlist_first(const struct gs_errlist *l, struct gs_error *err)
{
	if (l->n > 0)
		*err = *errlist_get(l, 0);
	else
		memset(err, 0, sizeof *err);
}

void
errlist_print(const struct gs_errlist *l, FILE *f)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		fprintf(f, "%s\n", errlist_get(l, i)->msg);
	if (l->dropped > 0)
		fprintf(f, "%s: too many errors, stopping\n", l->file);
}
