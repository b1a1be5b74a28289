/*
 * exp-file.c — the one way the experiment's reports and figures are written: whole, under
 * a temporary name, fsync'd and renamed (file_write_atomic), with an error that names the
 * file.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/file.h"
#include "experiment/exp.h"

int
exp_write_file(const char *dir, const char *name, const void *buf, size_t len, char *why,
    size_t whylen)
{
	if (file_write_atomic(dir, name, buf, len, 0644) == 0)
		return 0;
	snprintf(why, whylen, "%s/%s: %s", dir, name, strerror(errno));
	return -1;
}
