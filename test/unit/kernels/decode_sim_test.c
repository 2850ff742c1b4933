// The decode and reduce kernels of kernels/, run on the gfx950 simulator
// and compared with the host reference (runtime/include/uq/reference.h).
//
// Code objects come from $UQ_KERNEL_DIR (uq-compile -o DIR:
// decode_d256_rows8.hsaco for QG <= 8, decode_d256_rows16.hsaco,
// decode_d128_rows16.hsaco, decode_d64_rows16.hsaco and reduce_dD.hsaco
// for each head dim D). Kernel arguments are
// packed from each code object's metadata in kernel_abi.h order. Every cache
// byte the sequences do not own (the tail of the last block, blocks the
// tables do not name, slot padding) is 0xFF, which dequantizes to NaN/inf,
// and block-table entries past a sequence's used ones hold an id far outside
// the cache: the outputs must stay finite and match the reference.
//
// Tolerances, per output row of D (|x|max = the reference row's max):
// - partials and output against the kernel-faithful reference: 1/64 of
//   |x|max. The kernel's exp2 is the hardware approximation (about 1 ulp),
//   which can move bf16(p) by one bf16 ulp (2^-8) for a token, and the
//   partials and the output are bf16 (2^-9 relative each);
// - segm_max: 1e-5 relative (the same MFMA sums; no exp involved);
//   segm_sum: 1e-4 relative (sums of approximate exp2);
// - output against the float64 exact reference: 1/32 of |x|max (bf16 P in
//   the PV product, bf16 partials, fp32 softmax).
// The same bounds hold for every head dim: they are relative to the row max,
// and each output element is a softmax-weighted sum over tokens whose error
// terms do not grow with D (D only changes the QK dot length, summed in fp32
// by the MFMA, whose error is far below the bf16 rounding above).
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codeobj/codeobj.h"
#include "runtime/kernel_abi.h"
#include "sim/sim.h"
#include "tools/common/file_util.h"
#include "uq/format.h"
#include "uq/policy.h"
#include "uq/reference.h"
#include "uq_test.h"

// ---- random numbers (xorshift64*), seeded per case and printed -------------

static uint64_t rng_state;

static uint64_t rng_next(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1DULL;
}

static double rng_uniform(void) {
  return (double)(rng_next() >> 11) * (1.0 / 9007199254740992.0);
}

static float rng_gauss(void) {
  double u = rng_uniform() + 1e-12, v = rng_uniform();
  return (float)(sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v));
}

// ---- the simulator and the programs, loaded once ---------------------------

static uq_sim_t *g_sim;
// d256 QG <= 8, d256 QG <= 16, d128, d64; reduce d256, d128, d64.
static uq_sim_program_t *g_decode[4];
static uq_sim_program_t *g_reduces[3];
static int g_setup_done, g_setup_ok;

static uq_status_t load_program(const char *dir, const char *file,
                                uq_sim_program_t **out) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/%s", dir, file);
  char *data = NULL;
  size_t size = 0;
  UQ_RETURN_IF_ERROR(uq_file_read(path, &data, &size), "kernel");
  uq_status_t s = uq_sim_program_load(g_sim, data, size, out);
  free(data);
  return s;
}

// 0 when ready, UQ_TEST_SKIP without $UQ_KERNEL_DIR, 1 on failure.
static int setup(void) {
  if (g_setup_done)
    return g_setup_ok;
  g_setup_done = 1;
  g_setup_ok = 1;
  const char *dir = getenv("UQ_KERNEL_DIR");
  if (!dir || !*dir) {
    fprintf(stderr, "UQ_KERNEL_DIR is not set\n");
    g_setup_ok = UQ_TEST_SKIP;
    return g_setup_ok;
  }
  UQ_EXPECT_OK(uq_sim_create(&g_sim));
  UQ_EXPECT_OK(load_program(dir, "decode_d256_rows8.hsaco", &g_decode[0]));
  UQ_EXPECT_OK(load_program(dir, "decode_d256_rows16.hsaco", &g_decode[1]));
  UQ_EXPECT_OK(load_program(dir, "decode_d128_rows16.hsaco", &g_decode[2]));
  UQ_EXPECT_OK(load_program(dir, "decode_d64_rows16.hsaco", &g_decode[3]));
  UQ_EXPECT_OK(load_program(dir, "reduce_d256.hsaco", &g_reduces[0]));
  UQ_EXPECT_OK(load_program(dir, "reduce_d128.hsaco", &g_reduces[1]));
  UQ_EXPECT_OK(load_program(dir, "reduce_d64.hsaco", &g_reduces[2]));
  g_setup_ok = 0;
  return 0;
}

// ---- kernel arguments from the metadata ------------------------------------

typedef struct arg_value_s {
  int is_pointer;
  uint64_t u; // pointer, or the i32/f32 bits
} arg_value_t;

// Packs `count` explicit arguments in ABI order; checks kinds and sizes.
static uq_status_t pack_args(const uq_sim_program_t *program, const char *name,
                             const arg_value_t *values, uint32_t count,
                             uint8_t *out, size_t out_cap, size_t *out_size) {
  const uq_kernel_info_t *k = NULL;
  UQ_RETURN_IF_ERROR(
      uq_code_object_find_kernel(uq_sim_program_code_object(program), name, &k),
      "kernel %s", name);
  if (k->kernarg_segment_size > out_cap || k->arg_count < count)
    return UQ_MAKE_STATUS(UQ_STATUS_INTERNAL,
                          "%s: %u kernarg bytes, %u args (want >= %u)", name,
                          k->kernarg_segment_size, k->arg_count, count);
  memset(out, 0, k->kernarg_segment_size);
  for (uint32_t i = 0; i < count; ++i) {
    const uq_kernarg_t *a = &k->args[i];
    int is_ptr = strcmp(a->value_kind, "global_buffer") == 0;
    uint32_t want = values[i].is_pointer ? 8 : 4;
    if (is_ptr != values[i].is_pointer || a->size != want ||
        a->offset + a->size > k->kernarg_segment_size)
      return UQ_MAKE_STATUS(UQ_STATUS_INTERNAL,
                            "%s: argument %u is %s of %u bytes", name, i,
                            a->value_kind, a->size);
    memcpy(out + a->offset, &values[i].u, want);
  }
  *out_size = k->kernarg_segment_size;
  return UQ_OK;
}

