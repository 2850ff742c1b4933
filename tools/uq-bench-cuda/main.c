// uq-bench-cuda: the sm_90a decode + reduce cubins from uq-compile on an
// NVIDIA Hopper GPU through the CUDA driver API (dlopen, no toolkit at run
// time), without libuqrt:
//   --check  a case matrix judged against the host kernel-faithful reference
//            (QG, block sizes, padded slots, fused-QKV strides, windows,
//            sinks, garbage slots, long contexts, both launch policies);
//   --bench  the issue-9 shapes: us per decode step (decode + reduce, CUDA
//            graph replays), KV GB/s, the same run's device-to-device copy
//            bandwidth and the ratio, registers, shared memory, occupancy.
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/kernel_abi.h"
#include "tools/common/file_util.h"
#include "tools/uq-bench-cuda/cuda_driver.h"
#include "tools/uq-run/problem.h"
#include "uq/policy.h"
#include "uq/reference.h"

typedef struct kernels_s {
  uq_cuda_t cuda;
  CUdevice device;
  int sm_count;
  CUfunction decode[17];      // by QG; NULL where no variant was built
  int decode_ctas_per_sm[17]; // resident CTAs per SM of each decode
  CUfunction reduce;
  CUstream stream;
} kernels_t;

// A CUDA call that fails ends the tool with the call and the error name.
#define CU(k, call)                                                            \
  do {                                                                         \
    CUresult uq_r_ = (k)->cuda.call;                                           \
    if (uq_r_ != 0) {                                                          \
      fprintf(stderr, "uq-bench-cuda: %s:%d: %s: %s\n", __FILE__, __LINE__,    \
              #call, uq_cuda_error_name(&(k)->cuda, uq_r_));                   \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static void die(const char *format, ...) {
  va_list args;
  va_start(args, format);
  fprintf(stderr, "uq-bench-cuda: error: ");
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
  exit(1);
}

static CUfunction load_kernel(kernels_t *k, const char *dir,
                              const char *variant, const char *name,
                              int required) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s.cubin", dir, variant);
  char *data = NULL;
  size_t size = 0;
  uq_status_t status = uq_file_read(path, &data, &size);
  if (status) {
    if (required)
      die("%s", uq_status_message(status));
    uq_status_free(status);
    return NULL;
  }
  CUmodule module;
  CUfunction function;
  CU(k, ModuleLoadData(&module, data));
  free(data);
  CU(k, ModuleGetFunction(&function, module, name));
  return function;
}

// Exit code of a run that cannot happen here (no driver, no GPU, another
// GPU): ctest's SKIP_RETURN_CODE.
enum { kSkip = 77 };

static void skip(const char *format, ...) {
  va_list args;
  va_start(args, format);
  printf("skip: ");
  vprintf(format, args);
  putchar('\n');
  va_end(args);
  exit(kSkip);
}

static void kernels_open(kernels_t *k, const char *dir) {
  char why[256];
  if (uq_cuda_load(&k->cuda, why, sizeof(why)))
    skip("%s", why);
  CUresult init = k->cuda.Init(0);
  if (init != 0)
    skip("cuInit: %s", uq_cuda_error_name(&k->cuda, init));
  CU(k, DeviceGet(&k->device, 0));
  int major = 0, minor = 0;
  CU(k,
     DeviceGetAttribute(&major, UQ_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                        k->device));
  CU(k,
     DeviceGetAttribute(&minor, UQ_CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                        k->device));
  CU(k, DeviceGetAttribute(&k->sm_count,
                           UQ_CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                           k->device));
  char name[256] = "";
  CU(k, DeviceGetName(name, sizeof(name), k->device));
  if (major != 9 || minor != 0)
    skip("device 0 (%s) has compute capability %d.%d; the cubins are sm_90a",
         name, major, minor);
  printf("device: %s, %d SMs\n", name, k->sm_count);
  CUcontext context;
  CU(k, DevicePrimaryCtxRetain(&context, k->device));
  CU(k, CtxSetCurrent(context));
  CU(k, StreamCreate(&k->stream, UQ_CU_STREAM_NON_BLOCKING));
  // Two decode variants serve QG 1..16: qg_max 8 (3 CTAs per SM) and 16.
  static const int qg_maxes[] = {8, 16};
  for (size_t i = 0; i < sizeof(qg_maxes) / sizeof(qg_maxes[0]); ++i) {
    char variant[64], kernel[64];
    snprintf(variant, sizeof(variant), "decode_sm90_d256_qg_max%d",
             qg_maxes[i]);
    snprintf(kernel, sizeof(kernel), "uq_decode_d256_qg_max%d", qg_maxes[i]);
    CUfunction f = load_kernel(k, dir, variant, kernel, 1);
    int shared = UQ_SM90_DECODE_SHARED_BYTES_FOR(qg_maxes[i]);
    int ctas = 0;
    CU(k, FuncSetAttribute(
              f, UQ_CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared));
    CU(k, OccupancyMaxActiveBlocksPerMultiprocessor(
              &ctas, f, UQ_SM90_DECODE_THREADS, shared));
    for (int qg = qg_maxes[i] / 2 + 1; qg <= qg_maxes[i]; ++qg) {
      k->decode[qg] = f;
      k->decode_ctas_per_sm[qg] = ctas;
    }
    if (qg_maxes[i] == 8)
      for (int qg = 1; qg <= 4; ++qg) {
        k->decode[qg] = f;
        k->decode_ctas_per_sm[qg] = ctas;
      }
  }
  k->reduce = load_kernel(k, dir, "reduce_sm90_d256", "uq_reduce_d256", 1);
}

// ---- one decode step on the device ----------------------------------------

typedef struct step_s {
  CUdeviceptr segm_out, segm_max, segm_sum;
  CUdeviceptr query, cache, block_tables, seq_lens, output, sinks;
  int32_t batch, num_kv_heads, qg, partitions, tgpp, block_size, padded_slot;
  int32_t q_stride_seq, q_stride_head, max_blocks_per_seq, sliding_window;
  int32_t out_stride_seq, out_stride_head;
  float softmax_scale;
} step_t;

static void launch_step(kernels_t *k, step_t *s) {
  CUfunction decode = s->qg >= 1 && s->qg <= 16 ? k->decode[s->qg] : NULL;
  if (!decode)
    die("no sm_90a decode variant for QG %d", s->qg);
  void *decode_args[UQ_DECODE_ARG_COUNT] = {
      [UQ_DECODE_ARG_SEGM_OUT] = &s->segm_out,
      [UQ_DECODE_ARG_SEGM_MAX] = &s->segm_max,
      [UQ_DECODE_ARG_SEGM_SUM] = &s->segm_sum,
      [UQ_DECODE_ARG_QUERY] = &s->query,
      [UQ_DECODE_ARG_KV_CACHE] = &s->cache,
      [UQ_DECODE_ARG_BLOCK_TABLES] = &s->block_tables,
      [UQ_DECODE_ARG_SEQ_LENS] = &s->seq_lens,
      [UQ_DECODE_ARG_NUM_KV_HEADS] = &s->num_kv_heads,
      [UQ_DECODE_ARG_NUM_PARTITIONS] = &s->partitions,
      [UQ_DECODE_ARG_TGPP] = &s->tgpp,
      [UQ_DECODE_ARG_BLOCK_SIZE] = &s->block_size,
      [UQ_DECODE_ARG_PADDED_SLOT] = &s->padded_slot,
      [UQ_DECODE_ARG_Q_STRIDE_SEQ] = &s->q_stride_seq,
      [UQ_DECODE_ARG_Q_STRIDE_HEAD] = &s->q_stride_head,
      [UQ_DECODE_ARG_MAX_BLOCKS_PER_SEQ] = &s->max_blocks_per_seq,
      [UQ_DECODE_ARG_SOFTMAX_SCALE] = &s->softmax_scale,
      [UQ_DECODE_ARG_SLIDING_WINDOW] = &s->sliding_window,
      [UQ_DECODE_ARG_QUERY_GROUP] = &s->qg,
  };
  CU(k, LaunchKernel(decode, (unsigned)s->batch, (unsigned)s->num_kv_heads,
                     (unsigned)s->partitions, UQ_SM90_DECODE_THREADS, 1, 1,
                     UQ_SM90_DECODE_SHARED_BYTES_FOR(s->qg), k->stream,
                     decode_args, NULL));
  void *reduce_args[UQ_REDUCE_ARG_COUNT] = {
      [UQ_REDUCE_ARG_OUTPUT] = &s->output,
      [UQ_REDUCE_ARG_SEGM_OUT] = &s->segm_out,
      [UQ_REDUCE_ARG_SEGM_MAX] = &s->segm_max,
      [UQ_REDUCE_ARG_SEGM_SUM] = &s->segm_sum,
      [UQ_REDUCE_ARG_NUM_KV_HEADS] = &s->num_kv_heads,
      [UQ_REDUCE_ARG_QUERY_GROUP] = &s->qg,
      [UQ_REDUCE_ARG_NUM_PARTITIONS] = &s->partitions,
      [UQ_REDUCE_ARG_OUT_STRIDE_SEQ] = &s->out_stride_seq,
      [UQ_REDUCE_ARG_OUT_STRIDE_HEAD] = &s->out_stride_head,
      [UQ_REDUCE_ARG_SINKS] = &s->sinks,
  };
  CU(k, LaunchKernel(
            k->reduce, (unsigned)s->batch, (unsigned)(s->num_kv_heads * s->qg),
            1, UQ_SM90_REDUCE_THREADS, 1, 1, 0, k->stream, reduce_args, NULL));
}

// The split-KV policy sized for the GPU. A CTA walks TGPP tile-groups (256
// tokens each) of one (sequence, kv head); the resident CTAs (2 per SM for
// QG 16, 3 for QG <= 8: registers and shared memory) run in waves. The
// estimated time is waves x (TGPP + overhead), the overhead being a CTA's
// fixed work (query rotation, merge, partial write) in tile-groups; the
// policy takes the TGPP that minimizes it, then the fewest partitions that
// cover the span with it (P * TGPP * 256 >= span). Long sequences get few,
// long partitions; short batches still fill every SM; the last wave is full.
static void hopper_policy(const kernels_t *k, int32_t batch, int32_t hk,
                          int32_t qg, int64_t span, int32_t *out_p,
                          int32_t *out_tgpp) {
  const double overhead = 0.5; // tile-groups; measured order of magnitude
  int64_t required = (span + 255) / 256;
  if (required < 1)
    required = 1;
  int ctas = k->decode_ctas_per_sm[qg] > 0 ? k->decode_ctas_per_sm[qg] : 1;
  int64_t resident = (int64_t)ctas * k->sm_count;
  int64_t best_tgpp = 1;
  double best = 0;
  for (int64_t tgpp = 1; tgpp <= required; ++tgpp) {
    int64_t p = (required + tgpp - 1) / tgpp;
    int64_t waves = ((int64_t)batch * hk * p + resident - 1) / resident;
    double cost = (double)waves * ((double)tgpp + overhead);
    if (tgpp == 1 || cost < best) {
      best = cost;
      best_tgpp = tgpp;
    }
  }
  *out_tgpp = (int32_t)best_tgpp;
  *out_p = (int32_t)((required + best_tgpp - 1) / best_tgpp);
}

// ---- --check
// ------------------------------------------------------------------

static CUdeviceptr upload(kernels_t *k, const void *data, size_t size) {
  CUdeviceptr p = 0;
  CU(k, MemAlloc(&p, size ? size : 4));
  if (data && size)
    CU(k, MemcpyHtoD(p, data, size));
  return p;
}

typedef struct check_case_s {
  const char *label;
  uq_problem_shape_t shape;
  int hopper_policy; // 0: the seed policy (uq/policy.h); 1: hopper_policy
} check_case_t;

// The exact (float64) oracle for the same problem, contiguous [B, Hq, 256].
static void exact_reference(const uq_problem_t *p, const step_t *s,
                            uint16_t *out) {
  uq_decode_problem_t d = {
      .num_seqs = s->batch,
      .query_group = s->qg,
      .cache = p->layout,
      .max_blocks_per_seq = s->max_blocks_per_seq,
      .softmax_scale = s->softmax_scale,
      .q_overflow = UQ_FP8_OVERFLOW_SATURATE,
      .query = p->query,
      .query_stride_seq = s->q_stride_seq,
      .query_stride_head = s->q_stride_head,
      .kv_cache = p->cache,
      .block_tables = p->block_tables,
      .seq_lens = p->seq_lens,
      .output = out,
      .output_stride_seq = (int64_t)s->num_kv_heads * s->qg * 256,
      .output_stride_head = 256,
      .sliding_window = s->sliding_window,
      .sinks = p->sinks,
  };
  uq_status_t status = uq_reference_decode_exact(&d);
  if (status)
    die("exact reference: %s", uq_status_message(status));
}

// The check's tolerance against the faithful reference, per element:
// |got - ref| <= 4 * 2^-8 * |ref| + 2^-7 * max_row |ref|. problem.h's bound
// (2^-8 at the row's scale) assumes the kernel rounds P to bf16 exactly where
// the reference does (same running max per 16-token tile). This kernel
// splits a partition over 4 warps, each with its own running max, so its
// bf16(p) roundings are independent of the reference's: the difference is
// the sum of two independent rounding noises (each up to 2^-9 relative per
// weight), twice the variance; 2^-7 at the row's scale holds it with margin
// (measured: at most 0.5% of the row max over the whole matrix). Because a
// looser bound could hide a real error, every case must also be at least as
// close to the exact float64 oracle as the faithful reference is (rel rms
// within 1.25x of the reference's own): the kernel is judged against two
// independent oracles.
static uint64_t count_over_tol(const step_t *s, const uint16_t *got,
                               const uint16_t *ref) {
  uint64_t over = 0;
  int32_t hq = s->num_kv_heads * s->qg;
  for (int32_t b = 0; b < s->batch; ++b) {
    for (int32_t h = 0; h < hq; ++h) {
      const uint16_t *r = ref + ((size_t)b * hq + h) * 256;
      const uint16_t *g =
          got + (size_t)b * s->out_stride_seq + (size_t)h * s->out_stride_head;
      double row = 0;
      for (int d = 0; d < 256; ++d)
        row = fmax(row, fabs(uq_bf16_to_float(r[d])));
      for (int d = 0; d < 256; ++d) {
        double gv = uq_bf16_to_float(g[d]), rv = uq_bf16_to_float(r[d]);
        double tol = 4.0 / 256 * fabs(rv) + row / 128;
        over += !(fabs(gv - rv) <= tol);
      }
    }
  }
  return over;
}

// Prints the elements of `got` outside the faithful tolerance (at most 4),
// with the faithful and exact references beside them.
static void explain_failures(const step_t *s, const uint16_t *got,
                             const uint16_t *ref, const uint16_t *exact) {
  int shown = 0;
  int32_t hq = s->num_kv_heads * s->qg;
  for (int32_t b = 0; b < s->batch && shown < 4; ++b) {
    for (int32_t h = 0; h < hq && shown < 4; ++h) {
      const uint16_t *r = ref + ((size_t)b * hq + h) * 256;
      const uint16_t *x = exact + ((size_t)b * hq + h) * 256;
      const uint16_t *g =
          got + (size_t)b * s->out_stride_seq + (size_t)h * s->out_stride_head;
      double row = 0;
      for (int d = 0; d < 256; ++d)
        row = fmax(row, fabs(uq_bf16_to_float(r[d])));
      for (int d = 0; d < 256 && shown < 4; ++d) {
        double gv = uq_bf16_to_float(g[d]), rv = uq_bf16_to_float(r[d]);
        double tol = 4.0 / 256 * fabs(rv) + row / 128;
        if (!(fabs(gv - rv) <= tol)) {
          printf("    seq %d head %d dim %d: got %.6g faithful %.6g exact "
                 "%.6g (tol %.3g, row max %.3g)\n",
                 b, h, d, gv, rv, uq_bf16_to_float(x[d]), tol, row);
          ++shown;
        }
      }
    }
  }
}

// ||a - exact|| / ||exact|| over the outputs (a with the step's strides).
static double rel_to_exact(const step_t *s, const uint16_t *a, int strided,
                           const uint16_t *exact) {
  double num = 0, den = 0;
  int32_t hq = s->num_kv_heads * s->qg;
  for (int32_t b = 0; b < s->batch; ++b)
    for (int32_t h = 0; h < hq; ++h)
      for (int d = 0; d < 256; ++d) {
        size_t i = strided ? (size_t)b * s->out_stride_seq +
                                 (size_t)h * s->out_stride_head + d
                           : ((size_t)b * hq + h) * 256 + d;
        double x = uq_bf16_to_float(exact[((size_t)b * hq + h) * 256 + d]);
        double e = uq_bf16_to_float(a[i]) - x;
        num += e * e;
        den += x * x;
      }
  return den > 0 ? sqrt(num / den) : sqrt(num);
}

static int run_check_case(kernels_t *k, const check_case_t *c) {
  uq_problem_t *problem = NULL;
  uq_status_t status = uq_problem_create(&c->shape, &problem);
  if (status)
    die("%s: %s", c->label, uq_status_message(status));
  const uq_decode_config_t *cfg = &problem->config;
  uint32_t hq = cfg->num_kv_heads * cfg->query_group;
  step_t s = {0};
  s.batch = (int32_t)c->shape.batch;
  s.num_kv_heads = (int32_t)cfg->num_kv_heads;
  s.qg = (int32_t)cfg->query_group;
  s.block_size = (int32_t)cfg->block_size;
  s.padded_slot = (int32_t)cfg->padded_slot;
  s.max_blocks_per_seq = (int32_t)cfg->max_blocks_per_seq;
  s.sliding_window = (int32_t)cfg->sliding_window;
  s.q_stride_seq =
      (int32_t)(cfg->query_stride_seq ? cfg->query_stride_seq : hq * 256);
  s.q_stride_head =
      (int32_t)(cfg->query_stride_head ? cfg->query_stride_head : 256);
  s.out_stride_seq =
      (int32_t)(cfg->output_stride_seq ? cfg->output_stride_seq : hq * 256);
  s.out_stride_head =
      (int32_t)(cfg->output_stride_head ? cfg->output_stride_head : 256);
  s.softmax_scale = cfg->softmax_scale ? cfg->softmax_scale : 0.0625f;
  int64_t span = (int64_t)cfg->max_blocks_per_seq * cfg->block_size;
  if (cfg->sliding_window && span > (int64_t)cfg->sliding_window + 15)
    span = (int64_t)cfg->sliding_window + 15;
  if (c->hopper_policy) {
    hopper_policy(k, s.batch, s.num_kv_heads, s.qg, span, &s.partitions,
                  &s.tgpp);
  } else {
    uq_launch_plan_t plan;
    status = uq_launch_policy_window(
        s.batch, s.max_blocks_per_seq, s.block_size, (int32_t)cfg->head_dim,
        (int32_t)(cfg->max_kv_splits ? cfg->max_kv_splits
                                     : UQ_DEFAULT_MAX_KV_SPLITS),
        s.sliding_window, &plan);
    if (status)
      die("%s: %s", c->label, uq_status_message(status));
    s.partitions = plan.num_partitions;
    s.tgpp = plan.tgpp;
  }
  size_t rows = (size_t)s.batch * s.num_kv_heads * s.partitions * s.qg;
  size_t table_bytes =
      (size_t)s.batch * cfg->max_blocks_per_seq * sizeof(int32_t);
  s.query = upload(k, problem->query, problem->query_elems * 2);
  s.cache = upload(k, problem->cache, problem->cache_bytes);
  s.block_tables = upload(k, problem->block_tables, table_bytes);
  s.seq_lens = upload(k, problem->seq_lens, (size_t)s.batch * 4);
  s.sinks = problem->sinks ? upload(k, problem->sinks, hq * sizeof(float)) : 0;
  s.output = upload(k, NULL, problem->output_elems * 2);
  s.segm_out = upload(k, NULL, rows * 256 * 2);
  s.segm_max = upload(k, NULL, rows * 4);
  s.segm_sum = upload(k, NULL, rows * 4);
  // Poison: 0xFFFF is a bf16 NaN, so an element no kernel wrote fails.
  CU(k, MemsetD8(s.output, 0xFF, problem->output_elems * 2));
  CU(k, MemsetD8(s.segm_out, 0xFF, rows * 256 * 2));
  CU(k, MemsetD8(s.segm_max, 0xFF, rows * 4));
  CU(k, MemsetD8(s.segm_sum, 0xFF, rows * 4));
  launch_step(k, &s);
  CU(k, StreamSynchronize(k->stream));
  uint16_t *got = malloc(problem->output_elems * 2);
  uint16_t *ref = malloc(problem->output_elems * 2);
  if (!got || !ref)
    die("out of memory");
  CU(k, MemcpyDtoH(got, s.output, problem->output_elems * 2));
  status = uq_problem_faithful(problem, UQ_FP8_OVERFLOW_SATURATE, s.partitions,
                               s.tgpp, ref);
  if (status)
    die("%s: reference: %s", c->label, uq_status_message(status));
  uq_problem_error_t error;
  uq_problem_compare_bf16(problem, got, ref, &error);
  uint16_t *exact = malloc((size_t)s.batch * hq * 256 * 2);
  if (!exact)
    die("out of memory");
  exact_reference(problem, &s, exact);
  uint64_t over = count_over_tol(&s, got, ref);
  double got_exact = rel_to_exact(&s, got, 1, exact);
  double ref_exact = rel_to_exact(&s, ref, 0, exact);
  int failed = over != 0 || error.nonfinite != 0 ||
               !(got_exact <= 1.25 * ref_exact + 1e-6);
  printf("  %-46s P=%-4d TGPP=%-3d max|err| %-9.3g rel rms %-9.3g over tol "
         "%llu%s\n",
         c->label, s.partitions, s.tgpp, error.max_abs, error.rel_rms,
         (unsigned long long)over, failed ? "  FAIL" : "");
  printf("    vs exact (rel rms): kernel %.3g, faithful reference %.3g; "
         "outside problem.h's tighter bound: %llu\n",
         got_exact, ref_exact, (unsigned long long)error.over_tol);
  if (over)
    explain_failures(&s, got, ref, exact);
  free(exact);
  CUdeviceptr all[] = {s.query,    s.cache,    s.block_tables,
                       s.seq_lens, s.sinks,    s.output,
                       s.segm_out, s.segm_max, s.segm_sum};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i)
    if (all[i])
      CU(k, MemFree(all[i]));
  free(got);
  free(ref);
  uq_problem_destroy(problem);
  return failed;
}

