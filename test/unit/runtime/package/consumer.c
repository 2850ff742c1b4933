// A server-side consumer of an installed libuqrt, found through pkg-config or
// find_package(uqrt) and linked against nothing else: it encodes a paged
// cache with the host API (uq/format.h), runs one decode step through a host
// context's plan (uq/uqrt.h, launch shape from uq/policy.h) and judges the
// output against the exact reference (uq/reference.h).
//
// Seeded from UQ_TEST_SEED (else the time), printed so a failure replays.
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <uq/format.h>
#include <uq/policy.h>
#include <uq/reference.h>
#include <uq/uqrt.h>

enum { kSeqs = 2, kKvHeads = 2, kGroup = 8, kBlock = 16, kBlocksPerSeq = 6 };
enum { kNumBlocks = kSeqs * kBlocksPerSeq + 3, kHeads = kKvHeads * kGroup };
// Head dim 128: a shape past the first kernels' 256, through the installed
// host API.
enum { kDim = 128, kMaxSeq = kBlock * kBlocksPerSeq };

static uint64_t rng_state;

static double uniform(void) { // splitmix64 -> [0, 1)
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

static uint16_t random_bf16(void) {
  double u1 = uniform() + 0x1p-60, u2 = uniform();
  return uq_float_to_bf16(
      (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2)));
}

static int fail_status(const char *what, uq_status_t status) {
  fprintf(stderr, "consumer: %s: %s\n", what, uq_status_message(status));
  uq_status_free(status);
  return 1;
}

// Everything the step needs, on the host.
typedef struct problem_s {
  uq_cache_layout_t layout;
  uint8_t *cache;
  size_t cache_bytes;
  uint16_t query[kSeqs * kHeads * kDim];
  int32_t tables[kSeqs * kBlocksPerSeq];
  int32_t lens[kSeqs];
  uint16_t got[kSeqs * kHeads * kDim];
  uint16_t want[kSeqs * kHeads * kDim];
} problem_t;

// Fills the cache through uq_cache_write, one sequence at a time, with the
// blocks in reverse order so block tables matter; checks one slot read back.
static int encode_cache(problem_t *p) {
  static uint16_t k[kMaxSeq * kKvHeads * kDim], v[kMaxSeq * kKvHeads * kDim];
  int64_t slots[kMaxSeq];
  for (int b = 0; b < kSeqs; ++b) {
    p->lens[b] = 1 + (int32_t)(uniform() * kMaxSeq);
    for (int i = 0; i < kBlocksPerSeq; ++i)
      p->tables[b * kBlocksPerSeq + i] = kNumBlocks - 1 - b * kBlocksPerSeq - i;
    for (int t = 0; t < p->lens[b]; ++t)
      slots[t] = (int64_t)p->tables[b * kBlocksPerSeq + t / kBlock] * kBlock +
                 t % kBlock;
    for (size_t i = 0; i < sizeof k / sizeof k[0]; ++i) {
      k[i] = random_bf16();
      v[i] = random_bf16();
    }
    uq_kv_tokens_t tokens = {.key = k,
                             .key_stride_token = kKvHeads * kDim,
                             .key_stride_head = kDim,
                             .value = v,
                             .value_stride_token = kKvHeads * kDim,
                             .value_stride_head = kDim,
                             .slot_mapping = slots,
                             .num_tokens = p->lens[b]};
    uq_status_t status =
        uq_cache_write(&p->layout, p->cache, p->cache_bytes, &tokens);
    if (status)
      return fail_status("uq_cache_write", status);
    // The last token of kv head 1, read back, equals its encode + decode.
    int t = p->lens[b] - 1;
    uint8_t slot[UQ_SLOT_CONTENT_BYTES(kDim)];
    float k_rot[kDim], v_dec[kDim], k_read[kDim], v_read[kDim];
    status = uq_slot_encode(kDim, &k[(t * kKvHeads + 1) * kDim],
                            &v[(t * kKvHeads + 1) * kDim], slot);
    if (!status)
      status = uq_slot_decode(kDim, slot, k_rot, v_dec);
    if (status)
      return fail_status("uq_slot_encode/decode", status);
    status = uq_cache_read_slot(&p->layout, p->cache, p->cache_bytes,
                                slots[t] / kBlock, (int32_t)(slots[t] % kBlock),
                                1, k_read, v_read);
    if (status)
      return fail_status("uq_cache_read_slot", status);
    if (memcmp(k_rot, k_read, sizeof k_rot) ||
        memcmp(v_dec, v_read, sizeof v_dec)) {
      fprintf(stderr, "consumer: slot read back differs from its encoding\n");
      return 1;
    }
  }
  for (size_t i = 0; i < sizeof p->query / sizeof p->query[0]; ++i)
    p->query[i] = random_bf16();
  return 0;
}

