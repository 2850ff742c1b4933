// 64-bit addressing end to end on the simulator (issue 13): a cache whose
// blocks lie past 4 GiB and a block table whose last row starts 8 GiB in
// (seq * max_blocks_per_seq = 2^31 entries), both sparse (sim allocations of
// a gigabyte and more back only the pages written). A kernel that forms the
// block offset or the table row offset in 32 bits reads the wrong memory or
// faults; the run is compared with the faithful reference over a compact
// copy of the same blocks. Also the plan-time bounds where the kernel's
// offsets stay 32-bit: a cache block past 2^31 - 1 bytes and a query group
// spanning past 2^31 - 1 bytes are OUT_OF_RANGE, naming the field.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test/unit/format/rng.h"
#include "uq/format.h"
#include "uq/reference.h"
#include "uq/uqrt.h"
#include "uq_test.h"

enum {
  kBatch = 129,               // the last sequence's row starts at 128 * 2^24
  kMaxBlocksPerSeq = 1 << 24, // the plan's largest row
  kBlockSize = 16,
  kQueryGroup = 6,
  kSeqLen = 40, // three blocks, the last one partly used
  kUsedBlocks = 3,
};
#define HEAD_DIM 256 // the head dim of the embedded kernels
#define SLOT_BYTES 272u
#define NUM_BLOCKS 1100000u // 1.1 M blocks of 4,352 bytes: 4.79 GB

static uq_context_t *context;

static uq_decode_config_t large_config(void) {
  return (uq_decode_config_t){.num_kv_heads = 1,
                              .query_group = kQueryGroup,
                              .head_dim = HEAD_DIM,
                              .block_size = kBlockSize,
                              .padded_slot = SLOT_BYTES,
                              .max_blocks_per_seq = kMaxBlocksPerSeq,
                              .num_blocks = NUM_BLOCKS,
                              .max_batch = kBatch,
                              // A window longer than the sequence changes no
                              // result but sizes P for 79 tokens, not 2^28:
                              // 2 partitions keep the reduce short.
                              .sliding_window = 64};
}

// bf16 bits of a standard normal sample.
static uint16_t gauss_bf16(uq_rng_t *rng) {
  return uq_float_to_bf16((float)uq_rng_gauss(rng));
}

