/*
 * node-values.h — where a node's cores, cpu_mhz and mem_mb come from (site.h, enum
 * gs_src; doc/broker.md, "Where a node's values come from"): the values a site file
 * leaves to a node's monitor, taken from its answer and checked before the node is
 * ranked, and the words rank --explain and sites show use to name each source.
 */
#ifndef GS_NODE_VALUES_H
#define GS_NODE_VALUES_H

#include <stddef.h>

#include <jansson.h>

#include "broker/metrics.h"
#include "broker/site.h"

/* A node's values, for node_value_source(). */
enum node_value {
	NODE_VALUE_CORES,
	NODE_VALUE_MHZ,
	NODE_VALUE_MEM
};

/*
 * Take the values n leaves to its monitor from the sample s of its answer: cores (and
 * slots, when they follow cores), cpu_mhz (the maximum frequency, not the current one:
 * the clock the node has, as a site file gives it), mem_mb; values_read once every one
 * of them was there. A value the answer lacks stays as it was.
 */
void node_values_from_monitor(struct gs_node *n, const struct metrics_sample *s);

/*
 * Why n cannot be ranked: values left to its monitor that were never read. NULL when
 * none is missing; else buf, e.g. "cores, cpu_mhz left to its monitor, which cannot be
 * read: http://n1:9100/metrics: connection refused", "... which was not read (metrics
 * are off)", "its monitor http://n1:9100/metrics serves no
 * node_cpu_frequency_max_hertz (for cpu_mhz)".
 */
const char *node_values_missing(const struct gs_node *n, char *buf, size_t len);

/*
 * Where value v of n comes from, in buf: "site file", "this host: affinity", "monitor
 * http://n1:9100/metrics" (", not read" until it answered), "not given".
 */
const char *node_value_source(const struct gs_node *n, enum node_value v, char *buf,
    size_t len);

/*
 * The sources of n's values as JSON (gridsubmit-json(5)), for rank --json and sites show
 * --json: {"cores": "this host: affinity", "cpu_mhz": "site file", "mem_mb": "monitor
 * URL"}, each node_value_source's text.
 */
json_t *node_values_json(const struct gs_node *n);

#endif
