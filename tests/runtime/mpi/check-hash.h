/*
 * check-hash.h — the unit values of the MPI test programs: a unit's value is a hash of its
 * round's seed and its index (splitmix64's finaliser), so that a lost, doubled or
 * misplaced merge shows in every value that depends on it.
 */
#ifndef CHECK_HASH_H
#define CHECK_HASH_H

#include <stdint.h>

static inline uint64_t
mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static inline uint64_t
unit_value(uint64_t seed, int64_t u)
{
	return mix(seed ^ mix((uint64_t)u));
}

#endif
