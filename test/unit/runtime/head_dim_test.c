// Head dims 32, 64, 128, 256, 512 and query groups 1..16 through the public
// API: the
// plan takes every supported (D, QG) and refuses the rest with the right
// code; the host backend decodes every pair against the oracles (the direct
// faithful reference bit for bit, the float64 exact reference within the
// faithful-vs-exact bound); a query past +-464 after the rotation gives a
// finite output close to the exact reference under the saturating rule.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stub_kernels.h"
#include "tools/uq-run/problem.h"
#include "uq/uqrt.h"
#include "uq_test.h"

static uint64_t seed;

enum { kNumHeadDims = 5 };
static const uint32_t kHeadDims[kNumHeadDims] = {32, 64, 128, 256, 512};
static const uint32_t kGroups[8] = {1, 2, 4, 5, 6, 7, 8, 16};

// code_objects: 0 embedded, 1 the stub kernels (D = 256 records with
// qg_max 8 and 16, reduce), 2 none at all.
static uq_status_t make_context(uq_backend_t backend, int code_objects,
                                uq_context_t **out) {
  static uq_code_object_source_t sources[4];
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = backend;
  if (code_objects == 1) {
    options.code_object_count = uq_stub_code_objects(NULL, sources);
    options.code_objects = sources;
  } else if (code_objects == 2) {
    options.code_object_count = 0;
    options.code_objects = sources;
  }
  return uq_context_create(&options, out);
}

static uq_decode_config_t config_for(uint32_t d, uint32_t qg) {
  return (uq_decode_config_t){.num_kv_heads = 2,
                              .query_group = qg,
                              .head_dim = d,
                              .block_size = 16,
                              .padded_slot = UQ_SLOT_MIN_STRIDE(d),
                              .max_blocks_per_seq = 8,
                              .num_blocks = 64,
                              .max_batch = 4};
}

// Every supported pair makes a plan on the host backend, sized for its D and
// QG, with or without code objects; on the sim backend the variant table
// decides: the stub records (D = 256, qg_max 8 and 16) serve every QG at
// D = 256, and another D is UNIMPLEMENTED with a message naming it.
static int test_plan_every_pair(void) {
  uq_context_t *host = NULL, *bare = NULL, *sim = NULL;
  UQ_EXPECT_OK(make_context(UQ_BACKEND_HOST, 0, &host));
  UQ_EXPECT_OK(make_context(UQ_BACKEND_HOST, 2, &bare));
  UQ_EXPECT_OK(make_context(UQ_BACKEND_SIM, 1, &sim));
  for (int di = 0; di < kNumHeadDims; ++di) {
    for (uint32_t qg = 1; qg <= 16; ++qg) {
      const uint32_t d = kHeadDims[di];
      uq_decode_config_t config = config_for(d, qg);
      uq_plan_t *plan = NULL;
      UQ_EXPECT_OK(uq_plan_create(host, &config, &plan));
      uq_plan_info_t info;
      UQ_EXPECT_OK(uq_plan_query_info(plan, &info));
      // A record's key names its head dim; without one the host decodes.
      char prefix[32];
      snprintf(prefix, sizeof prefix, "decode_d%u_", d);
      UQ_EXPECT(strcmp(info.variant, "host") == 0 ||
                strncmp(info.variant, prefix, strlen(prefix)) == 0);
      // segm_out rows of D bf16 plus two f32 statistics per (row, QG).
      uint64_t rows = info.workspace_bytes / ((uint64_t)qg * (2 * d + 8));
      UQ_EXPECT_EQ_INT(info.workspace_bytes, rows * qg * (2 * d + 8));
      UQ_EXPECT(rows >= (uint64_t)config.max_batch * config.num_kv_heads *
                            info.max_partitions);
      uq_plan_destroy(plan);

      UQ_EXPECT_OK(uq_plan_create(bare, &config, &plan));
      UQ_EXPECT_OK(uq_plan_query_info(plan, &info));
      UQ_EXPECT_STREQ(info.variant, "host");
      UQ_EXPECT_EQ_INT(info.e4m3_saturates, 1); // the project's rule
      uq_plan_destroy(plan);

      plan = (uq_plan_t *)1;
      uq_status_t status = uq_plan_create(sim, &config, &plan);
      if (d == 256) {
        UQ_EXPECT_OK(status);
      } else {
        char names[32];
        snprintf(names, sizeof names, "head_dim %u", d);
        int named = status && strstr(uq_status_message(status), names);
        UQ_EXPECT_CODE(status, UQ_STATUS_UNIMPLEMENTED);
        UQ_EXPECT(named);
        UQ_EXPECT(plan == NULL);
      }
      uq_plan_destroy(plan);
    }
    // One 16-row tile per kv head: QG 17 is not implemented on any backend.
    uq_decode_config_t config = config_for(kHeadDims[di], 17);
    uq_plan_t *plan = NULL;
    UQ_EXPECT_CODE(uq_plan_create(host, &config, &plan),
                   UQ_STATUS_UNIMPLEMENTED);
    UQ_EXPECT_CODE(uq_plan_create(sim, &config, &plan),
                   UQ_STATUS_UNIMPLEMENTED);
  }
  // The unsupported head dims' message names the supported ones.
  uq_decode_config_t config = config_for(96, 8);
  uq_plan_t *plan = NULL;
  uq_status_t status = uq_plan_create(host, &config, &plan);
  int names =
      status && strstr(uq_status_message(status), "32, 64, 128, 256 or 512");
  UQ_EXPECT_CODE(status, UQ_STATUS_UNIMPLEMENTED);
  UQ_EXPECT(names);
  uq_context_destroy(host);
  uq_context_destroy(bare);
  uq_context_destroy(sim);
  return 0;
}

