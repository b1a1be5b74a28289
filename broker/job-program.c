/*
 * job-program.c — whether a job's program can be started, checked before the job takes
 * an id (job.h): a job file's program: at load, a command line's -- PROGRAM alike. What
 * mpiexec would otherwise find only at launch, in a rank's "cannot run" after the job
 * got its id and its directory.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "broker/job.h"

/*
 * 1 when the file at path starts as something execve runs: an ELF header or "#!". Another
 * file that may be executed (a shell script without "#!", a text file given +x) is run by
 * execvp through /bin/sh, which fails at once on anything but a script.
 */
int
job_program_starts_as_one(const char *path)
{
	char head[4];
	size_t n;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL)
		return 0;
	n = fread(head, 1, sizeof head, f);
	fclose(f);
	return (n == 4 && memcmp(head, "\177ELF", 4) == 0) ||
	    (n >= 2 && memcmp(head, "#!", 2) == 0);
}

int
job_program_check(const char *path, const char *name, char *why, size_t whylen)
{
	struct stat sb;

	if (stat(path, &sb) == -1) {
		snprintf(why, whylen, "%s: %s%s", name, strerror(errno), errno == ENOENT ?
		    " (was it built? run make)" : "");
		return -1;
	}
	if (S_ISDIR(sb.st_mode))
		snprintf(why, whylen, "%s: is a directory, not a program", name);
	else if (!S_ISREG(sb.st_mode))
		snprintf(why, whylen, "%s: not a regular file", name);
	else if (access(path, X_OK) == -1)
		snprintf(why, whylen, "%s: cannot run it: %s", name, strerror(errno));
	else if (!job_program_starts_as_one(path))
		snprintf(why, whylen, "%s: not a program (neither an ELF executable nor a "
		    "script that starts with '#!')", name);
	else
		return 0;
	return -1;
}
