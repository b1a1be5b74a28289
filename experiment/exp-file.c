/*
 * exp-file.c — the one way the experiment's reports and figures are written: whole, under
 * a temporary name, fsync'd and renamed (jobstore_write_file), with an error that names
 * the file.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "experiment/exp.h"
#include "store/jobstore.h"

int
exp_write_file(const char *dir, const char *name, const void *buf, size_t len, char *why,
    size_t whylen)
{
	if (jobstore_write_file(dir, name, buf, len) == 0)
		return 0;
	snprintf(why, whylen, "%s/%s: %s", dir, name, strerror(errno));
	return -1;
}