static int run_check(kernels_t *k, uint64_t seed, int long_context, int only) {
  static const int32_t ragged[] = {1, 15, 16, 17, 255, 256, 257, 1000};
  uq_problem_shape_t base = {
      .batch = 4,
      .num_kv_heads = 2,
      .query_group = 8,
      .block_size = 16,
      .padded_slot = 272,
      .max_seq = 2048,
      .extra_blocks = 1,
      .spare_blocks = 3,
      .shuffle = 1,
      .seed = seed,
  };
  check_case_t cases[64];
  size_t n = 0;
#define CASE(lbl, policy, ...)                                                 \
  do {                                                                         \
    cases[n] = (check_case_t){lbl, base, policy};                              \
    uq_problem_shape_t *sh = &cases[n].shape;                                  \
    (void)sh;                                                                  \
    __VA_ARGS__;                                                               \
    sh->seed = seed + n;                                                       \
    ++n;                                                                       \
  } while (0)
  CASE("qg8 bs16 B4 Hk2 2k", 0, );
  CASE("qg6 bs32", 0, sh->query_group = 6; sh->block_size = 32);
  CASE("qg16 bs64", 0, sh->query_group = 16; sh->block_size = 64);
  CASE("qg8 bs128 padded 288", 0, sh->block_size = 128; sh->padded_slot = 288);
  CASE("qg8 bs256 padded 276 (4-byte copies)", 0, sh->block_size = 256;
       sh->padded_slot = 276);
  CASE("qg16 bs16 padded 280", 0, sh->query_group = 16; sh->padded_slot = 280);
  CASE("qg8 ragged 1..1000 B8", 0, sh->batch = 8; sh->max_seq = 1000;
       sh->seq_lens = ragged);
  CASE("qg6 fused QKV strides, padded output", 0, sh->query_group = 6;
       sh->fused_qkv = 1; sh->padded_output = 1);
  CASE("qg8 sliding window 100", 0, sh->sliding_window = 100);
  CASE("qg16 sliding window 1000 bs32", 0, sh->query_group = 16;
       sh->block_size = 32; sh->sliding_window = 1000);
  CASE("qg8 sinks", 0, sh->sinks = 1);
  CASE("qg6 window 300 + sinks", 0, sh->query_group = 6;
       sh->sliding_window = 300; sh->sinks = 1);
  CASE("qg8 large query (E4M3 saturation)", 0, sh->query_scale = 600.0f);
  CASE("qg1 (multi-head) bs32", 0, sh->query_group = 1; sh->block_size = 32);
  CASE("qg4 sinks", 0, sh->query_group = 4; sh->sinks = 1);
  CASE("qg7 window 500", 0, sh->query_group = 7; sh->sliding_window = 500);
  CASE("qg12 bs128, hopper policy", 1, sh->query_group = 12;
       sh->block_size = 128);
  CASE("qg8 scale 0.3", 0, sh->softmax_scale = 0.3f);
  CASE("qg8 B1 Hk1 seq 1", 0, sh->batch = 1; sh->num_kv_heads = 1;
       sh->max_seq = 1);
  CASE("qg8 8k, hopper policy", 1, sh->max_seq = 8192);
  CASE("qg16 ragged, hopper policy", 1, sh->query_group = 16; sh->batch = 8;
       sh->max_seq = 1000; sh->seq_lens = ragged);
  CASE("qg6 window 200 + sinks, hopper policy", 1, sh->query_group = 6;
       sh->sliding_window = 200; sh->sinks = 1);
  CASE("qg8 B64 Hk8 512, hopper policy", 1, sh->batch = 64;
       sh->num_kv_heads = 8; sh->max_seq = 512);
  if (long_context) {
    CASE("qg8 B1 Hk1 131072 tokens", 0, sh->batch = 1; sh->num_kv_heads = 1;
         sh->max_seq = 131072; sh->spare_blocks = 1);
    CASE("qg16 B1 Hk1 140000 tokens bs256, hopper policy", 1, sh->batch = 1;
         sh->num_kv_heads = 1; sh->query_group = 16; sh->block_size = 256;
         sh->max_seq = 140000; sh->spare_blocks = 1);
  }
#undef CASE
  int failed = 0;
  printf("check: %zu cases against the kernel-faithful reference (seed %llu)\n",
         n, (unsigned long long)seed);
  size_t ran = 0;
  for (size_t i = 0; i < n; ++i) {
    if (only >= 0 && (size_t)only != i)
      continue;
    failed += run_check_case(k, &cases[i]);
    ++ran;
  }
  printf("check: %zu passed, %d failed\n", ran - (size_t)failed, failed);
  return failed ? 1 : 0;
}

