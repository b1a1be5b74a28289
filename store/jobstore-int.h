/*
 * jobstore-int.h — shared by the store's files only: what jobstore-purge.c needs of the
 * ids that jobstore.c hands out, and the check of what the store reads (jobstore-trust.c).
 */
#ifndef GS_JOBSTORE_INT_H
#define GS_JOBSTORE_INT_H

#include <stddef.h>

/*
 * Make sure jobs/next-id holds the next id (under the ids' lock), so that removing the
 * newest job never lets its id be handed out again. 0, or -1 with why.
 */
int jobstore_keep_next_id(const char *jobs, char *why, size_t whylen);

/*
 * Whether path (a directory when dir, else a regular file) may be trusted: not a symbolic
 * link, owned by the user, writable by neither group nor others. 0 when so, 1 when it does
 * not exist, -1 with why naming the path and what is wrong.
 */
int jobstore_trust(const char *path, int dir, char *why, size_t whylen);

#endif
