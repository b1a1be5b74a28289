/*
 * jobstore-int.h — shared by the store's files only: what jobstore-purge.c needs of the
 * ids that jobstore.c hands out.
 */
#ifndef GS_JOBSTORE_INT_H
#define GS_JOBSTORE_INT_H

#include <stddef.h>

/*
 * Make sure jobs/next-id holds the next id (under the ids' lock), so that removing the
 * newest job never lets its id be handed out again. 0, or -1 with why.
 */
int jobstore_keep_next_id(const char *jobs, char *why, size_t whylen);

#endif
