/*
 * secret.c — random secrets and their constant-time comparison (secret.h).
 */
#include <sys/random.h>

#include <errno.h>
#include <stdio.h>

#include "common/secret.h"

int
secret_new(char *hex)
{
	unsigned char rnd[SECRET_BYTES];
	size_t i, got = 0;
	ssize_t n;

	while (got < sizeof rnd) {
		if ((n = getrandom(rnd + got, sizeof rnd - got, 0)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		got += (size_t)n;
	}
	for (i = 0; i < sizeof rnd; i++)
		snprintf(hex + 2 * i, 3, "%02x", rnd[i]);
	return 0;
}

int
secret_equal(const void *a, const void *b, size_t n)
{
	const volatile unsigned char *x = a, *y = b;
	unsigned char diff = 0;
	size_t i;

	for (i = 0; i < n; i++)
		diff |= (unsigned char)(x[i] ^ y[i]);
	return diff == 0;
}