static arg_value_t ptr_arg(uint64_t p) { return (arg_value_t){1, p}; }
static arg_value_t i32_arg(int32_t v) {
  return (arg_value_t){0, (uint64_t)(uint32_t)v};
}
static arg_value_t f32_arg(float v) {
  uint32_t b;
  memcpy(&b, &v, 4);
  return (arg_value_t){0, b};
}

// ---- one decode case --------------------------------------------------------

typedef struct case_s {
  int qg;
  int block_size;
  int padded_slot;
  int num_kv_heads;
  int fused_qkv;      // query rows are slices of a [B, Hq + 2 Hk, D] tensor
  int num_partitions; // 0: the launch policy decides (with tgpp)
  int tgpp;
  int num_seqs;
  const int *seq_lens;
  int extra_table_entries; // block-table entries past the longest sequence
  int print_counters;
  int sliding_window; // W (0: none)
  int sinks;          // sink_mode_t
  // Only tokens >= seq_len - W are written; the cache before them stays
  // 0xFF and block-table entries wholly before the window are garbage ids.
  int garbage_before_window;
  int head_dim; // 0: 256
} case_t;

typedef enum sink_mode_e {
  SINKS_NONE = 0, // null pointer
  SINKS_NEG_INF,  // every head -inf (= none)
  SINKS_RANDOM,   // N(0, 2) logits, some heads -inf
  SINKS_LARGE,    // +40: the sink dominates the denominator
  SINKS_SMALL,    // -40: changes nothing visible
} sink_mode_t;

static uint16_t bf16_of(float x) { return uq_float_to_bf16(x); }

// Largest |got - want| / row max seen by check_row, per comparison kind.
static double g_worst[3];

static int check_row(int kind, const char *what, int b, int h, int D,
                     const uint16_t *got, const uint16_t *want,
                     double rel_tol) {
  double mx = 0;
  for (int d = 0; d < D; ++d)
    mx = fmax(mx, fabs(uq_bf16_to_float(want[d])));
  for (int d = 0; d < D; ++d) {
    double g = uq_bf16_to_float(got[d]), w = uq_bf16_to_float(want[d]);
    if (mx > 0 && fabs(g - w) / mx > g_worst[kind])
      g_worst[kind] = fabs(g - w) / mx;
    if (!isfinite(g) || fabs(g - w) > rel_tol * mx + 1e-30) {
      fprintf(stderr,
              "%s: seq %d head %d dim %d: got %.6g want %.6g (row max %.4g)\n",
              what, b, h, d, g, w, mx);
      return 1;
    }
  }
  return 0;
}

