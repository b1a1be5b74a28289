/* log.c — warnings and fatal errors of the gridsubmit programs. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"

const char *log_progname = "gridsubmit";
void (*log_atfatal)(void);

static void
log_vmsg(int with_errno, const char *fmt, va_list ap)
{
	int saved = errno;

	fprintf(stderr, "%s: ", log_progname);
	vfprintf(stderr, fmt, ap);
	if (with_errno)
		fprintf(stderr, ": %s", strerror(saved));
	fputc('\n', stderr);
}

void
log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(1, fmt, ap);
	va_end(ap);
}

void
log_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(0, fmt, ap);
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	va_list ap;
	int saved = errno;

	if (log_atfatal != NULL)
		log_atfatal();
	errno = saved;
	va_start(ap, fmt);
	log_vmsg(1, fmt, ap);
	va_end(ap);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list ap;

	if (log_atfatal != NULL)
		log_atfatal();
	va_start(ap, fmt);
	log_vmsg(0, fmt, ap);
	va_end(ap);
	exit(1);
}
