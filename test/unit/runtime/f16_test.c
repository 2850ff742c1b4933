// fp16 activations (since 0.9) through the public API on the host and sim
// backends: plans of query_dtype = output_dtype = F16 decode, run varlen
// steps and store fp16 K/V. Each run is held against the faithful
// reference (the e2e tolerance); the host backend, which is that reference,
// also against the exact (float64) reference in fp16 with a derived
// tolerance; each store against the host encoder byte for byte. On the
// simulator the gfx950 kernels take the dtype as their act_f16 argument:
// the query read as fp16, the output written as fp16 by the reduce (the
// decodes: P > 1) and by the decode itself (the varlen steps: P = 1), K and
// V read as fp16 by the store.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_case.h"
#include "uq/format.h"
#include "uq/reference.h"

static uint64_t seed;
static uq_context_t *host, *sim;

// The host run against the exact reference, both fp16: the faithful mode
// differs from the exact one by bf16(p) in PV, the bf16 partials, fp32
// softmax (reference_test.c's derivation: at most 3 * 2^-8 max|v_deq|,
// max|v_deq| <= 1.5 max|v|) and each side's final rounding, now fp16's
// (2^-11 |out| each, below bf16's 2^-8): |run - exact| <= 1.5 * 2^-6 max|v|
// holds with room.
static int check_against_exact(const uq_problem_t *p, const uint16_t *got,
                               const char *label) {
  const uq_decode_config_t *c = &p->config;
  const size_t Hq = (size_t)c->num_kv_heads * c->query_group;
  const size_t D = c->head_dim;
  uint16_t *exact = malloc((size_t)p->num_tokens * Hq * D * 2);
  UQ_EXPECT(exact != NULL);
  UQ_EXPECT_OK(uq_problem_exact(p, UQ_FP8_OVERFLOW_SATURATE, exact));
  size_t kv = 0;
  for (uint32_t b = 0; b < p->shape.batch; ++b)
    kv += (size_t)p->seq_lens[b] * c->num_kv_heads * D;
  float max_v = 0;
  for (size_t i = 0; i < kv; ++i)
    max_v = fmaxf(max_v, fabsf(uq_f16_to_float(p->v[i])));
  const double tol = 1.5 * ldexp(max_v, -6);
  double worst = 0;
  for (size_t t = 0; t < p->num_tokens; ++t)
    for (size_t h = 0; h < Hq; ++h)
      for (size_t d = 0; d < D; ++d) {
        double g = uq_f16_to_float(
            got[t * c->output_stride_seq + h * c->output_stride_head + d]);
        double e = uq_f16_to_float(exact[(t * Hq + h) * D + d]);
        double diff = fabs(g - e);
        worst = diff > worst ? diff : worst;
        if (!(diff <= tol)) {
          free(exact);
          UQ_TEST_FAIL_("%s: token %zu head %zu dim %zu: %g vs exact %g "
                        "(tol %g)",
                        label, t, h, d, g, e, tol);
        }
      }
  printf("  %-44s vs exact f16: worst %.3g, tolerance %.3g\n", label, worst,
         tol);
  free(exact);
  return 0;
}

// Runs the problem on the host (a decode or, with query_start_loc, a
// varlen step) into `got` (output_elems, poisoned first).
static int run_host(const uq_problem_t *p, uint16_t *got) {
  uq_plan_t *plan = NULL;
  uq_problem_device_t dev = {0};
  UQ_EXPECT_OK(uq_plan_create(host, &p->config, &plan));
  UQ_EXPECT_OK(uq_problem_upload(p, host, &dev));
  memset(got, 0xFF, p->output_elems * 2);
  UQ_EXPECT_OK(uq_context_upload(host, dev.output, got, p->output_elems * 2));
  if (p->query_start_loc)
    UQ_EXPECT_OK(uq_plan_run_varlen(
        plan, p->shape.batch, p->num_tokens, p->max_query_len, dev.query,
        dev.cache, dev.block_tables, dev.seq_lens, dev.query_start_loc,
        dev.sinks, dev.output, NULL));
  else
    UQ_EXPECT_OK(uq_plan_run_with_sinks(
        plan, p->shape.batch, dev.query, dev.cache, dev.block_tables,
        dev.seq_lens, dev.sinks, dev.output, NULL));
  UQ_EXPECT_OK(uq_context_download(host, got, dev.output, p->output_elems * 2));
  uq_problem_device_free(host, &dev);
  uq_plan_destroy(plan);
  return 0;
}

