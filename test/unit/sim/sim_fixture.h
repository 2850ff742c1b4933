// A simulator with one code object loaded from a file, and random inputs:
// the fixture of the simulator tests that run hand-written or foreign
// kernels.
#ifndef UQ_TEST_UNIT_SIM_SIM_FIXTURE_H_
#define UQ_TEST_UNIT_SIM_SIM_FIXTURE_H_

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "tools/common/file_util.h"

// The tests' random inputs: xorshift32, reproducible from a printed seed
// (each test seeds rng_state, never 0).
static uint32_t rng_state;
static inline uint32_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}
static inline float rndf(float lo, float hi) {
  return lo + (hi - lo) * (float)(rnd() >> 8) / 16777216.0f;
}

typedef struct fixture_s {
  uq_sim_t *sim;
  uq_sim_program_t *prog;
} fixture_t;

static inline uq_status_t fixture_open_path(fixture_t *f, const char *path) {
  memset(f, 0, sizeof(*f));
  char *buf = NULL;
  size_t size = 0;
  UQ_RETURN_IF_ERROR(uq_file_read(path, &buf, &size), "fixture");
  uq_status_t st = uq_sim_create(&f->sim);
  if (!st)
    st = uq_sim_program_load(f->sim, buf, size, &f->prog);
  free(buf);
  return st;
}

static inline void fixture_close(fixture_t *f) {
  uq_sim_program_destroy(f->prog);
  uq_sim_destroy(f->sim);
}

#endif // UQ_TEST_UNIT_SIM_SIM_FIXTURE_H_
