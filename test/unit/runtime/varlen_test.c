// Varlen attention (uq_plan_run_varlen, uq_reference_varlen_faithful):
// the references' causal rule against the decode they generalize, the
// kernels on the simulator against the faithful reference over every kind
// of step a server sends (decodes, verify chunks, long chunks, first
// chunks, mixes), the q_len = 1 case bit for bit against uq_plan_run, the
// padding rows, and the run's argument checks.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "e2e_case.h"
#include "uq/reference.h"

static uint64_t seed;
static uq_context_t *sim, *host;

static uq_problem_shape_t base_shape(void) {
  return (uq_problem_shape_t){.batch = 3,
                              .num_kv_heads = 2,
                              .query_group = 8,
                              .block_size = 16,
                              .max_seq = 300,
                              .spare_blocks = 3,
                              .shuffle = 1,
                              .fused_qkv = 1,
                              .seed = seed++};
}

// The exact reference's query token i of a sequence is the decode of a
// sequence cut to that token's positions (float64 over the same tokens in
// the same order: bit for bit), window and sinks included.
static int test_exact_is_truncated_decode(void) {
  static const int32_t lens[3] = {37, 300, 5};
  static const int32_t q_lens[3] = {5, 17, 5}; // the last a first chunk
  for (int window = 0; window <= 40; window += 40) {
    uq_problem_shape_t shape = base_shape();
    shape.seq_lens = lens;
    shape.query_lens = q_lens;
    shape.sliding_window = (uint32_t)window;
    shape.sinks = window > 0;
    uq_problem_t *p = NULL;
    UQ_EXPECT_OK(uq_problem_create(&shape, &p));
    const uint32_t D = p->config.head_dim;
    const uint32_t Hq = p->config.num_kv_heads * p->config.query_group;
    uint16_t *varlen = malloc((size_t)p->num_tokens * Hq * D * 2);
    uint16_t *one = malloc((size_t)Hq * D * 2);
    UQ_EXPECT(varlen && one);
    uq_decode_problem_t vp =
        uq_problem_reference_args(p, UQ_FP8_OVERFLOW_SATURATE, varlen);
    UQ_EXPECT_OK(uq_reference_decode_exact(&vp));
    for (uint32_t b = 0; b < shape.batch; ++b) {
      for (int32_t i = 0; i < q_lens[b]; ++i) {
        int64_t token = p->query_start_loc[b] + i;
        int32_t cut = lens[b] - q_lens[b] + i + 1;
        uq_decode_problem_t dp =
            uq_problem_reference_args(p, UQ_FP8_OVERFLOW_SATURATE, one);
        dp.num_seqs = 1;
        dp.query_start_loc = NULL;
        dp.query = p->query + token * p->config.query_stride_seq;
        dp.block_tables = p->block_tables + b * p->config.max_blocks_per_seq;
        dp.seq_lens = &cut;
        UQ_EXPECT_OK(uq_reference_decode_exact(&dp));
        UQ_EXPECT(memcmp(one, varlen + (size_t)token * Hq * D,
                         (size_t)Hq * D * 2) == 0);
      }
    }
    free(varlen);
    free(one);
    uq_problem_destroy(p);
  }
  return 0;
}

// Without a window a block's walk starts at position 0 whatever its first
// token, so each row meets the same tiles in the same partitions in the
// same order: the faithful result does not depend on the block size, bit
// for bit (a block only shares the tiles' loads). With a window the walk
// starts at the block's first token's window, so it may.
static int test_faithful_block_invariance(void) {
  static const int32_t lens[4] = {600, 33, 1, 290};
  static const int32_t q_lens[4] = {40, 33, 1, 7};
  uq_problem_shape_t shape = base_shape();
  shape.batch = 4;
  shape.max_seq = 600;
  shape.seq_lens = lens;
  shape.query_lens = q_lens;
  shape.sinks = 1;
  uq_problem_t *p = NULL;
  UQ_EXPECT_OK(uq_problem_create(&shape, &p));
  size_t n = p->output_elems;
  uint16_t *first = malloc(n * 2), *other = malloc(n * 2);
  UQ_EXPECT(first && other);
  const uq_launch_walk_t walks[2] = {{4, 1, 16}, {3, 2, 16}};
  for (int w = 0; w < 2; ++w) {
    UQ_EXPECT_OK(uq_problem_faithful_varlen(p, UQ_FP8_OVERFLOW_SATURATE,
                                            &walks[w], 1, first, NULL));
    static const int32_t blocks[4] = {2, 3, 8, 64};
    for (int k = 0; k < 4; ++k) {
      memset(other, 0xAB, n * 2);
      UQ_EXPECT_OK(uq_problem_faithful_varlen(
          p, UQ_FP8_OVERFLOW_SATURATE, &walks[w], blocks[k], other, NULL));
      UQ_EXPECT(memcmp(first, other, n * 2) == 0);
    }
  }
  free(first);
  free(other);
  uq_problem_destroy(p);
  return 0;
}