// ---- --bench
// ------------------------------------------------------------------

static uint64_t splitmix(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Random codes with realistic scale bytes (2^-9 .. 2^6): timing on
// random data, not on zeros. Correctness is --check's job.
static void fill_random_cache(uint8_t *cache, size_t slots, uint64_t seed) {
  uint64_t state = seed;
  for (size_t i = 0; i < slots; ++i) {
    uint8_t *slot = cache + i * 272;
    for (int b = 0; b < 272; b += 8) {
      uint64_t r = splitmix(&state);
      memcpy(slot + b, &r, 8);
    }
    for (int g = 0; g < 8; ++g) {
      slot[128 + g] = (uint8_t)(118 + slot[128 + g] % 16);
      slot[264 + g] = (uint8_t)(118 + slot[264 + g] % 16);
    }
  }
}

static double time_graph(kernels_t *k, CUgraphExec exec, int replays) {
  CUevent start, stop;
  CU(k, EventCreate(&start, 0));
  CU(k, EventCreate(&stop, 0));
  for (int i = 0; i < 3; ++i)
    CU(k, GraphLaunch(exec, k->stream));
  CU(k, EventRecord(start, k->stream));
  for (int i = 0; i < replays; ++i)
    CU(k, GraphLaunch(exec, k->stream));
  CU(k, EventRecord(stop, k->stream));
  CU(k, EventSynchronize(stop));
  float ms = 0;
  CU(k, EventElapsedTime(&ms, start, stop));
  return (double)ms * 1e3 / replays;
}

// The copy the KV bandwidth is measured against: a grid-stride kernel of
// 16-byte loads and stores, four in flight per thread (the copy engines of
// cuMemcpyDtoD reach less than the SMs do). PTX, JIT-compiled by the driver.
static const char kCopyPtx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry uq_copy(.param .u64 dst, .param .u64 src, .param .u64 "
    "n16)\n{\n"
    "  .reg .u64 %d, %s, %n, %i, %stride, %off, %j;\n"
    "  .reg .u32 %t, %b, %nb, %nt;\n  .reg .pred %p;\n"
    "  .reg .v4 .u32 %v0, %v1, %v2, %v3;\n"
    "  ld.param.u64 %d, [dst];\n  ld.param.u64 %s, [src];\n"
    "  ld.param.u64 %n, [n16];\n"
    "  mov.u32 %t, %tid.x;\n  mov.u32 %b, %ctaid.x;\n"
    "  mov.u32 %nb, %nctaid.x;\n  mov.u32 %nt, %ntid.x;\n"
    "  mul.wide.u32 %i, %b, %nt;\n  cvt.u64.u32 %j, %t;\n"
    "  add.u64 %i, %i, %j;\n  mul.wide.u32 %stride, %nb, %nt;\n"
    "LOOP:\n  add.u64 %j, %i, %stride;\n  add.u64 %j, %j, %stride;\n"
    "  add.u64 %j, %j, %stride;\n  setp.ge.u64 %p, %j, %n;\n"
    "  @%p bra DONE;\n"
    "  shl.b64 %off, %i, 4;\n  add.u64 %j, %s, %off;\n"
    "  shl.b64 %off, %stride, 4;\n"
    "  ld.global.v4.u32 %v0, [%j];\n  add.u64 %j, %j, %off;\n"
    "  ld.global.v4.u32 %v1, [%j];\n  add.u64 %j, %j, %off;\n"
    "  ld.global.v4.u32 %v2, [%j];\n  add.u64 %j, %j, %off;\n"
    "  ld.global.v4.u32 %v3, [%j];\n"
    "  shl.b64 %j, %i, 4;\n  add.u64 %j, %d, %j;\n"
    "  st.global.v4.u32 [%j], %v0;\n  add.u64 %j, %j, %off;\n"
    "  st.global.v4.u32 [%j], %v1;\n  add.u64 %j, %j, %off;\n"
    "  st.global.v4.u32 [%j], %v2;\n  add.u64 %j, %j, %off;\n"
    "  st.global.v4.u32 [%j], %v3;\n"
    "  add.u64 %i, %i, %stride;\n  add.u64 %i, %i, %stride;\n"
    "  add.u64 %i, %i, %stride;\n  add.u64 %i, %i, %stride;\n"
    "  bra LOOP;\nDONE:\n  ret;\n}\n";

static double copy_bandwidth(kernels_t *k) {
  size_t bytes = (size_t)1 << 30;
  CUdeviceptr a = upload(k, NULL, bytes), b = upload(k, NULL, bytes);
  CU(k, MemsetD8(a, 0x5A, bytes));
  CUmodule module;
  CUfunction copy;
  CU(k, ModuleLoadData(&module, kCopyPtx));
  CU(k, ModuleGetFunction(&copy, module, "uq_copy"));
  // 1024 CTAs x 256 threads x 4 loads of 16 B divide 1 GiB (64 rounds).
  unsigned long long n16 = bytes / 16;
  void *args[] = {&b, &a, &n16};
  CUgraph graph;
  CUgraphExec exec;
  CU(k, StreamBeginCapture(k->stream, UQ_CU_STREAM_CAPTURE_MODE_GLOBAL));
  CU(k, LaunchKernel(copy, 1024, 1, 1, 256, 1, 1, 0, k->stream, args, NULL));
  CU(k, StreamEndCapture(k->stream, &graph));
  CU(k, GraphInstantiateWithFlags(&exec, graph, 0));
  (void)time_graph(k, exec, 50); // clocks up from idle first
  double us = time_graph(k, exec, 50);
  unsigned char check[16];
  CU(k, MemcpyDtoH(check, b + bytes - 16, 16));
  if (check[0] != 0x5A || check[15] != 0x5A)
    die("the copy kernel did not copy");
  CU(k, GraphExecDestroy(exec));
  CU(k, GraphDestroy(graph));
  CU(k, MemFree(a));
  CU(k, MemFree(b));
  return 2.0 * (double)bytes / (us * 1e-6) / 1e9; // read + write
}

typedef struct bench_shape_s {
  int32_t batch, tokens, hk, qg;
  double triton_us, sdpa_us; // the peer figures on the same H200
} bench_shape_t;

static void run_bench(kernels_t *k, int replays, int which_policy, int only) {
  static const bench_shape_t shapes[] = {
      {1, 16384, 2, 8, 316, 28.7},   {4, 16384, 2, 8, 319, 62.6},
      {16, 16384, 2, 8, 727, 176},   {4, 65536, 2, 8, 1345, 178},
      {16, 65536, 1, 16, 1706, 329}, {64, 4096, 2, 8, 546, 163},
      {16, 131072, 1, 8, 3248, 628}, {4, 75000, 1, 6, 1544, 115},
  };
  double copy = copy_bandwidth(k);
  printf("device-to-device copy: %.0f GB/s (read + write, 1 GiB, 16-byte "
         "copy kernel)\n",
         copy);
  for (int qg = 8; qg <= 16; qg += 8) {
    if (!k->decode[qg])
      continue;
    int regs = 0, shared = 0, local = 0, blocks = 0;
    CU(k,
       FuncGetAttribute(&regs, UQ_CU_FUNC_ATTRIBUTE_NUM_REGS, k->decode[qg]));
    CU(k, FuncGetAttribute(&shared, UQ_CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                           k->decode[qg]));
    CU(k, FuncGetAttribute(&local, UQ_CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
                           k->decode[qg]));
    blocks = k->decode_ctas_per_sm[qg];
    printf(
        "decode qg_max %-2d: %d registers, %d B static + %d B dynamic shared, "
        "%d B local, %d CTAs (%d warps) per SM\n",
        qg, regs, shared, UQ_SM90_DECODE_SHARED_BYTES_FOR(qg), local, blocks,
        blocks * UQ_SM90_DECODE_THREADS / 32);
  }
  printf("%3s %7s %2s %2s %-6s %5s %5s %9s %8s %6s %8s %8s\n", "B", "N", "Hk",
         "QG", "policy", "P", "TGPP", "us/step", "KV GB/s", "%copy", "x triton",
         "x sdpa");
  for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); ++i) {
    if (only >= 0 && (size_t)only != i)
      continue;
    const bench_shape_t *sh = &shapes[i];
    int32_t bs = 16;
    int32_t mbps = (sh->tokens + bs - 1) / bs;
    size_t slots_per_copy = (size_t)sh->batch * mbps * bs * sh->hk;
    size_t cache_bytes = slots_per_copy * 272;
    // Enough copies that one replay streams >= 512 MiB: the L2 (60 MB)
    // never holds the next step's cache.
    int copies = (int)(((size_t)512 << 20) / cache_bytes) + 1;
    if (copies > 16)
      copies = 16;
    uint8_t *host = malloc(cache_bytes);
    int32_t *tables = malloc((size_t)sh->batch * mbps * sizeof(int32_t));
    int32_t *lens = malloc((size_t)sh->batch * sizeof(int32_t));
    uint16_t *query = malloc((size_t)sh->batch * sh->hk * sh->qg * 256 * 2);
    if (!host || !tables || !lens || !query)
      die("out of memory");
    fill_random_cache(host, slots_per_copy, 1234 + i);
    for (int32_t b = 0; b < sh->batch; ++b) {
      lens[b] = sh->tokens;
      for (int32_t j = 0; j < mbps; ++j)
        tables[(size_t)b * mbps + j] = b * mbps + j;
    }
    uint64_t state = 99 + i;
    for (size_t e = 0; e < (size_t)sh->batch * sh->hk * sh->qg * 256; ++e)
      query[e] = (uint16_t)(0x3C00 + (splitmix(&state) & 0x1FF)) ^
                 (uint16_t)((splitmix(&state) & 1) << 15);
    CUdeviceptr caches[16];
    for (int c = 0; c < copies; ++c)
      caches[c] = upload(k, host, cache_bytes);
    for (int policy = 0; policy < 2; ++policy) {
      if (which_policy >= 0 && policy != which_policy)
        continue;
      step_t s = {0};
      s.batch = sh->batch;
      s.num_kv_heads = sh->hk;
      s.qg = sh->qg;
      s.block_size = bs;
      s.padded_slot = 272;
      s.max_blocks_per_seq = mbps;
      s.q_stride_seq = sh->hk * sh->qg * 256;
      s.q_stride_head = 256;
      s.out_stride_seq = sh->hk * sh->qg * 256;
      s.out_stride_head = 256;
      s.softmax_scale = 0.0625f;
      if (policy) {
        hopper_policy(k, s.batch, s.num_kv_heads, s.qg, (int64_t)mbps * bs,
                      &s.partitions, &s.tgpp);
      } else {
        uq_launch_plan_t plan;
        uq_status_t status = uq_launch_policy(s.batch, mbps, bs, 256, 0, &plan);
        if (status)
          die("%s", uq_status_message(status));
        s.partitions = plan.num_partitions;
        s.tgpp = plan.tgpp;
      }
      size_t rows = (size_t)s.batch * s.num_kv_heads * s.partitions * s.qg;
      s.query = upload(k, query, (size_t)sh->batch * sh->hk * sh->qg * 512);
      s.block_tables =
          upload(k, tables, (size_t)sh->batch * mbps * sizeof(int32_t));
      s.seq_lens = upload(k, lens, (size_t)sh->batch * sizeof(int32_t));
      s.output = upload(k, NULL, (size_t)sh->batch * sh->hk * sh->qg * 512);
      s.segm_out = upload(k, NULL, rows * 512);
      s.segm_max = upload(k, NULL, rows * 4);
      s.segm_sum = upload(k, NULL, rows * 4);
      CUgraph graph;
      CUgraphExec exec;
      CU(k, StreamBeginCapture(k->stream, UQ_CU_STREAM_CAPTURE_MODE_GLOBAL));
      for (int c = 0; c < copies; ++c) {
        s.cache = caches[c];
        launch_step(k, &s);
      }
      CU(k, StreamEndCapture(k->stream, &graph));
      CU(k, GraphInstantiateWithFlags(&exec, graph, 0));
      int reps = replays / copies + 1;
      double us = time_graph(k, exec, reps) / copies;
      double gbs = (double)sh->batch * sh->tokens * sh->hk * 272 / (us * 1e3);
      printf("%3d %7d %2d %2d %-6s %5d %5d %9.1f %8.0f %5.1f%% %8.1f %8.2f\n",
             sh->batch, sh->tokens, sh->hk, sh->qg, policy ? "hopper" : "seed",
             s.partitions, s.tgpp, us, gbs, 100.0 * gbs / copy,
             sh->triton_us / us, sh->sdpa_us / us);
      CU(k, GraphExecDestroy(exec));
      CU(k, GraphDestroy(graph));
      CUdeviceptr all[] = {s.query,    s.block_tables, s.seq_lens, s.output,
                           s.segm_out, s.segm_max,     s.segm_sum};
      for (size_t a = 0; a < sizeof(all) / sizeof(all[0]); ++a)
        CU(k, MemFree(all[a]));
    }
    for (int c = 0; c < copies; ++c)
      CU(k, MemFree(caches[c]));
    free(host);
    free(tables);
    free(lens);
    free(query);
  }
}

