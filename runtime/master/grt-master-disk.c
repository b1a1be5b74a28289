/*
 * grt-master-disk.c — the master stops the run when its journal or its events cannot be
 * written (a full or read-only disk: doc/restarts.md, "A full or read-only disk").
 *
 * Computing on without the journal would leave results that a relaunch cannot recover,
 * and without the events the supervisor cannot tell a run that ended well: so the first
 * failed write ends the run (GRT_EIO, the workers stopped as after any error), with the
 * file and the error in rep->why. What the journal committed before stays readable: the
 * writer writes nothing after a failure (grt-journal.c), and replay cuts a torn last
 * record.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "runtime/master/grt-master.h"

/* "no space left on device writing PATH": strerror's words, lowercased as messages are. */
static void
disk_why(struct master *m, int err, const char *path)
{
	char *why = m->rep->why;

	snprintf(why, sizeof m->rep->why, "%s writing %s", strerror(err),
	    path != NULL ? path : "the relay to the supervisor");
	why[0] = (char)tolower((unsigned char)why[0]);
}

int
master_disk_check(struct master *m)
{
	int err;

	if ((err = grt_journal_failed(&m->jn)) != 0) {
		m->rep->journal_lost = 1;
		disk_why(m, err, m->relay.fd < 0 ? m->cfg->journal_path : NULL);
		return GRT_EIO;
	}
	if (m->ev.lost) {
		disk_why(m, m->ev.err != 0 ? m->ev.err : EIO,
		    m->relay.fd < 0 ? m->cfg->events_path : NULL);
		return GRT_EIO;
	}
	return GRT_OK;
}