// Faithful against exact for varlen problems: the decode's tolerance
// (reference_test.c, compare_faithful: 1.5 * 2^-6 max|v|), since each query
// row is a decode over its own positions.
static int test_faithful_vs_exact(void) {
  static const int32_t lens[4] = {700, 16, 300, 9};
  static const int32_t q_lens[4] = {64, 16, 3, 9};
  for (int window = 0; window <= 100; window += 100) {
    uq_problem_shape_t shape = base_shape();
    shape.batch = 4;
    shape.max_seq = 700;
    shape.seq_lens = lens;
    shape.query_lens = q_lens;
    shape.sliding_window = (uint32_t)window;
    uq_problem_t *p = NULL;
    UQ_EXPECT_OK(uq_problem_create(&shape, &p));
    size_t n = p->output_elems;
    uint16_t *exact = malloc(n * 2), *faithful = malloc(n * 2);
    UQ_EXPECT(exact && faithful);
    UQ_EXPECT_OK(uq_problem_exact(p, UQ_FP8_OVERFLOW_SATURATE, exact));
    uq_launch_walk_t walk = {3, 2, 16};
    UQ_EXPECT_OK(uq_problem_faithful_varlen(p, UQ_FP8_OVERFLOW_SATURATE, &walk,
                                            8, faithful, NULL));
    float max_v = 0;
    size_t kv = 0;
    for (uint32_t b = 0; b < shape.batch; ++b)
      kv += (size_t)lens[b];
    for (size_t e = 0; e < kv * p->config.num_kv_heads * p->config.head_dim;
         ++e) {
      float a = fabsf(uq_bf16_to_float(p->v[e]));
      max_v = a > max_v ? a : max_v;
    }
    double tol = 1.5 * ldexp(max_v, -6), worst = 0;
    for (size_t e = 0; e < n; ++e) {
      double d =
          fabs(uq_bf16_to_float(exact[e]) - uq_bf16_to_float(faithful[e]));
      worst = d > worst ? d : worst;
    }
    printf("  window %d: worst |faithful - exact| %.3g, tolerance %.3g\n",
           window, worst, tol);
    UQ_EXPECT(worst <= tol);
    free(exact);
    free(faithful);
    uq_problem_destroy(p);
  }
  return 0;
}

