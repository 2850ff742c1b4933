// The store kernel itself on the simulator, without the runtime's
// slot-mapping check in front of it: what a GPU does with every slot
// (DESIGN of uq_plan_store): a negative slot (padding) and a slot at or past
// num_blocks * block_size are skipped, never written, while the valid tokens
// around them get exactly the host encoder's bytes. The cache sits in a
// larger allocation whose bytes past the cache are poisoned too, so a write
// out of bounds shows even where the simulator would not fault.
//
// Every head dim; code objects: $UQ_KERNEL_DIR/store_d<D>.hsaco (uq-compile
// -o DIR).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj/codeobj.h"
#include "runtime/kernel_abi.h"
#include "sim/sim.h"
#include "tools/common/file_util.h"
#include "uq/format.h"
#include "uq_test.h"

enum { kHeads = 2, kBlock = 16, kBlocks = 3, kPadded = 552, kTokens = 7 };
// kPadded holds the largest slot (D = 512); smaller D leave more padding.
enum { kSlots = kBlocks * kBlock, kCacheBytes = kSlots * kHeads * kPadded };
enum { kGuardBytes = 64 * kHeads * kPadded }; // past the cache

static uint64_t rng;

static uint16_t random_bf16(void) {
  rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
  uint64_t r = rng * 0x2545F4914F6CDD1Dull;
  // Magnitudes over 2^-20..2^20 with random signs and mantissas.
  return (uint16_t)(((r >> 8) & 0x807F) | ((107 + (r % 41)) << 7));
}

// Packs the store kernel's explicit arguments at the metadata's offsets.
static int pack(const uq_kernel_info_t *k, const uint64_t *values,
                uint8_t *out) {
  UQ_EXPECT(k->arg_count >= UQ_STORE_ARG_COUNT &&
            k->kernarg_segment_size <= 256);
  memset(out, 0, k->kernarg_segment_size);
  for (uint32_t i = 0; i < UQ_STORE_ARG_COUNT; ++i) {
    const uq_kernarg_t *a = &k->args[i];
    UQ_EXPECT(a->size == 4 || a->size == 8);
    memcpy(out + a->offset, &values[i], a->size);
  }
  return 0;
}