// One decode step through a host context's plan, into p->got.
static int run_plan(problem_t *p) {
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_HOST;
  uq_context_t *context = NULL;
  uq_status_t status = uq_context_create(&options, &context);
  if (status)
    return fail_status("uq_context_create", status);
  uq_decode_config_t config = {.num_kv_heads = kKvHeads,
                               .query_group = kGroup,
                               .head_dim = kDim,
                               .block_size = kBlock,
                               .padded_slot = UQ_SLOT_CONTENT_BYTES(kDim),
                               .max_blocks_per_seq = kBlocksPerSeq,
                               .num_blocks = kNumBlocks,
                               .max_batch = kSeqs};
  uq_plan_t *plan = NULL;
  uq_device_ptr_t buffers[5] = {0};
  const void *host[4] = {p->query, p->cache, p->tables, p->lens};
  size_t sizes[5] = {sizeof p->query, p->cache_bytes, sizeof p->tables,
                     sizeof p->lens, sizeof p->got};
  status = uq_plan_create(context, &config, &plan);
  for (int i = 0; i < 5 && !status; ++i)
    status = uq_context_alloc(context, sizes[i], &buffers[i]);
  for (int i = 0; i < 4 && !status; ++i)
    status = uq_context_upload(context, buffers[i], host[i], sizes[i]);
  if (!status)
    status = uq_plan_run(plan, kSeqs, buffers[0], buffers[1], buffers[2],
                         buffers[3], buffers[4], NULL);
  if (!status)
    status = uq_context_download(context, p->got, buffers[4], sizes[4]);
  for (int i = 0; i < 5; ++i)
    uq_status_free(uq_context_free(context, buffers[i]));
  uq_plan_destroy(plan);
  uq_context_destroy(context);
  return status ? fail_status("decode through the plan", status) : 0;
}

// Tolerance: the plan runs the kernel-faithful order (fp32 online softmax,
// bf16 P in the PV product, bf16 partials), the exact reference float64 with
// one final bf16 rounding: a few bf16 ulps of the element plus one of the
// row's scale, as uq-run's checks allow.
static int compare(const problem_t *p) {
  int bad = 0;
  for (int row = 0; row < kSeqs * kHeads; ++row) {
    double row_max = 0;
    for (int d = 0; d < kDim; ++d)
      row_max = fmax(row_max, fabs(uq_bf16_to_float(p->want[row * kDim + d])));
    for (int d = 0; d < kDim; ++d) {
      double want = uq_bf16_to_float(p->want[row * kDim + d]);
      double got = uq_bf16_to_float(p->got[row * kDim + d]);
      if (!(fabs(got - want) <= 0x1p-6 * fabs(want) + 0x1p-8 * row_max) &&
          bad++ < 5)
        fprintf(stderr, "consumer: row %d dim %d: got %g, want %g\n", row, d,
                got, want);
    }
  }
  return bad != 0;
}

int main(void) {
  uint32_t major = 0, minor = 0;
  uq_status_t status = uq_runtime_version(&major, &minor);
  if (status || major != UQRT_VERSION_MAJOR || minor < UQRT_VERSION_MINOR) {
    fprintf(stderr, "consumer: version mismatch\n");
    uq_status_free(status);
    return 1;
  }
  const char *env = getenv("UQ_TEST_SEED");
  rng_state = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
  printf("seed: UQ_TEST_SEED=%" PRIu64 "\n", rng_state);

  uq_launch_plan_t launch;
  status = uq_launch_policy(kSeqs, kBlocksPerSeq, kBlock, kDim, 0, &launch);
  if (status)
    return fail_status("uq_launch_policy", status);
  if ((int64_t)launch.num_partitions * launch.tgpp * 256 < kMaxSeq) {
    fprintf(stderr, "consumer: launch policy does not cover the sequence\n");
    return 1;
  }

  problem_t *p = calloc(1, sizeof *p);
  if (!p)
    return 1;
  p->layout = (uq_cache_layout_t){.num_blocks = kNumBlocks,
                                  .block_size = kBlock,
                                  .num_kv_heads = kKvHeads,
                                  .padded_slot = UQ_SLOT_CONTENT_BYTES(kDim),
                                  .head_dim = kDim};
  status = uq_cache_layout_size(&p->layout, &p->cache_bytes);
  int rc = status ? fail_status("uq_cache_layout_size", status) : 0;
  if (!rc && !(p->cache = calloc(1, p->cache_bytes)))
    rc = 1;
  if (!rc)
    rc = encode_cache(p);
  if (!rc)
    rc = run_plan(p);
  if (!rc) {
    uq_decode_problem_t exact = {.num_seqs = kSeqs,
                                 .query_group = kGroup,
                                 .cache = p->layout,
                                 .max_blocks_per_seq = kBlocksPerSeq,
                                 .softmax_scale =
                                     (float)(1.0 / sqrt((double)kDim)),
                                 .q_overflow = UQ_FP8_OVERFLOW_SATURATE,
                                 .query = p->query,
                                 .query_stride_seq = kHeads * kDim,
                                 .query_stride_head = kDim,
                                 .kv_cache = p->cache,
                                 .block_tables = p->tables,
                                 .seq_lens = p->lens,
                                 .output = p->want,
                                 .output_stride_seq = kHeads * kDim,
                                 .output_stride_head = kDim};
    status = uq_reference_decode_exact(&exact);
    rc = status ? fail_status("uq_reference_decode_exact", status) : compare(p);
  }
  free(p->cache);
  free(p);
  printf("uqrt %u.%u consumer: %s\n", major, minor, rc ? "FAIL" : "ok");
  return rc;
}