// |got - exact| <= 1.5 * 2^-6 * max|v| per element (reference.h's faithful
// mode against the exact one: bf16 P, bf16 partials, each side's final
// rounding; max|v_deq| <= 1.5 max|v|), the argument of reference_test's
// faithful_vs_exact. `got` has the plan's output strides, `exact` is
// contiguous [B, Hq, D]. Non-finite values anywhere fail.
static int check_against_exact(const uq_problem_t *p, const uint16_t *got,
                               const uint16_t *exact, const char *what) {
  const uq_decode_config_t *c = &p->config;
  const uint32_t D = c->head_dim, Hq = c->num_kv_heads * c->query_group;
  size_t kv_elems = (size_t)(p->token_base[p->shape.batch - 1] +
                             p->seq_lens[p->shape.batch - 1]) *
                    c->num_kv_heads * D;
  double max_v = 0;
  for (size_t i = 0; i < kv_elems; ++i)
    max_v = fmax(max_v, fabs(uq_bf16_to_float(p->v[i])));
  const double tol = 1.5 * ldexp(max_v, -6);
  double worst = 0;
  for (uint32_t b = 0; b < p->shape.batch; ++b) {
    for (uint32_t h = 0; h < Hq; ++h) {
      const uint16_t *g =
          got + b * c->output_stride_seq + h * c->output_stride_head;
      const uint16_t *w = exact + ((size_t)b * Hq + h) * D;
      for (uint32_t d = 0; d < D; ++d) {
        double x = uq_bf16_to_float(g[d]), y = uq_bf16_to_float(w[d]);
        if (!isfinite(x) || !isfinite(y) || !(fabs(x - y) <= tol))
          UQ_TEST_FAIL_("%s: seq %u head %u dim %u: %g vs exact %g (tol %g)",
                        what, b, h, d, x, y, tol);
        worst = fmax(worst, fabs(x - y));
      }
    }
  }
  printf("  %s: worst |host - exact| %.3g, tolerance %.3g\n", what, worst, tol);
  return 0;
}

// One problem on the host backend, judged against the direct faithful
// reference (bit for bit, same P/TGPP and rule) and the exact reference.
static int run_host_case(uq_context_t *context, const uq_problem_shape_t *shape,
                         const char *what) {
  uq_problem_t *problem = NULL;
  UQ_EXPECT_OK(uq_problem_create(shape, &problem));
  uq_plan_t *plan = NULL;
  UQ_EXPECT_OK(uq_plan_create(context, &problem->config, &plan));
  uq_problem_device_t dev;
  UQ_EXPECT_OK(uq_problem_upload(problem, context, &dev));
  size_t n = problem->output_elems;
  uint16_t *got = malloc(n * 2), *ref = malloc(n * 2), *exact = malloc(n * 2);
  if (!got || !ref || !exact)
    UQ_TEST_FAIL_("out of memory");
  // Poison the output: every element the run should write must change.
  memset(got, 0xEE, n * 2);
  UQ_EXPECT_OK(uq_context_upload(context, dev.output, got, n * 2));
  UQ_EXPECT_OK(uq_plan_run_with_sinks(plan, shape->batch, dev.query, dev.cache,
                                      dev.block_tables, dev.seq_lens, dev.sinks,
                                      dev.output, NULL));
  UQ_EXPECT_OK(uq_context_download(context, got, dev.output, n * 2));
  uq_plan_info_t info;
  UQ_EXPECT_OK(uq_plan_query_info(plan, &info));
  uint32_t parts = 0, tgpp = 0;
  UQ_EXPECT_OK(uq_plan_launch_shape(plan, shape->batch, &parts, &tgpp));
  uq_fp8_overflow_t rule =
      info.e4m3_saturates ? UQ_FP8_OVERFLOW_SATURATE : UQ_FP8_OVERFLOW_NAN;
  UQ_EXPECT_OK(uq_problem_faithful(problem, rule, (int32_t)parts, (int32_t)tgpp,
                                   ref, NULL));
  UQ_EXPECT_OK(uq_problem_exact(problem, UQ_FP8_OVERFLOW_SATURATE, exact));
  const uq_decode_config_t *c = &problem->config;
  const uint32_t D = c->head_dim, Hq = c->num_kv_heads * c->query_group;
  for (uint32_t b = 0; b < shape->batch; ++b)
    for (uint32_t h = 0; h < Hq; ++h)
      if (memcmp(got + b * c->output_stride_seq + h * c->output_stride_head,
                 ref + ((size_t)b * Hq + h) * D, 2 * (size_t)D) != 0)
        UQ_TEST_FAIL_("%s: seq %u head %u differs from the faithful "
                      "reference",
                      what, b, h);
  int rc = check_against_exact(problem, got, exact, what);
  free(got), free(ref), free(exact);
  uq_problem_device_free(context, &dev);
  uq_plan_destroy(plan);
  uq_problem_destroy(problem);
  return rc;
}

