/*
 * fuzz-metrics.c — libFuzzer target for the Prometheus text parser of the broker
 * (metrics_parse, broker/metrics.h), which reads whatever a node's exporter answers: a
 * broken or hostile one included. Every body must give a sample or a reason, and a sample
 * only numbers a ranking can use (no NaN, no negative count of cores).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "broker/metrics.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct metrics_sample s;
	char why[256];

	why[0] = '\0';
	if (metrics_parse((const char *)data, size, &s, why, sizeof why) != 0) {
		if (why[0] == '\0')
			abort();
		return 0;
	}
	if (isnan(s.load1) || s.cores < 0 || isnan(s.mhz) || isnan(s.max_mhz) ||
	    isnan(s.mem_mb))
		abort();
	return 0;
}
