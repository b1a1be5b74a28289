/*
 * rank-end.h — how each rank of a job ended, as its wrapper (gridsubmit-rank) records it
 * and the supervisor, status and the console read it (doc/restarts.md, "Every rank's end").
 *
 * One line per rank, "RANK HOST exit N TIME" or "RANK HOST signal N TIME" (TIME: seconds
 * since the epoch, to the millisecond), appended to DIR/rank-ends by the ranks that run in
 * the job directory and sent on the lease by the others (the supervisor appends those).
 * One format, written and read here, so the wrapper and its readers never disagree.
 */
#ifndef GS_RANK_END_H
#define GS_RANK_END_H

#include <stddef.h>

#define RANK_ENDS_FILE	"rank-ends"
#define RANK_END_LINE_MAX	160	/* bytes of one line, newline included */
#define RANK_END_HOST_MAX	64	/* bytes kept of a host or node name, NUL included */

struct rank_end {
	int rank;
	char host[RANK_END_HOST_MAX];	/* the host as it names itself (gethostname) */
	char node[RANK_END_HOST_MAX];	/* the placement's node (DIR/rankmap), else host */
	int exit;			/* the program's exit status, -1 when a signal killed it */
	int signal;			/* the signal that killed it, or 0 */
	double time;			/* when it ended, seconds since the epoch */
};

/*
 * The line for rank's end (wait status st, at time) into buf, newline included; its
 * length, or -1 when it does not fit. A host name with a space or a control byte is
 * written "?".
 */
int rank_end_format(char *buf, size_t len, int rank, const char *host, int st, double time);

/* One line (with or without its newline) into e (node = host): 0, or -1 when malformed. */
int rank_end_parse(const char *line, struct rank_end *e);

/* 1 when the rank did not end well: a status other than 0, or a signal. */
int rank_end_failed(const struct rank_end *e);

/*
 * DIR/rank-ends into *v (allocated, *n entries, in the order written; malformed lines and
 * a second line for a rank are skipped), each named with its node from DIR/rankmap. 0
 * (also when the file is not there: *n = 0), or -1 with errno when it cannot be read.
 */
int rank_ends_read(const char *dir, struct rank_end **v, size_t *n);

/* The failed rank that ended first (the lowest rank on a tie), or NULL. */
const struct rank_end *rank_ends_first_failure(const struct rank_end *v, size_t n);

/* "rank 2 on node b3 exited with status 3", "rank 1 on node localhost died of signal 9". */
void rank_end_text(const struct rank_end *e, char *buf, size_t len);

#endif