static int test_cache_and_table_past_4gib(void) {
  const uint64_t block_bytes = (uint64_t)kBlockSize * SLOT_BYTES;
  // The blocks of the one long sequence: all past 2^32 bytes, out of order.
  const int32_t blocks[kUsedBlocks] = {NUM_BLOCKS - 1, 1000003,
                                       NUM_BLOCKS - 77};
  for (int i = 0; i < kUsedBlocks; ++i)
    UQ_EXPECT((uint64_t)blocks[i] * block_bytes > (1ull << 32));
  uq_rng_t rng = uq_rng_for(0x64B17);

  // Host data: the query of every sequence, K/V of the 40 tokens, and the
  // compact cache (kUsedBlocks blocks) the reference reads.
  const size_t q_elems = (size_t)kBatch * kQueryGroup * HEAD_DIM;
  const size_t kv_elems = (size_t)kSeqLen * HEAD_DIM;
  uint16_t *query = malloc(q_elems * 2), *k = malloc(kv_elems * 2),
           *v = malloc(kv_elems * 2);
  uint8_t *compact = malloc(kUsedBlocks * block_bytes);
  int64_t *slots = malloc(kSeqLen * sizeof(int64_t));
  uint16_t *got = malloc(q_elems * 2);
  uint16_t *ref = malloc((size_t)kQueryGroup * HEAD_DIM * 2);
  UQ_EXPECT(query && k && v && compact && slots && got && ref);
  for (size_t i = 0; i < q_elems; ++i)
    query[i] = gauss_bf16(&rng);
  for (size_t i = 0; i < kv_elems; ++i) {
    k[i] = gauss_bf16(&rng);
    v[i] = gauss_bf16(&rng);
  }
  for (int t = 0; t < kSeqLen; ++t)
    slots[t] = t;
  uq_cache_layout_t compact_layout = {.num_blocks = kUsedBlocks,
                                      .block_size = kBlockSize,
                                      .num_kv_heads = 1,
                                      .padded_slot = SLOT_BYTES,
                                      .head_dim = HEAD_DIM};
  memset(compact, 0xFF, kUsedBlocks * block_bytes);
  uq_kv_tokens_t tokens = {.key = k,
                           .key_stride_token = HEAD_DIM,
                           .key_stride_head = HEAD_DIM,
                           .value = v,
                           .value_stride_token = HEAD_DIM,
                           .value_stride_head = HEAD_DIM,
                           .slot_mapping = slots,
                           .num_tokens = kSeqLen};
  UQ_EXPECT_OK(uq_cache_write(&compact_layout, compact,
                              kUsedBlocks * block_bytes, &tokens));

  // Device: sparse cache and table; only the used blocks, the last row's
  // entries and the small buffers are written.
  uq_decode_config_t config = large_config();
  uq_plan_t *plan = NULL;
  UQ_EXPECT_OK(uq_plan_create(context, &config, &plan));
  uint32_t partitions, tgpp;
  UQ_EXPECT_OK(uq_plan_launch_shape(plan, kBatch, &partitions, &tgpp));
  uq_device_ptr_t d_cache = 0, d_table = 0, d_lens = 0, d_query = 0, d_out = 0;
  const uint64_t table_bytes = (uint64_t)kBatch * kMaxBlocksPerSeq * 4;
  UQ_EXPECT_OK(uq_context_alloc(context, NUM_BLOCKS * block_bytes, &d_cache));
  UQ_EXPECT_OK(uq_context_alloc(context, table_bytes, &d_table));
  UQ_EXPECT_OK(uq_context_alloc(context, kBatch * 4, &d_lens));
  UQ_EXPECT_OK(uq_context_alloc(context, q_elems * 2, &d_query));
  UQ_EXPECT_OK(uq_context_alloc(context, q_elems * 2, &d_out));
  for (int i = 0; i < kUsedBlocks; ++i)
    UQ_EXPECT_OK(
        uq_context_upload(context, d_cache + (uint64_t)blocks[i] * block_bytes,
                          compact + (size_t)i * block_bytes, block_bytes));
  // Rows 0..kBatch-2 are empty sequences: their entry 0 must still name a
  // valid block (uq_plan_run's contract); the rest stays poisoned.
  const int32_t block_zero = 0;
  for (int b = 0; b + 1 < kBatch; ++b)
    UQ_EXPECT_OK(uq_context_upload(
        context, d_table + (uint64_t)b * kMaxBlocksPerSeq * 4, &block_zero, 4));
  const uint64_t last_row = (uint64_t)(kBatch - 1) * kMaxBlocksPerSeq * 4;
  UQ_EXPECT(last_row >= (8ull << 30));
  UQ_EXPECT_OK(
      uq_context_upload(context, d_table + last_row, blocks, sizeof(blocks)));
  int32_t lens[kBatch] = {0};
  lens[kBatch - 1] = kSeqLen;
  UQ_EXPECT_OK(uq_context_upload(context, d_lens, lens, sizeof(lens)));
  UQ_EXPECT_OK(uq_context_upload(context, d_query, query, q_elems * 2));
  for (size_t i = 0; i < q_elems; ++i)
    got[i] = 0x7FC0; // NaN poison: an unwritten output element shows
  UQ_EXPECT_OK(uq_context_upload(context, d_out, got, q_elems * 2));
  UQ_EXPECT_OK(uq_plan_run(plan, kBatch, d_query, d_cache, d_table, d_lens,
                           d_out, NULL));
  UQ_EXPECT_OK(uq_context_download(context, got, d_out, q_elems * 2));

  // Oracle: the faithful reference on the compact cache, same P.
  const int32_t compact_table[kUsedBlocks] = {0, 1, 2};
  const int32_t compact_len = kSeqLen;
  uq_decode_problem_t problem = {
      .num_seqs = 1,
      .query_group = kQueryGroup,
      .cache = compact_layout,
      .max_blocks_per_seq = kUsedBlocks,
      .softmax_scale = 1.0f / 16,
      .q_overflow = UQ_FP8_OVERFLOW_NAN,
      .query = query + (size_t)(kBatch - 1) * kQueryGroup * HEAD_DIM,
      .query_stride_seq = kQueryGroup * HEAD_DIM,
      .query_stride_head = HEAD_DIM,
      .kv_cache = compact,
      .block_tables = compact_table,
      .seq_lens = &compact_len,
      .output = ref,
      .output_stride_seq = kQueryGroup * HEAD_DIM,
      .output_stride_head = HEAD_DIM,
      .sliding_window = 64,
  };
  uq_plan_info_t info;
  UQ_EXPECT_OK(uq_plan_query_info(plan, &info));
  if (info.e4m3_saturates)
    problem.q_overflow = UQ_FP8_OVERFLOW_SATURATE;
  UQ_EXPECT_OK(
      uq_reference_decode_faithful(&problem, (int32_t)partitions, 1, NULL));

  // Empty sequences output exact zeros; the long one matches the reference
  // within e2e_case.h's tolerance: |got - ref| <= 4 * 2^-8 |ref| + 2^-8 row
  // max (the kernel's fast exp2 against exp2f, bf16 partial and output).
  int zeros_wrong = 0, over_tol = 0;
  for (size_t i = 0; i < (size_t)(kBatch - 1) * kQueryGroup * HEAD_DIM; ++i)
    zeros_wrong += got[i] != 0;
  const uint16_t *last = got + (size_t)(kBatch - 1) * kQueryGroup * HEAD_DIM;
  double max_err = 0;
  for (int r = 0; r < kQueryGroup; ++r) {
    double row_max = 0;
    for (int d = 0; d < HEAD_DIM; ++d)
      row_max = fmax(row_max, fabs(uq_bf16_to_float(ref[r * HEAD_DIM + d])));
    for (int d = 0; d < HEAD_DIM; ++d) {
      double x = uq_bf16_to_float(last[r * HEAD_DIM + d]);
      double y = uq_bf16_to_float(ref[r * HEAD_DIM + d]);
      double e = fabs(x - y);
      if (!(e <= 4.0 / 256 * fabs(y) + row_max / 256))
        ++over_tol;
      if (e > max_err || isnan(e))
        max_err = e;
    }
  }
  printf("  cache %.2f GB, table %.2f GB, P=%u: max|err| %.3g, %d over tol, "
         "%d nonzero in empty rows\n",
         (double)NUM_BLOCKS * (double)block_bytes / 1e9,
         (double)table_bytes / 1e9, partitions, max_err, over_tol, zeros_wrong);
  uq_device_ptr_t all[] = {d_cache, d_table, d_lens, d_query, d_out};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i)
    uq_status_free(uq_context_free(context, all[i]));
  uq_plan_destroy(plan);
  free(query), free(k), free(v), free(compact), free(slots), free(got),
      free(ref);
  UQ_EXPECT_EQ_INT(over_tol, 0);
  UQ_EXPECT_EQ_INT(zeros_wrong, 0);
  return 0;
}