static int run_case(const case_t *c, uint64_t seed) {
  int rc = setup();
  if (rc)
    return rc;
  rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
  printf("  seed %llu: d %d qg %d bs %d slot %d hk %d B %d%s window %d sinks "
         "%d%s\n",
         (unsigned long long)seed, c->head_dim ? c->head_dim : 256, c->qg,
         c->block_size, c->padded_slot, c->num_kv_heads, c->num_seqs,
         c->fused_qkv ? " fused-qkv" : "", c->sliding_window, c->sinks,
         c->garbage_before_window ? " garbage-before-window" : "");
  const int B = c->num_seqs, Hk = c->num_kv_heads, QG = c->qg,
            bs = c->block_size;
  const int D = c->head_dim ? c->head_dim : 256;
  const int Hq = Hk * QG;
  int max_len = 0;
  for (int b = 0; b < B; ++b)
    max_len = c->seq_lens[b] > max_len ? c->seq_lens[b] : max_len;
  const int mbps = (max_len + bs - 1) / bs + c->extra_table_entries;
  int P = c->num_partitions, tgpp = c->tgpp;
  if (P == 0) {
    uq_launch_plan_t plan;
    UQ_EXPECT_OK(uq_launch_policy_window(
        B, mbps, bs, D, UQ_DEFAULT_MAX_KV_SPLITS, c->sliding_window, &plan));
    P = plan.num_partitions;
    tgpp = plan.tgpp;
  }
  // Blocks: each sequence gets its used blocks from a shuffled pool with
  // spare blocks (never named) mixed in.
  int used = 0;
  for (int b = 0; b < B; ++b)
    used += (c->seq_lens[b] + bs - 1) / bs;
  const int64_t num_blocks = used + 3;
  int32_t *pool = malloc(sizeof(int32_t) * (size_t)num_blocks);
  for (int i = 0; i < num_blocks; ++i)
    pool[i] = i;
  for (int i = (int)num_blocks - 1; i > 0; --i) {
    int j = (int)(rng_next() % (uint64_t)(i + 1));
    int32_t t = pool[i];
    pool[i] = pool[j];
    pool[j] = t;
  }
  int32_t *tables = malloc(sizeof(int32_t) * (size_t)B * (size_t)mbps);
  int next = 0;
  for (int b = 0; b < B; ++b)
    for (int i = 0; i < mbps; ++i)
      tables[b * mbps + i] = i < (c->seq_lens[b] + bs - 1) / bs
                                 ? pool[next++]
                                 : 0x3fffffff; // must never be read
  uq_cache_layout_t layout = {num_blocks, bs, Hk, c->padded_slot, D};
  size_t cache_size = 0;
  UQ_EXPECT_OK(uq_cache_layout_size(&layout, &cache_size));
  uint8_t *cache = malloc(cache_size);
  memset(cache, 0xFF, cache_size);
  // Tokens: K/V per (sequence, position, kv head), written through the
  // cache encoder at the slots the tables name.
  for (int b = 0; b < B; ++b) {
    int n = c->seq_lens[b];
    if (!n)
      continue;
    uint16_t *kv = malloc(sizeof(uint16_t) * (size_t)n * (size_t)Hk * D * 2);
    int64_t *map = malloc(sizeof(int64_t) * (size_t)n);
    float kscale = 0.5f + 2.0f * (float)rng_uniform();
    for (size_t i = 0; i < (size_t)n * (size_t)Hk * D; ++i) {
      kv[i] = bf16_of(kscale * rng_gauss());
      kv[(size_t)n * (size_t)Hk * D + i] = bf16_of(rng_gauss());
    }
    for (int t = 0; t < n; ++t)
      map[t] = (int64_t)tables[b * mbps + t / bs] * bs + t % bs;
    // With garbage before the window only tokens w0 .. n - 1 are written.
    int w0 = c->garbage_before_window && c->sliding_window > 0 &&
                     n > c->sliding_window
                 ? n - c->sliding_window
                 : 0;
    uq_kv_tokens_t tok = {kv + (size_t)w0 * Hk * D,
                          Hk * D,
                          D,
                          kv + (size_t)n * (size_t)Hk * D + (size_t)w0 * Hk * D,
                          Hk * D,
                          D,
                          map + w0,
                          n - w0,
                          UQ_DTYPE_BF16};
    UQ_EXPECT_OK(uq_cache_write(&layout, cache, cache_size, &tok));
    for (int i = 0; i < w0 / bs; ++i)
      tables[b * mbps + i] = 0x3fffffff; // wholly before the window
    free(kv);
    free(map);
  }
  // Query [B, Hq (+ 2 Hk when fused), D].
  const int64_t q_head_stride = D;
  const int64_t q_seq_stride = (int64_t)(Hq + (c->fused_qkv ? 2 * Hk : 0)) * D;
  size_t q_elems = (size_t)B * (size_t)q_seq_stride;
  uint16_t *query = malloc(sizeof(uint16_t) * q_elems);
  for (size_t i = 0; i < q_elems; ++i)
    query[i] = bf16_of(2.0f * rng_gauss());
  const float scale = 1.0f / 16.0f;
  const size_t rows = (size_t)B * Hk * P * QG;
  uint16_t *k_out = malloc(rows * D * 2), *r_out = malloc(rows * D * 2);
  float *k_max = malloc(rows * 4), *k_sum = malloc(rows * 4);
  float *r_max = malloc(rows * 4), *r_sum = malloc(rows * 4);
  // Output with padding between heads and sequences (own strides).
  const int64_t o_head_stride = D + 64, o_seq_stride = Hq * o_head_stride + 128;
  size_t o_elems = (size_t)B * (size_t)o_seq_stride;
  uint16_t *k_final = malloc(o_elems * 2), *r_final = malloc(o_elems * 2),
           *x_final = malloc(o_elems * 2);
  memset(k_final, 0, o_elems * 2);
  memset(r_final, 0, o_elems * 2);
  memset(x_final, 0, o_elems * 2);
  int32_t *lens = malloc(sizeof(int32_t) * (size_t)B);
  for (int b = 0; b < B; ++b)
    lens[b] = c->seq_lens[b];
  float *sinks = malloc(sizeof(float) * (size_t)Hq);
  for (int h = 0; h < Hq; ++h) {
    switch (c->sinks) {
    case SINKS_RANDOM:
      sinks[h] = h % 5 == 3 ? -INFINITY : 2.0f * rng_gauss();
      break;
    case SINKS_LARGE:
      sinks[h] = 40.0f;
      break;
    case SINKS_SMALL:
      sinks[h] = -40.0f;
      break;
    default:
      sinks[h] = -INFINITY;
    }
  }

  // ---- the host reference -----
  uint8_t rsrc1_ovfl = 0; // read from the code object below
  const uq_kernel_info_t *dk = NULL;
  char dname[32];
  if (D == 256)
    snprintf(dname, sizeof(dname), "uq_decode_d256_rows%d", QG <= 8 ? 8 : 16);
  else
    snprintf(dname, sizeof(dname), "uq_decode_d%d_rows16", D);
  uq_sim_program_t *dprog = g_decode[D == 256   ? (QG <= 8 ? 0 : 1)
                                     : D == 128 ? 2
                                                : 3];
  uq_sim_program_t *reduce = g_reduces[D == 256 ? 0 : D == 128 ? 1 : 2];
  char rname[32];
  snprintf(rname, sizeof(rname), "uq_reduce_d%d", D);
  UQ_EXPECT_OK(uq_code_object_find_kernel(uq_sim_program_code_object(dprog),
                                          dname, &dk));
  rsrc1_ovfl = (uint8_t)((dk->descriptor.compute_pgm_rsrc1 >> 26) & 1u);
  uq_decode_problem_t prob = {
      .num_seqs = B,
      .query_group = QG,
      .cache = layout,
      .max_blocks_per_seq = mbps,
      .softmax_scale = scale,
      .q_overflow = rsrc1_ovfl ? UQ_FP8_OVERFLOW_SATURATE : UQ_FP8_OVERFLOW_NAN,
      .query = query,
      .query_stride_seq = q_seq_stride,
      .query_stride_head = q_head_stride,
      .kv_cache = cache,
      .block_tables = tables,
      .seq_lens = lens,
      .output = r_final,
      .output_stride_seq = o_seq_stride,
      .output_stride_head = o_head_stride,
      .sliding_window = c->sliding_window,
      .sinks = c->sinks == SINKS_NONE ? NULL : sinks};
  uq_decode_partials_t parts = {r_out, r_max, r_sum};
  UQ_EXPECT_OK(uq_reference_decode_faithful(&prob, P, tgpp, &parts));
  prob.output = x_final;
  UQ_EXPECT_OK(uq_reference_decode_exact(&prob));

  // ---- the kernels on the simulator -----
  uint64_t d_out, d_max, d_sum, d_q, d_cache, d_bt, d_sl, d_final, d_sinks = 0;
  if (c->sinks != SINKS_NONE) {
    UQ_EXPECT_OK(uq_sim_alloc(g_sim, sizeof(float) * (size_t)Hq, &d_sinks));
    UQ_EXPECT_OK(
        uq_sim_write(g_sim, d_sinks, sinks, sizeof(float) * (size_t)Hq));
  }
  UQ_EXPECT_OK(uq_sim_alloc(g_sim, rows * D * 2, &d_out));
  UQ_EXPECT_OK(uq_sim_alloc(g_sim, rows * 4, &d_max));
  UQ_EXPECT_OK(uq_sim_alloc(g_sim, rows * 4, &d_sum));
  UQ_EXPECT_OK(uq_sim_alloc(g_sim, q_elems * 2, &d_q));
  UQ_EXPECT_OK(uq_sim_alloc(g_sim, cache_size, &d_cache));
  UQ_EXPECT_OK(uq_sim_alloc(g_sim, sizeof(int32_t) * (size_t)B * mbps, &d_bt));
  UQ_EXPECT_OK(uq_sim_alloc(g_sim, sizeof(int32_t) * (size_t)B, &d_sl));
  UQ_EXPECT_OK(uq_sim_alloc(g_sim, o_elems * 2, &d_final));
  UQ_EXPECT_OK(uq_sim_write(g_sim, d_q, query, q_elems * 2));
  UQ_EXPECT_OK(uq_sim_write(g_sim, d_cache, cache, cache_size));
  UQ_EXPECT_OK(
      uq_sim_write(g_sim, d_bt, tables, sizeof(int32_t) * (size_t)B * mbps));
  UQ_EXPECT_OK(uq_sim_write(g_sim, d_sl, lens, sizeof(int32_t) * (size_t)B));
  UQ_EXPECT_OK(uq_sim_write(g_sim, d_final, k_final, o_elems * 2));
  arg_value_t dargs[UQ_DECODE_ARG_COUNT] = {
      [UQ_DECODE_ARG_SEGM_OUT] = ptr_arg(d_out),
      [UQ_DECODE_ARG_SEGM_MAX] = ptr_arg(d_max),
      [UQ_DECODE_ARG_SEGM_SUM] = ptr_arg(d_sum),
      [UQ_DECODE_ARG_QUERY] = ptr_arg(d_q),
      [UQ_DECODE_ARG_KV_CACHE] = ptr_arg(d_cache),
      [UQ_DECODE_ARG_BLOCK_TABLES] = ptr_arg(d_bt),
      [UQ_DECODE_ARG_SEQ_LENS] = ptr_arg(d_sl),
      [UQ_DECODE_ARG_NUM_KV_HEADS] = i32_arg(Hk),
      [UQ_DECODE_ARG_NUM_PARTITIONS] = i32_arg(P),
      [UQ_DECODE_ARG_TGPP] = i32_arg(tgpp),
      [UQ_DECODE_ARG_BLOCK_SIZE] = i32_arg(bs),
      [UQ_DECODE_ARG_PADDED_SLOT] = i32_arg(c->padded_slot),
      [UQ_DECODE_ARG_Q_STRIDE_SEQ] = i32_arg((int32_t)q_seq_stride),
      [UQ_DECODE_ARG_Q_STRIDE_HEAD] = i32_arg((int32_t)q_head_stride),
      [UQ_DECODE_ARG_MAX_BLOCKS_PER_SEQ] = i32_arg(mbps),
      [UQ_DECODE_ARG_SOFTMAX_SCALE] = f32_arg(scale),
      [UQ_DECODE_ARG_SLIDING_WINDOW] = i32_arg(c->sliding_window),
      [UQ_DECODE_ARG_QUERY_GROUP] = i32_arg(QG),
      // a decode: one query token per sequence, block x = sequence x
      [UQ_DECODE_ARG_QUERY_START_LOC] = ptr_arg(0),
      [UQ_DECODE_ARG_SEARCH_SEQS] = i32_arg(0),
      // P = 1: the decode writes the output itself (no partials, no reduce)
      [UQ_DECODE_ARG_OUTPUT] = ptr_arg(d_final),
      [UQ_DECODE_ARG_OUT_STRIDE_SEQ] = i32_arg((int32_t)o_seq_stride),
      [UQ_DECODE_ARG_OUT_STRIDE_HEAD] = i32_arg((int32_t)o_head_stride),
      [UQ_DECODE_ARG_SINKS] = ptr_arg(d_sinks),
  };
  uint8_t kernargs[256];
  size_t kernarg_size = 0;
  UQ_EXPECT_OK(pack_args(dprog, dname, dargs, UQ_DECODE_ARG_COUNT, kernargs,
                         sizeof(kernargs), &kernarg_size));
  uq_sim_launch_t launch = {{(uint32_t)B, (uint32_t)Hk, (uint32_t)P},
                            {64, 1, 1},
                            kernargs,
                            kernarg_size,
                            0,
                            0,
                            0};
  uq_sim_counters_t cnt;
  UQ_EXPECT_OK(uq_sim_launch(g_sim, dprog, dname, &launch, &cnt));
  uq_sim_counters_t rcnt = {0};
  if (P > 1) {
    arg_value_t rargs[UQ_REDUCE_ARG_COUNT] = {
        [UQ_REDUCE_ARG_OUTPUT] = ptr_arg(d_final),
        [UQ_REDUCE_ARG_SEGM_OUT] = ptr_arg(d_out),
        [UQ_REDUCE_ARG_SEGM_MAX] = ptr_arg(d_max),
        [UQ_REDUCE_ARG_SEGM_SUM] = ptr_arg(d_sum),
        [UQ_REDUCE_ARG_NUM_KV_HEADS] = i32_arg(Hk),
        [UQ_REDUCE_ARG_QUERY_GROUP] = i32_arg(QG),
        [UQ_REDUCE_ARG_NUM_PARTITIONS] = i32_arg(P),
        [UQ_REDUCE_ARG_OUT_STRIDE_SEQ] = i32_arg((int32_t)o_seq_stride),
        [UQ_REDUCE_ARG_OUT_STRIDE_HEAD] = i32_arg((int32_t)o_head_stride),
        [UQ_REDUCE_ARG_SINKS] = ptr_arg(d_sinks),
        [UQ_REDUCE_ARG_QUERY_START_LOC] = ptr_arg(0), // a decode
        [UQ_REDUCE_ARG_NUM_SEQS] = i32_arg(0),
    };
    UQ_EXPECT_OK(pack_args(reduce, rname, rargs, UQ_REDUCE_ARG_COUNT, kernargs,
                           sizeof(kernargs), &kernarg_size));
    uq_sim_launch_t rlaunch = {{(uint32_t)B, (uint32_t)Hq, (uint32_t)(D / 64)},
                               {64, 1, 1},
                               kernargs,
                               kernarg_size,
                               0,
                               0,
                               0};
    UQ_EXPECT_OK(uq_sim_launch(g_sim, reduce, rname, &rlaunch, &rcnt));
  }
  UQ_EXPECT_OK(uq_sim_read(g_sim, d_out, k_out, rows * D * 2));
  UQ_EXPECT_OK(uq_sim_read(g_sim, d_max, k_max, rows * 4));
  UQ_EXPECT_OK(uq_sim_read(g_sim, d_sum, k_sum, rows * 4));
  UQ_EXPECT_OK(uq_sim_read(g_sim, d_final, k_final, o_elems * 2));

  if (c->print_counters) {
    long tokens = 0;
    for (int b = 0; b < B; ++b)
      tokens += c->seq_lens[b];
    double tiles = 0;
    for (int b = 0; b < B; ++b)
      tiles += (double)((c->seq_lens[b] + 15) / 16) * Hk;
    printf(
        "  decode: %.1f global bytes read per token per kv head (minimum 272, "
        "ratio %.3f); per 16-token tile: VALU %.1f, LDS %.1f, MFMA %.1f, "
        "SALU %.1f, VMEM %.1f, SMEM %.1f; LDS high water %u\n",
        (double)cnt.global_bytes_read / ((double)tokens * Hk),
        (double)cnt.global_bytes_read / ((double)tokens * Hk) / 272.0,
        cnt.by_class[UQ_SIM_CLASS_VALU] / tiles,
        cnt.by_class[UQ_SIM_CLASS_LDS] / tiles,
        cnt.by_class[UQ_SIM_CLASS_MFMA] / tiles,
        cnt.by_class[UQ_SIM_CLASS_SALU] / tiles,
        cnt.by_class[UQ_SIM_CLASS_VMEM] / tiles,
        cnt.by_class[UQ_SIM_CLASS_SMEM] / tiles, cnt.lds_high_water);
    printf("  decode: %.1f distinct bytes (128-byte lines) read per token per "
           "kv head\n",
           (double)cnt.global_lines_read * 128 / ((double)tokens * Hk));
    printf("  decode: P %d TGPP %d, %llu workgroups, %llu wave-instructions; "
           "reduce: %llu wave-instructions, %.1f bytes read per output row\n",
           P, tgpp, (unsigned long long)cnt.workgroups,
           (unsigned long long)cnt.wave_instructions,
           (unsigned long long)rcnt.wave_instructions,
           (double)rcnt.global_bytes_read / ((double)B * Hq));
  }

  // ---- compare -----
  int fails = 0;
  // (P = 1 writes no partials: its output is the check)
  for (size_t r = 0; P > 1 && r < rows && fails < 5; ++r) {
    int b = (int)(r / ((size_t)Hk * P * QG));
    int h = (int)(r % ((size_t)Hk * P * QG));
    if (!(fabsf(k_max[r] - r_max[r]) <= 1e-5f * fabsf(r_max[r]) + 1e-30f) &&
        !(isinf(k_max[r]) && isinf(r_max[r]) && k_max[r] == r_max[r])) {
      fprintf(stderr, "segm_max row %zu (seq %d): got %.9g want %.9g\n", r, b,
              k_max[r], r_max[r]);
      ++fails;
    }
    if (!(fabsf(k_sum[r] - r_sum[r]) <= 1e-4f * fabsf(r_sum[r]))) {
      fprintf(stderr, "segm_sum row %zu (seq %d): got %.9g want %.9g\n", r, b,
              k_sum[r], r_sum[r]);
      ++fails;
    }
    fails += check_row(0, "segm_out", b, h, D, k_out + r * D, r_out + r * D,
                       1.0 / 64);
  }
  for (int b = 0; b < B && fails < 10; ++b)
    for (int h = 0; h < Hq && fails < 10; ++h) {
      size_t o = (size_t)b * o_seq_stride + (size_t)h * o_head_stride;
      fails += check_row(1, "output vs faithful", b, h, D, k_final + o,
                         r_final + o, 1.0 / 64);
      fails += check_row(2, "output vs exact", b, h, D, k_final + o,
                         x_final + o, 1.0 / 32);
    }
  // The padding between output rows stays untouched.
  for (size_t i = 0; i < o_elems && !fails; ++i) {
    size_t in_seq = i % (size_t)o_seq_stride;
    if ((in_seq >= (size_t)Hq * o_head_stride ||
         in_seq % (size_t)o_head_stride >= (size_t)D) &&
        k_final[i] != 0) {
      fprintf(stderr, "output padding element %zu written\n", i);
      ++fails;
    }
  }
  printf("  worst |kernel - reference| / row max: partials %.2e, output vs "
         "faithful %.2e, vs exact %.2e\n",
         g_worst[0], g_worst[1], g_worst[2]);
  uint64_t bufs[] = {d_out, d_max, d_sum, d_q, d_cache, d_bt, d_sl, d_final};
  if (d_sinks)
    uq_status_free(uq_sim_free(g_sim, d_sinks));
  free(sinks);
  for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); ++i)
    uq_status_free(uq_sim_free(g_sim, bufs[i]));
  free(pool);
  free(tables);
  free(cache);
  free(query);
  free(k_out);
  free(r_out);
  free(k_max);
  free(k_sum);
  free(r_max);
  free(r_sum);
  free(k_final);
  free(r_final);
  free(x_final);
  free(lens);
  return fails ? 1 : 0;
}

