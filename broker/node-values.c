/*
 * node-values.c — a node's values and their sources (node-values.h): what a monitor's
 * answer fills in, what keeps a node out of the ranking when its monitor never gave
 * what the site file left to it, and how each source is named.
 */
#include <stdio.h>
#include <string.h>

#include "broker/node-values.h"

/* The metric each value is read from (metrics.c), named when it is missing. */
static const char *const nv_metric[] = {
	"node_cpu_seconds_total",
	"node_cpu_frequency_max_hertz or node_cpu_scaling_frequency_max_hertz",
	"node_memory_MemTotal_bytes"
};
static const char *const nv_name[] = { "cores", "cpu_mhz", "mem_mb" };

/* The source of value v of n, and how it was read (site.h). */
static enum gs_src
nv_src(const struct gs_node *n, enum node_value v)
{
	return v == NODE_VALUE_CORES ? n->cores_src : v == NODE_VALUE_MHZ ? n->mhz_src :
	    n->mem_src;
}

static const char *
nv_how(const struct gs_node *n, enum node_value v)
{
	return v == NODE_VALUE_CORES ? n->cores_how : v == NODE_VALUE_MHZ ? n->mhz_how :
	    n->mem_how;
}

void
node_values_from_monitor(struct gs_node *n, const struct metrics_sample *s)
{
	int missing = 0;

	if (n->cores_src == GS_SRC_MONITOR) {
		if (s->cores > 0) {
			n->cores = s->cores;
			n->cores_how = nv_metric[NODE_VALUE_CORES];
			if (n->slots_auto)
				n->slots = s->cores;
		} else
			missing |= n->cores_how == NULL;
	}
	if (n->mhz_src == GS_SRC_MONITOR) {
		if (s->max_mhz > 0) {
			n->cpu_mhz = s->max_mhz;
			n->mhz_how = nv_metric[NODE_VALUE_MHZ];
		} else
			missing |= n->mhz_how == NULL;
	}
	if (n->mem_src == GS_SRC_MONITOR) {
		if (s->mem_mb > 0) {
			n->mem_mb = s->mem_mb;
			n->mem_how = nv_metric[NODE_VALUE_MEM];
		} else
			missing |= n->mem_how == NULL;
	}
	n->values_read = !missing;
}

const char *
node_values_missing(const struct gs_node *n, char *buf, size_t len)
{
	size_t o = 0;
	int v;

	if (n->values_read || (n->cores_src != GS_SRC_MONITOR && n->mhz_src != GS_SRC_MONITOR &&
	    n->mem_src != GS_SRC_MONITOR))
		return NULL;
	if (n->have_metrics) {
		/* it answered, without what a value needs */
		for (v = NODE_VALUE_CORES; v <= NODE_VALUE_MEM; v++)
			if (nv_src(n, v) == GS_SRC_MONITOR && nv_how(n, v) == NULL)
				break;
		if (v > NODE_VALUE_MEM)
			return NULL;
		snprintf(buf, len, "its monitor %s serves no %s (for %s)", n->monitor,
		    nv_metric[v], nv_name[v]);
		return buf;
	}
	buf[0] = '\0';
	for (v = NODE_VALUE_CORES; v <= NODE_VALUE_MEM; v++)
		if (nv_src(n, v) == GS_SRC_MONITOR && o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o > 0 ? ", " : "",
			    nv_name[v]);
	if (o < len && n->stale != NULL)
		snprintf(buf + o, len - o, " left to its monitor, which cannot be read: %s",
		    n->stale);
	else if (o < len)
		snprintf(buf + o, len - o, " left to its monitor %s, which was not read "
		    "(metrics are off)", n->monitor);
	return buf;
}

const char *
node_value_source(const struct gs_node *n, enum node_value v, char *buf, size_t len)
{
	const char *how = nv_how(n, v);

	switch (nv_src(n, v)) {
	case GS_SRC_HOST:
		snprintf(buf, len, "this host: %s", how != NULL ? how : "not read");
		break;
	case GS_SRC_MONITOR:
		snprintf(buf, len, "monitor %s%s", n->monitor, how != NULL ? "" : ", not read");
		break;
	case GS_SRC_NONE:
		snprintf(buf, len, "not given");
		break;
	default:
		snprintf(buf, len, "site file");
		break;
	}
	return buf;
}

json_t *
node_values_json(const struct gs_node *n)
{
	json_t *o = json_object();
	char buf[1024];
	int v;

	for (v = NODE_VALUE_CORES; v <= NODE_VALUE_MEM; v++)
		json_object_set_new(o, nv_name[v], json_string(node_value_source(n, v, buf,
		    sizeof buf)));
	return o;
}