static uq_problem_shape_t f16_shape(uint32_t d) {
  return (uq_problem_shape_t){.batch = 3,
                              .num_kv_heads = 2,
                              .query_group = 4,
                              .head_dim = d,
                              .block_size = 16,
                              .max_seq = 300,
                              .spare_blocks = 2,
                              .shuffle = 1,
                              .fused_qkv = 1,
                              .padded_output = 1,
                              .seed = seed++,
                              .dtype = UQ_DTYPE_F16};
}

// Decodes of every head dim, with a window and sinks: the faithful
// reference in fp16 (the e2e tolerance) and the exact one.
static int test_decode_f16(void) {
  for (uint32_t d = 64; d <= 256; d *= 2) {
    for (int variant = 0; variant < 2; ++variant) {
      uq_problem_shape_t shape = f16_shape(d);
      shape.sinks = variant;
      shape.sliding_window = variant ? 100 : 0;
      char label[64];
      snprintf(label, sizeof label, "f16 decode D %u%s", d,
               variant ? " window 100, sinks" : "");
      if (uq_e2e_run_case(host, &shape, label))
        UQ_TEST_FAIL_("%s against the faithful reference", label);
      if (uq_e2e_run_case(sim, &shape, label))
        UQ_TEST_FAIL_("%s on the simulator", label);
      uq_problem_t *p = NULL;
      UQ_EXPECT_OK(uq_problem_create(&shape, &p));
      uint16_t *got = malloc(p->output_elems * 2);
      UQ_EXPECT(got != NULL);
      int rc = run_host(p, got) || check_against_exact(p, got, label);
      free(got);
      uq_problem_destroy(p);
      if (rc)
        return 1;
    }
  }
  return 0;
}

// A varlen step (decodes, a verify chunk, a first chunk, a long chunk).
static int test_varlen_f16(void) {
  static const int32_t lens[4] = {37, 300, 5, 200};
  static const int32_t q_lens[4] = {1, 17, 5, 64};
  for (uint32_t d = 64; d <= 256; d *= 4) {
    uq_problem_shape_t shape = f16_shape(d);
    shape.batch = 4;
    shape.seq_lens = lens;
    shape.query_lens = q_lens;
    shape.sinks = 1;
    char label[64];
    snprintf(label, sizeof label, "f16 varlen D %u", d);
    if (uq_e2e_run_varlen_case(host, &shape, 0, label))
      UQ_TEST_FAIL_("%s against the faithful reference", label);
    if (uq_e2e_run_varlen_case(sim, &shape, 0, label))
      UQ_TEST_FAIL_("%s on the simulator", label);
    uq_problem_t *p = NULL;
    UQ_EXPECT_OK(uq_problem_create(&shape, &p));
    uint16_t *got = malloc(p->output_elems * 2);
    UQ_EXPECT(got != NULL);
    int rc = run_host(p, got) || check_against_exact(p, got, label);
    free(got);
    uq_problem_destroy(p);
    if (rc)
      return 1;
  }
  return 0;
}