static void usage(FILE *out) {
  fprintf(out,
          "usage: uq-bench-cuda --kernels=DIR (--check [--long] | --bench)\n"
          "\n"
          "Runs the sm_90a cubins DIR/decode_sm90_d256_qg_max{8,16}.cubin "
          "and\n"
          "DIR/reduce_sm90_d256.cubin (uq-compile --target=sm_90a) on CUDA "
          "device 0.\n"
          "\n"
          "  --check          cases against the host kernel-faithful "
          "reference\n"
          "  --long           with --check: also >= 128k-token contexts\n"
          "  --case=N         only check case / bench shape N (0-based)\n"
          "  --seed=N         --check's seed (default: UQ_TEST_SEED or the "
          "time)\n"
          "  --bench          the issue-9 shapes: us/step, KV GB/s, copy "
          "GB/s\n"
          "  --replays=N      --bench: decode steps timed per shape (default "
          "200)\n"
          "  --policy=seed|hopper  --bench: only one launch policy\n"
          "  --help           this text\n");
}

int main(int argc, char **argv) {
  const char *dir = NULL;
  int check = 0, bench = 0, long_context = 0, replays = 200, policy = -1;
  int only = -1;
  const char *env = getenv("UQ_TEST_SEED");
  uint64_t seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (strncmp(a, "--kernels=", 10) == 0) {
      dir = a + 10;
    } else if (strcmp(a, "--check") == 0) {
      check = 1;
    } else if (strncmp(a, "--case=", 7) == 0) {
      only = atoi(a + 7);
    } else if (strcmp(a, "--long") == 0) {
      long_context = 1;
    } else if (strcmp(a, "--bench") == 0) {
      bench = 1;
    } else if (strncmp(a, "--seed=", 7) == 0) {
      seed = strtoull(a + 7, NULL, 0);
    } else if (strncmp(a, "--replays=", 10) == 0) {
      replays = atoi(a + 10);
      if (replays < 1)
        die("--replays must be >= 1");
    } else if (strcmp(a, "--policy=seed") == 0) {
      policy = 0;
    } else if (strcmp(a, "--policy=hopper") == 0) {
      policy = 1;
    } else {
      die("unknown argument '%s' (see --help)", a);
    }
  }
  if (!dir || (!check && !bench))
    die("need --kernels=DIR and --check or --bench (see --help)");
  kernels_t k;
  memset(&k, 0, sizeof(k));
  kernels_open(&k, dir);
  int rc = 0;
  if (check)
    rc |= run_check(&k, seed, long_context, only);
  if (bench)
    run_bench(&k, replays, policy, only);
  return rc;
}