// q_len 1 everywhere through uq_plan_run_varlen is uq_plan_run, bit for bit,
// on the sim and host backends (the same kernel, blocks of one token, the
// same walk).
static int test_decode_equivalence(void) {
  static const uint32_t dims[5] = {64, 128, 256, 512, 32};
  static const uint32_t groups[5] = {6, 8, 16, 5, 3};
  uq_context_t *contexts[2] = {sim, host};
  for (int c = 0; c < 2; ++c) {
    for (int k = 0; k < 5; ++k) {
      uq_problem_shape_t shape = base_shape();
      shape.batch = 5;
      shape.head_dim = dims[k];
      shape.query_group = groups[k];
      shape.sliding_window = k == 1 || k == 3 ? 100 : 0;
      shape.sinks = k >= 2;
      uq_problem_t *dp = NULL, *vp = NULL;
      UQ_EXPECT_OK(uq_problem_create(&shape, &dp));
      shape.query_len = 1;
      UQ_EXPECT_OK(uq_problem_create(&shape, &vp));
      uq_plan_t *plan = NULL;
      uq_decode_config_t config = vp->config;
      UQ_EXPECT_OK(uq_plan_create(contexts[c], &config, &plan));
      uq_problem_device_t d, v;
      UQ_EXPECT_OK(uq_problem_upload(dp, contexts[c], &d));
      UQ_EXPECT_OK(uq_problem_upload(vp, contexts[c], &v));
      UQ_EXPECT_OK(uq_plan_run_with_sinks(plan, shape.batch, d.query, d.cache,
                                          d.block_tables, d.seq_lens, d.sinks,
                                          d.output, NULL));
      UQ_EXPECT_OK(uq_plan_run_varlen(plan, shape.batch, vp->num_tokens, 1,
                                      v.query, v.cache, v.block_tables,
                                      v.seq_lens, v.query_start_loc, v.sinks,
                                      v.output, NULL));
      size_t n = dp->output_elems * 2;
      uint16_t *a = malloc(n), *b = malloc(n);
      UQ_EXPECT(a && b);
      UQ_EXPECT_OK(uq_context_download(contexts[c], a, d.output, n));
      UQ_EXPECT_OK(uq_context_download(contexts[c], b, v.output, n));
      UQ_EXPECT(memcmp(a, b, n) == 0);
      free(a);
      free(b);
      uq_problem_device_free(contexts[c], &d);
      uq_problem_device_free(contexts[c], &v);
      uq_plan_destroy(plan);
      uq_problem_destroy(dp);
      uq_problem_destroy(vp);
    }
  }
  return 0;
}

// Speculative-decoding verify chunks (q_len 2-16): one block a sequence,
// the KV read once for all its query tokens, causal inside the chunk.
static int test_verify_chunks(void) {
  static const uint32_t q_lens[4] = {2, 4, 5, 16};
  static const uint32_t groups[4] = {8, 16, 6, 1};
  int failed = 0;
  for (int i = 0; i < 4; ++i) {
    uq_problem_shape_t shape = base_shape();
    shape.query_len = q_lens[i];
    shape.query_group = groups[i];
    char label[64];
    snprintf(label, sizeof(label), "verify q_len %u QG %u", q_lens[i],
             groups[i]);
    failed |= uq_e2e_run_varlen_case(sim, &shape, 0, label);
  }
  return failed;
}

// Every head dim, with windows and sinks, blocks of several tiles.
static int test_head_dims_windows_sinks(void) {
  static const uint32_t dims[5] = {32, 64, 128, 256, 512};
  int failed = 0;
  for (int i = 0; i < 5; ++i) {
    for (int w = 0; w < 2; ++w) {
      uq_problem_shape_t shape = base_shape();
      shape.head_dim = dims[i];
      shape.query_len = 4;
      shape.block_size = 32;
      shape.sliding_window = w ? 37 : 0;
      shape.sinks = w;
      char label[64];
      snprintf(label, sizeof(label), "D %u q_len 4%s", dims[i],
               w ? " window 37, sinks" : "");
      failed |= uq_e2e_run_varlen_case(sim, &shape, 0, label);
    }
  }
  return failed;
}

// A serving step's mix: decodes, a verify chunk, a long chunk over a
// context and a first chunk (context 0), in one call; its long chunk needs
// several blocks, so the grid is vLLM's (blocks find their sequence).
static int test_mixed_batch(void) {
  static const int32_t lens[5] = {300, 45, 700, 130, 1};
  static const int32_t q_lens[5] = {1, 4, 150, 130, 1};
  int failed = 0;
  for (int w = 0; w < 2; ++w) {
    uq_problem_shape_t shape = base_shape();
    shape.batch = 5;
    shape.max_seq = 700;
    shape.seq_lens = lens;
    shape.query_lens = q_lens;
    shape.sliding_window = w ? 100 : 0;
    shape.sinks = 1;
    failed |= uq_e2e_run_varlen_case(sim, &shape, 0,
                                     w ? "mixed step, window 100"
                                       : "mixed step: decodes, verify, chunks");
  }
  // A max_query_len over what the decode block holds, on short queries:
  // the searched grid serves them too.
  static const int32_t short_q[5] = {1, 2, 3, 2, 1};
  uq_problem_shape_t shape = base_shape();
  shape.batch = 5;
  shape.max_seq = 700;
  shape.seq_lens = lens;
  shape.query_lens = short_q;
  failed |= uq_e2e_run_varlen_case(sim, &shape, 64,
                                   "short queries, max_query_len 64");
  return failed;
}

