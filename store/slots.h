/*
 * slots.h — the slot ledger: which job holds how many slots of which host, and which jobs
 * wait for theirs (README.md, "The queue"). It is one SQLite file in the job store
 * (ROOT/slots.db); every change is one IMMEDIATE transaction, so that two gridsubmit
 * processes never both take the last slots of a host.
 *
 * A job claims the slots its placement uses. It holds them when, on every host it claims,
 * the host's slots minus what the holding jobs use there cover its ranks, and no job
 * submitted before it (a smaller id) waits for slots on one of those hosts: jobs start in
 * submission order, a later one passing ahead only where it needs none of an earlier
 * one's hosts. A job that is no longer alive (the caller says) loses its entries at the
 * next claim by anyone, so a supervisor that died holds nothing.
 */
#ifndef GS_SLOTS_H
#define GS_SLOTS_H

#include <stddef.h>

/* The ranks a job places on one host. */
struct slots_claim {
	const char *host;	/* the node's host name (compared without case) */
	const char *site;	/* the node's site, named in the reason */
	int want;		/* ranks placed there */
	int capacity;		/* the node's slots, as the job's site file says */
};

enum slots_verdict {
	SLOTS_HELD = 0,		/* the job holds its slots: it may start */
	SLOTS_WAIT = 1,		/* it waits: reason says for what */
	SLOTS_ERROR = -1,	/* the ledger cannot be used: reason says why */
};

/* Whether job (another job of the ledger) is still alive: 1, or 0 to drop its entries. */
typedef int (*slots_alive_fn)(long job, void *arg);

struct slots;

/* The ledger of the job store, created when missing; NULL with why on failure. */
struct slots *slots_open(char *why, size_t whylen);
void slots_close(struct slots *s);

/*
 * Claim n hosts for job, replacing what it claimed before, after dropping the entries of
 * jobs that alive says are gone. now: hold them whatever others hold (run --now, and a
 * relaunch of a job that holds its slots already). Returns a slots_verdict; for
 * SLOTS_WAIT, reason is "waiting for 3 slots on THU, held by job 7" or the like.
 */
int slots_claim(struct slots *s, long job, const struct slots_claim *c, size_t n, int now,
    slots_alive_fn alive, void *arg, char *reason, size_t len);

/* The job leaves the ledger (its slots are free). 0, or -1 with why. */
int slots_release(struct slots *s, long job, char *why, size_t whylen);

#endif
