/*
 * grt-prefetch.c — when the master sends a worker its next chunk before the worker has
 * finished the current one (doc/runtime.md, "Prefetching").
 *
 * Without prefetching a worker idles, between two chunks, for its result's trip to the
 * master, the master's turn-around and the next chunk's trip back: t_exe - t_calc of the
 * chunk. With a second chunk waiting in its queue it goes on at once; the price is that
 * the second chunk is committed to it one chunk earlier, which matters only for the last
 * chunks of a loop and only as much as one chunk. So, with GRT_PREFETCH=auto (the
 * default), a worker gets a second chunk when that gap, measured on its last chunk that
 * was sent while it idled (a prefetched chunk hides the gap it would measure), is more
 * than PREFETCH_OVERHEAD of the gap and its last chunk's compute time together: chunks
 * short against the latency (a wide-area link of 2-20 ms, or tiny units), never the
 * first big chunks of gss or pwd.
 */
#include "runtime/master/grt-master.h"

#define PREFETCH_OVERHEAD	0.05

int
master_depth(const struct master *m, const struct worker *wk)
{
	switch (m->cfg->prefetch) {
	case GRT_PREFETCH_OFF:
		return 1;
	case GRT_PREFETCH_AUTO:
		/* a sub-master gets its next chunk before it runs dry: the WAN trip hidden */
		if (wk->group > 0)
			return 2;
		break;
	case GRT_PREFETCH_ON:
		return 2;
	}
	/* nothing measured yet (gap 0 before the first result): one */
	return wk->gap > PREFETCH_OVERHEAD * (wk->gap + wk->last_calc) ? 2 : 1;
}
