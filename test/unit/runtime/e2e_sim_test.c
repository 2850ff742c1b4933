// The end-to-end matrix (docs/design.md, "Testing") through the public API
// on the sim backend: the embedded code objects run on the simulator and are
// compared with the host kernel-faithful reference (tolerance in
// e2e_case.h).
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "e2e_case.h"

static uint64_t seed;
static uq_context_t *context;

static uq_problem_shape_t base_shape(void) {
  return (uq_problem_shape_t){.batch = 3,
                              .num_kv_heads = 1,
                              .query_group = 8,
                              .block_size = 16,
                              .padded_slot = 272,
                              .max_seq = 300,
                              .spare_blocks = 3,
                              .shuffle = 1,
                              .seed = seed++};
}

static int test_query_groups(void) {
  static const int32_t lens[3] = {1, 17, 257};
  static const uint32_t groups[3] = {6, 8, 16};
  int failed = 0;
  for (int i = 0; i < 3; ++i) {
    uq_problem_shape_t shape = base_shape();
    shape.query_group = groups[i];
    shape.num_kv_heads = 2;
    shape.seq_lens = lens;
    shape.max_seq = 257;
    char label[64];
    snprintf(label, sizeof(label), "QG=%u Hk=2 lens 1,17,257", groups[i]);
    failed |= uq_e2e_run_case(context, &shape, label);
  }
  return failed;
}

static int test_block_sizes(void) {
  static const int32_t lens[3] = {15, 256, 300};
  int failed = 0;
  for (uint32_t bs = 16; bs <= 256; bs *= 2) {
    uq_problem_shape_t shape = base_shape();
    shape.block_size = bs;
    shape.seq_lens = lens;
    char label[64];
    snprintf(label, sizeof(label), "block_size=%u lens 15,256,300", bs);
    failed |= uq_e2e_run_case(context, &shape, label);
  }
  return failed;
}

static int test_ragged_seq_lens(void) {
  static const int32_t lens[8] = {1, 15, 16, 17, 255, 256, 257, 1500};
  uq_problem_shape_t shape = base_shape();
  shape.batch = 8;
  shape.seq_lens = lens;
  shape.max_seq = 1500;
  return uq_e2e_run_case(context, &shape, "lens 1,15,16,17,255,256,257,1500");
}

static int test_zero_length_sequence(void) {
  static const int32_t lens[2] = {0, 40};
  uq_problem_shape_t shape = base_shape();
  shape.batch = 2;
  shape.seq_lens = lens;
  shape.max_seq = 40;
  return uq_e2e_run_case(context, &shape, "lens 0,40 (empty sequence)");
}

static int test_sequential_table_and_padded_slot(void) {
  uq_problem_shape_t shape = base_shape();
  shape.shuffle = 0;
  int failed = uq_e2e_run_case(context, &shape, "sequential block table");
  shape = base_shape();
  shape.padded_slot = 288;
  failed |= uq_e2e_run_case(context, &shape, "padded_slot=288");
  return failed;
}

static int test_fused_qkv_strides(void) {
  uq_problem_shape_t shape = base_shape();
  shape.fused_qkv = 1;
  shape.num_kv_heads = 2;
  int failed = uq_e2e_run_case(context, &shape, "fused QKV query strides");
  shape = base_shape();
  shape.padded_output = 1;
  shape.num_kv_heads = 3;
  shape.query_group = 6;
  failed |= uq_e2e_run_case(context, &shape, "padded output strides, Hk=3");
  return failed;
}

// P and TGPP at their extremes: P = 2 for a short table; P = 512 for
// batch <= 8 and a 98,304-token table; P = 256 with TGPP = 2 for batch 9
// and a 131,072-token table (the tables are wide, the sequences short, so
// most partitions are empty: they must write out 0 / -inf / 0).
static int test_partition_extremes(void) {
  uq_problem_shape_t shape = base_shape();
  shape.max_seq = 100;
  int failed = uq_e2e_run_case_shaped(context, &shape,
                                      "P minimum (100-token table)", 2, 1);
  shape = base_shape();
  shape.batch = 1;
  shape.max_seq = 700;
  shape.extra_blocks = 98304 / 16 - 44;
  failed |= uq_e2e_run_case_shaped(context, &shape,
                                   "P=512 (B=1, 98304-token table)", 512, 1);
  shape = base_shape();
  shape.batch = 9;
  shape.max_seq = 600;
  shape.extra_blocks = 131072 / 16 - 38;
  failed |= uq_e2e_run_case_shaped(
      context, &shape, "P=256 TGPP=2 (B=9, 131072-token table)", 256, 2);
  return failed;
}