// Rows past query_start_loc[num_seqs] (a padded step's tokens) are not
// written, and the checks of the run's tables and sizes name the field.
static int test_padding_and_errors(void) {
  static const int32_t lens[2] = {50, 2};
  static const int32_t q_lens[2] = {3, 2}; // the second a first chunk
  uq_problem_shape_t shape = base_shape();
  shape.batch = 2;
  shape.seq_lens = lens;
  shape.query_lens = q_lens;
  uq_problem_t *p = NULL;
  UQ_EXPECT_OK(uq_problem_create(&shape, &p));
  uq_decode_config_t config = p->config;
  config.max_num_tokens = 8;
  config.max_query_len = 4;
  uq_plan_t *plan = NULL;
  UQ_EXPECT_OK(uq_plan_create(sim, &config, &plan));
  uq_problem_device_t d;
  UQ_EXPECT_OK(uq_problem_upload(p, sim, &d));
  // A query and output of 8 rows: 5 tokens and 3 of padding.
  const size_t qrow = (size_t)config.query_stride_seq,
               orow = (size_t)config.output_stride_seq;
  uq_device_ptr_t q8, o8;
  UQ_EXPECT_OK(uq_context_alloc(sim, 8 * qrow * 2, &q8));
  UQ_EXPECT_OK(uq_context_alloc(sim, 8 * orow * 2, &o8));
  uint16_t *buf = malloc(8 * (qrow > orow ? qrow : orow) * 2);
  UQ_EXPECT(buf);
  memset(buf, 0x3C, 8 * qrow * 2);
  memcpy(buf, p->query, 5 * qrow * 2);
  UQ_EXPECT_OK(uq_context_upload(sim, q8, buf, 8 * qrow * 2));
  memset(buf, 0xFF, 8 * orow * 2);
  UQ_EXPECT_OK(uq_context_upload(sim, o8, buf, 8 * orow * 2));
  UQ_EXPECT_OK(uq_plan_run_varlen(plan, 2, 8, 3, q8, d.cache, d.block_tables,
                                  d.seq_lens, d.query_start_loc, 0, o8, NULL));
  UQ_EXPECT_OK(uq_context_download(sim, buf, o8, 8 * orow * 2));
  for (size_t e = 5 * orow; e < 8 * orow; ++e)
    UQ_EXPECT_EQ_HEX(buf[e], 0xFFFF);
  for (size_t e = 0; e < config.head_dim; ++e)
    UQ_EXPECT(buf[e] != 0xFFFF);
  // Sizes: num_tokens and max_query_len within the plan's (0 tokens: an
  // empty step, threads_test.c).
  const uq_status_code_t inv = UQ_STATUS_INVALID_ARGUMENT,
                         oor = UQ_STATUS_OUT_OF_RANGE;
#define RUN(nt, mq, qsl)                                                       \
  uq_plan_run_varlen(plan, 2, (nt), (mq), q8, d.cache, d.block_tables,         \
                     d.seq_lens, (qsl), 0, o8, NULL)
  UQ_EXPECT_CODE(RUN(9, 3, d.query_start_loc), inv);
  UQ_EXPECT_CODE(RUN(8, 5, d.query_start_loc), inv);
  UQ_EXPECT_CODE(RUN(8, 0, d.query_start_loc), inv);
  UQ_EXPECT_CODE(RUN(8, 3, 0), inv);
  // A q_len over the run's max_query_len.
  UQ_EXPECT_CODE(RUN(8, 2, d.query_start_loc), oor);
  // Tables: decreasing offsets, a q_len over its seq_len, past num_tokens.
  uq_device_ptr_t bad;
  UQ_EXPECT_OK(uq_context_alloc(sim, 3 * sizeof(int32_t), &bad));
  const int32_t cases[4][3] = {{0, 3, 2}, {0, 3, 6}, {0, 3, 9}, {-1, 2, 4}};
  const char *names[4] = {"below", "seq_lens", "past", "negative"};
  for (int i = 0; i < 4; ++i) {
    UQ_EXPECT_OK(uq_context_upload(sim, bad, cases[i], sizeof(cases[i])));
    uq_status_t status = RUN(8, 4, bad);
    UQ_EXPECT(uq_status_code(status) == inv);
    const char *message = uq_status_message(status);
    UQ_EXPECT(strstr(message, "query_start_loc") != NULL);
    printf("  %s: %s\n", names[i], message);
    uq_status_free(status);
  }
#undef RUN
  UQ_EXPECT_OK(uq_context_free(sim, bad));
  UQ_EXPECT_OK(uq_context_free(sim, q8));
  UQ_EXPECT_OK(uq_context_free(sim, o8));
  free(buf);
  uq_problem_device_free(sim, &d);
  uq_plan_destroy(plan);
  uq_problem_destroy(p);
  return 0;
}