static uint64_t case_seed(void) {
  static uint64_t offset; // each case its own seed, replayed in order
  return uq_test_seed() + offset++;
}

// ---- the matrix -------------------------------------------------------------

#ifndef UQ_KERNELS_BENCH
static const int lens_short[] = {1, 15, 16, 17};
static const int lens_ragged[] = {0, 255, 256, 257, 33};
static const int lens_one[] = {300};
static const int lens_long[] = {2000, 513};
static const int lens_empty[] = {0, 0};

static int test_qg8_bs16_short(void) {
  case_t c = {8, 16, 272, 2, 0, 0, 0, 4, lens_short, 2, 0, 0, 0, 0, 0};
  return run_case(&c, case_seed());
}
static int test_qg6_bs32_ragged_fused(void) {
  case_t c = {6, 32, 288, 2, 1, 0, 0, 5, lens_ragged, 1, 0, 0, 0, 0, 0};
  return run_case(&c, case_seed());
}
static int test_qg16_bs64_slot288(void) {
  case_t c = {16, 64, 288, 1, 0, 0, 0, 4, lens_short, 0, 0, 0, 0, 0, 0};
  return run_case(&c, case_seed());
}
static int test_qg8_bs128_p2_tgpp2(void) {
  case_t c = {8, 128, 272, 1, 0, 2, 2, 1, lens_one, 1, 0, 0, 0, 0, 0};
  return run_case(&c, case_seed());
}
static int test_qg6_bs256_many_empty_partitions(void) {
  case_t c = {6, 256, 272, 3, 1, 64, 1, 5, lens_ragged, 0, 0, 0, 0, 0, 0};
  return run_case(&c, case_seed());
}
static int test_qg16_bs16_ragged(void) {
  case_t c = {16, 16, 272, 2, 1, 0, 0, 5, lens_ragged, 3, 0, 0, 0, 0, 0};
  return run_case(&c, case_seed());
}
// Query groups other than the seed's 6/8/16: QG is a kernel argument, so
// these run the qg_max 8 / 16 code objects with fewer live rows (1 and 9 the
// edges of each, 2, 4, 5, 7 the common model shapes).
static int test_qg1_bs16_ragged(void) {
  case_t c = {1, 16, 272, 3, 0, 0, 0, 5, lens_ragged, 1, 0, 0, 0, 0, 0};
  return run_case(&c, case_seed());
}
static int test_qg2_bs64_fused(void) {
  case_t c = {2, 64, 288, 2, 1, 0, 0, 4, lens_short, 0, 0, 0, 0, 0, 0};
  return run_case(&c, case_seed());
}
static int test_qg4_bs32_p2_tgpp2(void) {
  case_t c = {4, 32, 272, 2, 0, 2, 2, 1, lens_one, 1, 0, 0, 0, 0, 0};
  return run_case(&c, case_seed());
}
static int test_qg5_bs128(void) {
  case_t c = {5, 128, 276, 1, 1, 0, 0, 5, lens_ragged, 0, 0, 0, 0, 0, 0};
  return run_case(&c, case_seed());
}
static int test_qg7_bs256(void) {
  case_t c = {7, 256, 272, 2, 0, 0, 0, 4, lens_short, 2, 0, 0, 0, 0, 0};
  return run_case(&c, case_seed());
}
static int test_qg9_bs16_fused(void) {
  case_t c = {9, 16, 272, 1, 1, 0, 0, 5, lens_ragged, 0, 0, 0, 0, 0, 0};
  return run_case(&c, case_seed());
}
static int test_qg12_bs32_slot288(void) {
  case_t c = {12, 32, 288, 2, 0, 0, 0, 4, lens_short, 1, 0, 0, 0, 0, 0};
  return run_case(&c, case_seed());
}
// ---- head dims 128 and 64 --------------------------------------------------
// Every QG of the model shapes (1, 2, 4, 5, 6, 7, 8, 16) on the d128 and d64
// qg_max16 code objects (the d256 cases above cover the same QGs), crossed
// with the other axes in rotation so each D sees every block size, padded
// slots (D/2 + D/16 bytes minimum, plus 4 or 8 spare), fused-QKV strides, a
// window with garbage before it, every sink mode and a fixed P/TGPP.
#define D_CASE(name, DIM, QG, BS, SLOT, FUSED, P, TGPP, W, SINKS)              \
  static int test_##name(void) {                                               \
    case_t c = {.qg = QG,                                                      \
                .block_size = BS,                                              \
                .padded_slot = SLOT,                                           \
                .num_kv_heads = 2,                                             \
                .fused_qkv = FUSED,                                            \
                .num_partitions = P,                                           \
                .tgpp = TGPP,                                                  \
                .num_seqs = 5,                                                 \
                .seq_lens = lens_ragged,                                       \
                .extra_table_entries = 1,                                      \
                .sliding_window = W,                                           \
                .sinks = SINKS,                                                \
                .garbage_before_window = W > 0,                                \
                .head_dim = DIM};                                              \
    return run_case(&c, case_seed());                                          \
  }
