// uq-bench-cuda: decode on an NVIDIA Hopper GPU through libuqrt's CUDA
// backend, as a server runs it: for each issue-9 shape a plan, its runs
// captured into a CUDA graph on one stream, timed over the replays with
// CUDA events. Prints us per decode step (decode + reduce), KV GB/s
// ((D + D/16) B x tokens x Hk x B / time), the same run's device-to-device copy
// bandwidth and the ratio, and the peers' figures. Correctness is checked
// by the CUDA tests (scripts/cuda-test.sh), not here.
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/common/cuda_driver.h"
#include "tools/common/stdout_check.h"
#include "uq/format.h"
#include "uq/uqrt.h"

// The driver for what libuqrt does not do (events, graphs, the copy
// kernel), and a libuqrt context on the same device's primary context.
typedef struct bench_s {
  uq_cuda_t cuda;
  CUstream stream;
  uq_context_t *context;
} bench_t;

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

// A libuqrt call that fails ends the tool with its message.
#define UQ(call)                                                               \
  do {                                                                         \
    uq_status_t uq_s_ = (call);                                                \
    if (uq_s_)                                                                 \
      die("%s: %s", #call, uq_status_message(uq_s_));                          \
  } while (0)

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

static void bench_open(bench_t *k) {
  char why[256];
  if (uq_cuda_load(&k->cuda, why, sizeof(why)))
    skip("%s", why);
  CUresult init = k->cuda.Init(0);
  if (init != 0)
    skip("cuInit: %s", uq_cuda_error_name(&k->cuda, init));
  uq_context_options_t options;
  uq_context_options_initialize(&options);
  options.backend = UQ_BACKEND_CUDA;
  uq_status_t status = uq_context_create(&options, &k->context);
  if (status)
    skip("%s", uq_status_message(status));
  const char *text = NULL;
  UQ(uq_context_describe(k->context, &text));
  printf("%s\n", text);
  CUdevice device;
  CUcontext primary;
  CU(k, DeviceGet(&device, 0));
  CU(k, DevicePrimaryCtxRetain(&primary, device));
  CU(k, CtxSetCurrent(primary));
  CU(k, StreamCreate(&k->stream, UQ_CU_STREAM_NON_BLOCKING));
}

static uint64_t splitmix(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Random codes with realistic scale bytes (2^-9 .. 2^6): timing on
// random data, not on zeros. Correctness is the CUDA tests' job
// (scripts/cuda-test.sh).
static void fill_random_cache(uint8_t *cache, size_t slots, int d,
                              uint64_t seed) {
  uint64_t state = seed;
  const int slot_bytes = d + d / 16, groups = d / 32;
  for (size_t i = 0; i < slots; ++i) {
    uint8_t *slot = cache + i * slot_bytes;
    for (int b = 0; b < slot_bytes; b += 4) { // slot_bytes % 4 == 0
      uint32_t r = (uint32_t)splitmix(&state);
      memcpy(slot + b, &r, 4);
    }
    for (int g = 0; g < groups; ++g) { // K scales, then V scales
      uint8_t *k = slot + d / 2 + g, *v = slot + slot_bytes - groups + g;
      *k = (uint8_t)(118 + *k % 16);
      *v = (uint8_t)(118 + *v % 16);
    }
  }
}

static double time_graph(bench_t *k, CUgraphExec exec, int replays) {
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

static double copy_bandwidth(bench_t *k) {
  size_t bytes = (size_t)1 << 30;
  CUdeviceptr a = 0, b = 0;
  CU(k, MemAlloc(&a, bytes));
  CU(k, MemAlloc(&b, bytes));
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

static uq_device_ptr_t put(bench_t *k, const void *data, size_t size) {
  uq_device_ptr_t p = 0;
  UQ(uq_context_alloc(k->context, size, &p));
  if (data)
    UQ(uq_context_upload(k->context, p, data, size));
  return p;
}

// The issue-9 shapes and the peers' figures there (D = 256).
static const bench_shape_t shapes[] = {
    {1, 16384, 2, 8, 316, 28.7},   {4, 16384, 2, 8, 319, 62.6},
    {16, 16384, 2, 8, 727, 176},   {4, 65536, 2, 8, 1345, 178},
    {16, 65536, 1, 16, 1706, 329}, {64, 4096, 2, 8, 546, 163},
    {16, 131072, 1, 8, 3248, 628}, {4, 75000, 1, 6, 1544, 115},
};

// Varlen verify steps (issue 27): B sequences of N tokens whose last L are
// this step's queries (--query-len; no peers' figures here).
static const bench_shape_t varlen_shapes[] = {
    {16, 65536, 1, 8, 0, 0},
    {16, 65536, 1, 16, 0, 0},
    {16, 131072, 1, 8, 0, 0},
    {16, 131072, 1, 16, 0, 0},
};

// The shapes at head dim `d` (or only `custom`, when its batch is
// set); the peers' figures (D = 256) are compared only at D = 256 on the
// issue's shapes. With `query_len` L > 0 each step is a varlen run of L
// query tokens a sequence (uq_plan_run_varlen), the KV counted once, and
// for L > 1 the causal attention's TFLOP/s.
static void run_bench(bench_t *k, int replays, int only, int d,
                      const bench_shape_t *custom, int query_len,
                      uq_dtype_t dtype) {
  const uint32_t slot_bytes = (uint32_t)(d + d / 16);
  const bench_shape_t *list = custom->batch ? custom
                              : query_len   ? varlen_shapes
                                            : shapes;
  const size_t count = custom->batch ? 1
                       : query_len
                           ? sizeof(varlen_shapes) / sizeof(varlen_shapes[0])
                           : sizeof(shapes) / sizeof(shapes[0]);
  double copy = copy_bandwidth(k);
  printf("device-to-device copy: %.0f GB/s (read + write, 1 GiB, 16-byte "
         "copy kernel)\n",
         copy);
  if (query_len)
    printf("varlen: %d query tokens a sequence (the last of its N), causal\n",
           query_len);
  printf("activations: %s\n", dtype == UQ_DTYPE_F16 ? "fp16" : "bf16");
  printf("%3s %7s %2s %2s %-22s %5s %5s %9s %8s %6s %8s %8s\n", "B", "N", "Hk",
         "QG", "variant", "P", "walk", "us/step", "KV GB/s", "%copy",
         query_len ? "TFLOP/s" : "x triton", query_len ? "" : "x sdpa");
  for (size_t i = 0; i < count; ++i) {
    if (only >= 0 && (size_t)only != i)
      continue;
    const bench_shape_t *sh = &list[i];
    uint32_t bs = 16, mbps = ((uint32_t)sh->tokens + bs - 1) / bs;
    size_t slots = (size_t)sh->batch * mbps * bs * sh->hk;
    size_t cache_bytes = slots * slot_bytes;
    // (B, N, HK at most 65535, 2^24, 64: slots * slot_bytes fits 64 bits)
    if ((uint64_t)sh->batch * mbps > UINT32_MAX ||
        cache_bytes > ((size_t)1 << 36))
      die("shape %d,%d,%d,%d: a %zu-byte cache is more than this benchmark "
          "allocates (64 GiB)",
          sh->batch, sh->tokens, sh->hk, sh->qg, cache_bytes);
    // Enough cache copies that one replay streams >= 512 MiB: the L2
    // (60 MB) never holds the next step's cache.
    int copies = (int)(((size_t)512 << 20) / cache_bytes) + 1;
    if (copies > 16)
      copies = 16;
    const uint32_t q_tokens = (uint32_t)sh->batch * (query_len ? query_len : 1);
    if (query_len > sh->tokens)
      die("--query-len %d is longer than the sequences (%d tokens)", query_len,
          sh->tokens);
    size_t q_elems = (size_t)q_tokens * sh->hk * sh->qg * d;
    uint8_t *host = malloc(cache_bytes);
    int32_t *tables = malloc((size_t)sh->batch * mbps * sizeof(int32_t));
    int32_t *lens = malloc((size_t)sh->batch * sizeof(int32_t));
    uint16_t *query = malloc(q_elems * 2);
    if (!host || !tables || !lens || !query)
      die("out of memory");
    fill_random_cache(host, slots, d, 1234 + i);
    for (int32_t b = 0; b < sh->batch; ++b) {
      lens[b] = sh->tokens;
      for (uint32_t j = 0; j < mbps; ++j)
        tables[(size_t)b * mbps + j] = (int32_t)(b * mbps + j);
    }
    // The same values in either dtype: bf16 bit patterns of magnitudes in
    // [2^-7, 2^-5), converted (exactly) where the run is fp16. The scores'
    // spread sets how often the lazy maximum moves, so fp16 against bf16
    // compares only on the same values.
    uint64_t state = 99 + i;
    for (size_t e = 0; e < q_elems; ++e) {
      uint16_t bits = (uint16_t)(0x3C00 + (splitmix(&state) & 0x1FF)) ^
                      (uint16_t)((splitmix(&state) & 1) << 15);
      query[e] = dtype == UQ_DTYPE_F16 ? uq_float_to_f16(uq_bf16_to_float(bits))
                                       : bits;
    }
    uq_decode_config_t config = {
        .num_kv_heads = (uint32_t)sh->hk,
        .query_group = (uint32_t)sh->qg,
        .head_dim = (uint32_t)d,
        .block_size = bs,
        .padded_slot = slot_bytes,
        .max_blocks_per_seq = mbps,
        .num_blocks = (uint32_t)sh->batch * mbps,
        .max_batch = (uint32_t)sh->batch,
        .query_dtype = dtype,
        .output_dtype = dtype,
        .max_query_len = (uint32_t)query_len,
        .max_num_tokens = q_tokens,
    };
    uq_plan_t *plan = NULL;
    UQ(uq_plan_create(k->context, &config, &plan));
    uq_plan_info_t info;
    uq_launch_walk_t walk;
    UQ(uq_plan_query_info(plan, &info));
    if (query_len) {
      uq_varlen_shape_t vs;
      UQ(uq_plan_varlen_shape(plan, (uint32_t)sh->batch, q_tokens,
                              (uint32_t)query_len, &vs));
      walk = vs.walk;
      snprintf(info.variant, sizeof(info.variant), "%s", vs.variant);
    } else {
      UQ(uq_plan_launch_walk(plan, (uint32_t)sh->batch, &walk));
    }
    int32_t *qsl = malloc(((size_t)sh->batch + 1) * sizeof(int32_t));
    if (!qsl)
      die("out of memory");
    for (int32_t b = 0; b <= sh->batch; ++b)
      qsl[b] = b * query_len;
    // a partition's walk: its groups and their unit (uq_launch_walk_unit)
    char walked[16];
    snprintf(walked, sizeof(walked), "%d%s", walk.groups_per_partition,
             uq_launch_walk_unit(&walk));
    uq_device_ptr_t caches[16];
    for (int c = 0; c < copies; ++c)
      caches[c] = put(k, host, cache_bytes);
    uq_device_ptr_t q = put(k, query, q_elems * 2);
    uq_device_ptr_t t = put(k, tables, (size_t)sh->batch * mbps * 4);
    uq_device_ptr_t l = put(k, lens, (size_t)sh->batch * 4);
    uq_device_ptr_t o = put(k, NULL, q_elems * 2);
    uq_device_ptr_t qs = put(k, qsl, ((size_t)sh->batch + 1) * 4);
    // The runs as a server captures them: global capture mode, so any
    // allocation or synchronization inside uq_plan_run would fail here.
    CUgraph graph;
    CUgraphExec exec;
    CU(k, StreamBeginCapture(k->stream, UQ_CU_STREAM_CAPTURE_MODE_GLOBAL));
    for (int c = 0; c < copies; ++c) {
      if (query_len)
        UQ(uq_plan_run_varlen(plan, (uint32_t)sh->batch, q_tokens,
                              (uint32_t)query_len, q, caches[c], t, l, qs, 0, o,
                              (uq_stream_t *)k->stream));
      else
        UQ(uq_plan_run(plan, (uint32_t)sh->batch, q, caches[c], t, l, o,
                       (uq_stream_t *)k->stream));
    }
    CU(k, StreamEndCapture(k->stream, &graph));
    CU(k, GraphInstantiateWithFlags(&exec, graph, 0));
    int reps = replays / copies + 1;
    double us = time_graph(k, exec, reps) / copies;
    double gbs =
        (double)sh->batch * sh->tokens * sh->hk * slot_bytes / (us * 1e3);
    printf("%3d %7d %2d %2d %-22s %5d %5s %9.1f %8.0f %5.1f%%", sh->batch,
           sh->tokens, sh->hk, sh->qg, info.variant, walk.num_partitions,
           walked, us, gbs, 100.0 * gbs / copy);
    if (query_len) {
      // causal FLOPs: token i of a sequence attends N - L + i + 1
      // positions, 2 x 2 D FLOPs each (QK and PV), for every query head
      double attended = (double)query_len * (sh->tokens - query_len) +
                        (double)query_len * (query_len + 1) / 2;
      double flops = 4.0 * d * attended * sh->batch * (double)sh->hk * sh->qg;
      printf(" %8.1f\n", flops / (us * 1e-6) / 1e12);
    } else if (d == 256 && sh->triton_us > 0)
      printf(" %8.1f %8.2f\n", sh->triton_us / us, sh->sdpa_us / us);
    else
      printf(" %8s %8s\n", "-", "-");
    CU(k, GraphExecDestroy(exec));
    CU(k, GraphDestroy(graph));
    uq_device_ptr_t all[] = {q, t, l, o, qs};
    for (size_t a = 0; a < sizeof(all) / sizeof(all[0]); ++a)
      UQ(uq_context_free(k->context, all[a]));
    for (int c = 0; c < copies; ++c)
      UQ(uq_context_free(k->context, caches[c]));
    uq_plan_destroy(plan);
    free(host);
    free(tables);
    free(lens);
    free(query);
    free(qsl);
  }
}

static void usage(FILE *out) {
  fputs(
      "usage: uq-bench-cuda [--replays=N] [--case=N] [--head-dim=D]\n"
      "\n"
      "Decode through libuqrt's CUDA backend (the sm_90a cubins embedded in\n"
      "libuqrt) on CUDA device 0, for the issue-9 shapes: us per decode step\n"
      "(CUDA graph replays), KV GB/s, the same run's copy bandwidth.\n"
      "\n"
      "  --replays=N      decode steps timed per shape (default 200)\n"
      "  --case=N         only shape N (0-based)\n"
      "  --head-dim=D     the shapes at head dim D (default 256; the peers'\n"
      "                   figures are for 256 and shown only there)\n"
      "  --shape=B,N,HK,QG  only this shape (batch, tokens per sequence, kv\n"
      "                   heads, query group) instead of the issue's\n"
      "  --query-len=L    varlen steps: the last L tokens of each sequence\n"
      "                   are queries (uq_plan_run_varlen; without --shape "
      "the\n"
      "                   issue-27 verify shapes), KV counted once, TFLOP/s\n"
      "  --dtype=T        the query's and output's dtype: bf16 (default) or\n"
      "                   f16\n"
      "  --help           this text\n",
      out);
}

// The integer value of flag `name`'s text, or the tool ends with why.
static int flag_int(const char *name, const char *text, int lo, int hi) {
  char *end = NULL;
  long v = strtol(text, &end, 10);
  if (!*text || *end || v < lo || v > hi)
    die("%s must be an integer in %d..%d, got '%s'", name, lo, hi, text);
  return (int)v;
}

// --shape's B,N,HK,QG: four integers in the ranges a plan takes (the plan
// refuses what its kernels cannot run, with its reason).
static void parse_shape(const char *text, bench_shape_t *shape) {
  long v[4];
  const long hi[4] = {65535, 1L << 24, 64, 16};
  const char *p = text;
  for (int i = 0; i < 4; ++i) {
    char *end = NULL;
    v[i] = strtol(p, &end, 10);
    if (end == p || v[i] < 1 || v[i] > hi[i] || *end != (i < 3 ? ',' : '\0'))
      die("--shape must be B,N,HK,QG (positive integers, B <= 65535, N <= "
          "2^24, HK <= 64, QG <= 16), got '%s'",
          text);
    p = end + 1;
  }
  shape->batch = (int32_t)v[0];
  shape->tokens = (int32_t)v[1];
  shape->hk = (int32_t)v[2];
  shape->qg = (int32_t)v[3];
}

int main(int argc, char **argv) {
  uq_tool_check_stdout_at_exit("uq-bench-cuda");
  int replays = 200, only = -1, head_dim = 256, query_len = 0;
  uq_dtype_t dtype = UQ_DTYPE_BF16;
  bench_shape_t custom = {0};
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (strncmp(a, "--case=", 7) == 0) {
      only = flag_int("--case", a + 7, 0,
                      (int)(sizeof(shapes) / sizeof(shapes[0])) - 1);
    } else if (strncmp(a, "--head-dim=", 11) == 0) {
      head_dim = flag_int("--head-dim", a + 11, 32, 512);
      if (!uq_head_dim_supported(head_dim))
        die("--head-dim must be " UQ_HEAD_DIMS_TEXT ", got '%s'", a + 11);
    } else if (strncmp(a, "--shape=", 8) == 0) {
      parse_shape(a + 8, &custom);
    } else if (strncmp(a, "--query-len=", 12) == 0) {
      query_len = flag_int("--query-len", a + 12, 1, 65536);
    } else if (strncmp(a, "--dtype=", 8) == 0) {
      if (strcmp(a + 8, "bf16") == 0)
        dtype = UQ_DTYPE_BF16;
      else if (strcmp(a + 8, "f16") == 0)
        dtype = UQ_DTYPE_F16;
      else
        die("--dtype must be bf16 or f16, got '%s'", a + 8);
    } else if (strncmp(a, "--replays=", 10) == 0) {
      replays = flag_int("--replays", a + 10, 1, 1000000);
    } else {
      die("unknown argument '%s' (see --help)", a);
    }
  }
  if (custom.batch && only >= 0)
    die("--case and --shape exclude each other");
  bench_t k;
  memset(&k, 0, sizeof(k));
  bench_open(&k);
  run_bench(&k, replays, only, head_dim, &custom, query_len, dtype);
  uq_context_destroy(k.context);
  return 0;
}
