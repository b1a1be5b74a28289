/*
 * secret.h — random secrets for the job's own channels (the lease, the preflight's
 * connect-back, the job's tag) and their comparison. A secret is lowercase hex; it travels
 * in an environment, a file of mode 0600 or a pipe, never in an argv, and is compared in a
 * time that does not depend on where the first difference is.
 */
#ifndef GS_SECRET_H
#define GS_SECRET_H
#include <stddef.h>

/* Bytes of randomness in a secret; its text is twice as many hex digits. */
#define SECRET_BYTES	16
#define SECRET_HEX	(2 * SECRET_BYTES)

/*
 * SECRET_BYTES from getrandom(2) as SECRET_HEX hex digits and a NUL into hex (at least
 * SECRET_HEX + 1 bytes): 0, or -1 with errno set (getrandom's).
 */
int secret_new(char *hex);

/*
 * 1 when a and b (n bytes each) are equal, else 0; every byte is looked at whatever the
 * first difference, so the time says nothing of how much of a guess was right.
 */
int secret_equal(const void *a, const void *b, size_t n);

#endif