D_CASE(d128_qg1, 128, 1, 16, 136, 0, 0, 0, 0, SINKS_NONE)
D_CASE(d128_qg2, 128, 2, 32, 140, 1, 0, 0, 0, SINKS_NONE)
D_CASE(d128_qg4, 128, 4, 64, 136, 0, 0, 0, 100, SINKS_RANDOM)
D_CASE(d128_qg5, 128, 5, 128, 144, 0, 2, 2, 0, SINKS_NONE)
D_CASE(d128_qg6, 128, 6, 16, 136, 1, 0, 0, 257, SINKS_SMALL)
D_CASE(d128_qg7, 128, 7, 256, 136, 1, 0, 0, 0, SINKS_LARGE)
D_CASE(d128_qg8, 128, 8, 16, 136, 0, 0, 0, 17, SINKS_NEG_INF)
D_CASE(d128_qg16, 128, 16, 32, 136, 0, 0, 0, 0, SINKS_RANDOM)
D_CASE(d64_qg1, 64, 1, 16, 68, 0, 0, 0, 0, SINKS_NONE)
D_CASE(d64_qg2, 64, 2, 32, 72, 1, 0, 0, 0, SINKS_NONE)
D_CASE(d64_qg4, 64, 4, 64, 68, 0, 2, 1, 0, SINKS_NONE)
D_CASE(d64_qg5, 64, 5, 16, 68, 1, 0, 0, 16, SINKS_LARGE)
D_CASE(d64_qg6, 64, 6, 128, 68, 0, 0, 0, 128, SINKS_RANDOM)
D_CASE(d64_qg7, 64, 7, 32, 72, 0, 0, 0, 0, SINKS_SMALL)
D_CASE(d64_qg8, 64, 8, 16, 68, 1, 0, 0, 128, SINKS_RANDOM)
D_CASE(d64_qg16, 64, 16, 256, 76, 0, 0, 0, 0, SINKS_NONE)
// One partition (P = 1): the decode merges and writes the output itself, no
// reduce: against the same references, with sinks, a window and strides.
D_CASE(d128_qg8_p1, 128, 8, 32, 136, 1, 1, 2, 100, SINKS_RANDOM)
D_CASE(d64_qg5_p1, 64, 5, 16, 68, 0, 1, 2, 0, SINKS_LARGE)
D_CASE(d256_qg16_p1, 256, 16, 16, 272, 1, 1, 2, 0, SINKS_NEG_INF)
D_CASE(d256_qg3_p1, 256, 3, 64, 276, 0, 1, 2, 0, SINKS_NONE)
static int test_all_empty(void) {
  case_t c = {8, 32, 272, 2, 0, 0, 0, 2, lens_empty, 1, 0, 0, 0, 0, 0};
  return run_case(&c, case_seed());
}
static int test_qg8_long_counters(void) {
  case_t c = {8, 64, 272, 2, 0, 0, 0, 2, lens_long, 0, 1, 0, 0, 0, 0};
  return run_case(&c, case_seed());
}