// TGPP = 2 with tokens in both tile-groups of a partition: one sequence
// past 256 partitions x 256 tokens, so partition p walks tile-groups p and
// p + 256 (the strided walk) with data in both.
static int test_second_tile_group_walk(void) {
  static const int32_t lens[9] = {5, 300, 17, 1, 256, 64, 99, 1000, 65836};
  uq_problem_shape_t shape = base_shape();
  shape.batch = 9;
  shape.seq_lens = lens;
  shape.max_seq = 65836;
  return uq_e2e_run_case_shaped(
      context, &shape, "TGPP=2 with data (B=9, one 65836-token seq)", 256, 2);
}

// Sliding windows of 1, 15, 16, 17, 256, 257 tokens and one longer than
// every sequence, over ragged lens; the cache slots before each window are
// 0xFF (problem.h), so a kernel that reads them gives NaN. The policy sizes
// P/TGPP from min(max_seq, W + 15) (P = 2 up to W = 369, 8 for W = 4000);
// decode_sim_test.c runs windows under fixed P/TGPP down to the coverage
// limit.
static int test_sliding_windows(void) {
  static const int32_t lens[8] = {1, 15, 16, 17, 255, 256, 257, 1500};
  static const uint32_t windows[] = {1, 15, 16, 17, 256, 257, 4000};
  int failed = 0;
  for (size_t i = 0; i < sizeof(windows) / sizeof(windows[0]); ++i) {
    uq_problem_shape_t shape = base_shape();
    shape.batch = 8;
    shape.seq_lens = lens;
    shape.max_seq = 1500;
    shape.sliding_window = windows[i];
    shape.query_group = i % 2 ? 6 : 16;
    shape.block_size = 16u << (i % 3);
    char label[64];
    snprintf(label, sizeof(label), "window %u, QG %u, bs %u", windows[i],
             shape.query_group, shape.block_size);
    failed |= uq_e2e_run_case(context, &shape, label);
  }
  return failed;
}

// A 300-token window on a 98,304-token table: the policy's P follows the
// window (2 partitions), not the table (512), and the walk still reaches a
// 65,000-token sequence's window.
static int test_window_on_wide_table(void) {
  static const int32_t lens[2] = {65000, 40};
  uq_problem_shape_t shape = base_shape();
  shape.batch = 2;
  shape.seq_lens = lens;
  shape.max_seq = 65000;
  shape.extra_blocks = 98304 / 16 - 65000 / 16 - 1;
  shape.sliding_window = 300;
  return uq_e2e_run_case(context, &shape, "window 300, 98304-token table");
}

// Attention sinks (random, every fifth head -inf) with and without a
// window; an empty sequence with sinks outputs zeros.
static int test_sinks(void) {
  static const int32_t lens[6] = {0, 1, 17, 256, 257, 700};
  int failed = 0;
  for (uint32_t qg = 6; qg <= 16; qg += qg == 6 ? 2 : 8) {
    uq_problem_shape_t shape = base_shape();
    shape.batch = 6;
    shape.num_kv_heads = 2;
    shape.query_group = qg;
    shape.seq_lens = lens;
    shape.max_seq = 700;
    shape.sinks = 1;
    char label[64];
    snprintf(label, sizeof(label), "sinks, QG %u", qg);
    failed |= uq_e2e_run_case(context, &shape, label);
    shape.sliding_window = 100;
    snprintf(label, sizeof(label), "sinks and window 100, QG %u", qg);
    failed |= uq_e2e_run_case(context, &shape, label);
  }
  return failed;
}