// Where the kernel keeps 32-bit offsets the plan bounds the product: a
// cache block (block_size x Hk x padded_slot, the 2^32 + 256-byte
// block) and a kv head's query rows.
static int test_plan_bounds_for_32_bit_offsets(void) {
  uq_decode_config_t config = large_config();
  config.max_blocks_per_seq = 64;
  config.max_batch = 4;
  config.num_blocks = 64;
  config.query_group = 8;
  config.padded_slot = 268435472; // 16 x 268435472 = 2^32 + 256 bytes
  uq_plan_t *plan = NULL;
  uq_status_t status = uq_plan_create(context, &config, &plan);
  UQ_EXPECT_EQ_INT(uq_status_code(status), UQ_STATUS_OUT_OF_RANGE);
  UQ_EXPECT(strstr(uq_status_message(status), "padded_slot 268435472"));
  uq_status_free(status);
  // The largest block that fits: 2^31 - 16 bytes is accepted by the bound
  // (block 16 x Hk 1 x (2^27 - 4)): plan creation gets past it.
  config.padded_slot = (1u << 27) - 4;
  status = uq_plan_create(context, &config, &plan);
  UQ_EXPECT_EQ_INT(uq_status_code(status), UQ_STATUS_OK);
  uq_plan_destroy(plan);
  plan = NULL;
  config.padded_slot = SLOT_BYTES;
  config.query_stride_head = (int64_t)1 << 28; // 7 rows x 2^29 bytes > 2^31
  config.query_stride_seq = 1; // one sequence: any seq stride is valid
  config.max_batch = 1;
  status = uq_plan_create(context, &config, &plan);
  UQ_EXPECT_EQ_INT(uq_status_code(status), UQ_STATUS_OUT_OF_RANGE);
  UQ_EXPECT(strstr(uq_status_message(status), "query_stride_head 268435456"));
  uq_status_free(status);
  return 0;
}

static const uq_test_case_t tests[] = {
    {"cache_and_table_past_4gib", test_cache_and_table_past_4gib},
    {"plan_bounds_for_32_bit_offsets", test_plan_bounds_for_32_bit_offsets},
    {0, 0}};

int main(int argc, char **argv) {
  uq_test_seed();
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_SIM;
  uq_status_t status = uq_context_create(&options, &context);
  if (status) {
    fprintf(stderr, "cannot create a sim context: %s\n",
            uq_status_message(status));
    uq_status_free(status);
    return 1;
  }
  int rc = uq_test_main(argc, argv, tests);
  uq_context_destroy(context);
  return rc;
}
