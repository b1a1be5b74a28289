/*
 * grt-journal-relay.c — the journal of a master whose job directory is on the submitting
 * host (grt-journal.h, grt-relay.h): once the node's copy is open and replayed, the
 * supervisor's journal is made the same as the copy, and the writer goes through the
 * relay: a commit returns only when the supervisor has the records on its disk.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "runtime/journal/grt-journal.h"

/* The copy's bytes [from, to) to the supervisor's journal; 0, or -1. */
static int
journal_relay_tail(struct grt_journal *j, struct grt_relay *r, uint64_t from, uint64_t to)
{
	unsigned char buf[65536];
	ssize_t n;

	while (from < to) {
		n = pread(j->fd, buf, to - from < sizeof buf ? (size_t)(to - from) : sizeof buf,
		    (off_t)from);
		if (n <= 0 || grt_relay_send(r, GRT_RELAY_JOURNAL, buf, (size_t)n) == -1)
			return -1;
		from += (uint64_t)n;
	}
	return 0;
}

/* grt-journal.h: the writer is idle (no record yet); the sink is switched under its lock. */
int
grt_journal_relay(struct grt_journal *j, struct grt_relay *r, char *why, size_t whylen)
{
	unsigned char len[8];
	struct stat sb;
	uint64_t size;
	int i, rc;

	if (j->fd < 0)
		return GRT_OK;
	if (fstat(j->fd, &sb) != 0) {
		snprintf(why, whylen, "%s: %s", "journal",
		    strerror(errno));
		return GRT_EIO;
	}
	size = (uint64_t)sb.st_size;
	/* longer: a new journal's header; shorter: a torn tail cut by the replay */
	if (size > r->journal_len)
		rc = journal_relay_tail(j, r, r->journal_len, size);
	else {
		for (i = 0; i < 8; i++)
			len[i] = (unsigned char)(size >> (8 * i));
		rc = size < r->journal_len ?
		    grt_relay_send(r, GRT_RELAY_TRUNCATE, len, sizeof len) : 0;
	}
	if (rc == 0)
		rc = grt_relay_commit(r);
	if (rc != 0) {
		snprintf(why, whylen, "relay: the journal could not be sent to the supervisor: "
		    "%s", strerror(errno));
		return GRT_EIO;
	}
	pthread_mutex_lock(&j->mu);
	close(j->fd);
	grt_relay_sink(r, GRT_RELAY_JOURNAL, &j->sink);
	j->fd = r->fd;
	j->own_fd = 0;
	pthread_mutex_unlock(&j->mu);
	return GRT_OK;
}