// The kernel's E4M3 overflow rule (FP16_OVFL in its descriptor) reaches
// the host reference: a query large enough that |q_rot| > 448 gives the
// same output on both sides, and the opposite rule would not match. Every
// code object saturates (issue 10 item 6): the output is finite and close to
// the exact reference under that rule (relative RMS <= 1/32: bf16 P in the
// PV product and bf16 partials, as in the kernel tests).
static int test_e4m3_overflow_rule(void) {
  uq_problem_shape_t shape = base_shape();
  shape.query_scale = 3000.0f;
  uq_problem_t *problem = NULL;
  uq_plan_t *plan = NULL;
  uq_problem_device_t d = {0};
  UQ_EXPECT_OK(uq_problem_create(&shape, &problem));
  UQ_EXPECT_OK(uq_plan_create(context, &problem->config, &plan));
  uq_plan_info_t info;
  uint32_t p, tgpp;
  UQ_EXPECT_OK(uq_plan_query_info(plan, &info));
  UQ_EXPECT_OK(uq_plan_launch_shape(plan, shape.batch, &p, &tgpp));
  UQ_EXPECT_OK(uq_problem_upload(problem, context, &d));
  UQ_EXPECT_OK(uq_plan_run(plan, shape.batch, d.query, d.cache, d.block_tables,
                           d.seq_lens, d.output, NULL));
  size_t n = problem->output_elems;
  uint16_t *got = malloc(n * 2), *same = malloc(n * 2), *other = malloc(n * 2);
  UQ_EXPECT(got && same && other);
  UQ_EXPECT_OK(uq_context_download(context, got, d.output, n * 2));
  uq_fp8_overflow_t rule =
      info.e4m3_saturates ? UQ_FP8_OVERFLOW_SATURATE : UQ_FP8_OVERFLOW_NAN;
  uq_fp8_overflow_t opposite =
      info.e4m3_saturates ? UQ_FP8_OVERFLOW_NAN : UQ_FP8_OVERFLOW_SATURATE;
  UQ_EXPECT_OK(uq_problem_faithful(problem, rule, (int32_t)p, (int32_t)tgpp,
                                   same, NULL));
  UQ_EXPECT_OK(uq_problem_faithful(problem, opposite, (int32_t)p, (int32_t)tgpp,
                                   other, NULL));
  uq_problem_error_t match, mismatch, vs_exact;
  uq_problem_compare_bf16(problem, got, same, NULL, &match);
  uq_problem_compare_bf16(problem, got, other, NULL, &mismatch);
  UQ_EXPECT_OK(uq_problem_exact(problem, rule, same));
  uq_problem_compare_bf16(problem, got, same, NULL, &vs_exact);
  printf("  vs exact (saturating): relative RMS %.4g, %llu non-finite\n",
         vs_exact.rel_rms, (unsigned long long)vs_exact.nonfinite);
  printf("  rule %s: %llu non-finite, %llu over tol; opposite rule: %llu "
         "over tol\n",
         info.e4m3_saturates ? "saturate" : "NaN",
         (unsigned long long)match.nonfinite,
         (unsigned long long)match.over_tol,
         (unsigned long long)mismatch.over_tol);
  free(got);
  free(same);
  free(other);
  uq_problem_device_free(context, &d);
  uq_plan_destroy(plan);
  uq_problem_destroy(problem);
  UQ_EXPECT_EQ_INT(info.e4m3_saturates, 1);
  UQ_EXPECT_EQ_INT(match.over_tol, 0);
  UQ_EXPECT_EQ_INT(match.nonfinite, 0);
  UQ_EXPECT(vs_exact.rel_rms <= 1.0 / 32);
  UQ_EXPECT(mismatch.over_tol > 0);
  return 0;
}

