/*
 * loadgen.c — the arrivals and sizes of a node's background jobs, shared by the testbed
 * and the simulation (loadgen.h). The uniform numbers are splitmix64's (Steele, Lea,
 * Flood 2014) from the seed mixed with the host's name (FNV-1a), so that a node's arrivals
 * depend on its name and not on its place in a placement or a site file, which the
 * testbed and the simulation count differently.
 */
#include <math.h>
#include <stdint.h>

#include "common/loadgen.h"

/* splitmix64: the next 64 bits of the stream *s. */
static uint64_t
loadgen_mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The host's name hashed (FNV-1a) into the first step of the seed's stream. */
void
loadgen_init(struct loadgen *g, uint64_t seed, const char *host)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *host != '\0'; host++)
		h = (h ^ (unsigned char)*host) * 0x100000001b3ULL;
	g->state = seed;
	g->state = loadgen_mix(&g->state) ^ h;
}

double
loadgen_next(struct loadgen *g, double interval)
{
	double u = (double)(loadgen_mix(&g->state) >> 11) * 0x1.0p-53;

	return -interval * log(1 - u);
}

double
loadgen_work(double cpus, double interval, double load)
{
	return cpus * interval * load / (1 + load);
}

int
loadgen_most(double load)
{
	return (int)floor(4 * load) + 4;
}