static int skipped_slots_untouched(const char *dir, int D) {
  char path[1024], name[32];
  snprintf(path, sizeof(path), "%s/store_d%d.hsaco", dir, D);
  snprintf(name, sizeof(name), "uq_store_d%d", D);
  size_t size = 0;
  char *blob = NULL;
  UQ_EXPECT_OK(uq_file_read(path, &blob, &size));
  uq_sim_t *sim = NULL;
  uq_sim_program_t *program = NULL;
  UQ_EXPECT_OK(uq_sim_create(&sim));
  UQ_EXPECT_OK(uq_sim_program_load(sim, blob, size, &program));
  free(blob);
  const uq_kernel_info_t *kernel = NULL;
  UQ_EXPECT_OK(uq_code_object_find_kernel(uq_sim_program_code_object(program),
                                          name, &kernel));

  // K then V, each [kTokens, kHeads, D] (the arrays' 512 leave room).
  static uint16_t kv[2][kTokens][kHeads][512];
  for (size_t i = 0; i < sizeof(kv) / sizeof(kv[0][0][0][0]); ++i)
    (&kv[0][0][0][0])[i] = random_bf16();
  const uint16_t *key = &kv[0][0][0][0], *value = key + kTokens * kHeads * D;
  // Valid, padding, past the end, far past, valid, the last slot, INT64_MAX.
  const int64_t slots[kTokens] = {5,  -1,         kSlots,   kSlots + 1000,
                                  17, kSlots - 1, INT64_MAX};
  static uint8_t want[kCacheBytes + kGuardBytes], got[sizeof(want)];
  for (size_t i = 0; i < sizeof(want); ++i)
    want[i] = (uint8_t)(0x5A ^ (i * 13));
  for (int t = 0; t < kTokens; ++t)
    if (slots[t] >= 0 && slots[t] < kSlots)
      for (int h = 0; h < kHeads; ++h)
        uq_slot_encode(D, key + ((size_t)t * kHeads + h) * D,
                       value + ((size_t)t * kHeads + h) * D,
                       want + ((size_t)slots[t] * kHeads + h) * kPadded);

  uint64_t d_cache, d_kv, d_slots;
  UQ_EXPECT_OK(uq_sim_alloc(sim, sizeof(want), &d_cache));
  UQ_EXPECT_OK(uq_sim_alloc(sim, sizeof(kv), &d_kv));
  UQ_EXPECT_OK(uq_sim_alloc(sim, sizeof(slots), &d_slots));
  for (size_t i = 0; i < sizeof(got); ++i)
    got[i] = (uint8_t)(0x5A ^ (i * 13));
  UQ_EXPECT_OK(uq_sim_write(sim, d_cache, got, sizeof(got)));
  UQ_EXPECT_OK(uq_sim_write(sim, d_kv, kv, sizeof(kv)));
  UQ_EXPECT_OK(uq_sim_write(sim, d_slots, slots, sizeof(slots)));
  uint64_t args[UQ_STORE_ARG_COUNT] = {
      [UQ_STORE_ARG_KV_CACHE] = d_cache,
      [UQ_STORE_ARG_KEY] = d_kv,
      [UQ_STORE_ARG_VALUE] = d_kv + (uint64_t)kTokens * kHeads * D * 2,
      [UQ_STORE_ARG_SLOT_MAPPING] = d_slots,
      [UQ_STORE_ARG_NUM_KV_HEADS] = kHeads,
      [UQ_STORE_ARG_PADDED_SLOT] = kPadded,
      [UQ_STORE_ARG_NUM_SLOTS] = kSlots,
      [UQ_STORE_ARG_KEY_STRIDE_TOKEN] = kHeads * D,
      [UQ_STORE_ARG_KEY_STRIDE_HEAD] = D,
      [UQ_STORE_ARG_VALUE_STRIDE_TOKEN] = kHeads * D,
      [UQ_STORE_ARG_VALUE_STRIDE_HEAD] = D};
  uint8_t kernargs[256];
  if (pack(kernel, args, kernargs))
    return 1;
  uq_sim_launch_t launch = {.grid = {kTokens, kHeads, 1},
                            .workgroup = {64, 1, 1},
                            .kernargs = kernargs,
                            .kernarg_size = kernel->kernarg_segment_size};
  uq_sim_counters_t counters;
  UQ_EXPECT_OK(uq_sim_launch(sim, program, name, &launch, &counters));
  UQ_EXPECT_OK(uq_sim_read(sim, d_cache, got, sizeof(got)));
  // Three tokens stored for two heads: 6 slots of D + D/16 content bytes.
  UQ_EXPECT_EQ_INT(counters.global_bytes_written, 6 * UQ_SLOT_CONTENT_BYTES(D));
  for (size_t i = 0; i < sizeof(got); ++i)
    if (got[i] != want[i])
      UQ_TEST_FAIL_("D %d: byte %zu (%s) is 0x%02x, want 0x%02x", D, i,
                    i < kCacheBytes ? "in the cache" : "past the cache", got[i],
                    want[i]);
  uq_sim_program_destroy(program);
  uq_sim_destroy(sim);
  return 0;
}

static int test_skipped_slots_untouched(void) {
  const char *dir = getenv("UQ_KERNEL_DIR");
  if (!dir || !*dir)
    return UQ_TEST_SKIP;
  rng = uq_test_seed() | 1;
  static const int kHeadDims[] = {32, 64, 128, 256, 512};
  for (size_t d = 0; d < sizeof(kHeadDims) / sizeof(kHeadDims[0]); ++d)
    if (skipped_slots_untouched(dir, kHeadDims[d]))
      return 1;
  return 0;
}

static const uq_test_case_t tests[] = {
    {"skipped_slots_untouched", test_skipped_slots_untouched}, {0, 0}};

int main(int argc, char **argv) { return uq_test_main(argc, argv, tests); }
