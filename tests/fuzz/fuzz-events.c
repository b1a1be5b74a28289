/*
 * fuzz-events.c — libFuzzer target for the one events reader (common/events-read.h), which
 * reads what a job's ranks wrote and what a crash or a full disk left of it. The bytes are
 * fed in two parts cut where the first byte says, as a file that grows while the console
 * follows it: every complete line must come back as a record or be counted as bad or
 * unknown, never more records than lines, every event cleared without a leak.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/events-read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every record available now; each one's arrays within their counts. */
static void
fuzz_drain(struct evreader *r)
{
	struct event ev;
	int rc;

	/* the reader frees what ev held: a new one starts empty */
	memset(&ev, 0, sizeof ev);
	while ((rc = evreader_next(r, &ev)) == 1) {
		if (ev.kind <= EV_NONE || ev.kind > EV_UNKNOWN)
			abort();
		if (ev.nranks < 0 || ev.nunits < 0 || ev.nat < 0 || ev.nspare < 0 ||
		    ev.nexcluded < 0)
			abort();
	}
	event_clear(&ev);
	if (rc != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct evreader *r;
	const struct evreader_stats *st;
	size_t cut = size > 0 ? data[0] % (size + 1) : 0;

	if ((r = evreader_new()) == NULL)
		abort();
	evreader_feed(r, (const char *)data, cut);
	fuzz_drain(r);
	evreader_feed(r, (const char *)data + cut, size - cut);
	fuzz_drain(r);
	st = evreader_stats(r);
	if (st->events + st->bad + st->unknown > st->lines)
		abort();
	evreader_free(r);
	return 0;
}