// ---- sliding window and sinks ----------------------------------------------
// Windows shorter than, equal to and just past a tile (1, 15, 16, 17) and a
// tile-group (256, 257), and longer than every sequence; with the policy's
// P/TGPP (sized for min(max_seq, W + 15)) and with fixed small ones whose
// coverage just holds the shifted walk. Garbage (0xFF bytes, out-of-range
// block ids) before the window must not reach the output.
static const int lens_window[] = {1, 15, 16, 17, 255, 256, 257, 300, 600, 1000};

#define WINDOW_CASE(name, QG, BS, P, TGPP, W, SINKS)                           \
  static int test_##name(void) {                                               \
    case_t c = {.qg = QG,                                                      \
                .block_size = BS,                                              \
                .padded_slot = 272,                                            \
                .num_kv_heads = 2,                                             \
                .num_partitions = P,                                           \
                .tgpp = TGPP,                                                  \
                .num_seqs = 10,                                                \
                .seq_lens = lens_window,                                       \
                .extra_table_entries = 1,                                      \
                .sliding_window = W,                                           \
                .sinks = SINKS,                                                \
                .garbage_before_window = 1};                                   \
    return run_case(&c, case_seed());                                          \
  }
WINDOW_CASE(window1_policy, 8, 16, 0, 0, 1, SINKS_NONE)
WINDOW_CASE(window15_p2_tgpp1, 6, 32, 2, 1, 15, SINKS_NONE)
WINDOW_CASE(window16_p4_tgpp1, 16, 64, 4, 1, 16, SINKS_NONE)
WINDOW_CASE(window17_policy, 8, 16, 0, 0, 17, SINKS_NONE)
WINDOW_CASE(window256_p2_tgpp1, 8, 128, 2, 1, 256, SINKS_NONE)
WINDOW_CASE(window257_p64_tgpp1, 6, 256, 64, 1, 257, SINKS_NONE)
WINDOW_CASE(window257_p1_tgpp2, 8, 32, 1, 2, 257, SINKS_NONE)
WINDOW_CASE(window_past_seq_len, 8, 64, 0, 0, 5000, SINKS_NONE)
WINDOW_CASE(sinks_random, 8, 16, 0, 0, 0, SINKS_RANDOM)
WINDOW_CASE(sinks_neg_inf, 6, 32, 0, 0, 0, SINKS_NEG_INF)
WINDOW_CASE(sinks_large, 16, 64, 0, 0, 0, SINKS_LARGE)
WINDOW_CASE(sinks_small, 8, 256, 0, 0, 0, SINKS_SMALL)
WINDOW_CASE(window100_sinks_random, 16, 32, 0, 0, 100, SINKS_RANDOM)
WINDOW_CASE(window300_sinks_large_p2_tgpp2, 6, 16, 2, 2, 300, SINKS_LARGE)

