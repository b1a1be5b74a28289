/* name.c — host names, user names and numeric ids as sh and ssh may take them (name.h). */
#include <ctype.h>
#include <string.h>

#include "common/name.h"

int
name_host_valid(const char *name)
{
	size_t len, label = 0, i;

	if (name == NULL || (len = strlen(name)) == 0 || len > 253 || name[0] == '-')
		return 0;
	for (i = 0; i < len; i++) {
		char c = name[i];

		if (c == '.') {
			if (label == 0)
				return 0;	/* empty label: "a..b", ".a", "a." */
			label = 0;
			continue;
		}
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-'))
			return 0;
		if (++label > 63)
			return 0;
	}
	return label > 0;
}

int
name_user_valid(const char *u)
{
	if (u == NULL || *u == '\0' || *u == '-' || strlen(u) > 64)
		return 0;
	for (; *u != '\0'; u++)
		if (!isalnum((unsigned char)*u) && *u != '_' && *u != '-' && *u != '.')
			return 0;
	return 1;
}

int
name_digits_valid(const char *s)
{
	size_t n;

	if (s == NULL || (n = strlen(s)) == 0 || n > 18)
		return 0;
	return strspn(s, "0123456789") == n;
}
