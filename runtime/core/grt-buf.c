/* grt-buf.c — growable byte buffers for chunk payloads. */
#include <stdlib.h>
#include <string.h>

#include "grt/grt.h"

int
grt_buf_reserve(grt_buf *b, size_t cap)
{
	unsigned char *p;
	size_t ncap;

	if (cap <= b->cap)
		return GRT_OK;
	ncap = b->cap < 256 ? 256 : b->cap;
	while (ncap < cap) {
		if (ncap > SIZE_MAX / 2)
			return GRT_ENOMEM;
		ncap *= 2;
	}
	if ((p = realloc(b->data, ncap)) == NULL)
		return GRT_ENOMEM;
	b->data = p;
	b->cap = ncap;
	return GRT_OK;
}

int
grt_buf_append(grt_buf *b, const void *p, size_t n)
{
	int rc;

	if (n > SIZE_MAX - b->len)
		return GRT_ENOMEM;
	if ((rc = grt_buf_reserve(b, b->len + n)) != GRT_OK)
		return rc;
	if (n > 0)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	return GRT_OK;
}

void
grt_buf_free(grt_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