// No tokens at all, but sinks: every head outputs 0 (the reduce's rule).
static int test_all_empty_with_sinks(void) {
  case_t c = {.qg = 8,
              .block_size = 32,
              .padded_slot = 272,
              .num_kv_heads = 2,
              .num_seqs = 2,
              .seq_lens = lens_empty,
              .extra_table_entries = 1,
              .sinks = SINKS_RANDOM};
  return run_case(&c, case_seed());
}

static const uq_test_case_t tests[] = {
    {"window1_policy", test_window1_policy},
    {"window15_p2_tgpp1", test_window15_p2_tgpp1},
    {"window16_p4_tgpp1", test_window16_p4_tgpp1},
    {"window17_policy", test_window17_policy},
    {"window256_p2_tgpp1", test_window256_p2_tgpp1},
    {"window257_p64_tgpp1", test_window257_p64_tgpp1},
    {"window257_p1_tgpp2", test_window257_p1_tgpp2},
    {"window_past_seq_len", test_window_past_seq_len},
    {"sinks_random", test_sinks_random},
    {"sinks_neg_inf", test_sinks_neg_inf},
    {"sinks_large", test_sinks_large},
    {"sinks_small", test_sinks_small},
    {"window100_sinks_random", test_window100_sinks_random},
    {"window300_sinks_large_p2_tgpp2", test_window300_sinks_large_p2_tgpp2},
    {"all_empty_with_sinks", test_all_empty_with_sinks},
    {"qg8_bs16_short", test_qg8_bs16_short},
    {"qg6_bs32_ragged_fused", test_qg6_bs32_ragged_fused},
    {"qg16_bs64_slot288", test_qg16_bs64_slot288},
    {"qg8_bs128_p2_tgpp2", test_qg8_bs128_p2_tgpp2},
    {"qg6_bs256_many_empty_partitions", test_qg6_bs256_many_empty_partitions},
    {"qg16_bs16_ragged", test_qg16_bs16_ragged},
    {"d128_qg1", test_d128_qg1},
    {"d128_qg2", test_d128_qg2},
    {"d128_qg4", test_d128_qg4},
    {"d128_qg5", test_d128_qg5},
    {"d128_qg6", test_d128_qg6},
    {"d128_qg7", test_d128_qg7},
    {"d128_qg8", test_d128_qg8},
    {"d128_qg16", test_d128_qg16},
    {"d64_qg1", test_d64_qg1},
    {"d64_qg2", test_d64_qg2},
    {"d64_qg4", test_d64_qg4},
    {"d64_qg5", test_d64_qg5},
    {"d64_qg6", test_d64_qg6},
    {"d64_qg7", test_d64_qg7},
    {"d64_qg8", test_d64_qg8},
    {"d64_qg16", test_d64_qg16},
    {"d128_qg8_p1", test_d128_qg8_p1},
    {"d64_qg5_p1", test_d64_qg5_p1},
    {"d256_qg16_p1", test_d256_qg16_p1},
    {"d256_qg3_p1", test_d256_qg3_p1},
    {"qg1_bs16_ragged", test_qg1_bs16_ragged},
    {"qg2_bs64_fused", test_qg2_bs64_fused},
    {"qg4_bs32_p2_tgpp2", test_qg4_bs32_p2_tgpp2},
    {"qg5_bs128", test_qg5_bs128},
    {"qg7_bs256", test_qg7_bs256},
    {"qg9_bs16_fused", test_qg9_bs16_fused},
    {"qg12_bs32_slot288", test_qg12_bs32_slot288},
    {"all_empty", test_all_empty},
    {"qg8_long_counters", test_qg8_long_counters},
    {0, 0},
};

