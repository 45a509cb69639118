/* SPDX-License-Identifier: GPL-2.0-only */
/* Small deterministic PRNG (splitmix64) so that `seed=N` reproduces a run's
 * choices (sampled CPU pairs, addresses). Not for anything cryptographic. */
#ifndef RINGLAB_LIB_RAND_H
#define RINGLAB_LIB_RAND_H

#include <stdint.h>

struct rng {
	uint64_t state;
};

static inline void rng_seed(struct rng *r, uint64_t seed)
{
	r->state = seed;
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, bound); bound > 0. */
static inline uint64_t rng_below(struct rng *r, uint64_t bound)
{
	return (uint64_t)(((unsigned __int128)rng_next(r) * bound) >> 64);
}

#endif
