/*
 * events-read.h — incremental reader of events.jsonl (doc/runtime.md, "Events").
 *
 * The file grows while the job runs, so the reader keeps what it has read of an unfinished
 * last line and waits for the rest. Each complete line is parsed on its own with jansson;
 * a line that is not a valid record (garbage, wrong types, a record cut short by a crash and
 * followed by a new one) is counted and skipped, and so is an event kind this version does
 * not know. Every string is cleaned (text_clean) and capped where it enters.
 */
#ifndef GS_EVENTS_READ_H
#define GS_EVENTS_READ_H

#include <stddef.h>
#include <sys/types.h>

#define EV_NODE_MAX	64	/* bytes kept of a host name, NUL included */
#define EV_SITE_MAX	32
#define EV_TEXT_MAX	128	/* reasons, status */
#define EV_ERROR_MAX	512	/* end: the master's error, which may name a file */
#define EV_LINE_MAX	(8 << 20)	/* a longer line is garbage (a start of 1e5 ranks fits) */
#define EV_RANK_MAX	1000000	/* rank ids must be below this */
#define EV_TASK_MAX	1000000	/* task ids (migratable tasks) must be below this */

enum ev_kind {
	EV_NONE,
	EV_START,
	EV_CHUNK,
	EV_ROUND,
	EV_DROP,
	EV_MIGRATE,
	EV_FAIL,
	EV_END,
	EV_RESTART,	/* the supervisor relaunched the job (doc/restarts.md) */
	EV_RESUME,	/* the relaunched master replayed its journal */
	EV_TASKS,	/* where every migratable task is (doc/runtime.md, "Events") */
	EV_CANCEL,	/* the supervisor stopped the job: who (text), doc/architecture.md */
	EV_UNKNOWN	/* a well-formed record of a kind this version does not know */
};

struct ev_rank {
	int rank;
	char node[EV_NODE_MAX];
	char site[EV_SITE_MAX];
	double pf, pr;
	int master;		/* role "master" */
	int submaster;		/* role "sub-master": it deals its group's chunks */
	int group;		/* "group": the rank of its group's sub-master; -1 when absent */
	/* in "end" records */
	long long units;
	double t_calc, t_comm, t_idle;
};

struct event {
	enum ev_kind kind;
	double t;
	int rank;		/* chunk, drop, fail */
	int round;		/* chunk: round; round: j */
	long long start, count;	/* chunk */
	long long step;		/* chunk of a task run: the task's step; -1 when absent */
	double t_calc, t_comm, t_exe;
	long long *units;	/* round: units by rank */
	int nunits;
	double mean_exe, sd_exe;
	long long task;		/* migrate; chunk: -1 when absent */
	int from, to;
	long long bytes;
	double seconds;
	int *at;		/* tasks: at[i] the rank holding task i */
	int nat;
	int *spare;		/* tasks: the workers holding none */
	int nspare;
	long long requeued;	/* fail: units of that rank requeued; end: in all */
	int failed;		/* end: ranks that failed */
	char text[EV_TEXT_MAX];	/* drop/fail/migrate/tasks/cancel: reason; end: status */
	char error[EV_ERROR_MAX];	/* end: what failed ("no space left on device writing
					   DIR/journal"); "" when the run did not fail */
	char job[EV_NODE_MAX];	/* start */
	char scheme[EV_SITE_MAX];
	long long n;
	int rounds;
	int ntasks;		/* start of a task run: tasks T, steps S; 0 when absent */
	long long steps;
	char migration[EV_SITE_MAX];	/* start: the migration policy; "" when absent */
	long long migrations;	/* end: moves, and tasks restarted; -1 when absent */
	long long restarted;
	struct ev_rank *ranks;	/* start, end */
	int nranks;
	double makespan;	/* end */
	int restart;		/* restart: its number n (text: the reason) */
	char (*excluded)[EV_NODE_MAX];	/* restart: the nodes left out */
	int nexcluded;
	long long resumed_units;	/* resume: units merged, from the journal */
	int rounds_done;	/* resume: rounds the journal completed */
	long long records;	/* resume: journal records replayed */
};

struct evreader_stats {
	long long lines;	/* complete lines seen (blank ones excluded) */
	long long events;	/* records returned */
	long long bad;		/* garbage lines skipped */
	long long unknown;	/* records of unknown kinds skipped */
	size_t pending;		/* bytes of an unfinished last line */
	off_t offset;		/* bytes consumed from the file */
};

struct evreader;

/* Open a file to follow; NULL with errno set when it cannot be opened. */
struct evreader *evreader_open(const char *path);
/* A reader with no file: bytes come only from evreader_feed (tests, benchmarks). */
struct evreader *evreader_new(void);
void evreader_free(struct evreader *r);

/* Append bytes as if they had been read from the file. */
void evreader_feed(struct evreader *r, const char *buf, size_t len);

/*
 * The next record into ev (cleared first; free with event_clear). Returns 1 with a record,
 * 0 when no complete line is available yet (call again after the file has grown), -1 on a
 * read error (errno set).
 */
int evreader_next(struct evreader *r, struct event *ev);

const struct evreader_stats *evreader_stats(const struct evreader *r);

/*
 * Parse one line (no newline) into ev. Returns the kind (EV_UNKNOWN for an unknown kind),
 * or -1 for garbage. Exposed for the unit tests.
 */
int event_parse(const char *line, size_t len, struct event *ev);
void event_clear(struct event *ev);
const char *event_kind_name(enum ev_kind kind);

#endif
