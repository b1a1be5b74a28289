/*
 * slurm-time.c — a time limit in one of Slurm's formats (site.h, slurm_time_parse): the
 * job file's time_limit and a site's scheduler: {time} take the same ones.
 */
#include <string.h>

#include "broker/site.h"

#define ST_DIGITS	8	/* per field: no overflow */

/* One field of a time limit: 1 to ST_DIGITS digits, below max (0: any). */
static const char *
st_field(const char *p, long long max, long long *out)
{
	int n;

	*out = 0;
	for (n = 0; *p >= '0' && *p <= '9'; p++, n++) {
		if (n == ST_DIGITS)
			return NULL;
		*out = *out * 10 + (*p - '0');
	}
	if (n == 0 || (max > 0 && *out >= max))
		return NULL;
	return p;
}

int
slurm_time_parse(const char *s, long long *seconds)
{
	/* seconds per field: fields[days][count - 1][i] */
	static const long long unit[2][3][3] = {
		{ { 60 }, { 60, 1 }, { 3600, 60, 1 } },
		{ { 3600 }, { 3600, 60 }, { 3600, 60, 1 } },
	};
	long long f[3], days = 0, total;
	const char *p = s, *dash = strchr(s, '-');
	int n = 0, i, has_days = dash != NULL;

	if (has_days && ((p = st_field(s, 0, &days)) == NULL || p != dash))
		return -1;
	if (has_days)
		p = dash + 1;
	for (;;) {
		/* a field after the first is below 60, hours after days below 24 */
		if ((p = st_field(p, n > 0 ? 60 : has_days ? 24 : 0, &f[n])) == NULL)
			return -1;
		n++;
		if (*p == '\0')
			break;
		if (*p != ':' || n == 3)
			return -1;
		p++;
	}
	total = days * 86400;
	for (i = 0; i < n; i++)
		total += f[i] * unit[has_days][n - 1][i];
	if (total <= 0)
		return -1;
	*seconds = total;
	return 0;
}
