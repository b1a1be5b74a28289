/* log.c — warnings and fatal errors of the gridsubmit programs. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"

const char *log_progname = "gridsubmit";
void (*log_atfatal)(void);
void (*log_onfatal)(const char *message);

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

/*
 * The end of fatal() and fatalx(): the terminal given back (log_atfatal), the message
 * formatted once into a static buffer (no allocation: memory may be what ran out), said on
 * stderr, handed to log_onfatal (cleared first, so that a fatal error inside it just
 * exits), and exit 1.
 */
static noreturn void
log_die(int with_errno, const char *fmt, va_list ap)
{
	static char message[1024];
	void (*onfatal)(const char *) = log_onfatal;
	int saved = errno;

	if (log_atfatal != NULL)
		log_atfatal();
	vsnprintf(message, sizeof message, fmt, ap);
	if (with_errno) {
		size_t n = strlen(message);

		snprintf(message + n, sizeof message - n, ": %s", strerror(saved));
	}
	fprintf(stderr, "%s: %s\n", log_progname, message);
	log_onfatal = NULL;
	if (onfatal != NULL)
		onfatal(message);
	exit(1);
}

void
fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_die(1, fmt, ap);
}

void
fatalx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_die(0, fmt, ap);
}
