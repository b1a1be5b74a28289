/* numarg.c — command-line numbers read whole (numarg.h). */
#include <errno.h>
#include <stdlib.h>

#include "common/numarg.h"

int
numarg_int(const char *v, int64_t min, int64_t max, int64_t *out)
{
	char *end;
	long long n;

	if (v == NULL)
		return -1;
	errno = 0;
	n = strtoll(v, &end, 10);
	if (end == v || *end != '\0' || errno != 0 || n < min || n > max)
		return -1;
	*out = n;
	return 0;
}

int
numarg_double(const char *v, double min, double max, double *out)
{
	char *end;
	double d;

	if (v == NULL)
		return -1;
	errno = 0;
	d = strtod(v, &end);
	if (end == v || *end != '\0' || errno != 0 || !(d >= min && d <= max))
		return -1;
	*out = d;
	return 0;
}