// A record's min_rows (since 0.9): the plan gives its kernel only runs
// whose longest query x QG reaches it; below, the largest block that
// serves the run, else a smaller one. The sim context's own table with the
// D 256 rows64 record marked min_rows 64: q_len 5 at QG 8 (40 rows) takes
// rows32 blocks instead of rows64, q_len 8 (64 rows) rows64, and a run on
// the marked table still matches the faithful reference.
static int test_min_rows_selection(void) {
  size_t count = 0;
  UQ_EXPECT_OK(uq_context_variant_count(sim, &count));
  uq_code_object_source_t *records = calloc(count, sizeof(*records));
  UQ_EXPECT(records != NULL);
  int marked = 0;
  for (size_t i = 0; i < count; ++i) {
    const uq_variant_record_t *r = NULL;
    UQ_EXPECT_OK(uq_context_variant(sim, i, &r));
    records[i] = *r;
    if (strcmp(r->variant, "decode_d256_rows64") == 0)
      records[i].min_rows = 64, marked = 1;
  }
  UQ_EXPECT(marked);
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_SIM;
  options.code_objects = records;
  options.code_object_count = count;
  uq_context_t *context = NULL;
  UQ_EXPECT_OK(uq_context_create(&options, &context));
  uq_problem_shape_t shape = base_shape();
  shape.query_len = 5;
  uq_problem_t *p = NULL;
  UQ_EXPECT_OK(uq_problem_create(&shape, &p));
  uq_decode_config_t config = p->config;
  config.max_query_len = 16;
  config.max_num_tokens = 48;
  uq_plan_t *plan = NULL;
  UQ_EXPECT_OK(uq_plan_create(context, &config, &plan));
  const uint32_t q_lens[3] = {5, 8, 16};
  const char *const want[3] = {"decode_d256_rows32", "decode_d256_rows64",
                               "decode_d256_rows64"};
  for (int i = 0; i < 3; ++i) {
    uq_varlen_shape_t vs;
    UQ_EXPECT_OK(uq_plan_varlen_shape(plan, 3, 3 * q_lens[i], q_lens[i], &vs));
    printf("  q_len %u x QG 8: %s, blocks of %u tokens\n", q_lens[i],
           vs.variant, vs.block_tokens);
    UQ_EXPECT_STREQ(vs.variant, want[i]);
  }
  uq_plan_destroy(plan);
  uq_problem_destroy(p);
  int failed = uq_e2e_run_varlen_case(context, &shape, 0,
                                      "q_len 5, rows64 marked min_rows 64");
  uq_context_destroy(context);
  free(records);
  return failed;
}

// The variant the plan takes for `shape`'s run (its longest query).
static int expect_variant(const uq_problem_shape_t *shape, const char *want) {
  uq_problem_t *p = NULL;
  UQ_EXPECT_OK(uq_problem_create(shape, &p));
  uq_plan_t *plan = NULL;
  UQ_EXPECT_OK(uq_plan_create(sim, &p->config, &plan));
  uq_varlen_shape_t vs;
  UQ_EXPECT_OK(uq_plan_varlen_shape(plan, shape->batch, p->num_tokens,
                                    p->max_query_len, &vs));
  UQ_EXPECT_STREQ(vs.variant, want);
  uq_plan_destroy(plan);
  uq_problem_destroy(p);
  return 0;
}

