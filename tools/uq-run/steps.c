// The serving loop of uq-run --steps: store, then decode, checked each step.
#include "tools/uq-run/steps.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uq/format.h"

static uint64_t next_random(uint64_t *state) { // splitmix64
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static float gaussian(uint64_t *state) {
  double u1 = (double)(next_random(state) >> 11) * 0x1p-53 + 0x1p-60;
  double u2 = (double)(next_random(state) >> 11) * 0x1p-53;
  return (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
}

// Host and device buffers of one step's new tokens.
typedef struct step_buffers_s {
  uint16_t *kv;   // [2][B, Hk, D]: K then V
  int64_t *slots; // [B]
  uint16_t *got, *want;
  double *scale;  // uq_problem_faithful's, for the tolerance
  uint8_t *cache; // device cache read back
  uq_device_ptr_t d_kv, d_slots;
} step_buffers_t;

static void release(uq_context_t *context, step_buffers_t *s) {
  free(s->kv);
  free(s->slots);
  free(s->got);
  free(s->want);
  free(s->scale);
  free(s->cache);
  uq_status_free(uq_context_free(context, s->d_kv));
  uq_status_free(uq_context_free(context, s->d_slots));
}

static void print_counters(uq_plan_t *plan) {
  uq_kernel_counters_t store, decode, reduce;
  uq_status_t a = uq_plan_last_store_counters(plan, &store);
  uq_status_t b = uq_plan_last_counters(plan, &decode, &reduce);
  if (!a && !b)
    printf("            sim store %" PRIu64 " wave-instr %" PRIu64
           " B written | decode %" PRIu64 " wave-instr %" PRIu64
           " B read | reduce %" PRIu64 " wave-instr\n",
           store.wave_instructions, store.global_bytes_written,
           decode.wave_instructions, decode.global_bytes_read,
           reduce.wave_instructions);
  uq_status_free(a);
  uq_status_free(b);
}

uq_status_t uq_run_steps(uq_context_t *context, uq_plan_t *plan,
                         uq_problem_t *p, const uq_problem_device_t *device,
                         uint32_t steps, uq_fp8_overflow_t rule,
                         const uq_launch_walk_t *walk, int *out_failed) {
  *out_failed = 0;
  const uq_decode_config_t *c = &p->config;
  uint32_t B = p->shape.batch, Hk = c->num_kv_heads, bs = c->block_size;
  size_t row = (size_t)B * Hk * c->head_dim;
  uint64_t rng = p->shape.seed ^ 0x5EED5EED5EEDull;
  step_buffers_t s = {0};
  s.kv = malloc(2 * row * sizeof(uint16_t));
  s.slots = malloc(B * sizeof(int64_t));
  s.got = malloc(p->output_elems * sizeof(uint16_t));
  s.want = malloc(p->output_elems * sizeof(uint16_t));
  s.scale = malloc(p->output_elems * sizeof(double));
  s.cache = malloc(p->cache_bytes);
  uq_status_t status = UQ_OK;
  if (!s.kv || !s.slots || !s.got || !s.want || !s.scale || !s.cache)
    status = UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  if (!status)
    status = uq_context_alloc(context, 2 * row * sizeof(uint16_t), &s.d_kv);
  if (!status)
    status = uq_context_alloc(context, B * sizeof(int64_t), &s.d_slots);
  for (uint32_t step = 1; step <= steps && !status; ++step) {
    for (size_t i = 0; i < 2 * row; ++i)
      s.kv[i] = uq_problem_from_float(p, gaussian(&rng));
    int64_t stored = 0;
    for (uint32_t b = 0; b < B; ++b) {
      int32_t pos = p->seq_lens[b];
      const int32_t *table =
          p->block_tables + (size_t)b * c->max_blocks_per_seq;
      s.slots[b] = (int64_t)table[pos / (int32_t)bs] * bs + pos % (int32_t)bs;
      ++stored;
    }
    // The oracle's cache first, the device's through the store kernel.
    uq_kv_tokens_t tokens = {
        .key = s.kv,
        .key_stride_token = (int64_t)Hk * (int64_t)c->head_dim,
        .key_stride_head = (int64_t)c->head_dim,
        .value = s.kv + row,
        .value_stride_token = (int64_t)Hk * (int64_t)c->head_dim,
        .value_stride_head = (int64_t)c->head_dim,
        .slot_mapping = s.slots,
        .num_tokens = B,
        .dtype = c->query_dtype};
    status = uq_cache_write(&p->layout, p->cache, p->cache_bytes, &tokens);
    if (!status)
      status =
          uq_context_upload(context, s.d_kv, s.kv, 2 * row * sizeof(uint16_t));
    if (!status)
      status =
          uq_context_upload(context, s.d_slots, s.slots, B * sizeof(int64_t));
    if (!status)
      status = uq_plan_store(plan, B, s.d_kv, s.d_kv + row * sizeof(uint16_t),
                             s.d_slots, device->cache, NULL);
    if (!status)
      status =
          uq_context_download(context, s.cache, device->cache, p->cache_bytes);
    if (status)
      break;
    size_t bad_bytes = 0;
    for (size_t i = 0; i < p->cache_bytes; ++i)
      bad_bytes += s.cache[i] != p->cache[i];

    for (uint32_t b = 0; b < B; ++b)
      p->seq_lens[b] += 1;
    status = uq_context_upload(context, device->seq_lens, p->seq_lens,
                               B * sizeof(int32_t));
    if (!status)
      status = uq_plan_run_with_sinks(plan, B, device->query, device->cache,
                                      device->block_tables, device->seq_lens,
                                      device->sinks, device->output, NULL);
    if (!status)
      status = uq_context_download(context, s.got, device->output,
                                   p->output_elems * sizeof(uint16_t));
    if (!status)
      status = uq_problem_faithful_walk(p, rule, walk, s.want, s.scale);
    if (status)
      break;
    uq_problem_error_t error;
    uq_problem_compare_bf16(p, s.got, s.want, s.scale, &error);
    int ok = bad_bytes == 0 && error.over_tol == 0 && error.nonfinite == 0;
    *out_failed |= !ok;
    printf("step %-6u stored %" PRId64 " tokens (cache %s) | decode "
           "max|err| %.3g, over tolerance %" PRIu64 " | %s\n",
           step, stored,
           bad_bytes ? "DIFFERS from the host encoder" : "= host encoder",
           error.max_abs, error.over_tol, ok ? "ok" : "FAIL");
    if (bad_bytes)
      printf("            %zu cache bytes differ\n", bad_bytes);
    print_counters(plan);
  }
  release(context, &s);
  return status;
}