// A NaN or infinite query element makes its query head's output non-finite
// in every element, on the kernel and on both host references (an infinite
// element is made NaN before the E4M3 conversion); every other head stays
// finite. The kernels saturate E4M3, so a finite element that rotates past
// 464 gives +-448 and a finite head, on all three alike. (Before issue 13
// the reduce dropped the NaN partitions and printed a plausible all-zero
// row.)
static int test_non_finite_query(void) {
  uq_problem_shape_t shape = base_shape();
  shape.num_kv_heads = 2;
  shape.max_kv_splits = 4; // several partitions, so the reduce's rule counts
  shape.max_seq = 1200;
  uq_problem_t *problem = NULL;
  UQ_EXPECT_OK(uq_problem_create(&shape, &problem));
  const uint32_t hq = shape.num_kv_heads * shape.query_group;
  // (sequence, query head, element, bf16 bits)
  static const struct {
    uint32_t seq, head, elem;
    uint16_t bits;
  } poison[] = {{0, 1, 5, 0x7FC0},    // NaN
                {1, 10, 0, 0x7F80},   // +inf
                {2, 3, 255, 0xFF80},  // -inf
                {2, 12, 77, 0x7149}}; // ~1e30: |q_rot| > 464, saturates
  const size_t n_poison = sizeof(poison) / sizeof(poison[0]);
  for (size_t i = 0; i < n_poison; ++i)
    problem->query[poison[i].seq * problem->config.query_stride_seq +
                   poison[i].head * problem->config.query_stride_head +
                   poison[i].elem] = poison[i].bits;
  uq_plan_t *plan = NULL;
  uq_problem_device_t d = {0};
  uq_plan_info_t info;
  uint32_t p, tgpp;
  UQ_EXPECT_OK(uq_plan_create(context, &problem->config, &plan));
  UQ_EXPECT_OK(uq_plan_query_info(plan, &info));
  UQ_EXPECT_OK(uq_plan_launch_shape(plan, shape.batch, &p, &tgpp));
  UQ_EXPECT(p > 1);
  // The rule of the code objects: saturating, so the ~1e30 row is finite;
  // NaN and +-inf rows are non-finite (an infinite element is made NaN before
  // the conversion).
  UQ_EXPECT_EQ_INT(info.e4m3_saturates, 1);
  UQ_EXPECT_OK(uq_problem_upload(problem, context, &d));
  size_t n = problem->output_elems;
  const int D = (int)problem->config.head_dim;
  uint16_t *got = malloc(n * 2), *faithful = malloc(n * 2),
           *exact = malloc(n * 2);
  UQ_EXPECT(got && faithful && exact);
  UQ_EXPECT_OK(uq_plan_run(plan, shape.batch, d.query, d.cache, d.block_tables,
                           d.seq_lens, d.output, NULL));
  UQ_EXPECT_OK(uq_context_download(context, got, d.output, n * 2));
  UQ_EXPECT_OK(uq_problem_faithful(problem, UQ_FP8_OVERFLOW_SATURATE,
                                   (int32_t)p, (int32_t)tgpp, faithful, NULL));
  UQ_EXPECT_OK(uq_problem_exact(problem, UQ_FP8_OVERFLOW_SATURATE, exact));
  uq_problem_error_t vs_faithful;
  uq_problem_compare_bf16(problem, got, faithful, NULL, &vs_faithful);
  int bad_rows = 0;
  for (uint32_t b = 0; b < shape.batch; ++b) {
    for (uint32_t h = 0; h < hq; ++h) {
      int poisoned = 0;
      for (size_t i = 0; i < n_poison; ++i)
        poisoned |= poison[i].seq == b && poison[i].head == h &&
                    poison[i].bits != 0x7149;
      const uint16_t *rows[3] = {got + b * problem->config.output_stride_seq +
                                     h * problem->config.output_stride_head,
                                 faithful + ((size_t)b * hq + h) * D,
                                 exact + ((size_t)b * hq + h) * D};
      for (int k = 0; k < 3; ++k) {
        int nonfinite = 0;
        for (int e = 0; e < D; ++e)
          nonfinite += !isfinite(uq_bf16_to_float(rows[k][e]));
        if (nonfinite != (poisoned ? D : 0)) {
          fprintf(stderr, "  %s: seq %u head %u: %d non-finite elements\n",
                  k == 0   ? "kernel"
                  : k == 1 ? "faithful"
                           : "exact",
                  b, h, nonfinite);
          ++bad_rows;
        }
      }
    }
  }
  printf("  %zu poisoned heads, P=%u: %llu non-finite, %llu over tol vs "
         "faithful\n",
         n_poison, p, (unsigned long long)vs_faithful.nonfinite,
         (unsigned long long)vs_faithful.over_tol);
  free(got);
  free(faithful);
  free(exact);
  uq_problem_device_free(context, &d);
  uq_plan_destroy(plan);
  uq_problem_destroy(problem);
  UQ_EXPECT_EQ_INT(bad_rows, 0);
  UQ_EXPECT_EQ_INT(vs_faithful.over_tol, 0);
  // The NaN and the two infinite heads (distinct heads) are non-finite.
  UQ_EXPECT_EQ_INT(vs_faithful.nonfinite, 3 * D);
  return 0;
}

