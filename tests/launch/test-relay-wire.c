/*
 * test-relay-wire.c — the relay's two sides against each other (doc/runtime.md, "The
 * relay"): the frame format as the runtime's runtime/core/grt-relay.h and the
 * supervisor's launch/relay.h each write it down, then rank 0's client (grt-relay.c)
 * talking to the supervisor's thread (relay.c) over a real TCP connection on 127.0.0.1:
 * a connection without the relay's key refused, the rank map and the journal handed over
 * at HELLO, events and journal records appended
 * to the job directory, a commit acknowledged only with the journal on disk, a
 * truncation, the last frames read after the stop, and a second connection (a relaunch)
 * getting the journal as the first one left it.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file.h"
#include "common/xmalloc.h"
#include "grt/grt-error.h"
#include "launch/relay.h"
#include "runtime/core/grt-relay.h"
#include "tests/tap.h"

static char *
slurp(const char *dir, const char *name, size_t *len)
{
	char *path, *buf = NULL;

	xasprintf(&path, "%s/%s", dir, name);
	if (file_read(path, 1 << 20, &buf, len) != 0)
		buf = NULL;
	free(path);
	return buf;
}

static void
test_format(void)
{
	ok(RELAY_HEAD == GRT_RELAY_HEAD && RELAY_MAX == GRT_RELAY_MAX,
	    "both sides: the same header size and payload limit");
	ok(RELAY_HELLO == GRT_RELAY_HELLO && RELAY_EVENTS == GRT_RELAY_EVENTS &&
	    RELAY_JOURNAL == GRT_RELAY_JOURNAL && RELAY_TRUNCATE == GRT_RELAY_TRUNCATE &&
	    RELAY_COMMIT == GRT_RELAY_COMMIT && RELAY_RANKMAP == GRT_RELAY_RANKMAP &&
	    RELAY_READY == GRT_RELAY_READY && RELAY_ACK == GRT_RELAY_ACK,
	    "both sides: the same frame types");
}

static void
test_session(const char *dir)
{
	struct relay sup;
	struct grt_relay r, r2;
	struct grt_sink ev, jn;
	char why[512], gone[128], *dmap, *djn, *got;
	size_t len;
	static const char map[] = "# rank node site pf pr cpu_mhz\n0 n1 s 0 0 0\n";
	static const char old[] = "JOURNAL-SO-FAR";

	xasprintf(&dmap, "%s/node-rankmap", dir);
	xasprintf(&djn, "%s/node-journal", dir);
	ok(file_write_atomic(dir, "rankmap", map, strlen(map), 0644) == 0 &&
	    file_write_atomic(dir, "journal", old, strlen(old), 0644) == 0, "job directory set");
	ok(relay_open(&sup, "127.0.0.1", dir, why, sizeof why) == 0, "the supervisor listens "
	    "(%s)", sup.addr);
	/* a stranger: the port without the key */
	snprintf(gone, sizeof gone, "%.*s/0123", (int)strcspn(sup.addr, "/"), sup.addr);
	ok(grt_relay_open(&r, gone, dmap, NULL, why, sizeof why) == GRT_EIO &&
	    access(dmap, F_OK) == -1, "a connection without the key gets nothing (%s)", why);
	ok(grt_relay_open(&r, sup.addr, dmap, djn, why, sizeof why) == GRT_OK,
	    "rank 0 connects and says HELLO with the key; it is served after the stranger");
	got = slurp(dir, "node-rankmap", &len);
	ok(got != NULL && len == strlen(map) && memcmp(got, map, len) == 0,
	    "the rank map comes over whole");
	free(got);
	got = slurp(dir, "node-journal", &len);
	ok(got != NULL && len == strlen(old) && memcmp(got, old, len) == 0 &&
	    r.journal_len == strlen(old), "the journal comes over whole, with its length");
	free(got);

	grt_relay_sink(&r, GRT_RELAY_EVENTS, &ev);
	grt_relay_sink(&r, GRT_RELAY_JOURNAL, &jn);
	ok(ev.write(&ev, "{\"ev\":\"start\"}\n", 15) == 0 && ev.sync(&ev) == 0,
	    "events go out");
	ok(jn.write(&jn, "+REC1", 5) == 0 && jn.sync(&jn) == 0,
	    "a journal record goes out and its commit is acknowledged");
	got = slurp(dir, "journal", &len);
	ok(got != NULL && len == strlen(old) + 5 && memcmp(got + len - 5, "+REC1", 5) == 0,
	    "acknowledged: the record is in the job directory's journal");
	free(got);
	ok(grt_relay_send(&r, GRT_RELAY_TRUNCATE, "\x07\0\0\0\0\0\0\0", 8) == 0 &&
	    grt_relay_commit(&r) == 0, "a truncation to 7 bytes, committed");
	got = slurp(dir, "journal", &len);
	ok(got != NULL && len == 7 && memcmp(got, old, 7) == 0, "the journal cut to 7 bytes");
	free(got);
	/* the last events, sent just before rank 0 ends: read after the stop */
	ok(ev.write(&ev, "{\"ev\":\"end\"}\n", 13) == 0, "the last events go out");
	grt_relay_close(&r);
	relay_close(&sup, 5);
	got = slurp(dir, "events.jsonl", &len);
	ok(got != NULL && strcmp(got, "{\"ev\":\"start\"}\n{\"ev\":\"end\"}\n") == 0,
	    "the events in the job directory, in order, the last included");
	free(got);

	/* a relaunch: a new relay, the journal as the first master left it */
	ok(relay_open(&sup, "127.0.0.1", dir, why, sizeof why) == 0 &&
	    grt_relay_open(&r2, sup.addr, NULL, djn, why, sizeof why) == GRT_OK &&
	    r2.journal_len == 7, "a relaunch's master gets the journal committed before");
	grt_relay_close(&r2);
	relay_close(&sup, 5);
	ok(relay_open(&sup, "127.0.0.1", dir, why, sizeof why) == 0, "listens again");
	snprintf(gone, sizeof gone, "%s", sup.addr);
	relay_close(&sup, 5);
	ok(grt_relay_open(&r2, gone, NULL, NULL, why, sizeof why) == GRT_EIO &&
	    strstr(why, "cannot connect") != NULL, "a relay that is gone: GRT_EIO, said (%s)",
	    why);
	free(dmap);
	free(djn);
}

int
main(void)
{
	char tmpl[] = "/tmp/gs-relay.XXXXXX", *dir, *cmd;

	if ((dir = mkdtemp(tmpl)) == NULL) {
		ok(0, "a temporary directory");
		return tap_done();
	}
	test_format();
	test_session(dir);
	xasprintf(&cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "# could not remove %s\n", dir);
	free(cmd);
	return tap_done();
}