// uq_plan_store of fp16 K/V on `context`: the host encoder's bytes for
// fp16 tokens, and for values both dtypes hold, the bytes of the same
// values stored by a bf16 plan.
static int store_f16(uq_context_t *context) {
  enum { D = 128, H = 2, T = 9, BLOCKS = 2 };
  uq_cache_layout_t layout = {.num_blocks = BLOCKS,
                              .block_size = 16,
                              .num_kv_heads = H,
                              .padded_slot = 140,
                              .head_dim = D};
  size_t bytes = 0;
  UQ_EXPECT_OK(uq_cache_layout_size(&layout, &bytes));
  uint16_t kh[T * H * D], vh[T * H * D], kb[T * H * D], vb[T * H * D];
  int64_t slots[T];
  uint64_t state = seed++;
  for (int i = 0; i < T * H * D; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    // 8 significant bits, 2^-14 .. 2^8: exact in bf16 and fp16.
    float m = (float)(128 + (state >> 57)), e = (float)((state >> 40) % 22);
    float k = ldexpf(m, (int)e - 21), v = ldexpf(m, 7 - (int)e);
    k = (state >> 20) & 1 ? -k : k;
    kh[i] = uq_float_to_f16(k), vh[i] = uq_float_to_f16(v);
    kb[i] = uq_float_to_bf16(k), vb[i] = uq_float_to_bf16(v);
    UQ_EXPECT(uq_f16_to_float(kh[i]) == uq_bf16_to_float(kb[i]));
    UQ_EXPECT(uq_f16_to_float(vh[i]) == uq_bf16_to_float(vb[i]));
  }
  for (int t = 0; t < T; ++t)
    slots[t] = t == 4 ? -1 : (int64_t)(t * 3 + 1);
  uint8_t *want = malloc(bytes), *got_h = malloc(bytes), *got_b = malloc(bytes);
  UQ_EXPECT(want && got_h && got_b);
  memset(want, 0x5A, bytes);
  uq_kv_tokens_t tokens = {.key = kh,
                           .key_stride_token = H * D,
                           .key_stride_head = D,
                           .value = vh,
                           .value_stride_token = H * D,
                           .value_stride_head = D,
                           .slot_mapping = slots,
                           .num_tokens = T,
                           .dtype = UQ_DTYPE_F16};
  UQ_EXPECT_OK(uq_cache_write(&layout, want, bytes, &tokens));
  for (int pass = 0; pass < 2; ++pass) {
    const uq_dtype_t dtype = pass ? UQ_DTYPE_BF16 : UQ_DTYPE_F16;
    uint8_t *got = pass ? got_b : got_h;
    uq_decode_config_t config = {.num_kv_heads = H,
                                 .query_group = 4,
                                 .head_dim = D,
                                 .block_size = 16,
                                 .padded_slot = 140,
                                 .max_blocks_per_seq = 1,
                                 .num_blocks = BLOCKS,
                                 .max_batch = 1,
                                 .max_store_tokens = T,
                                 .query_dtype = dtype,
                                 .output_dtype = dtype};
    uq_plan_t *plan = NULL;
    UQ_EXPECT_OK(uq_plan_create(context, &config, &plan));
    uq_device_ptr_t d_k, d_v, d_slots, d_cache;
    UQ_EXPECT_OK(uq_context_alloc(context, sizeof kh, &d_k));
    UQ_EXPECT_OK(uq_context_alloc(context, sizeof vh, &d_v));
    UQ_EXPECT_OK(uq_context_alloc(context, sizeof slots, &d_slots));
    UQ_EXPECT_OK(uq_context_alloc(context, bytes, &d_cache));
    UQ_EXPECT_OK(uq_context_upload(context, d_k, pass ? kb : kh, sizeof kh));
    UQ_EXPECT_OK(uq_context_upload(context, d_v, pass ? vb : vh, sizeof vh));
    UQ_EXPECT_OK(uq_context_upload(context, d_slots, slots, sizeof slots));
    memset(got, 0x5A, bytes);
    UQ_EXPECT_OK(uq_context_upload(context, d_cache, got, bytes));
    UQ_EXPECT_OK(uq_plan_store(plan, T, d_k, d_v, d_slots, d_cache, NULL));
    UQ_EXPECT_OK(uq_context_download(context, got, d_cache, bytes));
    uq_context_free(context, d_k);
    uq_context_free(context, d_v);
    uq_context_free(context, d_slots);
    uq_context_free(context, d_cache);
    uq_plan_destroy(plan);
  }
  UQ_EXPECT(memcmp(got_h, want, bytes) == 0);
  UQ_EXPECT(memcmp(got_b, want, bytes) == 0);
  free(want), free(got_h), free(got_b);
  return 0;
}

static int test_host_store_f16(void) { return store_f16(host); }

static int test_sim_store_f16(void) { return store_f16(sim); }

static const uq_test_case_t tests[] = {{"decode_f16", test_decode_f16},
                                       {"varlen_f16", test_varlen_f16},
                                       {"host_store_f16", test_host_store_f16},
                                       {"sim_store_f16", test_sim_store_f16},
                                       {0, 0}};

static uq_context_t *open_context(uq_backend_t backend) {
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = backend;
  uq_context_t *context = NULL;
  uq_status_t status = uq_context_create(&options, &context);
  if (status) {
    fprintf(stderr, "cannot create the %s context: %s\n",
            backend == UQ_BACKEND_SIM ? "sim" : "host",
            uq_status_message(status));
    uq_status_free(status);
  }
  return context;
}

int main(int argc, char **argv) {
  seed = uq_test_seed();
  host = open_context(UQ_BACKEND_HOST);
  sim = open_context(UQ_BACKEND_SIM);
  int rc = host && sim ? uq_test_main(argc, argv, tests) : 1;
  if (host)
    uq_context_destroy(host);
  if (sim)
    uq_context_destroy(sim);
  return rc;
}
