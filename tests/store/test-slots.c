/*
 * test-slots.c — the slot ledger (store/slots.h) on a real SQLite file in a store of
 * its own: a job that fits holds its slots, one that does not waits with the slots it lacks
 * site by site and who holds them, submission order (a later job waits behind an earlier
 * one on a shared node, passes ahead elsewhere), --now, release, a job that is no longer
 * alive holding nothing, a resumed job entering again waiting (not with its dead
 * supervisor's hold), and a ledger file that is not a database named in the error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/tap.h"

#include "common/xmalloc.h"
#include "store/slots.h"

/* the jobs the "alive" callback calls dead: bit N for job N */
static unsigned dead;

static int
alive(long job, void *arg)
{
	(void)arg;
	return !(dead & (1u << job));
}

/* Remove the ledger file and SQLite's companions of it. */
static void
remove_db(const char *path)
{
	const char *const ext[] = { "", "-wal", "-shm", "-journal" };
	size_t i;
	char *p;

	for (i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		xasprintf(&p, "%s%s", path, ext[i]);
		unlink(p);
		free(p);
	}
}

static int
claim(struct slots *s, long job, const struct slots_claim *c, size_t n, int now, char *reason)
{
	reason[0] = '\0';
	return slots_claim(s, job, c, n, now, alive, NULL, reason, 512);
}

int
main(void)
{
	char home[] = "/tmp/gs-test-slots.XXXXXX", reason[512], why[512], *path;
	struct slots *s;
	FILE *f;
	/* THU: two nodes of 2 slots; LZ: one of 4 */
	struct slots_claim all[] = { { "thu1", "THU", 2, 2 }, { "thu2", "THU", 2, 2 },
	    { "lz1", "LZ", 1, 4 } };
	struct slots_claim thu1[] = { { "THU1", "THU", 1, 2 } };
	struct slots_claim three[] = { { "thu1", "THU", 2, 2 }, { "lz1", "LZ", 4, 4 } };
	struct slots_claim lz[] = { { "lz1", "LZ", 3, 4 } };
	/* WZ: one node of 3 slots */
	struct slots_claim wz1[] = { { "wz1", "WZ", 1, 3 } };
	struct slots_claim wz2[] = { { "wz1", "WZ", 2, 3 } };
	struct slots_claim wz3[] = { { "wz1", "WZ", 3, 3 } };

	if (mkdtemp(home) == NULL || setenv("GRIDSUBMIT_HOME", home, 1) != 0)
		return 2;
	s = slots_open(why, sizeof why);
	ok(s != NULL, "the ledger is created in the store");
	if (s == NULL)
		return 1;

	is_int(claim(s, 1, all, 3, 0, reason), SLOTS_HELD, "an empty ledger: job 1 holds its slots");
	is_int(claim(s, 2, thu1, 1, 0, reason), SLOTS_WAIT, "job 2 wants a slot of a full node");
	is_str(reason, "waiting for 1 slot on THU, held by job 1",
	    "its reason: one slot, the site, the holder (host names without case)");
	is_int(claim(s, 3, three, 2, 0, reason), SLOTS_WAIT, "job 3 lacks slots on two sites");
	is_str(reason, "waiting for 2 slots on THU, 1 on LZ, held by job 1; behind job 2, "
	    "submitted earlier", "its reason: site by site, and the earlier job on thu1");
	is_int(claim(s, 4, lz, 1, 0, reason), SLOTS_WAIT,
	    "job 4 fits on lz1 but job 3, earlier, waits for lz1");
	is_str(reason, "waiting behind job 3, submitted earlier, which needs slots on the same "
	    "nodes", "its reason names the earlier job");
	is_int(claim(s, 5, thu1, 1, 1, reason), SLOTS_HELD, "--now holds whatever is held");

	/* job 1 ends: 2 waits for thu1, which 5 holds one of (2 slots): 2 fits */
	is_int(slots_release(s, 1, why, sizeof why), 0, "job 1 releases its slots");
	is_int(claim(s, 2, thu1, 1, 0, reason), SLOTS_HELD, "job 2 now holds its slot");
	is_int(claim(s, 3, three, 2, 0, reason), SLOTS_WAIT, "job 3 still lacks thu1's slots");
	is_str(reason, "waiting for 2 slots on THU, held by job 2, 5",
	    "held by the two jobs on thu1");

	/* jobs 2 and 5 die without releasing: the next claim drops them */
	dead = 1u << 2 | 1u << 5;
	is_int(claim(s, 3, three, 2, 0, reason), SLOTS_HELD,
	    "jobs whose supervisors died hold nothing: job 3 starts");
	dead = 0;
	is_int(claim(s, 4, lz, 1, 0, reason), SLOTS_WAIT, "job 4 now waits for lz1's slots");
	is_str(reason, "waiting for 3 slots on LZ, held by job 3", "held by job 3");

	/*
	 * job 12, holding, dies and is resumed before any claim dropped it: it enters again
	 * waiting (behind job 11), not with the dead supervisor's hold, which would keep the
	 * slot job 11 waits for while it waits behind job 11
	 */
	is_int(claim(s, 10, wz2, 1, 0, reason), SLOTS_HELD, "job 10 holds 2 of wz1's 3 slots");
	is_int(claim(s, 12, wz1, 1, 0, reason), SLOTS_HELD, "job 12 holds the third");
	is_int(claim(s, 11, wz3, 1, 0, reason), SLOTS_WAIT, "job 11 waits for all three");
	is_int(claim(s, 12, wz1, 1, 0, reason), SLOTS_WAIT,
	    "job 12 resumed: it waits behind job 11, submitted earlier");
	is_int(slots_release(s, 10, why, sizeof why), 0, "job 10 releases its slots");
	is_int(claim(s, 11, wz3, 1, 0, reason), SLOTS_HELD,
	    "job 11 holds all three: the resumed job 12 holds none while it waits");
	is_int(claim(s, 12, wz1, 1, 0, reason), SLOTS_WAIT, "job 12 waits for job 11's slots");
	is_str(reason, "waiting for 1 slot on WZ, held by job 11", "held by job 11 alone");
	slots_close(s);

	/* a ledger that is not a database: the error names the file */
	xasprintf(&path, "%s/slots.db", home);
	remove_db(path);
	if ((f = fopen(path, "w")) != NULL) {
		fputs("not a database, but long enough to be read as one's header ........"
		    "................................................................\n", f);
		fclose(f);
	}
	s = slots_open(why, sizeof why);
	ok(s == NULL && strstr(why, path) != NULL, "a corrupt ledger: its path in the error (%s)",
	    why);
	slots_close(s);
	remove_db(path);
	free(path);
	rmdir(home);
	return tap_done();
}
