// Device memory of the simulator: allocation, lookup, bounds and errors.
#include <stdlib.h>
#include <time.h>

#include "sim/internal.h"
#include "sim/sim.h"
#include "uq_test.h"

static int test_alloc_read_write(void) {
  uq_sim_t *sim;
  UQ_EXPECT_OK(uq_sim_create(&sim));
  srand((unsigned)uq_test_seed());
  enum { N = 50 };
  uint64_t addr[N];
  size_t size[N];
  for (int i = 0; i < N; ++i) {
    size[i] = 1 + (size_t)(rand() % 5000);
    UQ_EXPECT_OK(uq_sim_alloc(sim, size[i], &addr[i]));
    UQ_EXPECT(addr[i] >= 0x100000000ull);
    if (i)
      UQ_EXPECT(addr[i] >= addr[i - 1] + size[i - 1]);
  }
  // Fresh memory reads as 0xCD.
  uint8_t b = 0;
  UQ_EXPECT_OK(uq_sim_read(sim, addr[3] + size[3] - 1, &b, 1));
  UQ_EXPECT_EQ_HEX(b, 0xCD);
  // Write a pattern to each and read it back, in random order.
  for (int k = 0; k < 200; ++k) {
    int i = rand() % N;
    size_t off = (size_t)rand() % size[i],
           len = 1 + (size_t)rand() % (size[i] - off);
    uint8_t *p = malloc(len), *q = malloc(len);
    for (size_t j = 0; j < len; ++j)
      p[j] = (uint8_t)rand();
    UQ_EXPECT_OK(uq_sim_write(sim, addr[i] + off, p, len));
    UQ_EXPECT_OK(uq_sim_read(sim, addr[i] + off, q, len));
    int same = memcmp(p, q, len) == 0;
    uq_sim_alloc_t found;
    UQ_EXPECT(uq_sim_memory_find_alloc(sim, addr[i] + off, len, &found));
    UQ_EXPECT_EQ_HEX(found.base, addr[i]);
    free(p);
    free(q);
    UQ_EXPECT(same);
  }
  // Past the end, before the start, between allocations: errors.
  UQ_EXPECT_CODE(uq_sim_read(sim, addr[5] + size[5] - 1, &b, 2),
                 UQ_STATUS_OUT_OF_RANGE);
  UQ_EXPECT_CODE(uq_sim_write(sim, addr[0] - 1, &b, 1), UQ_STATUS_OUT_OF_RANGE);
  UQ_EXPECT_CODE(uq_sim_read(sim, 0x1000, &b, 1), UQ_STATUS_OUT_OF_RANGE);
  uq_sim_alloc_t none;
  UQ_EXPECT(
      !uq_sim_memory_find_alloc(sim, addr[N - 1] + size[N - 1], 1, &none));
  // Free: the range is gone, the others stay.
  UQ_EXPECT_OK(uq_sim_free(sim, addr[7]));
  UQ_EXPECT_CODE(uq_sim_read(sim, addr[7], &b, 1), UQ_STATUS_OUT_OF_RANGE);
  UQ_EXPECT_CODE(uq_sim_free(sim, addr[7]), UQ_STATUS_NOT_FOUND);
  UQ_EXPECT_CODE(uq_sim_free(sim, addr[8] + 1), UQ_STATUS_NOT_FOUND);
  UQ_EXPECT_OK(uq_sim_read(sim, addr[8], &b, 1));
  UQ_EXPECT_OK(uq_sim_read(sim, addr[6], &b, 1));
  uq_sim_destroy(sim);
  return 0;
}

// A sparse allocation (several gigabytes, host pages backed on first write)
// still reads 0xCD where nothing was written, at its start, across chunk
// boundaries and at its last byte; written bytes read back.
static int test_sparse_poisoned(void) {
  uq_sim_t *sim;
  UQ_EXPECT_OK(uq_sim_create(&sim));
  const size_t size = ((size_t)5 << 30) + 12345;
  uint64_t a = 0;
  UQ_EXPECT_OK(uq_sim_alloc(sim, size, &a));
  const size_t probes[] = {0, ((size_t)2 << 20) - 1, (size_t)2 << 20,
                           (size_t)3 << 30, size - 1};
  for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); ++i) {
    uint8_t b = 0;
    UQ_EXPECT_OK(uq_sim_read(sim, a + probes[i], &b, 1));
    UQ_EXPECT_EQ_HEX(b, 0xCD);
  }
  const uint8_t pattern[3] = {1, 2, 3};
  uint8_t back[5] = {0};
  UQ_EXPECT_OK(uq_sim_write(sim, a + ((size_t)4 << 30), pattern, 3));
  UQ_EXPECT_OK(uq_sim_read(sim, a + ((size_t)4 << 30) - 1, back, 5));
  UQ_EXPECT_EQ_HEX(back[0], 0xCD);
  UQ_EXPECT(back[1] == 1 && back[2] == 2 && back[3] == 3);
  UQ_EXPECT_EQ_HEX(back[4], 0xCD);
  UQ_EXPECT_OK(uq_sim_free(sim, a));
  uq_sim_destroy(sim);
  return 0;
}

static int test_bad_arguments(void) {
  uq_sim_t *sim;
  UQ_EXPECT_CODE(uq_sim_create(NULL), UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_OK(uq_sim_create(&sim));
  uint64_t a;
  UQ_EXPECT_CODE(uq_sim_alloc(sim, (size_t)1 << 50, &a),
                 UQ_STATUS_RESOURCE_EXHAUSTED);
  UQ_EXPECT_CODE(uq_sim_alloc(NULL, 4, &a), UQ_STATUS_INVALID_ARGUMENT);
  UQ_EXPECT_CODE(uq_sim_program_load(sim, "x", 1, NULL),
                 UQ_STATUS_INVALID_ARGUMENT);
  uq_sim_program_t *p;
  static const uint8_t junk[64] = {1, 2, 3};
  uq_status_code_t c =
      uq_status_consume_code(uq_sim_program_load(sim, junk, sizeof(junk), &p));
  UQ_EXPECT(c == UQ_STATUS_DATA_LOSS || c == UQ_STATUS_INVALID_ARGUMENT);
  uq_sim_destroy(sim);
  return 0;
}

static const uq_test_case_t tests[] = {
    {"alloc_read_write", test_alloc_read_write},
    {"sparse_poisoned", test_sparse_poisoned},
    {"bad_arguments", test_bad_arguments},
    {0, 0},
};

int main(int argc, char **argv) { return uq_test_main(argc, argv, tests); }
