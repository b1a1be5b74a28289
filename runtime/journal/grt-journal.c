/*
 * grt-journal.c — writing the master's journal (grt-journal.h): records appended to a
 * buffer in memory, handed to a writer thread that writes them to the journal's sink and
 * syncs it (group commit: fdatasync, or the relay's acknowledgment), at least every JOURNAL_PERIOD seconds and at every round's end. The master
 * waits only when it hands over a buffer while the writer is still on the previous one.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "runtime/journal/grt-crc.h"
#include "runtime/journal/grt-journal-format.h"
#include "runtime/journal/grt-journal.h"

#define FILL_MAX	(8u << 20)	/* bytes buffered before a commit, whatever the time */

void
grt_journal_none(struct grt_journal *j)
{
	memset(j, 0, sizeof *j);
	j->fd = -1;
}

static void *
journal_writer(void *arg)
{
	struct grt_journal *j = arg;
	int skip, err;

	pthread_mutex_lock(&j->mu);
	for (;;) {
		while (!j->flushing && !j->stop)
			pthread_cond_wait(&j->work, &j->mu);
		if (!j->flushing)
			break;
		/*
		 * after a failed write nothing more: a later write that succeeds (space freed)
		 * would put committed records after a torn one, which replay cannot pass
		 */
		skip = j->lost;
		pthread_mutex_unlock(&j->mu);
		err = errno = 0;
		if (!skip && (j->sink.write(&j->sink, j->flush.data, j->flush.len) != 0 ||
		    j->sink.sync(&j->sink) != 0))
			err = errno != 0 ? errno : EIO;
		pthread_mutex_lock(&j->mu);
		if (err != 0) {
			j->lost = 1;
			j->err = err;
		}
		j->flush.len = 0;
		j->flushing = 0;
		pthread_cond_broadcast(&j->done);
	}
	pthread_mutex_unlock(&j->mu);
	return NULL;
}

/* Start the writer with every signal blocked: hydra's SIGUSR1 is for the master's thread. */
int
grt_journal_start(struct grt_journal *j)
{
	sigset_t all, old;
	int rc;

	grt_sink_file(&j->sink, j->fd);
	j->own_fd = 1;
	pthread_mutex_init(&j->mu, NULL);
	pthread_cond_init(&j->work, NULL);
	pthread_cond_init(&j->done, NULL);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&j->writer, NULL, journal_writer, j);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		pthread_cond_destroy(&j->done);
		pthread_cond_destroy(&j->work);
		pthread_mutex_destroy(&j->mu);
		return GRT_ENOMEM;
	}
	j->have_writer = 1;
	return GRT_OK;
}

/* Give the buffered records to the writer (after the previous ones are written). */
static void
journal_handoff(struct grt_journal *j)
{
	grt_buf t;

	pthread_mutex_lock(&j->mu);
	while (j->flushing)
		pthread_cond_wait(&j->done, &j->mu);
	t = j->flush;
	j->flush = j->fill;
	j->fill = t;
	j->fill.len = 0;
	j->flushing = 1;
	pthread_cond_signal(&j->work);
	pthread_mutex_unlock(&j->mu);
}

/* Every record so far written and durable. */
static void
journal_commit(struct grt_journal *j)
{
	if (j->fill.len > 0)
		journal_handoff(j);
	pthread_mutex_lock(&j->mu);
	while (j->flushing)
		pthread_cond_wait(&j->done, &j->mu);
	pthread_mutex_unlock(&j->mu);
}

static int
journal_append(struct grt_journal *j, int kind, int round, int64_t start, int64_t count,
    const void *res, size_t reslen)
{
	struct jrn_head h;
	struct jrn_body b;
	uint32_t crc;
	int rc;

	if (reslen > JRN_PAYLOAD_MAX)
		return GRT_EINVAL;
	memset(&b, 0, sizeof b);
	b.kind = (uint8_t)kind;
	b.round = round;
	b.start = start;
	b.count = count;
	crc = grt_crc32c(0, &b, sizeof b);
	h.len = (uint32_t)(sizeof b + reslen);
	h.len_inv = ~h.len;
	h.crc = grt_crc32c(crc, res, reslen);
	if ((rc = grt_buf_append(&j->fill, &h, sizeof h)) != GRT_OK ||
	    (rc = grt_buf_append(&j->fill, &b, sizeof b)) != GRT_OK ||
	    (rc = grt_buf_append(&j->fill, res, reslen)) != GRT_OK)
		return rc;
	if (j->fill.len >= FILL_MAX)
		journal_handoff(j);
	return GRT_OK;
}

int
grt_journal_merge(struct grt_journal *j, int round, int64_t start, int64_t count,
    const void *res, size_t reslen)
{
	if (j->fd < 0)
		return GRT_OK;
	return journal_append(j, JRN_MERGE, round, start, count, res, reslen);
}

int
grt_journal_round(struct grt_journal *j, int round)
{
	int rc;

	if (j->fd < 0)
		return GRT_OK;
	if ((rc = journal_append(j, JRN_ROUND, round, 0, 0, NULL, 0)) != GRT_OK)
		return rc;
	journal_commit(j);
	return GRT_OK;
}

void
grt_journal_tick(struct grt_journal *j, double now)
{
	if (j->fd < 0 || now - j->last_commit < JOURNAL_PERIOD)
		return;
	j->last_commit = now;
	if (j->fill.len > 0)
		journal_handoff(j);
}

int
grt_journal_failed(struct grt_journal *j)
{
	int err;

	if (j->fd < 0 || !j->have_writer)
		return 0;
	pthread_mutex_lock(&j->mu);
	err = j->lost ? (j->err != 0 ? j->err : EIO) : 0;
	pthread_mutex_unlock(&j->mu);
	return err;
}

int
grt_journal_close(struct grt_journal *j)
{
	int lost;

	if (j->fd < 0)
		return GRT_OK;
	if (j->have_writer) {
		journal_commit(j);
		pthread_mutex_lock(&j->mu);
		j->stop = 1;
		pthread_cond_signal(&j->work);
		pthread_mutex_unlock(&j->mu);
		pthread_join(j->writer, NULL);
		pthread_cond_destroy(&j->done);
		pthread_cond_destroy(&j->work);
		pthread_mutex_destroy(&j->mu);
	}
	lost = (j->own_fd && close(j->fd) != 0) || j->lost;
	grt_buf_free(&j->fill);
	grt_buf_free(&j->flush);
	grt_journal_none(j);
	return lost ? GRT_EIO : GRT_OK;
}
