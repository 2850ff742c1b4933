// One cache-store case through the public API (uq_plan_store) against the
// host encoder (uq_cache_write), byte for byte, from the same poisoned
// cache: every stored slot's content matches and every other byte (slot
// padding, unwritten and skipped slots) keeps its poison. The value
// generators (Gaussian, heavy-tailed, adversarial) and the case table are
// shared by the simulator/host test (store_test.c) and the GPU test
// (cuda_store_test.c). A slot past the cache is OUT_OF_RANGE with nothing
// written on sim and host; on a GPU it is skipped and the rest stored.
#ifndef UQ_TEST_UNIT_RUNTIME_STORE_CASE_H_
#define UQ_TEST_UNIT_RUNTIME_STORE_CASE_H_

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "uq/format.h"
#include "uq/uqrt.h"
#include "uq_test.h"

static uint64_t rng; // the generators' state: seed it with uq_test_seed

static inline uint64_t next_random(void) { // splitmix64
  uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static inline double uniform(void) { return (next_random() >> 11) * 0x1p-53; }

static inline float gaussian(void) {
  double u1 = uniform() + 0x1p-60, u2 = uniform();
  return (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
}

static inline float bits_float(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

typedef enum values_e {
  VALUES_GAUSSIAN,
  VALUES_HEAVY_TAILED, // Gaussian / uniform: a Cauchy-like tail
  VALUES_ADVERSARIAL,  // per group: huge, subnormal, zero, NaN/inf, ties,
                       // exponent boundaries
} values_t;

// One bf16 element of group g (32 elements) of some row.
static inline uint16_t value_for(values_t kind, int g, int i,
                                 float group_scale) {
  switch (kind) {
  case VALUES_GAUSSIAN:
    return uq_float_to_bf16(gaussian() * group_scale);
  case VALUES_HEAVY_TAILED:
    return uq_float_to_bf16(gaussian() / (float)(uniform() + 1e-3) *
                            group_scale);
  case VALUES_ADVERSARIAL:
    break;
  }
  switch (g % 8) {
  case 0: // huge: near bf16's largest finite values
    return uq_float_to_bf16((float)(uniform() * 2 - 1) * 3.3e38f);
  case 1: // subnormal and tiny
    return (uint16_t)((next_random() & 0x807F) | (i == 3 ? 0x0080 : 0));
  case 2: // a zero group, with signs
    return (i & 1) ? 0x8000 : 0x0000;
  case 3: // one NaN or inf poisons the group into a zero group
    return i == 5 ? (uniform() < 0.5 ? 0x7FC0 : 0xFF80)
                  : uq_float_to_bf16(gaussian());
  case 4: { // FP4 midpoint ties: absmax 6 gives exponent 0, then +-k/4
    static const float ties[] = {0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5.0f};
    float v = i == 0 ? 6.0f : ties[i % 7];
    return uq_float_to_bf16((i & 2) ? -v : v);
  }
  case 5: { // s = 0.156 absmax next to 2^(k+1/2): bf16 absmax near
            // sqrt(2) 2^k / 0.156 (a few bf16 ulps either side)
    float a =
        bits_float(0x3FB504F3u) * ldexpf(1.0f, (int)(g % 40) - 20) / 0.156f;
    uint16_t b = uq_float_to_bf16(a);
    return i == 0 ? (uint16_t)(b + (next_random() % 5) - 2)
                  : uq_float_to_bf16(gaussian() * a * 0.2f);
  }
  case 6: // all equal (one level everywhere), negative
    return uq_float_to_bf16(-1.5f * group_scale);
  default: // mixed magnitudes within a group
    return uq_float_to_bf16(gaussian() * ldexpf(1.0f, (int)(i % 24) - 12));
  }
}

// A store case: T tokens of Hk heads into a cache of num_blocks x 16 slots
// of D + D/16 content bytes (rounded up to 4: UQ_SLOT_MIN_STRIDE) and
// `slot_padding` more.
typedef struct store_case_s {
  const char *label;
  values_t values;
  uint32_t tokens, heads, num_blocks, slot_padding;
  int fused;       // key/value as views of a [T, Hq + 2 Hk, D] tensor
  int skip_every;  // every n-th token maps to -1 (0: none)
  int repeat;      // token 1 repeats token 0's slot and data
  int past_cache;  // one slot past the cache: OUT_OF_RANGE, nothing written
  int max_tokens;  // plan's max_store_tokens (0: tokens)
  int want_status; // expected status code
} store_case_t;

enum { kBlock = 16, kQg = 8 };

static inline int uq_store_run_case(uq_context_t *context,
                                    const store_case_t *c, const int32_t D) {
  const uint32_t padded_slot = UQ_SLOT_MIN_STRIDE(D) + c->slot_padding;
  uint32_t hq = c->heads * kQg;
  uint32_t row_heads = c->fused ? hq + 2 * c->heads : c->heads;
  size_t tensor_elems = (size_t)c->tokens * row_heads * D;
  uint16_t *qkv = malloc(tensor_elems * 2);
  uint16_t *value_own = malloc((size_t)c->tokens * c->heads * D * 2);
  int64_t *slots = malloc(c->tokens * sizeof(int64_t));
  uq_cache_layout_t layout = {.num_blocks = c->num_blocks,
                              .block_size = kBlock,
                              .num_kv_heads = (int32_t)c->heads,
                              .padded_slot = (int32_t)padded_slot,
                              .head_dim = D};
  size_t cache_bytes = 0;
  UQ_EXPECT_OK(uq_cache_layout_size(&layout, &cache_bytes));
  uint8_t *want = malloc(cache_bytes), *got = malloc(cache_bytes);
  UQ_EXPECT(qkv && value_own && slots && want && got);
  for (size_t i = 0; i < cache_bytes; ++i)
    want[i] = (uint8_t)(0xA5 ^ (i * 7));

  // Key (and value, fused) data; distinct slots from a shuffled range.
  for (size_t r = 0; r < tensor_elems / D; ++r) {
    float scale = ldexpf(1.0f, (int)(next_random() % 16) - 8);
    for (int g = 0; g < D / 32; ++g)
      for (int i = 0; i < 32; ++i)
        qkv[r * D + g * 32 + i] =
            value_for(c->values, (int)(r * (D / 32) + g), i, scale);
  }
  for (size_t i = 0; i < (size_t)c->tokens * c->heads * D; ++i)
    value_own[i] = value_for(c->values, (int)(i / 32), (int)(i % 32), 1.0f);
  uint64_t num_slots = (uint64_t)c->num_blocks * kBlock;
  // Distinct slots: 2654435761 is prime, so t -> t * 2654435761 + 17 (in
  // 64 bits) is a permutation modulo any smaller num_slots. Two tokens in
  // one slot are the caller's mistake, written in an unspecified order on a
  // GPU: only the repeat case makes them, with equal data.
  for (uint32_t t = 0; t < c->tokens; ++t) {
    slots[t] = (int64_t)(((uint64_t)t * 2654435761u + 17) % num_slots);
    if (c->skip_every &&
        (int)(t % (uint32_t)c->skip_every) == c->skip_every - 1)
      slots[t] = -1 - (int64_t)(next_random() % 1000);
  }
  const uint16_t *key = c->fused ? qkv + (size_t)hq * D : qkv;
  const uint16_t *value =
      c->fused ? qkv + (size_t)(hq + c->heads) * D : value_own;
  int64_t k_stride_token = (int64_t)row_heads * D;
  int64_t v_stride_token = c->fused ? k_stride_token : (int64_t)c->heads * D;
  if (c->repeat && c->tokens > 1 && !c->fused) {
    slots[1] = slots[0];
    memcpy(qkv + k_stride_token, qkv, (size_t)c->heads * D * 2);
    memcpy(value_own + v_stride_token, value_own, (size_t)c->heads * D * 2);
  }
  if (c->past_cache)
    slots[c->tokens / 2] = (int64_t)num_slots + c->past_cache - 1;
  // A slot past the cache: OUT_OF_RANGE and nothing written on sim and
  // host, which read the mapping back first; on a GPU the kernel skips that
  // token and stores the others (uq_plan_store's contract).
  uq_backend_t backend;
  UQ_EXPECT_OK(uq_context_backend(context, &backend));
  const int gpu = backend == UQ_BACKEND_HIP || backend == UQ_BACKEND_CUDA;
  const int want_status = gpu && c->past_cache ? UQ_STATUS_OK : c->want_status;
  int64_t oracle_past = 0;
  if (gpu && c->past_cache) { // the host encoder skips it as the GPU does
    oracle_past = slots[c->tokens / 2];
    slots[c->tokens / 2] = -1;
  }

  // The oracle: the host encoder on the poisoned cache.
  memcpy(got, want, cache_bytes);
  uq_kv_tokens_t tokens = {.key = key,
                           .key_stride_token = k_stride_token,
                           .key_stride_head = D,
                           .value = value,
                           .value_stride_token = v_stride_token,
                           .value_stride_head = D,
                           .slot_mapping = slots,
                           .num_tokens = c->tokens};
  uq_status_t host_status = uq_cache_write(&layout, want, cache_bytes, &tokens);
  UQ_EXPECT_EQ_INT(uq_status_code(host_status), c->past_cache && !gpu
                                                    ? UQ_STATUS_OUT_OF_RANGE
                                                    : UQ_STATUS_OK);
  uq_status_free(host_status);
  if (oracle_past)
    slots[c->tokens / 2] = oracle_past;

  // The plan's store on the device.
  uq_decode_config_t config = {
      .num_kv_heads = c->heads,
      .query_group = kQg,
      .head_dim = D,
      .block_size = kBlock,
      .padded_slot = padded_slot,
      .max_blocks_per_seq = 1,
      .num_blocks = c->num_blocks,
      .max_batch = 1,
      .max_store_tokens = c->max_tokens ? (uint32_t)c->max_tokens : c->tokens,
      .key_stride_token = k_stride_token,
      .value_stride_token = v_stride_token};
  uq_plan_t *plan = NULL;
  UQ_EXPECT_OK(uq_plan_create(context, &config, &plan));
  uq_device_ptr_t d_qkv = 0, d_value = 0, d_slots = 0, d_cache = 0;
  UQ_EXPECT_OK(uq_context_alloc(context, tensor_elems * 2, &d_qkv));
  UQ_EXPECT_OK(uq_context_alloc(context, (size_t)c->tokens * c->heads * D * 2,
                                &d_value));
  UQ_EXPECT_OK(uq_context_alloc(context, c->tokens * 8, &d_slots));
  UQ_EXPECT_OK(uq_context_alloc(context, cache_bytes, &d_cache));
  UQ_EXPECT_OK(uq_context_upload(context, d_qkv, qkv, tensor_elems * 2));
  UQ_EXPECT_OK(uq_context_upload(context, d_value, value_own,
                                 (size_t)c->tokens * c->heads * D * 2));
  UQ_EXPECT_OK(uq_context_upload(context, d_slots, slots, c->tokens * 8));
  UQ_EXPECT_OK(uq_context_upload(context, d_cache, got, cache_bytes));
  uq_device_ptr_t d_key = d_qkv + (c->fused ? (uint64_t)hq * D * 2 : 0);
  uq_device_ptr_t d_val =
      c->fused ? d_qkv + (uint64_t)(hq + c->heads) * D * 2 : d_value;
  uq_status_t status =
      uq_plan_store(plan, c->tokens, d_key, d_val, d_slots, d_cache, NULL);
  int code = uq_status_code(status);
  if (code != want_status)
    fprintf(stderr, "%s, D %d: store: %s (%s)\n", c->label, D,
            uq_status_code_name(uq_status_code(status)),
            uq_status_message(status));
  uq_status_free(status);
  UQ_EXPECT_EQ_INT(code, want_status);
  UQ_EXPECT_OK(uq_context_download(context, got, d_cache, cache_bytes));

  if (code == UQ_STATUS_OK && backend == UQ_BACKEND_SIM) {
    uq_kernel_counters_t counters;
    UQ_EXPECT_OK(uq_plan_last_store_counters(plan, &counters));
    UQ_EXPECT(counters.workgroups == (uint64_t)c->tokens * c->heads);
    UQ_EXPECT(counters.wave_instructions > 0);
  }
  // A failed store writes nothing: the cache keeps its poison whatever the
  // host writer did.
  if (code != UQ_STATUS_OK)
    for (size_t i = 0; i < cache_bytes; ++i)
      want[i] = (uint8_t)(0xA5 ^ (i * 7));
  size_t first_bad = cache_bytes;
  for (size_t i = 0; i < cache_bytes && first_bad == cache_bytes; ++i)
    if (got[i] != want[i])
      first_bad = i;
  if (first_bad != cache_bytes) {
    size_t slot = first_bad / padded_slot;
    fprintf(stderr,
            "%s, D %d: byte %zu (slot %zu head %zu, offset %zu) is 0x%02x, "
            "the host encoder gives 0x%02x\n",
            c->label, D, first_bad, slot / c->heads, slot % c->heads,
            first_bad % padded_slot, got[first_bad], want[first_bad]);
  }
  UQ_EXPECT_EQ_INT(first_bad, cache_bytes);

  uq_context_free(context, d_qkv);
  uq_context_free(context, d_value);
  uq_context_free(context, d_slots);
  uq_context_free(context, d_cache);
  uq_plan_destroy(plan);
  free(qkv);
  free(value_own);
  free(slots);
  free(want);
  free(got);
  return 0;
}

static const store_case_t kCases[] = {
    {"gaussian", VALUES_GAUSSIAN, 24, 2, 4, 0, 0, 0, 0, 0, 0, UQ_STATUS_OK},
    {"heavy-tailed, padded slots", VALUES_HEAVY_TAILED, 20, 3, 3, 16, 0, 0, 0,
     0, 0, UQ_STATUS_OK},
    {"adversarial", VALUES_ADVERSARIAL, 40, 2, 4, 4, 0, 0, 0, 0, 0,
     UQ_STATUS_OK},
    {"fused QKV strides, skipped slots", VALUES_GAUSSIAN, 17, 2, 2, 0, 1, 3, 0,
     0, 0, UQ_STATUS_OK},
    {"repeated slot", VALUES_ADVERSARIAL, 9, 1, 2, 0, 0, 0, 1, 0, 0,
     UQ_STATUS_OK},
    {"slot past the cache", VALUES_GAUSSIAN, 8, 2, 2, 0, 0, 0, 0, 1, 0,
     UQ_STATUS_OUT_OF_RANGE},
    {"more tokens than max_store_tokens", VALUES_GAUSSIAN, 8, 1, 2, 0, 0, 0, 0,
     0, 4, UQ_STATUS_INVALID_ARGUMENT},
};

static const int32_t kHeadDims[] = {64, 128, 256};

#endif // UQ_TEST_UNIT_RUNTIME_STORE_CASE_H_