int main(int argc, char **argv) {
  int rc = uq_test_main(argc, argv, tests);
#else
// uq_kernels_sim_bench: the decode kernel's traffic and instruction mix per
// variant from the simulator's counters (outputs still checked against the
// reference). Usage: UQ_KERNEL_DIR=DIR uq_kernels_sim_bench [SEQ_LEN]
int main(int argc, char **argv) {
  static int lens[2];
  lens[0] = argc > 1 ? atoi(argv[1]) : 8192;
  lens[1] = lens[0];
  int rc = 0;
  const int qgs[3] = {6, 8, 16};
  for (int i = 0; i < 3 && !rc; ++i) {
    printf("QG %d, 2 sequences of %d tokens, 2 kv heads, block size 64:\n",
           qgs[i], lens[0]);
    case_t c = {qgs[i], 64, 272, 2, 0, 0, 0, 2, lens, 0, 1, 0, 0, 0, 0};
    rc = run_case(&c, case_seed());
    if (rc == UQ_TEST_SKIP)
      break;
  }
#endif
  for (int i = 0; i < 4; ++i)
    uq_sim_program_destroy(g_decode[i]);
  for (int i = 0; i < 3; ++i)
    uq_sim_program_destroy(g_reduces[i]);
  uq_sim_destroy(g_sim);
  return rc;
}
