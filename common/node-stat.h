/*
 * node-stat.h — each placed node's load and CPU as its monitor last said them, while a job
 * runs (doc/runtime.md, "Node loads"): written by the supervisor's feed (jobrun-loads.c),
 * read by status and the console. One format, written and read here.
 *
 * DIR/nodes, replaced whole about every second: a comment line, then one line per placed
 * node with a monitor that answered at least once, "NODE LOAD1 CPU TIME": node_load1, the
 * fraction of CPU time busy (not idle nor iowait) between the node's last two answers, or
 * "-" until there are two, and when the monitor last answered (seconds since the epoch, to
 * the millisecond). A node whose monitor stops answering keeps its last line, whose TIME
 * then ages.
 */
#ifndef GS_NODE_STAT_H
#define GS_NODE_STAT_H

#include <stddef.h>

#define NODE_STAT_FILE		"nodes"
#define NODE_STAT_NAME_MAX	64	/* bytes kept of a node name, NUL included */

struct node_stat {
	char node[NODE_STAT_NAME_MAX];
	double load1;		/* node_load1, >= 0 */
	double cpu_busy;	/* 0..1, or < 0 when not known yet */
	double time;		/* when its monitor last answered, seconds since the epoch */
};

/* The line of s into buf, newline included; its length, or -1 when it does not fit. */
int node_stat_format(char *buf, size_t len, const struct node_stat *s);

/* One line (with or without its newline) into s: 0, or -1 when malformed. */
int node_stat_parse(const char *line, struct node_stat *s);

/*
 * DIR/nodes into *v (allocated, *n entries, in the file's order; malformed lines skipped).
 * 0 (also when the file is not there: *n = 0), or -1 with errno when it cannot be read.
 */
int node_stats_read(const char *dir, struct node_stat **v, size_t *n);

/*
 * "load 0.52, CPU 13% busy (from its monitor, 1 s ago)" for s at wall time now, into buf.
 * Without a CPU figure yet: "load 0.52, CPU not known yet (...)".
 */
void node_stat_text(const struct node_stat *s, double now, char *buf, size_t len);

#endif
