// Seeded random numbers for the format and reference tests: splitmix64, a
// generator per test derived from the run's seed (uq_test_seed).
#ifndef UQ_TEST_UNIT_FORMAT_RNG_H_
#define UQ_TEST_UNIT_FORMAT_RNG_H_

#include "test/unit/uq_test.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct uq_rng_s {
  uint64_t state;
} uq_rng_t;

static inline uint64_t uq_rng_next(uq_rng_t *rng) {
  uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Uniform in [0, 1).
static inline double uq_rng_uniform(uq_rng_t *rng) {
  return (double)(uq_rng_next(rng) >> 11) * 0x1.0p-53;
}

// Standard normal (Box-Muller).
static inline double uq_rng_gauss(uq_rng_t *rng) {
  double u = uq_rng_uniform(rng), v = uq_rng_uniform(rng);
  if (u < 1e-300)
    u = 1e-300;
  return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

// A fresh generator for one test, derived from the run's seed and a salt.
static inline uq_rng_t uq_rng_for(uint64_t salt) {
  uq_rng_t rng = {uq_test_seed() ^ (salt * 0xD1B54A32D192ED03ull)};
  uq_rng_next(&rng);
  return rng;
}

#endif // UQ_TEST_UNIT_FORMAT_RNG_H_
