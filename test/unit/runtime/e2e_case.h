// One end-to-end case through the public API: build a problem, run it on a
// backend, compare with the host kernel-faithful reference under the same
// walk (uq_plan_launch_walk) and E4M3 rule. Shared by the sim matrix and the
// GPU test.
#ifndef UQ_TEST_UNIT_RUNTIME_E2E_CASE_H_
#define UQ_TEST_UNIT_RUNTIME_E2E_CASE_H_

#include <stdlib.h>
#include <string.h>

#include "tools/uq-run/problem.h"
#include "uq/uqrt.h"
#include "uq_test.h"

// Tolerance (problem.h): |got - ref| <= 4 * 2^-8 * a + 2^-8 * row max of a
// (2^-7 on cuda: uq_problem_use_backend says why), a = max(|ref|, the
// partials' weighted magnitude). Why: the kernel's fast exp2 and the
// reference's exp2f differ by ulps of fp32; bf16(p) can then round the
// other way (2^-8 relative on one weight), and the partial and the output
// are each rounded to bf16 (2^-9 each); a few bf16 ulps at the element plus
// one at the row's scale (for entries that cancel to near zero) bounds all
// of it. Where partitions cancel, a partial's ulp is at the partials'
// magnitude, above the output's: an H200 run (seed 20261208, D 64, P 2)
// had single elements 2^-8 off against an output row scale below 1/2.
// Non-finite output fails. `want_partitions` / `want_tgpp` (0: any) pin the
// launch shape a case is meant to cover, so a policy change cannot silently
// move it off its extreme.
static inline int uq_e2e_run_case_shaped(uq_context_t *context,
                                         const uq_problem_shape_t *shape,
                                         const char *label,
                                         uint32_t want_partitions,
                                         uint32_t want_tgpp) {
  uq_problem_t *problem = NULL;
  uq_plan_t *plan = NULL;
  uq_problem_device_t device = {0};
  uint16_t *got = NULL, *ref = NULL;
  double *scale = NULL;
  int rc = 1;
  uq_backend_t backend = UQ_BACKEND_AUTO;
  uq_status_t status = uq_problem_create(shape, &problem);
  if (!status)
    status = uq_context_backend(context, &backend);
  if (!status) {
    uq_problem_use_backend(problem, backend);
    status = uq_plan_create(context, &problem->config, &plan);
  }
  uq_plan_info_t info;
  uint32_t partitions = 0, tgpp = 0;
  uq_launch_walk_t walk = {0, 0, 0};
  if (!status)
    status = uq_plan_query_info(plan, &info);
  if (!status)
    status = uq_plan_launch_shape(plan, shape->batch, &partitions, &tgpp);
  if (!status)
    status = uq_plan_launch_walk(plan, shape->batch, &walk);
  if (!status && ((want_partitions && partitions != want_partitions) ||
                  (want_tgpp && tgpp != want_tgpp)))
    status = UQ_MAKE_STATUS(UQ_STATUS_INTERNAL,
                            "launch shape P=%u TGPP=%u, the case needs "
                            "P=%u TGPP=%u",
                            partitions, tgpp, want_partitions, want_tgpp);
  if (!status)
    status = uq_problem_upload(problem, context, &device);
  if (!status) {
    got = malloc(problem->output_elems * sizeof(uint16_t));
    ref = malloc(problem->output_elems * sizeof(uint16_t));
    scale = malloc(problem->output_elems * sizeof(double));
    if (!got || !ref || !scale)
      status = UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  if (!status)
    status = uq_plan_run_with_sinks(
        plan, shape->batch, device.query, device.cache, device.block_tables,
        device.seq_lens, device.sinks, device.output, NULL);
  if (!status)
    status = uq_context_synchronize(context, NULL);
  if (!status)
    status = uq_context_download(context, got, device.output,
                                 problem->output_elems * sizeof(uint16_t));
  if (!status)
    status = uq_problem_faithful_walk(
        problem,
        info.e4m3_saturates ? UQ_FP8_OVERFLOW_SATURATE : UQ_FP8_OVERFLOW_NAN,
        &walk, ref, scale);
  if (status) {
    fprintf(stderr, "  %s: %s: %s\n", label,
            uq_status_code_name(uq_status_code(status)),
            uq_status_message(status));
    uq_status_free(status);
  } else {
    uq_problem_error_t error;
    uq_problem_compare_bf16(problem, got, ref, scale, &error);
    printf("  %-44s P=%-3u x %3d%-2s max|err| %.3g rel rms %.3g over tol "
           "%llu\n",
           label, partitions, walk.groups_per_partition,
           uq_launch_walk_unit(&walk), error.max_abs, error.rel_rms,
           (unsigned long long)error.over_tol);
    rc = error.over_tol ? 1 : 0;
  }
  free(got);
  free(ref);
  free(scale);
  uq_problem_device_free(context, &device);
  uq_plan_destroy(plan);
  uq_problem_destroy(problem);
  return rc;
}

static inline int uq_e2e_run_case(uq_context_t *context,
                                  const uq_problem_shape_t *shape,
                                  const char *label) {
  return uq_e2e_run_case_shaped(context, shape, label, 0, 0);
}

// One varlen case (shape->query_len or query_lens set): uq_plan_run_varlen
// over the problem's query tokens, its output poisoned first (bf16 0xFFFF,
// a NaN: an element the run leaves unwritten fails), against the faithful
// reference under the run's own walk and query blocks
// (uq_plan_varlen_shape), with the tolerance above, and against unquantized
// float64 attention as uq-run judges (uq_problem_verdict). `max_query_len`
// (0: the problem's longest) is the run's host argument. Prints the run's
// launch and errors; returns 0 when the output passes.
static inline int uq_e2e_run_varlen_case(uq_context_t *context,
                                         const uq_problem_shape_t *shape,
                                         uint32_t max_query_len,
                                         const char *label) {
  uq_problem_t *problem = NULL;
  uq_plan_t *plan = NULL;
  uq_problem_device_t device = {0};
  uint16_t *got = NULL, *ref = NULL;
  double *scale = NULL, *exact = NULL;
  int rc = 1;
  uq_backend_t backend = UQ_BACKEND_AUTO;
  uq_varlen_shape_t vs;
  uq_status_t status = uq_problem_create(shape, &problem);
  if (!status)
    status = uq_context_backend(context, &backend);
  if (!status) {
    uq_problem_use_backend(problem, backend);
    if (max_query_len == 0)
      max_query_len = problem->max_query_len;
    if (max_query_len > problem->config.max_query_len)
      problem->config.max_query_len = max_query_len;
    status = uq_plan_create(context, &problem->config, &plan);
  }
  uq_plan_info_t info;
  if (!status)
    status = uq_plan_query_info(plan, &info);
  uint32_t tokens = problem ? problem->num_tokens : 0;
  if (!status)
    status =
        uq_plan_varlen_shape(plan, shape->batch, tokens, max_query_len, &vs);
  if (!status)
    status = uq_problem_upload(problem, context, &device);
  if (!status) {
    size_t n = problem->output_elems;
    got = malloc(n * sizeof(uint16_t));
    ref = malloc(n * sizeof(uint16_t));
    scale = malloc(n * sizeof(double));
    exact = malloc((size_t)tokens * problem->config.num_kv_heads *
                   problem->config.query_group * problem->config.head_dim *
                   sizeof(double));
    if (!got || !ref || !scale || !exact)
      status = UQ_MAKE_STATUS(UQ_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    else
      memset(got, 0xFF, n * sizeof(uint16_t));
  }
  if (!status)
    status = uq_context_upload(context, device.output, got,
                               problem->output_elems * sizeof(uint16_t));
  if (!status)
    status = uq_plan_run_varlen(plan, shape->batch, tokens, max_query_len,
                                device.query, device.cache, device.block_tables,
                                device.seq_lens, device.query_start_loc,
                                device.sinks, device.output, NULL);
  if (!status)
    status = uq_context_synchronize(context, NULL);
  if (!status)
    status = uq_context_download(context, got, device.output,
                                 problem->output_elems * sizeof(uint16_t));
  if (!status)
    status = uq_problem_faithful_varlen(
        problem,
        info.e4m3_saturates ? UQ_FP8_OVERFLOW_SATURATE : UQ_FP8_OVERFLOW_NAN,
        &vs.walk, (int32_t)vs.block_tokens, ref, scale);
  if (!status)
    status = uq_problem_unquantized(problem, exact);
  if (status) {
    fprintf(stderr, "  %s: %s: %s\n", label,
            uq_status_code_name(uq_status_code(status)),
            uq_status_message(status));
    uq_status_free(status);
  } else {
    uq_problem_error_t error, vs_exact;
    uq_problem_compare_bf16(problem, got, ref, scale, &error);
    uq_problem_compare_f64(problem, got, exact, &vs_exact);
    const char *verdict = uq_problem_verdict(&error, &vs_exact);
    printf("  %-44s %s T=%-4u %u blocks of %u, P=%-3d x %2d%-2s max|err| "
           "%.3g over tol %llu, vs unquantized %.3g%s%s\n",
           label, vs.variant, tokens, vs.num_blocks, vs.block_tokens,
           vs.walk.num_partitions, vs.walk.groups_per_partition,
           uq_launch_walk_unit(&vs.walk), error.max_abs,
           (unsigned long long)error.over_tol, vs_exact.rel_rms,
           verdict ? " " : "", verdict ? verdict : "");
    rc = verdict ? 1 : 0;
  }
  free(got);
  free(ref);
  free(scale);
  free(exact);
  uq_problem_device_free(context, &device);
  uq_plan_destroy(plan);
  uq_problem_destroy(problem);
  return rc;
}

#endif // UQ_TEST_UNIT_RUNTIME_E2E_CASE_H_