// D x QG over the host backend, with the shape features rotating through
// the cases: block sizes, fused-QKV query strides, padded output strides,
// padded slots, a sliding window, sinks.
static int test_host_every_pair(void) {
  uq_context_t *context = NULL;
  UQ_EXPECT_OK(make_context(UQ_BACKEND_HOST, 0, &context));
  static const uint32_t block_sizes[5] = {16, 32, 64, 128, 256};
  int k = 0;
  for (int di = 0; di < kNumHeadDims; ++di) {
    for (int gi = 0; gi < 8; ++gi, ++k) {
      const uint32_t d = kHeadDims[di], qg = kGroups[gi];
      uq_problem_shape_t shape = {
          .batch = 2 + (uint32_t)(k % 2),
          .num_kv_heads = 1 + (uint32_t)(k % 3),
          .query_group = qg,
          .head_dim = d,
          .block_size = block_sizes[k % 5],
          .padded_slot = k % 4 == 1 ? UQ_SLOT_MIN_STRIDE(d) + 12 : 0,
          .max_seq = 300 + 97 * (uint32_t)(k % 4),
          .extra_blocks = 1,
          .spare_blocks = 2,
          .fused_qkv = k % 2,
          .padded_output = k % 3 == 0,
          .shuffle = 1,
          .seed = seed++,
          .sliding_window = k % 4 == 2 ? 130 : 0,
          .sinks = k % 3 == 1,
      };
      char what[64];
      snprintf(what, sizeof what, "D %u QG %u (case %d)", d, qg, k);
      if (run_host_case(context, &shape, what)) {
        uq_context_destroy(context);
        return 1;
      }
    }
  }
  uq_context_destroy(context);
  return 0;
}

// Issue 10 item 6: a rotated query past +-464 saturates to +-448 instead of
// turning its head's output into NaN (which the reduce would drop, leaving
// 0). A host context without code objects takes the project's rule
// (saturate); the output is finite and within the faithful-vs-exact bound of
// the exact reference under that rule, while the NaN rule's exact output
// has non-finite rows: the queries do overflow.
static int test_saturating_query(void) {
  uq_context_t *context = NULL;
  UQ_EXPECT_OK(make_context(UQ_BACKEND_HOST, 2, &context));
  for (int di = 0; di < kNumHeadDims; ++di) {
    const uint32_t d = kHeadDims[di];
    uq_problem_shape_t shape = {
        .batch = 2,
        .num_kv_heads = 2,
        .query_group = di == 1 ? 4 : 8,
        .head_dim = d,
        .block_size = 16,
        .max_seq = 200,
        .shuffle = 1,
        .query_scale = 300.0f, // |q_rot| ~ 300: most elements pass 464
        .seed = seed++,
    };
    uq_problem_t *problem = NULL;
    UQ_EXPECT_OK(uq_problem_create(&shape, &problem));
    uq_plan_t *plan = NULL;
    UQ_EXPECT_OK(uq_plan_create(context, &problem->config, &plan));
    uq_plan_info_t info;
    UQ_EXPECT_OK(uq_plan_query_info(plan, &info));
    UQ_EXPECT_EQ_INT(info.e4m3_saturates, 1);
    uq_plan_destroy(plan);
    size_t n = problem->output_elems;
    uint16_t *nan_rule = malloc(n * 2);
    if (!nan_rule)
      UQ_TEST_FAIL_("out of memory");
    UQ_EXPECT_OK(uq_problem_exact(problem, UQ_FP8_OVERFLOW_NAN, nan_rule));
    size_t nonfinite = 0;
    for (size_t i = 0; i < (size_t)shape.batch * 2 * shape.query_group * d; ++i)
      nonfinite += !isfinite(uq_bf16_to_float(nan_rule[i]));
    free(nan_rule);
    uq_problem_destroy(problem);
    UQ_EXPECT(nonfinite > 0);
    char what[64];
    snprintf(what, sizeof what, "query sigma 300, D %u", d);
    if (run_host_case(context, &shape, what)) {
      uq_context_destroy(context);
      return 1;
    }
  }
  uq_context_destroy(context);
  return 0;
}

static const uq_test_case_t tests[] = {
    {"plan_every_pair", test_plan_every_pair},
    {"host_every_pair", test_host_every_pair},
    {"saturating_query", test_saturating_query},
    {0, 0},
};

int main(int argc, char **argv) {
  seed = uq_test_seed();
  return uq_test_main(argc, argv, tests);
}
