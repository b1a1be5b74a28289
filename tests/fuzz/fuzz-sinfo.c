/*
 * fuzz-sinfo.c — libFuzzer target for the Slurm inventory's parser (slurm_nodes_parse,
 * broker/slurm-nodes.h): what `sinfo --json` and `sinfo --format=%P` print on a login
 * host, which another Slurm version or a broken login shell may change. Every text gives
 * nodes each with a name and a state, or a reason; everything is freed.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "broker/slurm-nodes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct slurm_node *nodes = NULL;
	char *text, *part = NULL, why[256];
	size_t n = 0, i;

	if ((text = malloc(size + 1)) == NULL)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	why[0] = '\0';
	if (slurm_nodes_parse(text, &nodes, &n, &part, why, sizeof why) != 0) {
		if (why[0] == '\0')
			abort();
	} else {
		for (i = 0; i < n; i++)
			if (nodes[i].name == NULL || nodes[i].state == NULL)
				abort();
		slurm_nodes_free(nodes, n);
		free(part);
	}
	free(text);
	return 0;
}
