/* scheme-rejoin.c — a worker declared failed answers after all: count it in P again. */
#include "runtime/scheme/scheme-int.h"

void
grt_sched_add_worker(grt_sched *s, int w)
{
	if (w < 0 || w >= s->nw || !s->gone[w])
		return;
	s->gone[w] = 0;
	if (s->drop_round[w] == 0) {
		s->nactive++;
		sched_active_changed(s, w, 1);
	}
}
