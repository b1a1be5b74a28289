/*
 * test-secret.c — secret_new and secret_equal (common/secret.h): a secret is SECRET_HEX
 * lowercase hex digits, two are never the same, and the comparison tells equal from a
 * difference at the first, a middle or the last byte.
 */
#include <ctype.h>
#include <string.h>

#include "tests/tap.h"

#include "common/secret.h"

int
main(void)
{
	char a[SECRET_HEX + 1], b[SECRET_HEX + 1], c[SECRET_HEX + 1];
	size_t i, hex = 0;

	ok(secret_new(a) == 0 && secret_new(b) == 0, "two secrets drawn");
	is_int(strlen(a), SECRET_HEX, "a secret is %d characters", SECRET_HEX);
	for (i = 0; i < SECRET_HEX; i++)
		hex += isxdigit((unsigned char)a[i]) && !isupper((unsigned char)a[i]);
	is_int(hex, SECRET_HEX, "every one a lowercase hex digit");
	ok(strcmp(a, b) != 0, "two secrets differ");
	memcpy(c, a, sizeof c);
	ok(secret_equal(a, c, SECRET_HEX), "a secret equals its copy");
	c[0] ^= 1;
	ok(!secret_equal(a, c, SECRET_HEX), "a difference in the first byte is seen");
	c[0] ^= 1;
	c[SECRET_HEX / 2] ^= 1;
	ok(!secret_equal(a, c, SECRET_HEX), "in a middle byte");
	c[SECRET_HEX / 2] ^= 1;
	c[SECRET_HEX - 1] ^= 1;
	ok(!secret_equal(a, c, SECRET_HEX), "in the last byte");
	ok(secret_equal(a, b, 0), "nothing compared is equal");
	return tap_done();
}