// The multi-wave blocks (kernels/attention_gfx950.mlir: 256 rows a
// workgroup, 4 or 8 waves sharing each KV tile through LDS), which the
// plan gives runs of at least their records' min_rows (longest query x
// QG): every head dim; QG 5, so a block of 51 tokens holds 255 rows and a
// wave's rows start inside a token; a chunk whose first row sits
// mid-tile (context 37) and spans several blocks, beside a decode and a
// short verify (blocks whose waves have few or no live rows); windows and
// sinks; P = 1 (rows written by the decode) and P > 1 (a long context:
// partials and the reduce). The output is poisoned first and checked
// against the faithful reference.
static int test_multi_wave_blocks(void) {
  static const uint32_t dims[3] = {64, 128, 256};
  static const char *const variants[3] = {"decode_mw_d64_rows256_waves4",
                                          "decode_mw_d128_rows256_waves4",
                                          "decode_mw_d256_rows256_waves8"};
  static const int32_t lens[3] = {37 + 120, 9, 1};
  static const int32_t q_lens[3] = {120, 4, 1};
  static const int32_t long_lens[2] = {7000, 3};
  static const int32_t long_q[2] = {30, 3};
  int failed = 0;
  for (int i = 0; i < 3; ++i) {
    for (int w = 0; w < 2; ++w) {
      uq_problem_shape_t shape = base_shape();
      shape.head_dim = dims[i];
      shape.query_group = 5;
      shape.batch = 3;
      shape.max_seq = 160;
      shape.seq_lens = lens;
      shape.query_lens = q_lens;
      shape.sliding_window = w ? 50 : 0;
      shape.sinks = w;
      failed |= expect_variant(&shape, variants[i]);
      char label[64];
      snprintf(label, sizeof(label), "waves D %u QG 5%s", dims[i],
               w ? " window 50, sinks" : "");
      failed |= uq_e2e_run_varlen_case(sim, &shape, 0, label);
    }
    // QG 16 (16 tokens a block) over a context of 7,000: partitions.
    uq_problem_shape_t shape = base_shape();
    shape.head_dim = dims[i];
    shape.query_group = 16;
    shape.batch = 2;
    shape.max_seq = 7000;
    shape.seq_lens = long_lens;
    shape.query_lens = long_q;
    shape.block_size = 64;
    failed |= expect_variant(&shape, variants[i]);
    char label[64];
    snprintf(label, sizeof(label), "waves D %u QG 16, context 7000", dims[i]);
    failed |= uq_e2e_run_varlen_case(sim, &shape, 0, label);
  }
  return failed;
}

static const uq_test_case_t tests[] = {
    {"exact_is_truncated_decode", test_exact_is_truncated_decode},
    {"faithful_block_invariance", test_faithful_block_invariance},
    {"faithful_vs_exact", test_faithful_vs_exact},
    {"decode_equivalence", test_decode_equivalence},
    {"verify_chunks", test_verify_chunks},
    {"head_dims_windows_sinks", test_head_dims_windows_sinks},
    {"mixed_batch", test_mixed_batch},
    {"padding_and_errors", test_padding_and_errors},
    {"min_rows_selection", test_min_rows_selection},
    {"multi_wave_blocks", test_multi_wave_blocks},
    {0, 0}};

int main(int argc, char **argv) {
  seed = uq_test_seed();
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_SIM;
  uq_status_t status = uq_context_create(&options, &sim);
  if (!status) {
    options.backend = UQ_BACKEND_HOST;
    status = uq_context_create(&options, &host);
  }
  if (status) {
    fprintf(stderr, "cannot create the contexts: %s\n",
            uq_status_message(status));
    uq_status_free(status);
    return 1;
  }
  int rc = uq_test_main(argc, argv, tests);
  uq_context_destroy(sim);
  uq_context_destroy(host);
  return rc;
}