// Two threads, one plan each, one shared sim context: the context's mutex
// serializes the simulator; each plan's results still match the reference.
typedef struct thread_case_s {
  uq_problem_shape_t shape;
  int failed;
} thread_case_t;

static void *thread_main(void *arg) {
  thread_case_t *t = arg;
  for (int i = 0; i < 3 && !t->failed; ++i) {
    t->failed = uq_e2e_run_case(context, &t->shape, "threaded run");
    ++t->shape.seed;
  }
  return NULL;
}

// The tolerance's element scale (uq_problem_faithful, e2e_case.h): with
// one partition it is the output's own magnitude (to the output's bf16
// rounding); with several it is never below it, and above it where the
// partitions' partials cancel. Host only.
static int test_faithful_scale(void) {
  uq_problem_shape_t shape = base_shape();
  shape.batch = 4;
  shape.num_kv_heads = 2;
  shape.query_group = 4;
  shape.head_dim = 64;
  shape.padded_slot = 68;
  shape.max_seq = 900; // 4 tile-groups: P 1 x TGPP 4, or P 4 x TGPP 1
  shape.sinks = 1;
  uq_problem_t *problem = NULL;
  UQ_EXPECT_OK(uq_problem_create(&shape, &problem));
  size_t n = problem->output_elems;
  uint16_t *ref = malloc(n * sizeof(uint16_t));
  double *scale = malloc(n * sizeof(double));
  UQ_EXPECT(ref && scale);
  size_t above = 0, wrong = 0; // output rows unpadded: n = B x Hq x D
  for (int32_t parts = 1; parts <= 4; parts += 3) {
    UQ_EXPECT_OK(uq_problem_faithful(problem, UQ_FP8_OVERFLOW_SATURATE, parts,
                                     4 / parts, ref, scale));
    for (size_t i = 0; i < n; ++i) {
      double r = fabs(uq_bf16_to_float(ref[i]));
      // bf16 rounding of the output: 2^-9 relative; 2^-8 leaves room
      if (parts == 1 ? fabs(scale[i] - r) > r / 256 : scale[i] < r * 255 / 256)
        ++wrong;
      above += parts > 1 && scale[i] > r * 1.01;
    }
  }
  printf("  %zu elements x P 1, 4: %zu off |ref|, %zu above it at P 4\n", n,
         wrong, above);
  free(ref);
  free(scale);
  uq_problem_destroy(problem);
  UQ_EXPECT(wrong == 0);
  UQ_EXPECT(above > 0);
  return 0;
}

static int test_two_threads_one_context(void) {
  thread_case_t cases[2] = {{base_shape(), 0}, {base_shape(), 0}};
  cases[1].shape.query_group = 16;
  cases[1].shape.block_size = 32;
  pthread_t threads[2];
  for (int i = 0; i < 2; ++i)
    UQ_EXPECT_EQ_INT(pthread_create(&threads[i], NULL, thread_main, &cases[i]),
                     0);
  for (int i = 0; i < 2; ++i)
    pthread_join(threads[i], NULL);
  UQ_EXPECT_EQ_INT(cases[0].failed, 0);
  UQ_EXPECT_EQ_INT(cases[1].failed, 0);
  return 0;
}

static const uq_test_case_t tests[] = {
    {"query_groups", test_query_groups},
    {"block_sizes", test_block_sizes},
    {"ragged_seq_lens", test_ragged_seq_lens},
    {"zero_length_sequence", test_zero_length_sequence},
    {"sequential_table_and_padded_slot", test_sequential_table_and_padded_slot},
    {"fused_qkv_strides", test_fused_qkv_strides},
    {"partition_extremes", test_partition_extremes},
    {"second_tile_group_walk", test_second_tile_group_walk},
    {"e4m3_overflow_rule", test_e4m3_overflow_rule},
    {"sliding_windows", test_sliding_windows},
    {"window_on_wide_table", test_window_on_wide_table},
    {"sinks", test_sinks},
    {"non_finite_query", test_non_finite_query},
    {"faithful_scale", test_faithful_scale},
    {"two_threads_one_context", test_two_threads_one_context},
    {0, 0}};

int main(int argc, char **argv) {
  seed = uq_test_seed();
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
