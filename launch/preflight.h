/*
 * preflight.h — before a multi-site launch, check every remote node of the placement in
 * parallel (ssh reachable within the connect timeout, hydra_pmi_proxy where hydra will
 * run it, the program and gridsubmit-rank with the same content as here, a job directory
 * there: ours when the file system is shared, else one of its own), stage to the nodes
 * that need it (stage.h), and replace the nodes that fail either by the broker's next
 * best ones when the job allows it. hydra itself waits forever on a bad ssh setup: this
 * is what keeps gridsubmit from hanging.
 */
#ifndef GS_PREFLIGHT_H
#define GS_PREFLIGHT_H

#include <sys/types.h>

#include <stddef.h>

#include "broker/broker.h"
#include "common/secret.h"
#include "store/jobstore.h"

struct preflight {
	int nodes_staged;	/* nodes that got their own job directory, staged */
	int nodes_checked;
	int nodes_failed;	/* over all rounds */
	int all_shared;		/* 1: every node has our job directory (shared file system) */
	int replaced;		/* 1: the placement was redone without failed nodes */
};

/*
 * Check the remote nodes of p (nothing to do when all ranks are local) and stage to those
 * that need it. On failures, report each node's reason in one message; then, when the job
 * allows it (spare nodes, or min_ranks), set the failed nodes' slots to 0, place again (p
 * and ranking updated) and check the new nodes. Returns 0, or -1 with why (naming every
 * failed node; "cancelled ..." after a cancel signal). The remote directories it made are
 * in DIR/remote-dirs, for stage_cleanup(), also when it fails.
 */
int preflight_run(struct gs_sites *sites, const struct gs_job *job, struct gs_ranking *ranking,
    struct gs_placement *p, const struct job_state *st, struct preflight *pf, char *why,
    size_t whylen);

struct pf_accept;

/* The connect-back's secret in the job directory, for the checks in mpiexec's sessions. */
#define PREFLIGHT_KEY_FILE	".connect-key"

/*
 * What the checks compare with, made once per launch: the local hashes, the token in
 * DIR/.shared by which a node shows that it shares our files, and the connect-back: a
 * socket on this host's address toward the nodes (preflight_accept_start) to which a node
 * sends the secret key and which answers "ok" only to it (preflight-accept.c).
 */
struct preflight_setup {
	char *config;		/* DIR/ssh_config */
	const char *program;	/* the job's */
	char *rankexec;		/* gridsubmit-rank here */
	char *proxy;		/* hydra_pmi_proxy where hydra will run it */
	char hashes[2][65];	/* sha256 of program and rankexec */
	char token[33];
	char *name;		/* a node's own job directory's name (stage.h) */
	char key[SECRET_HEX + 2];	/* the connect-back's secret and a newline: a node's stdin */
	char *keyfile;		/* DIR/.connect-key (0600): the secret for the sessions' checks */
	int fd;			/* the listening socket (-1 before preflight_accept_start), its port */
	char port[16];
	struct pf_accept *acc;	/* the thread that accepts on fd */
};

/*
 * Make it (writes DIR/ssh_config, DIR/.shared and DIR/.connect-key); nothing listens yet.
 * Returns 0, or -1 with why.
 */
int preflight_setup_make(const struct gs_sites *sites, const struct gs_job *job,
    const struct job_state *st, struct preflight_setup *s, char *why, size_t whylen);
void preflight_setup_free(struct preflight_setup *s);

/*
 * The connect-back (preflight-accept.c): listen on addr (this host's address toward the
 * nodes, not every interface; s->fd and s->port set) and accept in a thread of its own,
 * as connections come, until preflight_setup_free. Each connection has 5 s to send
 * s->key; the right one gets "ok\n", which is the node's proof that it reaches us, any
 * other nothing. At most 256 connections wait unauthenticated at once, the oldest closed
 * for a new one. 0, or -1 with why.
 */
int preflight_accept_start(struct preflight_setup *s, const char *addr, char *why,
    size_t whylen);

/* The connections so far that sent the secret (proved) and that did not (refused). */
void preflight_accept_counts(const struct preflight_setup *s, int *proved, int *refused);

/* End the thread and close what it holds (preflight_setup_free does it). */
void preflight_accept_stop(struct preflight_setup *s);

/*
 * The checks as a command for a node: sh -c SCRIPT sh ARGS (words[15] is NULL; they point
 * into s and st). What they print is the node's answer; they exit 0 only when the node may
 * start its proxy at once. addr: this host's address toward the nodes. key_stdin: the node
 * reads the secret from its stdin (give it s->key), else from s->keyfile, which it shares.
 */
void preflight_words(const struct preflight_setup *s, const struct job_state *st,
    const char *addr, int key_stdin, char *words[16]);

/*
 * A node's whole answer (host: for a warning): 1 when the node passed, shares our job
 * directory and has our program and gridsubmit-rank; otherwise 0 with why.
 */
int preflight_answer_ready(const struct preflight_setup *s, const char *host, const char *out,
    char *why, size_t whylen);

/*
 * The checks inside mpiexec's own ssh sessions, for a speculative launch
 * (doc/architecture.md): the command, for a node's shell, that runs the checks, writes
 * their answer to DIR/.remote/HOST.preflight (HOST: the word after it) and fails unless the
 * node may start its proxy at once. addr: this host's address toward the nodes.
 */
char *preflight_session_command(const struct preflight_setup *s, const struct job_state *st,
    const char *addr);

/*
 * Wait for every remote node of p to answer in its session (or its session, mpiexec, a
 * cancel or the deadline to end the wait). Returns 0 when every node passed and shares our
 * job directory: the launch may go on. Otherwise -1, with why naming the first node that
 * did not (or the cause).
 */
int preflight_session_wait(const struct gs_sites *sites, const struct gs_placement *p,
    const struct job_state *st, const struct preflight_setup *s, pid_t mpiexec, char *why,
    size_t whylen);

#endif
