/*
 * tap.h — the tiny test helper of the C unit tests. Each check prints one line,
 * "ok - name" or "not ok - name" followed by "#" diagnostics; tests/run-tests.sh counts them.
 */
#ifndef GS_TAP_H
#define GS_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int tap_failures;

static void
tap_line(int pass, const char *file, int line, const char *fmt, va_list ap)
{
	printf(pass ? "ok - " : "not ok - ");
	vprintf(fmt, ap);
	printf("\n");
	if (!pass) {
		printf("#   at %s:%d\n", file, line);
		tap_failures++;
	}
	fflush(stdout);
}

static inline int
tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_line(pass, file, line, fmt, ap);
	va_end(ap);
	return pass;
}

static inline int
tap_is_int(long long got, long long want, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_line(got == want, file, line, fmt, ap);
	va_end(ap);
	if (got != want)
		printf("#   got %lld, want %lld\n", got, want);
	return got == want;
}

static inline int
tap_is_str(const char *got, const char *want, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int pass = got != NULL && want != NULL ? strcmp(got, want) == 0 : got == want;

	va_start(ap, fmt);
	tap_line(pass, file, line, fmt, ap);
	va_end(ap);
	if (!pass)
		printf("#   got  \"%s\"\n#   want \"%s\"\n", got ? got : "(null)", want ? want : "(null)");
	return pass;
}

static inline int
tap_is_dbl(double got, double want, double eps, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int pass = fabs(got - want) <= eps;

	va_start(ap, fmt);
	tap_line(pass, file, line, fmt, ap);
	va_end(ap);
	if (!pass)
		printf("#   got %.12g, want %.12g (eps %g)\n", got, want, eps);
	return pass;
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(got, want, ...) tap_is_int((long long)(got), (long long)(want), __FILE__, __LINE__, __VA_ARGS__)
#define is_str(got, want, ...) tap_is_str((got), (want), __FILE__, __LINE__, __VA_ARGS__)
#define is_dbl(got, want, eps, ...) tap_is_dbl((got), (want), (eps), __FILE__, __LINE__, __VA_ARGS__)
#define tap_done() (tap_failures ? 1 : 0)

#endif
